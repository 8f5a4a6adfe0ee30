/**
 * The change-set: everything one request writes, applied by a store in ONE transaction or not at all.
 *
 * The engine never writes; it returns a ChangeSet. A store applies it in this order inside one transaction:
 * evidence → beliefs (insert when `expectedVersion` is null, else update only if the stored version equals it, or
 * fail the whole transaction with a version conflict) → history appends (items must continue the belief's seq) →
 * entry outputs → edges → mutation records → evidence retractions.
 */
import type { Belief, BeliefEdge, Evidence, HistoryItem, IsoTime, MutationRecord } from "./model";
import { mergeCheckpointSlices, type CheckpointSlice } from "./replay";

/** A belief's new full state. `belief.version` is `expectedVersion + 1` (or 1 on insert). */
export interface BeliefUpsert {
  belief: Belief;
  /** The version the store must currently hold; `null` = the belief must not exist yet. */
  expectedVersion: number | null;
  /**
   * The fold state after the belief's whole new history, stored beside the belief so that the next write folds only
   * its own items (`replayIncremental`): a slice covering every source (`replayWithCheckpoint`; the store replaces
   * all its rows) or, from a fold onto a partial slice, the head and the rows of the covered sources (the store
   * replaces those rows and keeps the others). Absent: the store keeps none (the next write replays).
   */
  checkpoint?: CheckpointSlice;
}

/** Items appended to one belief's history (seqs continue the stored history without gaps). */
export interface HistoryAppend {
  beliefId: string;
  items: readonly HistoryItem[];
}

/** Replay outputs to rewrite on stored entries (every entry of every upserted belief whose outputs changed). */
export interface EntryOutputUpdate {
  beliefId: string;
  seq: number;
  contribution: number;
  effectiveWeight: number;
}

/** Marks an existing Evidence item retracted. */
export interface EvidenceRetraction {
  evidenceId: string;
  retractedAt: IsoTime;
}

/** Mutation-journal updates of records written earlier (a reviewer's decision). */
export interface MutationUpdate {
  mutation: MutationRecord;
}

/** Topic freezes set by the stability monitor or lifted by a reviewer. */
export interface TopicFreeze {
  scope: string;
  topic: string;
  frozen: boolean;
  reason: string;
  byMutationId: string | null;
}

export interface ChangeSet {
  /** Shared by every history item written by this request. */
  id: string;
  actor: string;
  time: IsoTime;
  evidence: readonly Evidence[];
  beliefs: readonly BeliefUpsert[];
  history: readonly HistoryAppend[];
  entryOutputs: readonly EntryOutputUpdate[];
  edges: readonly BeliefEdge[];
  mutations: readonly MutationRecord[];
  mutationUpdates: readonly MutationUpdate[];
  retractions: readonly EvidenceRetraction[];
  topicFreezes: readonly TopicFreeze[];
}

/** An empty change-set with the given identity. */
export function emptyChangeSet(id: string, actor: string, time: IsoTime): ChangeSet {
  return {
    id,
    actor,
    time,
    evidence: [],
    beliefs: [],
    history: [],
    entryOutputs: [],
    edges: [],
    mutations: [],
    mutationUpdates: [],
    retractions: [],
    topicFreezes: [],
  };
}

/**
 * Concatenate two change-sets of one request (same id). A belief upserted in both keeps the later state and the
 * earlier expected version; history appends for one belief are concatenated in order.
 */
export function mergeChangeSets(a: ChangeSet, b: ChangeSet): ChangeSet {
  const beliefs = new Map<string, BeliefUpsert>();
  for (const u of a.beliefs) beliefs.set(u.belief.id, u);
  for (const u of b.beliefs) {
    const prev = beliefs.get(u.belief.id);
    // The later upsert saw the earlier one's items (it was computed on the staged record), so its checkpoint holds;
    // a partial one keeps the rows the earlier one wrote for sources it did not cover.
    const checkpoint = u.checkpoint && prev?.checkpoint ? mergeCheckpointSlices(prev.checkpoint, u.checkpoint) : u.checkpoint;
    beliefs.set(
      u.belief.id,
      prev ? { belief: { ...u.belief, version: (prev.expectedVersion ?? 0) + 1 }, expectedVersion: prev.expectedVersion, ...(checkpoint ? { checkpoint } : {}) } : u,
    );
  }
  const history = new Map<string, HistoryItem[]>();
  for (const h of [...a.history, ...b.history]) {
    const items = history.get(h.beliefId) ?? [];
    items.push(...h.items);
    history.set(h.beliefId, items);
  }
  const outputs = new Map<string, EntryOutputUpdate>();
  for (const o of [...a.entryOutputs, ...b.entryOutputs]) outputs.set(`${o.beliefId}#${o.seq}`, o);
  return {
    id: a.id,
    actor: a.actor,
    time: a.time,
    evidence: [...a.evidence, ...b.evidence],
    beliefs: [...beliefs.values()],
    history: [...history.entries()].map(([beliefId, items]) => ({ beliefId, items })),
    entryOutputs: [...outputs.values()],
    edges: [...a.edges, ...b.edges],
    mutations: [...a.mutations, ...b.mutations],
    mutationUpdates: [...a.mutationUpdates, ...b.mutationUpdates],
    retractions: [...a.retractions, ...b.retractions],
    topicFreezes: [...a.topicFreezes, ...b.topicFreezes],
  };
}
