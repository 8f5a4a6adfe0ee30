/**
 * Top-k from the full-text index equals the engine's ranking of the whole matching domain (`rankCandidateStats` over
 * `searchCandidateStats`) on random corpora, before and after the beliefs are rewritten, on a real Neo4j (the Vitest
 * global setup's server, a namespace of this file's own).
 */
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import neo4j from "neo4j-driver";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Belief, BeliefStatus } from "@/lib/engine";
import { at, changeSet, makeBelief, uid } from "../testing/fixtures";
import type { ScopeView } from "../graph-store";
import { rankCandidateStats } from "../rank-candidate-stats";
import { createNeo4jGraphStore, type Neo4jGraphStore } from "./neo4j-graph-store";

const VOCAB = ["deploy", "release", "branch", "main", "backup", "hourly", "daily", "schema", "cache", "port"];
const QUERIES = ["deploy branch", "release", "backup hourly schema", "cache port main deploy", "daily", "nothing here", "deploy deploy release"];

const beliefArb = fc.record({
  words: fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 5 }),
  credence: fc.oneof(fc.constantFrom(0.3, 0.5, 0.7), fc.double({ min: 0, max: 1, noNaN: true })),
  status: fc.constantFrom<BeliefStatus>("provisional", "supported", "canonical", "superseded", "retired"),
  expiring: fc.boolean(),
});

