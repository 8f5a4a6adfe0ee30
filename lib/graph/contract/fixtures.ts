/**
 * Builders for the GraphStore contract suite: complete engine values with unique ids (a random run prefix plus a
 * counter), so suites can share one database and tests never see each other's items (each test uses its own scopes).
 */
import { randomBytes } from "node:crypto";
import {
  beliefKey,
  defaultParamsVersion,
  emptyChangeSet,
  sigmoid,
  type Belief,
  type BeliefRecord,
  type ChangeSet,
  type Evidence,
  type EvidenceEntry,
  type History,
  type MutationRecord,
} from "@/lib/engine";

const run = randomBytes(3).toString("hex");
let counter = 0;

/** A fresh id, unique across runs: `<prefix>_<run>_<n>`. */
export function uid(prefix: string): string {
  return `${prefix}_${run}_${(++counter).toString(36)}`;
}

export const T0 = "2026-03-02T09:00:00.000Z";

/** T0 plus `minutes`, as an ISO string. */
export function at(minutes: number): string {
  return new Date(Date.parse(T0) + minutes * 60_000).toISOString();
}

export function makeBelief(scope: string, text: string, over: Partial<Belief> = {}): Belief {
  return {
    id: uid("b"),
    scope,
    topic: "general",
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

export function makeEntry(seq: number, over: Partial<EvidenceEntry> = {}): EvidenceEntry {
  return {
    type: "entry",
    seq,
    time: T0,
    actor: "agent_1",
    changeSet: "cs",
    sourceId: null,
    sourceKind: null,
    relation: "SUPPORTS",
    tier: "document",
    weight: 1,
    ess: 1,
    verified: false,
    effectiveTier: "model_assertion",
    launderingReason: null,
    reasoning: null,
    assessor: "caller",
    contribution: 0,
    effectiveWeight: 0,
    ...over,
  };
}

/** An entry citing an Evidence item that resolved (verified, document tier). */
export function citeEvidence(seq: number, evidenceId: string, over: Partial<EvidenceEntry> = {}): EvidenceEntry {
  return makeEntry(seq, { sourceId: evidenceId, sourceKind: "evidence", verified: true, effectiveTier: "document", ...over });
}

export function makeEvidence(scope: string, text: string, over: Partial<Evidence> = {}): Evidence {
  return {
    id: uid("ev"),
    scope,
    kind: "document",
    text,
    uri: null,
    registeredBy: "agent_1",
    ess: 0.8,
    reasoningType: "documentary",
    discarded: false,
    createdAt: T0,
    retractedAt: null,
    ...over,
  };
}

export function makeMutation(scope: string, over: Partial<MutationRecord> = {}): MutationRecord {
  return {
    id: uid("m"),
    scope,
    topic: "general",
    belief: "The deploy branch is release.",
    strength: 0.8,
    grantedCredence: null,
    reason: "see ev",
    evidenceIds: [],
    sourceEvent: "ev",
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
    changeSet: "cs",
    ...over,
  };
}

/** A change-set with a fresh id; `over` fills any part. */
export function changeSet(over: Partial<ChangeSet> = {}): ChangeSet {
  return { ...emptyChangeSet(uid("cs"), "agent_1", T0), ...over };
}

/** A change-set inserting `belief` with `history` (and any evidence). */
export function insertBelief(belief: Belief, history: History = [], evidence: readonly Evidence[] = []): ChangeSet {
  return changeSet({ evidence, beliefs: [{ belief, expectedVersion: null }], history: history.length ? [{ beliefId: belief.id, items: history }] : [] });
}

/**
 * A small deterministic stand-in for the engine's replay, enough for the contract suite to check "stored == replay"
 * without depending on engine internals: counts of live entries and credence σ(0.5·(supports − rebuttals)).
 */
export function miniReplay(belief: Belief, history: History): Belief {
  const removed = new Set<number>();
  for (const item of history) if (item.type === "retracted" || item.type === "stripped") removed.add(item.targetSeq);
  let supports = 0;
  let rebuts = 0;
  let entries = 0;
  for (const item of history) {
    if (item.type !== "entry" || removed.has(item.seq)) continue;
    entries++;
    if (item.relation === "SUPPORTS") supports++;
    if (item.relation === "REBUTS") rebuts++;
  }
  const credence = sigmoid(0.5 * (supports - rebuts));
  return { ...belief, supportCount: supports, contradictCount: rebuts, evidenceCount: entries, credence, valence: 2 * credence - 1 };
}

/** The test's "assimilate": append one entry to a loaded record and restate the belief by `miniReplay`. */
export function miniAssimilate(record: BeliefRecord, entry: Omit<EvidenceEntry, "seq">, time: string): ChangeSet {
  const seq = record.history.length + 1;
  const item: EvidenceEntry = { ...entry, seq };
  const history = [...record.history, item];
  const next = miniReplay({ ...record.belief, version: record.belief.version + 1, updatedAt: time }, history);
  return changeSet({
    time,
    beliefs: [{ belief: next, expectedVersion: record.belief.version }],
    history: [{ beliefId: record.belief.id, items: [item] }],
  });
}
