/**
 * A tiny in-memory store for the engine's own tests: applies change-sets atomically (version checks first), keeps a
 * citation index, answers an authorised resolver per set of visible scopes, and checks stored == replay after every
 * write.
 */
import type { ChangeSet } from "./change-set";
import type { BeliefRecord, Evidence, EvidenceKind, HistoryItem } from "./model";
import { defaultParams, type EngineParams } from "./params";
import type { AuthorisedResolver, CitationIndex, CitationRef, ResolvedItem } from "./ports";
import { checkReplay, isLive, replay, supportRefsOf } from "./replay";

export class MemoryStore {
  readonly beliefs = new Map<string, BeliefRecord>();
  readonly evidence = new Map<string, Evidence>();
  readonly mutations = new Map<string, string>();
  private readonly citations = new Map<string, CitationRef[]>();
  /** Every id each resolver looked up, in order. */
  readonly lookups: string[][] = [];

  constructor(readonly params: EngineParams = defaultParams) {}

  addEvidence(id: string, scope: string, kind: EvidenceKind = "document", extra: Partial<Evidence> = {}): Evidence {
    const ev: Evidence = {
      id,
      scope,
      kind,
      text: id,
      uri: null,
      registeredBy: "test",
      ess: null,
      reasoningType: null,
      discarded: false,
      createdAt: "2026-01-01T00:00:00.000Z",
      retractedAt: null,
      ...extra,
    };
    this.evidence.set(id, ev);
    return ev;
  }

  apply(cs: ChangeSet): void {
    for (const u of cs.beliefs) {
      const stored = this.beliefs.get(u.belief.id);
      const version = stored ? stored.belief.version : null;
      if (version !== u.expectedVersion) throw new Error(`version conflict on ${u.belief.id}: ${version} vs ${u.expectedVersion}`);
    }
    for (const ev of cs.evidence) this.evidence.set(ev.id, ev);
    const next = new Map<string, BeliefRecord>();
    for (const u of cs.beliefs) next.set(u.belief.id, { belief: u.belief, history: this.beliefs.get(u.belief.id)?.history ?? [] });
    for (const h of cs.history) {
      const rec = next.get(h.beliefId) ?? this.beliefs.get(h.beliefId);
      if (!rec) throw new Error(`history for unknown belief ${h.beliefId}`);
      const last = rec.history.at(-1)?.seq ?? 0;
      if (h.items[0] && h.items[0].seq !== last + 1) throw new Error(`seq gap on ${h.beliefId}`);
      next.set(h.beliefId, { ...rec, history: [...rec.history, ...h.items] });
      for (const it of h.items) if (it.type === "entry" && it.sourceId !== null) this.index(it.sourceId, { beliefId: h.beliefId, seq: it.seq });
    }
    for (const o of cs.entryOutputs) {
      const rec = next.get(o.beliefId) ?? this.beliefs.get(o.beliefId);
      if (!rec) continue;
      const history: HistoryItem[] = rec.history.map((it) =>
        it.type === "entry" && it.seq === o.seq ? { ...it, contribution: o.contribution, effectiveWeight: o.effectiveWeight } : it,
      );
      next.set(o.beliefId, { ...rec, history });
    }
    for (const [id, rec] of next) {
      const check = checkReplay(rec.belief, rec.history, this.params);
      if (!check.ok) throw new Error(`stored != replay for ${id}: ${JSON.stringify(check.mismatches.slice(0, 3))}`);
      this.beliefs.set(id, rec);
    }
    for (const r of cs.retractions) {
      const ev = this.evidence.get(r.evidenceId);
      if (ev) this.evidence.set(ev.id, { ...ev, retractedAt: r.retractedAt });
    }
  }

  private index(sourceId: string, ref: CitationRef): void {
    const list = this.citations.get(sourceId) ?? [];
    list.push(ref);
    this.citations.set(sourceId, list);
  }

  /** The resolver of a caller who sees exactly `scopes`. Hidden and missing ids take the same path. */
  resolverFor(scopes: readonly string[]): AuthorisedResolver & { log: string[] } {
    const visible = new Set(scopes);
    const log: string[] = [];
    this.lookups.push(log);
    return {
      log,
      resolve: async (id: string): Promise<ResolvedItem | null> => {
        log.push(id);
        const ev = this.evidence.get(id);
        if (ev && visible.has(ev.scope))
          return { kind: "evidence", id, scope: ev.scope, evidenceKind: ev.kind, ess: ev.ess, retracted: ev.retractedAt !== null, discarded: ev.discarded };
        const b = this.beliefs.get(id);
        if (b && visible.has(b.belief.scope)) {
          const state = replay(b.history, this.params);
          return { kind: "belief", id, scope: b.belief.scope, live: isLive(state), supports: supportRefsOf(b.history, this.params) };
        }
        const m = this.mutations.get(id);
        if (m !== undefined && visible.has(m)) return { kind: "mutation", id, scope: m };
        return null;
      },
    };
  }

  readonly citationIndex: CitationIndex = {
    citersOf: async (id: string) => {
      const refs = this.citations.get(id) ?? [];
      return refs.filter((r) => {
        const rec = this.beliefs.get(r.beliefId);
        return rec !== undefined && !rec.history.some((it) => (it.type === "retracted" || it.type === "stripped") && it.targetSeq === r.seq);
      });
    },
    load: async (id: string) => this.beliefs.get(id) ?? null,
  };
}
