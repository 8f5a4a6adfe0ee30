/**
 * A mutable handle on a `MemoryGraph` for tests that write several times through the engine: `apply` is
 * `applyChangeSet` plus the check every store owes (stored == replay for each belief it writes), and the resolvers
 * and citation index read the current graph. One in-memory store: the logic lives in `./memory-graph`.
 */
import type { ChangeSet } from "../change-set";
import type { BeliefRecord, Evidence, EvidenceKind } from "../model";
import { defaultParams, type EngineParams } from "../params";
import type { AuthorisedResolver, CitationIndex } from "../ports";
import { checkReplay } from "../replay";
import { makeEvidence, makeMutationRecord } from "./fixtures";
import { applyChangeSet, emptyGraph, memoryCitationIndex, memoryResolver, type MemoryGraph } from "./memory-graph";

export class MemoryStore {
  private graph: MemoryGraph = emptyGraph();

  constructor(readonly params: EngineParams = defaultParams) {}

  get beliefs(): ReadonlyMap<string, BeliefRecord> {
    return this.graph.beliefs;
  }

  addEvidence(id: string, scope: string, kind: EvidenceKind = "document", extra: Partial<Evidence> = {}): Evidence {
    const ev = makeEvidence(id, { id, scope, kind, registeredBy: "test", createdAt: "2026-01-01T00:00:00.000Z", ...extra });
    this.graph = { ...this.graph, evidence: new Map(this.graph.evidence).set(id, ev) };
    return ev;
  }

  /** A mutation record `id` in `scope` (a citable item that is neither evidence nor a belief). */
  addMutation(id: string, scope: string): void {
    this.graph = { ...this.graph, mutations: new Map(this.graph.mutations).set(id, makeMutationRecord({ id, scope })) };
  }

  /** Atomic: on a version or seq conflict, or a belief whose stored fields differ from its replay, nothing changes. */
  apply(cs: ChangeSet): void {
    const next = applyChangeSet(this.graph, cs);
    const written = new Set([...cs.beliefs.map((u) => u.belief.id), ...cs.history.map((h) => h.beliefId), ...cs.entryOutputs.map((o) => o.beliefId)]);
    for (const id of written) {
      const rec = next.beliefs.get(id);
      if (!rec) continue;
      const check = checkReplay(rec.belief, rec.history, this.params);
      if (!check.ok) throw new Error(`stored != replay for ${id}: ${JSON.stringify(check.mismatches.slice(0, 3))}`);
    }
    this.graph = next;
  }

  /** The resolver of a caller who sees exactly `scopes`, over the graph as it is at each lookup; `log` lists the ids asked for. */
  resolverFor(scopes: readonly string[]): AuthorisedResolver & { log: string[] } {
    const log: string[] = [];
    return {
      log,
      resolve: async (id: string) => {
        log.push(id);
        return memoryResolver(this.graph, scopes, this.params).resolve(id);
      },
    };
  }

  readonly citationIndex: CitationIndex = {
    citersOf: (id: string) => memoryCitationIndex(this.graph).citersOf(id),
    load: (id: string) => memoryCitationIndex(this.graph).load(id),
  };
}