describe("Neo4j top-k from the full-text index", () => {
  /** One full-text query per term on every query (the head of queries with many terms). */
  let store: Neo4jGraphStore;
  /** The same namespace with the default knobs: these queries' few terms take one query per set of terms. */
  let plain: Neo4jGraphStore;
  beforeAll(async () => {
    const namespace = `search_${randomBytes(6).toString("hex")}`;
    store = createNeo4jGraphStore({ uri: inject("neo4jUri"), database: "neo4j", namespace, searchTuning: { setQueryTerms: 0 } });
    plain = createNeo4jGraphStore({ uri: inject("neo4jUri"), database: "neo4j", namespace });
    await store.check();
  }, 120_000);
  afterAll(async () => {
    await store?.dropNamespace().catch(() => {});
    await store?.close();
    await plain?.close();
  });

  async function expectSameAsExhaustive(view: ScopeView, k: number, minCredence: number | undefined): Promise<void> {
    for (const q of QUERIES) {
      for (const includeEnded of [false, true]) {
        const stats = await store.searchCandidateStats(view, q, { includeEnded });
        const expected = rankCandidateStats(q, stats, { k, includeEnded, scope: view.homeScopeId, ...(minCredence !== undefined ? { minCredence } : {}) });
        for (const s of [store, plain]) {
          const got = await s.searchTopK?.(view, q, { k, includeEnded, ...(minCredence !== undefined ? { minCredence } : {}) });
          expect(got).toBeDefined();
          expect(got).not.toBeNull();
          expect(got?.ranked.map((r) => [r.candidate.id, r.score, r.relevance])).toEqual(expected.map((r) => [r.candidate.id, r.score, r.relevance]));
        }
      }
    }
  }

  it("returns exactly the exhaustive ranking's top k, ties and filters included, and follows rewrites (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(beliefArb, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 8 }),
        fc.option(fc.constantFrom(0.4, 0.6), { nil: undefined }),
        async (specs, k, minCredence) => {
          const scope = uid("scope");
          const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
          const beliefs: Belief[] = specs.map((s) =>
            makeBelief(scope, `${s.words.join(" ")} ${uid("w").slice(-4)}.`, { credence: s.credence, status: s.status, validUntil: s.expiring ? at(30) : null }),
          );
          await store.apply(changeSet({ beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })) }));
          await expectSameAsExhaustive(view, k, minCredence);
          const rewritten = beliefs.filter((_, i) => i % 2 === 0).map((b, i) => ({
            belief: { ...b, text: `${VOCAB[i % VOCAB.length]} ${b.text}`, credence: 1 - b.credence, status: (i % 3 === 0 ? "retired" : b.status) as BeliefStatus, version: 2 },
            expectedVersion: 1,
          }));
          await store.apply(changeSet({ beliefs: rewritten }));
          await expectSameAsExhaustive(view, k, minCredence);
        },
      ),
      { numRuns: 8 },
    );
  }, 600_000);

  it("takes from a crowd of equal scores its first k by id, also from beliefs stored without termCount, which a start fills in", async () => {
    const scope = uid("scope");
    const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
    // 40 beliefs of one score shape and credence (the crowd), 6 of the same shape above it, 10 of another shape.
    const beliefs = [
      ...Array.from({ length: 40 }, (_, i) => makeBelief(scope, `deploy release crowd${i}`, { credence: 0.5 })),
      ...Array.from({ length: 6 }, (_, i) => makeBelief(scope, `deploy release top${i}`, { credence: 0.8 })),
      ...Array.from({ length: 10 }, (_, i) => makeBelief(scope, `deploy other words here${i}`, { credence: 0.9 })),
    ];
    await store.apply(changeSet({ beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })) }));
    const driver = neo4j.driver(inject("neo4jUri"));
    const countWithout = async () => {
      const result = await driver.executeQuery("MATCH (b:Belief {ns: $ns, scope: $scope}) WHERE b.termCount IS NULL RETURN count(*) AS n", { ns: store.namespace, scope }, { database: "neo4j" });
      return Number(result.records[0]?.get("n"));
    };
    const expectExhaustive = async () => {
      for (const q of ["deploy release", "release", "deploy"]) {
        const stats = await store.searchCandidateStats(view, q, {});
        for (const k of [3, 10, 20]) {
          const expected = rankCandidateStats(q, stats, { k, scope }).map((r) => [r.candidate.id, r.score]);
          for (const s of [store, plain]) expect((await s.searchTopK?.(view, q, { k }))?.ranked.map((r) => [r.candidate.id, r.score])).toEqual(expected);
        }
      }
    };
    try {
      expect(await countWithout()).toBe(0);
      await expectExhaustive();
      // As an earlier version wrote them: half the beliefs without termCount, and no record of the backfill.
      await driver.executeQuery(
        "MATCH (b:Belief {ns: $ns, scope: $scope}) WHERE b.id IN $ids REMOVE b.termCount",
        { ns: store.namespace, scope, ids: beliefs.filter((_, i) => i % 2 === 0).map((b) => b.id) },
        { database: "neo4j" },
      );
      await driver.executeQuery("MATCH (m:CredenceBackfill {name: 'termCount'}) DELETE m", {}, { database: "neo4j" });
      expect(await countWithout()).toBe(28);
      await expectExhaustive();
      const restarted = createNeo4jGraphStore({ uri: inject("neo4jUri"), database: "neo4j", namespace: store.namespace });
      await restarted.check();
      await restarted.close();
      expect(await countWithout()).toBe(0);
      await expectExhaustive();
    } finally {
      await driver.close();
    }
  }, 120_000);

  it("another scope's beliefs and an invisible home scope are never returned", async () => {
    const mine = uid("scope");
    const theirs = uid("scope");
    await store.apply(changeSet({ beliefs: [makeBelief(theirs, "deploy release branch")].map((belief) => ({ belief, expectedVersion: null })) }));
    expect((await store.searchTopK?.({ homeScopeId: mine, visibleScopeIds: [mine, theirs] }, "deploy", { k: 5 }))?.ranked).toEqual([]);
    expect((await store.searchTopK?.({ homeScopeId: theirs, visibleScopeIds: [mine] }, "deploy", { k: 5 }))?.ranked).toEqual([]);
    expect((await store.searchTopK?.({ homeScopeId: theirs, visibleScopeIds: [theirs] }, "deploy", { k: 5 }))?.ranked.length).toBe(1);
  });
});
