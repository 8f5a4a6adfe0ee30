/**
 * A pure, in-memory application of change-sets for engine tests: what a store does in one transaction, with the
 * same checks (expected versions, seq continuity), returning a new value. Not a store: no access control, no indexes.
 */
import type { ChangeSet, TopicFreeze } from "../change-set";
import type { BeliefEdge, BeliefRecord, Evidence, HistoryItem, MutationRecord } from "../model";
import type { EngineParams } from "../params";
import type { AuthorisedResolver, CitationIndex, CitationRef, ResolvedItem } from "../ports";
import { isLive, replay, supportRefsOf } from "../replay";

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

/**
 * An authorised resolver over a memory graph: items of `visibleScopes` resolve, everything else is null — exactly
 * like a missing id. `lookups` records every id asked for, in order (for no-oracle comparisons).
 */
export function memoryResolver(graph: MemoryGraph, visibleScopes: readonly string[], params: EngineParams): AuthorisedResolver & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    lookups,
    async resolve(id: string): Promise<ResolvedItem | null> {
      lookups.push(id);
      const ev = graph.evidence.get(id);
      if (ev && visibleScopes.includes(ev.scope)) {
        return { kind: "evidence", id, scope: ev.scope, evidenceKind: ev.kind, ess: ev.ess, retracted: ev.retractedAt !== null, discarded: ev.discarded };
      }
      const b = graph.beliefs.get(id);
      if (b && visibleScopes.includes(b.belief.scope)) {
        return { kind: "belief", id, scope: b.belief.scope, live: isLive(replay(b.history, params)), supports: supportRefsOf(b.history) };
      }
      const m = graph.mutations.get(id);
      if (m && visibleScopes.includes(m.scope)) return { kind: "mutation", id, scope: m.scope };
      return null;
    },
  };
}

/** The topic state a store would load for the mutation protocol. */
export function topicStateOf(graph: MemoryGraph, scope: string, topic: string): { records: MutationRecord[]; freeze: TopicFreeze | null } {
  return {
    records: [...graph.mutations.values()].filter((m) => m.scope === scope && m.topic === topic),
    freeze: graph.freezes.get(`${scope}\u0000${topic}`) ?? null,
  };
}

/** The system-level citation index over a memory graph: live entries citing an id, in any scope. */
export function memoryCitationIndex(graph: MemoryGraph): CitationIndex {
  return {
    async citersOf(id: string): Promise<readonly CitationRef[]> {
      const out: CitationRef[] = [];
      for (const r of graph.beliefs.values()) {
        const removed = new Set(r.history.flatMap((i) => (i.type === "retracted" || i.type === "stripped" ? [i.targetSeq] : [])));
        for (const i of r.history) if (i.type === "entry" && i.sourceId === id && !removed.has(i.seq)) out.push({ beliefId: r.belief.id, seq: i.seq });
      }
      return out;
    },
    async load(beliefId: string) {
      return graph.beliefs.get(beliefId) ?? null;
    },
  };
}
