/**
 * Builders for engine tests: complete values with sensible defaults, overridden per test. Unique ids come from a
 * counter per builder call so fixtures never collide inside one test file.
 */
import type { Belief, BeliefRecord, Evidence, EvidenceEntry, HistoryItem, MutationRecord } from "../model";
import { makeEntry } from "../history-builder";
import { defaultParams, defaultParamsVersion, type EngineParams } from "../params";
import { derivedFields, replay, withEntryOutputs } from "../replay";
import { beliefKey, topicSlug } from "../topic";

let counter = 0;
export const nextId = (prefix: string): string => `${prefix}_${(++counter).toString(36)}`;

export const T0 = "2026-03-02T09:00:00.000Z";

/** `T0` plus `minutes`, as an ISO string. */
export function at(minutes: number, base: string = T0): string {
  return new Date(Date.parse(base) + minutes * 60_000).toISOString();
}

export function makeBelief(text: string, over: Partial<Belief> = {}): Belief {
  return {
    id: nextId("b"),
    scope: "scope_a",
    topic: topicSlug(text),
    text,
    key: beliefKey(text),
    quantity: null,
    contextTags: [],
    validFrom: T0,
    supersedesId: null,
    version: 1,
    createdAt: T0,
    updatedAt: T0,
    credence: 0.5,
    valence: 0,
    confidence: 0,
    uncertainty: 1,
    supportCount: 0,
    contradictCount: 0,
    evidenceCount: 0,
    supportWeight: 0,
    rebuttalWeight: 0,
    tension: 0,
    status: "provisional",
    reviewState: "none",
    validUntil: null,
    paramsVersion: defaultParamsVersion,
    ...over,
  };
}

/** An entry citing `ev_<seq>` at `T0` by `agent_1`: the public `makeEntry` with this file's defaults. */
export function entryAt(seq: number, over: Partial<Omit<EvidenceEntry, "type" | "seq">> = {}): EvidenceEntry {
  return makeEntry({ seq, time: T0, actor: "agent_1", changeSet: `cs_${seq}`, sourceId: `ev_${seq}`, ...over });
}

export function makeEvidence(text: string, over: Partial<Evidence> = {}): Evidence {
  return {
    id: nextId("ev"),
    scope: "scope_a",
    kind: "observation",
    text,
    uri: null,
    registeredBy: "agent_1",
    ess: null,
    reasoningType: null,
    discarded: false,
    createdAt: T0,
    retractedAt: null,
    ...over,
  };
}

export function makeMutationRecord(over: Partial<MutationRecord> = {}): MutationRecord {
  return {
    id: nextId("m"),
    scope: "scope_a",
    topic: "deploy-branch",
    belief: "We deploy from main.",
    strength: 0.5,
    grantedCredence: null,
    reason: "see ev_1",
    evidenceIds: ["ev_1"],
    sourceEvent: "ev_1",
    mutationType: "new",
    decision: "new",
    status: "applied",
    warnings: [],
    flags: [],
    conflictReport: null,
    beliefIds: [],
    review: null,
    actor: "agent_1",
    time: T0,
    changeSet: nextId("cs"),
    ...over,
  };
}

/** A belief record as a store holds it: derived fields and entry outputs equal the replay of `history`. */
export function storedRecord(id: string, text: string, history: readonly HistoryItem[], over: Partial<Belief> = {}, params: EngineParams = defaultParams): BeliefRecord {
  const state = replay(history, params);
  return { belief: makeBelief(text, { id, ...over, ...derivedFields(state) }), history: withEntryOutputs(history, state) };
}
