/**
 * The kit's parameter index: every stored set of every scope by content hash, and, when the caller names the versions
 * it will look up and the sets it already holds, the stored sets read only when one of those versions is not held.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicAssessor } from "@/lib/reading/reader";
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
