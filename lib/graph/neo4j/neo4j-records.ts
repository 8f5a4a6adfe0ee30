/**
 * The one place where Neo4j values become model values and back. Nodes store the model's fields as flat properties
 * (readable in Neo4j Browser); a belief's history is a list of JSON strings, one per item in seq order, parsed with the
 * port's zod schema on the way out so a replay sees exactly what was written. Neo4j Integers (counts, seq, version)
 * are converted to JS numbers here; absent properties are the model's nulls.
 */
import neo4j from "neo4j-driver";
import {
  beliefSchema,
  evidenceSchema,
  historyItemSchema,
  mutationRecordSchema,
  topicFreezeSchema,
} from "@/lib/graph/graph-store";
import { isLiveStatus, tokenize, type Belief, type Evidence, type HistoryItem, type MutationRecord, type TopicFreeze } from "@/lib/engine";

/** Plain JS value of a Neo4j result value: Integers become numbers, lists and maps are converted deeply. */
export function toPlain(value: unknown): unknown {
  if (neo4j.isInt(value)) return value.toNumber();
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === "object" && value.constructor === Object) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toPlain(v);
    return out;
  }
  return value;
}

function numberOf(value: unknown): number {
  const v = toPlain(value);
  if (typeof v !== "number") throw new TypeError(`expected a number, got ${typeof v}`);
  return v;
}

/** `props[k]`, or null when Neo4j has no such property. */
function nullable(props: Record<string, unknown>, k: string): unknown {
  const v = props[k];
  return v === undefined ? null : toPlain(v);
}

/**
 * The full-text anchor of a scope: one whitespace-free token (hex of namespace and scope) so a full-text query can
 * require it (`+ftScope:<token>`) before any term matches are scored.
 */
export function ftScopeToken(namespace: string, scope: string): string {
  return "s" + Buffer.from(`${namespace}\u0000${scope}`, "utf8").toString("hex");
}

/** The engine's content terms of a belief's text, space-separated: what the full-text index matches on. */
export function searchTermsOf(text: string): string {
  return [...new Set(tokenize(text))].join(" ");
}

export function beliefToProps(namespace: string, belief: Belief, history: readonly HistoryItem[]): Record<string, unknown> {
  const live = isLiveStatus(belief.status);
  return {
    ns: namespace,
    id: belief.id,
    scope: belief.scope,
    topic: belief.topic,
    text: belief.text,
    key: belief.key,
    liveKey: live ? belief.key : null,
    live,
    quantityValue: belief.quantity?.value ?? null,
    quantityUnit: belief.quantity?.unit ?? null,
    contextTags: [...belief.contextTags],
    validFrom: belief.validFrom,
    supersedesId: belief.supersedesId,
    version: neo4j.int(belief.version),
    createdAt: belief.createdAt,
    updatedAt: belief.updatedAt,
    credence: belief.credence,
    valence: belief.valence,
    confidence: belief.confidence,
    uncertainty: belief.uncertainty,
    supportCount: neo4j.int(belief.supportCount),
    contradictCount: neo4j.int(belief.contradictCount),
    evidenceCount: neo4j.int(belief.evidenceCount),
    supportWeight: belief.supportWeight,
    rebuttalWeight: belief.rebuttalWeight,
    tension: belief.tension,
    status: belief.status,
    reviewState: belief.reviewState,
    validUntil: belief.validUntil,
    paramsVersion: belief.paramsVersion,
    historyLength: neo4j.int(history.length),
    history: history.map((item) => JSON.stringify(item)),
    searchTerms: searchTermsOf(belief.text),
    ftScope: ftScopeToken(namespace, belief.scope),
  };
}

export function beliefFromProps(props: Record<string, unknown>): Belief {
  const quantityValue = nullable(props, "quantityValue");
  const quantityUnit = nullable(props, "quantityUnit");
  return beliefSchema.parse({
    id: props.id,
    scope: props.scope,
    topic: props.topic,
    text: props.text,
    key: props.key,
    quantity: typeof quantityValue === "number" && typeof quantityUnit === "string" ? { value: quantityValue, unit: quantityUnit } : null,
    contextTags: nullable(props, "contextTags") ?? [],
    validFrom: props.validFrom,
    supersedesId: nullable(props, "supersedesId"),
    version: numberOf(props.version),
    createdAt: props.createdAt,
    updatedAt: props.updatedAt,
    credence: numberOf(props.credence),
    valence: numberOf(props.valence),
    confidence: numberOf(props.confidence),
    uncertainty: numberOf(props.uncertainty),
    supportCount: numberOf(props.supportCount),
    contradictCount: numberOf(props.contradictCount),
    evidenceCount: numberOf(props.evidenceCount),
    supportWeight: numberOf(props.supportWeight),
    rebuttalWeight: numberOf(props.rebuttalWeight),
    tension: numberOf(props.tension),
    status: props.status,
    reviewState: props.reviewState,
    validUntil: nullable(props, "validUntil"),
    paramsVersion: props.paramsVersion,
  }) as Belief;
}

/** The stored history (JSON strings in seq order), optionally cut at `asOf` (items with time ≤ asOf). */
export function historyFromProp(value: unknown, asOf?: string): HistoryItem[] {
  const list = Array.isArray(value) ? value : [];
  const items = list.map((s) => historyItemSchema.parse(JSON.parse(String(s))) as HistoryItem);
  return asOf === undefined ? items : items.filter((item) => item.time <= asOf);
}

export function evidenceToProps(namespace: string, e: Evidence): Record<string, unknown> {
  return {
    ns: namespace,
    id: e.id,
    scope: e.scope,
    kind: e.kind,
    text: e.text,
    uri: e.uri,
    registeredBy: e.registeredBy,
    ess: e.ess,
    reasoningType: e.reasoningType,
    discarded: e.discarded,
    createdAt: e.createdAt,
    retractedAt: e.retractedAt,
    // Indexed lookup key of placeholders: (ns, scope, placeholderFor) finds the one for a raw id whatever its id.
    placeholderFor: e.kind === "unresolved" ? e.text : null,
  };
}

export function evidenceFromProps(props: Record<string, unknown>): Evidence {
  return evidenceSchema.parse({
    id: props.id,
    scope: props.scope,
    kind: props.kind,
    text: props.text,
    uri: nullable(props, "uri"),
    registeredBy: props.registeredBy,
    ess: nullable(props, "ess"),
    reasoningType: nullable(props, "reasoningType"),
    discarded: props.discarded ?? false,
    createdAt: props.createdAt,
    retractedAt: nullable(props, "retractedAt"),
  }) as Evidence;
}

/** Queryable fields flat, the exact record as JSON (nested conflict report and review). */
export function mutationToProps(namespace: string, m: MutationRecord): Record<string, unknown> {
  return {
    ns: namespace,
    id: m.id,
    scope: m.scope,
    topic: m.topic,
    belief: m.belief,
    status: m.status,
    decision: m.decision,
    mutationType: m.mutationType,
    beliefIds: [...m.beliefIds],
    actor: m.actor,
    time: m.time,
    changeSet: m.changeSet,
    record: JSON.stringify(m),
  };
}

export function mutationFromProps(props: Record<string, unknown>): MutationRecord {
  return mutationRecordSchema.parse(JSON.parse(String(props.record))) as MutationRecord;
}

export function topicFreezeFromProps(props: Record<string, unknown>): TopicFreeze {
  return topicFreezeSchema.parse({
    scope: props.scope,
    topic: props.topic,
    frozen: props.frozen,
    reason: props.reason,
    byMutationId: nullable(props, "byMutationId"),
  }) as TopicFreeze;
}
