/**
 * A pure, in-memory application of change-sets for engine tests: what a store does in one transaction, with the
 * same checks (expected versions, seq continuity), returning a new value. Not a store: no access control, no indexes.
 */
/* eslint-disable no-restricted-imports -- `../` here is lib/engine itself (see scripted-assessor.ts). */
import type { ChangeSet, TopicFreeze } from "../change-set";
import type { BeliefEdge, BeliefRecord, Evidence, HistoryItem, MutationRecord } from "../model";
/* eslint-enable no-restricted-imports */

export interface MemoryGraph {
  beliefs: ReadonlyMap<string, BeliefRecord>;
  evidence: ReadonlyMap<string, Evidence>;
  edges: readonly BeliefEdge[];
  mutations: ReadonlyMap<string, MutationRecord>;
  freezes: ReadonlyMap<string, TopicFreeze>;
}

export const emptyGraph = (): MemoryGraph => ({ beliefs: new Map(), evidence: new Map(), edges: [], mutations: new Map(), freezes: new Map() });

export function withBeliefs(records: readonly BeliefRecord[]): MemoryGraph {
  return { ...emptyGraph(), beliefs: new Map(records.map((r) => [r.belief.id, r])) };
}

export class ApplyError extends Error {}

/** Apply one change-set atomically: throws (and the input graph is untouched) on a version or seq conflict. */
export function applyChangeSet(graph: MemoryGraph, cs: ChangeSet): MemoryGraph {
  const beliefs = new Map(graph.beliefs);
  const evidence = new Map(graph.evidence);
  for (const e of cs.evidence) evidence.set(e.id, e);
  for (const u of cs.beliefs) {
    const current = beliefs.get(u.belief.id);
    if (u.expectedVersion === null ? current !== undefined : current?.belief.version !== u.expectedVersion) {
      throw new ApplyError(`version conflict on ${u.belief.id}`);
    }
    beliefs.set(u.belief.id, { belief: u.belief, history: current?.history ?? [] });
  }
  for (const h of cs.history) {
    const current = beliefs.get(h.beliefId);
    if (!current) throw new ApplyError(`history for unknown belief ${h.beliefId}`);
    let seq = current.history.reduce((m, i) => Math.max(m, i.seq), 0);
    for (const item of h.items) {
      if (item.seq !== ++seq) throw new ApplyError(`seq gap on ${h.beliefId}: ${item.seq}`);
    }
    beliefs.set(h.beliefId, { ...current, history: [...current.history, ...h.items] });
  }
  for (const o of cs.entryOutputs) {
    const current = beliefs.get(o.beliefId);
    if (!current) throw new ApplyError(`outputs for unknown belief ${o.beliefId}`);
    const history: HistoryItem[] = current.history.map((i) => (i.seq === o.seq && i.type === "entry" ? { ...i, contribution: o.contribution, effectiveWeight: o.effectiveWeight } : i));
    beliefs.set(o.beliefId, { ...current, history });
  }
  const mutations = new Map(graph.mutations);
  for (const m of cs.mutations) mutations.set(m.id, m);
  for (const u of cs.mutationUpdates) mutations.set(u.mutation.id, u.mutation);
  for (const r of cs.retractions) {
    const e = evidence.get(r.evidenceId);
    if (e) evidence.set(e.id, { ...e, retractedAt: r.retractedAt });
  }
  const freezes = new Map(graph.freezes);
  for (const f of cs.topicFreezes) freezes.set(`${f.scope}\u0000${f.topic}`, f);
  return { beliefs, evidence, edges: [...graph.edges, ...cs.edges], mutations, freezes };
}
