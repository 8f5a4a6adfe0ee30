/**
 * Builders for the GraphStore contract suite: complete engine values with unique ids (a random run prefix plus a
 * counter), so suites can share one database and tests never see each other's items (each test uses its own scopes).
 */
import { randomBytes } from "node:crypto";
import {
  emptyChangeSet,
  makeEntry,
  sigmoid,
  type Belief,
  type BeliefRecord,
  type ChangeSet,
  type Evidence,
  type EvidenceEntry,
  type History,
  type MutationRecord,
} from "@/lib/engine";
import * as engineFixtures from "@/lib/engine/testing/fixtures";
import { T0 } from "@/lib/engine/testing/fixtures";

const run = randomBytes(3).toString("hex");
let counter = 0;

/** A fresh id, unique across runs: `<prefix>_<run>_<n>`. */
export function uid(prefix: string): string {
  return `${prefix}_${run}_${(++counter).toString(36)}`;
}

export { T0 };

/** T0 plus `minutes`, as an ISO string. */
export const at = (minutes: number): string => engineFixtures.at(minutes);

/** The engine fixtures' belief, in `scope` with a unique id and the topic "general". */
export function makeBelief(scope: string, text: string, over: Partial<Belief> = {}): Belief {
  return engineFixtures.makeBelief(text, { id: uid("b"), scope, topic: "general", ...over });
}

/** An unverified model assertion with no source (what an entry is before anything resolves): the engine's `makeEntry`. */
export function unsourcedEntry(seq: number, over: Partial<Omit<EvidenceEntry, "type" | "seq">> = {}): EvidenceEntry {
  return makeEntry({ seq, time: T0, actor: "agent_1", changeSet: "cs", sourceId: null, sourceKind: null, verified: false, effectiveTier: "model_assertion", ...over });
}

/** An entry citing an Evidence item that resolved (verified, document tier). */
export function citeEvidence(seq: number, evidenceId: string, over: Partial<EvidenceEntry> = {}): EvidenceEntry {
  return unsourcedEntry(seq, { sourceId: evidenceId, sourceKind: "evidence", verified: true, effectiveTier: "document", ...over });
}

/** A document in `scope` with a unique id (ESS 0.8, documentary). */
export function makeEvidence(scope: string, text: string, over: Partial<Evidence> = {}): Evidence {
  return engineFixtures.makeEvidence(text, { id: uid("ev"), scope, kind: "document", ess: 0.8, reasoningType: "documentary", ...over });
}

export function makeMutation(scope: string, over: Partial<MutationRecord> = {}): MutationRecord {
  return engineFixtures.makeMutationRecord({ id: uid("m"), scope, topic: "general", belief: "The deploy branch is release.", strength: 0.8, reason: "see ev", evidenceIds: [], sourceEvent: "ev", changeSet: "cs", ...over });
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
