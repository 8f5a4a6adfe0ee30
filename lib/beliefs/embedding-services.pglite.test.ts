/**
 * Writes embed, and the rebuild re-embeds: through the services on PGlite, with the real offline model for writes and
 * a second, in-process embedder standing in for "the model changed".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { fetchModel } from "@/lib/embed/fetch-model";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { EmbeddingError, modelKey, type Embedder } from "@/lib/engine";
import { OPERATOR } from "@/lib/access/principal";
import type { BeliefServices } from "./belief-services";
import { openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";
import type { RebuildProgress } from "./embedding-services";
import { withVectorsOnApply } from "./vectors-on-apply";
import { LetterEmbedder } from "@/lib/embed/testing/letter-embedder";
import { emptyChangeSet } from "@/lib/engine";
import { makeEvidence, uid } from "@/lib/graph/testing/fixtures";

class BrokenEmbedder implements Embedder {
  readonly model = { name: "broken", version: "0", dimensions: 3 };
  async embed(): Promise<Float32Array[]> {
    throw new EmbeddingError("the model is down");
  }
}

describe("sentence vectors through the services (PGlite)", () => {
  let h: BeliefHarness;
  const local = new LocalEmbedder();
  let services: BeliefServices;

  beforeAll(async () => {
    await fetchModel();
    h = await openBeliefHarness("pglite");
    services = h.withAssessor(createHeuristicAssessor(), { embedder: local });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("stores the vectors of a new belief and its evidence in the write, findable by meaning", async () => {
    const registered = await services.registerEvidence(h.callers.editor, h.scopes.home, {
      kind: "document",
      text: "Runbook: the on-call platform engineer signs off every schema migration.",
    });
    const result = await services.assimilate(h.callers.editor, h.scopes.home, {
      claim: "Database migrations are approved by the platform on-call engineer.",
      evidence: [{ sourceId: registered.evidence.id, tier: "document" }],
    });
    const status = await services.embeddingStatus(h.callers.viewer, h.scopes.home);
    expect(status).toMatchObject({ model: modelKey(local.model), beliefs: { total: 1, current: 1 }, evidence: { total: 1, current: 1 } });

    const [query] = await local.embed(["Who signs off schema changes?"]);
    if (!query) throw new Error("no vector");
    const view = { homeScopeId: h.scopeIds.home, visibleScopeIds: [h.scopeIds.home] };
    const hits = await h.store.vectorSearch(view, query, { k: 3, model: modelKey(local.model) });
    expect(hits.map((hit) => hit.id)).toEqual([result.belief.id]);
    expect(hits[0]?.similarity).toBeGreaterThan(0.3);
  });

  it("writes without vectors when the embedder fails, and the rebuild fills them in later", async () => {
    // A change-set applied while the embedder is down: written, without vectors, one line logged.
    const lines: string[] = [];
    const down = withVectorsOnApply(h.store, { model: local.model, vectors: () => new BrokenEmbedder().embed() }, (line) => lines.push(line));
    const evidence = makeEvidence(h.scopeIds.home, "Backups are restored in a drill every quarter.");
    await down.apply({ ...emptyChangeSet(uid("cs"), "agent_1", evidence.createdAt), evidence: [evidence] });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/without vectors.*embeddings rebuild/);
    // Services without an embedder write no vectors either.
    await h
      .withAssessor(createHeuristicAssessor(), { embedder: null })
      .assimilate(h.callers.editor, h.scopes.home, { claim: "Restore drills take under an hour.", evidence: [{ sourceId: null, tier: "model_assertion" }] });
    expect(await services.embeddingStatus(OPERATOR, h.scopes.home)).toMatchObject({ beliefs: { total: 2, current: 1 }, evidence: { total: 2, current: 1 } });

    const progress: RebuildProgress[] = [];
    const rebuilt = await services.rebuildEmbeddings(OPERATOR, h.scopes.home, { onProgress: (p) => progress.push(p) });
    expect(rebuilt).toMatchObject({ embedded: 2, beliefs: { total: 2, current: 2 }, evidence: { total: 2, current: 2 } });
    expect(progress.at(0)).toEqual({ scope: h.scopes.home, done: 0, total: 2 });
    expect(progress.at(-1)).toEqual({ scope: h.scopes.home, done: 2, total: 2 });
  });

  it("re-embeds everything after a model change, and only owners may rebuild", async () => {
    const letters = new LetterEmbedder();
    const changed = h.withAssessor(createHeuristicAssessor(), { embedder: letters });
    const before = await changed.embeddingStatus(OPERATOR, h.scopes.home);
    expect(before).toMatchObject({ model: "letters@1", beliefs: { current: 0 }, evidence: { current: 0 } });
    await expect(changed.rebuildEmbeddings(h.callers.editor, h.scopes.home)).rejects.toMatchObject({ code: "forbidden" });

    const result = await changed.rebuildEmbeddings(h.callers.owner, h.scopes.home);
    expect(result.embedded).toBe(before.beliefs.total + before.evidence.total);
    expect(result.beliefs.current).toBe(result.beliefs.total);
    expect(result.evidence.current).toBe(result.evidence.total);
    expect((await changed.rebuildEmbeddings(h.callers.owner, h.scopes.home)).embedded).toBe(0);
    // The local model's vectors are now stale for search: nothing of its model is left in the scope.
    expect(await services.embeddingStatus(OPERATOR, h.scopes.home)).toMatchObject({ beliefs: { current: 0 } });
  });

  it("says so when no embedder is configured", async () => {
    const none = h.withAssessor(createHeuristicAssessor(), { embedder: null });
    await expect(none.rebuildEmbeddings(OPERATOR, h.scopes.home)).rejects.toMatchObject({ code: "unavailable" });
  });
});
