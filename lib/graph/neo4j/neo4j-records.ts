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
import { eventTime, isLiveStatus, tokenize, type Belief, type Evidence, type FoldCheckpoint, type HistoryItem, type MutationRecord, type TopicFreeze } from "@/lib/engine";

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

/**
 * How many terms `searchTermsOf(text)` holds, stored beside it (`termCount`) so the top-k statement scores a match
 * without reading its terms (a string read costs several times a number's).
 */
export function termCountOf(text: string): number {
  return new Set(tokenize(text)).size;
}

/** The model fields of a belief, picked by name in a fixed order (nothing else a caller's object may carry). */
function beliefModel(b: Belief): Belief {
  return {
    id: b.id,
    scope: b.scope,
    topic: b.topic,
    text: b.text,
    key: b.key,
    quantity: b.quantity === null ? null : { value: b.quantity.value, unit: b.quantity.unit },
    contextTags: [...b.contextTags],
    validFrom: b.validFrom,
    supersedesId: b.supersedesId,
    version: b.version,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
    credence: b.credence,
    valence: b.valence,
    confidence: b.confidence,
    uncertainty: b.uncertainty,
    supportCount: b.supportCount,
    contradictCount: b.contradictCount,
    evidenceCount: b.evidenceCount,
    supportWeight: b.supportWeight,
    rebuttalWeight: b.rebuttalWeight,
    tension: b.tension,
    status: b.status,
    reviewState: b.reviewState,
    validUntil: b.validUntil,
    paramsVersion: b.paramsVersion,
  };
}

/**
 * A belief's node properties. The model fields are stored twice, from the same object in the same SET: flat (what
 * indexes, filters and Neo4j Browser use) and as the `model` JSON string (what every read returns).
 */
export function beliefToProps(namespace: string, belief: Belief, history: readonly HistoryItem[], checkpoint: FoldCheckpoint | null = null): Record<string, unknown> {
  const live = isLiveStatus(belief.status);
  return {
    model: JSON.stringify(beliefModel(belief)),
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
    // The fold state after `history` (lib/engine/replay.ts), JSON; null (no property) when the write carried none.
    checkpoint: checkpoint === null ? null : JSON.stringify(checkpoint),
    searchTerms: searchTermsOf(belief.text),
    termCount: neo4j.int(termCountOf(belief.text)),
    ftScope: ftScopeToken(namespace, belief.scope),
  };
}

/** The belief of a node read with `{.model, …}` (the JSON written by `beliefToProps`). */
export function beliefFromProps(props: Record<string, unknown>): Belief {
  if (typeof props.model !== "string") throw new TypeError(`belief ${String(props.id)} has no model JSON`);
  return beliefSchema.parse(JSON.parse(props.model)) as Belief;
}

/** The stored history (JSON strings in seq order), optionally cut at `asOf` (items whose event time is ≤ asOf). */
export function historyFromProp(value: unknown, asOf?: string): HistoryItem[] {
  const list = Array.isArray(value) ? value : [];
  const items = list.map((s) => historyItemSchema.parse(JSON.parse(String(s))) as HistoryItem);
  return asOf === undefined ? items : items.filter((item) => Date.parse(eventTime(item)) <= Date.parse(asOf));
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
    observedAt: e.observedAt ?? null,
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
    ...(typeof props.observedAt === "string" ? { observedAt: props.observedAt } : {}),
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
