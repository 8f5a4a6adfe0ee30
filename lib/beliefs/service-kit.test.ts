/**
 * The kit's parameter index: every stored set of every scope by content hash, and, when the caller names the versions
 * it will look up and the sets it already holds, the stored sets read only when one of those versions is not held.
 * Its vector priming: the stored vectors the store holds in memory stand in for embedding a belief's text again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { LetterEmbedder } from "@/lib/embed/testing/letter-embedder";
import { defaultParams, paramsVersion, resolveParams } from "@/lib/engine/params";
import { createServiceKit, type ServiceKit } from "./service-kit";
import { openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

describe("service kit: paramsIndex", () => {
  let h: BeliefHarness;
  let kit: ServiceKit;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
    kit = createServiceKit({ db: h.db, store: h.store, assessor: createHeuristicAssessor(), clock: h.clock });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("serves a stored set by its hash, read from the store when the caller does not hold it", async () => {
    const stored = (await kit.params.create(h.scopeIds.home, { twinSimilarity: 0.93 }, h.userIds.owner)).params;
    const version = paramsVersion(stored);
    expect(version).not.toBe(paramsVersion(defaultParams));
    expect((await kit.paramsIndex())(version)).toEqual(stored);
    expect((await kit.paramsIndex({ versions: [version], known: [] }))(version)).toEqual(stored);
    expect((await kit.paramsIndex({ versions: [paramsVersion(defaultParams)], known: [] }))(paramsVersion(defaultParams))).toEqual(defaultParams);
  });

  it("serves a held set without reading the stored ones; an unknown hash falls back to the defaults", async () => {
    // A set no scope stores: only the caller's `known` can answer for it.
    const held = resolveParams({ twinSimilarity: 0.97 });
    const version = paramsVersion(held);
    expect((await kit.paramsIndex())(version)).toEqual(defaultParams);
    expect((await kit.paramsIndex({ versions: [version], known: [held] }))(version)).toEqual(held);
  });
});

describe("service kit: primeVectors", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a held stored vector is used for the belief's text: comparing a claim with it embeds the claim only", async () => {
    const writer = new LetterEmbedder();
    const services = h.withAssessor(createHeuristicAssessor(), { embedder: writer });
    const text = "The night build publishes the documentation site.";
    const written = await services.assimilate(h.callers.editor, h.scopes.home, { claim: text, evidence: [{ tier: "observation" }] });
    const claim = "The documentation site is published by the nightly build.";
    const kitWith = async () => {
      const embedder = new LetterEmbedder();
      const kit = createServiceKit({ db: h.db, store: h.store, assessor: createHeuristicAssessor(), clock: h.clock, embedder });
      const ctx = await kit.context(h.callers.editor, h.scopes.home, "read");
      // The ranking's vector search brings the scope's stored vectors into the store's memory.
      expect((await kit.rank(ctx.view, claim, { k: 5, scope: ctx.scope.id })).ranked.map((r) => r.candidate.id)).toContain(written.belief.id);
      embedder.texts.length = 0;
      return { kit, embedder, ctx };
    };

    const primed = await kitWith();
    primed.kit.primeVectors(primed.ctx.view, [{ id: written.belief.id, text }]);
    const similarity = await primed.kit.matcher?.similarity(claim, text);
    expect(primed.embedder.texts).toEqual([]);
    // A held vector is of its belief's stored text only: named with another text, it is not used for that text.
    const other = "The documentation site is built by hand every morning.";
    primed.kit.primeVectors(primed.ctx.view, [{ id: written.belief.id, text: other }]);
    await primed.kit.matcher?.similarity(claim, other);
    expect(primed.embedder.texts).toContain(other);

    // Not primed: the belief's text is embedded again, to the same vector and so the same similarity.
    const plain = await kitWith();
    expect(await plain.kit.matcher?.similarity(claim, text)).toBeCloseTo(similarity as number, 6);
    expect(plain.embedder.texts).toContain(text);
  });
});
