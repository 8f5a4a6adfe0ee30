/**
 * The in-memory vector ranking (./vector-index.ts) against the ranking inside the statement (./sql-vectors.ts), on
 * both SQL backends: the same hits past the sketch pass, what another process writes seen by the next search, and
 * nothing outside the caller's view.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { TEST_BACKENDS, type TestLocation } from "@/lib/db/testing/test-backends";
import { embeddingTextHash } from "../embeddings";
import { changeSet, makeBelief, uid } from "../testing/fixtures";
import { createSqlGraphStore } from "./sql-graph-store";
import { sketchCandidates } from "./sql-vectors";
import { CHANGED, FIRST_LOAD, VISIBLE_RANKED, VISIBLE_RANKED_STATS } from "./vector-index";

function randomUnit(seed: number): () => Float32Array {
  let x = seed;
  const random = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 0xffffffff - 0.5;
  };
  return () => {
    const v = Float32Array.from({ length: 384 }, random);
    const n = Math.hypot(...v);
    return v.map((c) => c / n);
  };
}

describe.each(TEST_BACKENDS)("vector ranking in memory on $name", (backend) => {
  let location: TestLocation;
  let db: Database;
  beforeAll(async () => {
    location = await backend.create();
    db = await location.open();
  });
  afterAll(async () => {
    await db?.close();
    await location?.cleanup();
  });

  it("answers the statement's hits past the sketch pass, ended beliefs left out unless asked for", async () => {
    const memory = createSqlGraphStore({ sql: db.sql });
    const database = createSqlGraphStore({ sql: db.sql, vectorRanking: "database" });
    const scope = uid("vi");
    const view = { homeScopeId: scope, visibleScopeIds: [scope] };
    const next = randomUnit(4242);
    const count = sketchCandidates(5) + 150;
    const beliefs = Array.from({ length: count }, (_, i) => makeBelief(scope, `Indexed belief ${i}.`, i % 9 === 0 ? { status: "retired" } : {}));
    const vectors = beliefs.map(() => next());
    await memory.apply(changeSet({ beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })) }));
    await memory.upsertEmbeddings(
      view,
      beliefs.map((b, i) => ({ id: b.id, kind: "belief" as const, vector: vectors[i] as Float32Array, model: "m@1", textHash: embeddingTextHash(b.text) })),
    );
    for (const [q, k, includeEnded] of [[3, 5, false], [500, 50, true], [901, 20, false]] as const) {
      const moved = (vectors[q] as Float32Array).map((c, d) => c + (d % 5 === 0 ? 0.02 : -0.01));
      const norm = Math.hypot(...moved);
      const query = moved.map((c) => c / norm);
      const want = await database.vectorSearch(view, query, { k, model: "m@1", includeEnded });
      const got = await memory.vectorSearch(view, query, { k, model: "m@1", includeEnded });
      expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      got.forEach((h, i) => expect(h.similarity).toBeCloseTo(want[i]?.similarity ?? NaN, 5));
      // With their slim rows: the same hits, each with the row the store's own read by id gives.
      const withStats = await memory.vectorSearch(view, query, { k, model: "m@1", includeEnded, withStats: true });
      expect(withStats.map(({ id, similarity }) => ({ id, similarity }))).toEqual(got);
      const rows = new Map((await memory.candidateStatsByIds(view, got.map((h) => h.id))).map((c) => [c.id, c]));
      expect(withStats.map((h) => h.stats)).toEqual(got.map((h) => rows.get(h.id)));
      // Cut to a query's terms: the rows the read by id gives for that query (its terms only, and their count).
      const statsTerms = ["indexed", "belief", "7", "elsewhere"];
      const cut = await memory.vectorSearch(view, query, { k, model: "m@1", includeEnded, withStats: true, statsTerms });
      const cutRows = new Map((await memory.candidateStatsByIds(view, got.map((h) => h.id), { queryTerms: statsTerms })).map((c) => [c.id, c]));
      expect(cut.map((h) => h.stats)).toEqual(got.map((h) => cutRows.get(h.id)));
      for (const h of cut) expect(h.stats?.termCount).toBe(rows.get(h.id)?.terms.length);
      const ids = beliefs.slice(0, 30).map((b) => b.id);
      const wantSims = await database.similarities!(view, query, ids, { model: "m@1" });
      const gotSims = await memory.similarities!(view, query, ids, { model: "m@1" });
      expect([...gotSims.keys()].sort()).toEqual([...wantSims.keys()].sort());
      for (const [id, s] of gotSims) expect(s).toBeCloseTo(wantSims.get(id) ?? NaN, 5);
      // The search's cosines (four at a time) are those of `similarities` (one at a time), bit for bit.
      const exact = await memory.similarities!(view, query, got.map((h) => h.id), { model: "m@1" });
      expect(got.map((h) => h.similarity)).toEqual(got.map((h) => exact.get(h.id)));
    }
  }, 180_000);

  it("loads every vector at first page by page along the primary key: no sort of the rows left, however many", async () => {
    // With sequential scans and sorts priced out, a plan that still sorts has no index that gives the pages' order.
    const plan = await db.sql.transaction(async (tx) => {
      await tx.query("SET LOCAL enable_seqscan = off");
      await tx.query("SET LOCAL enable_sort = off");
      return tx.query(`EXPLAIN (FORMAT JSON) ${FIRST_LOAD}`, ["", 2000]);
    });
    expect(JSON.stringify(plan)).not.toContain('"Node Type":"Sort"');
    expect(JSON.stringify(plan)).toContain("graph_embeddings_pkey");
    // A later read, even planned once for every watermark (a prepared statement's generic plan), probes written_by.
    const later = await db.sql.transaction(async (tx) => {
      await tx.query("SET LOCAL plan_cache_mode = force_generic_plan");
      return tx.query(`EXPLAIN (FORMAT JSON) ${CHANGED}`, ["1", "", 2000]);
    });
    expect(JSON.stringify(later)).toContain("graph_embeddings_written_by");
  });

  it("reads the ranked ids' rows one primary-key probe each, in rank order, stopping at the k-th: never a join over the scope", async () => {
    // With nested loops priced out, a statement the planner may turn into a join hashes or merges the page's ids
    // against a scan of the scope instead; each id probed by the key is the only plan left to this one. No sort: the
    // ids arrive in rank order, so the probes stop once k rows qualify.
    for (const text of [VISIBLE_RANKED, VISIBLE_RANKED_STATS]) {
      const params = [["b_1", "b_2", "b_3"], "scope", ["scope"], false, 2, ...(text === VISIBLE_RANKED_STATS ? [["word"]] : [])];
      const plan = JSON.stringify(
        await db.sql.transaction(async (tx) => {
          await tx.query("SET LOCAL enable_nestloop = off");
          return tx.query(`EXPLAIN (FORMAT JSON) ${text}`, params);
        }),
      );
      expect(plan).toContain('"Node Type":"Nested Loop"');
      expect(plan).toMatch(/"Node Type":"Index (Only )?Scan"[^}]*"Relation Name":"graph_beliefs"/);
      expect(plan).not.toContain('"Node Type":"Hash Join"');
      expect(plan).not.toContain('"Node Type":"Merge Join"');
      expect(plan).not.toContain('"Node Type":"Sort"');
    }
  });

  it("answers the first k live hits when most of the nearest are ended (the ranked ids sent a page at a time)", async () => {
    const memory = createSqlGraphStore({ sql: db.sql });
    const database = createSqlGraphStore({ sql: db.sql, vectorRanking: "database" });
    const scope = uid("vi-ended");
    const view = { homeScopeId: scope, visibleScopeIds: [scope] };
    const next = randomUnit(31337);
    // 300 beliefs, one live in fifteen: the first page of ranked ids holds fewer than k live ones.
    const beliefs = Array.from({ length: 300 }, (_, i) => makeBelief(scope, `Mostly ended belief ${i}.`, i % 15 === 0 ? {} : { status: "retired" }));
    const vectors = beliefs.map(() => next());
    await memory.apply(changeSet({ beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })) }));
    await memory.upsertEmbeddings(
      view,
      beliefs.map((b, i) => ({ id: b.id, kind: "belief" as const, vector: vectors[i] as Float32Array, model: "m@1", textHash: embeddingTextHash(b.text) })),
    );
    for (const k of [8, 20]) {
      const query = vectors[7] as Float32Array;
      const want = await database.vectorSearch(view, query, { k, model: "m@1" });
      const got = await memory.vectorSearch(view, query, { k, model: "m@1" });
      expect(want).toHaveLength(k);
      expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      got.forEach((h, i) => expect(h.similarity).toBeCloseTo(want[i]?.similarity ?? NaN, 5));
    }
  }, 120_000);

  it("sees vectors another process wrote after its first search, and their replacements", async () => {
    const reader = createSqlGraphStore({ sql: db.sql });
    const writer = createSqlGraphStore({ sql: db.sql, vectorRanking: "database" });
    const scope = uid("vi-fresh");
    const view = { homeScopeId: scope, visibleScopeIds: [scope] };
    const next = randomUnit(99);
    const first = makeBelief(scope, "The first indexed belief.");
    const v1 = next();
    await writer.apply(changeSet({ beliefs: [{ belief: first, expectedVersion: null }] }));
    await writer.upsertEmbeddings(view, [{ id: first.id, kind: "belief", vector: v1, model: "m@1", textHash: embeddingTextHash(first.text) }]);
    expect((await reader.vectorSearch(view, v1, { k: 5, model: "m@1" })).map((h) => h.id)).toEqual([first.id]);

    const second = makeBelief(scope, "The second indexed belief.");
    const v2 = next();
    await writer.apply(changeSet({ beliefs: [{ belief: second, expectedVersion: null }] }));
    await writer.upsertEmbeddings(view, [{ id: second.id, kind: "belief", vector: v2, model: "m@1", textHash: embeddingTextHash(second.text) }]);
    const hits = await reader.vectorSearch(view, v2, { k: 5, model: "m@1" });
    expect(hits[0]?.id).toBe(second.id);
    expect(hits[0]?.similarity).toBeCloseTo(1, 5);
    expect(hits).toHaveLength(2);

    // The first belief's vector replaced by the second's: the reader ranks it with its new vector.
    await writer.upsertEmbeddings(view, [{ id: first.id, kind: "belief", vector: v2, model: "m@1", textHash: embeddingTextHash(first.text) }]);
    const after = await reader.vectorSearch(view, v2, { k: 5, model: "m@1" });
    expect(after.map((h) => h.similarity).every((s) => Math.abs(s - 1) < 1e-5)).toBe(true);
  }, 120_000);

  it("answers nothing outside the caller's view", async () => {
    const store = createSqlGraphStore({ sql: db.sql });
    const scope = uid("vi-home");
    const other = uid("vi-other");
    const next = randomUnit(7);
    const mine = makeBelief(scope, "A belief of the home scope.");
    const theirs = makeBelief(other, "A belief of another scope.");
    const vector = next();
    await store.apply(changeSet({ beliefs: [{ belief: mine, expectedVersion: null }, { belief: theirs, expectedVersion: null }] }));
    await store.upsertEmbeddings({ homeScopeId: scope, visibleScopeIds: [scope] }, [{ id: mine.id, kind: "belief", vector, model: "m@1", textHash: embeddingTextHash(mine.text) }]);
    await store.upsertEmbeddings({ homeScopeId: other, visibleScopeIds: [other] }, [{ id: theirs.id, kind: "belief", vector, model: "m@1", textHash: embeddingTextHash(theirs.text) }]);
    const home = { homeScopeId: scope, visibleScopeIds: [scope, other] };
    expect((await store.vectorSearch(home, vector, { k: 5, model: "m@1" })).map((h) => h.id)).toEqual([mine.id]);
    expect([...(await store.similarities!(home, vector, [mine.id, theirs.id], { model: "m@1" })).keys()]).toEqual([mine.id]);
    const notVisible = { homeScopeId: scope, visibleScopeIds: [other] };
    expect(await store.vectorSearch(notVisible, vector, { k: 5, model: "m@1" })).toEqual([]);
    expect(await store.vectorSearch(notVisible, vector, { k: 5, model: "m@1", withStats: true })).toEqual([]);
    expect((await store.vectorSearch(home, vector, { k: 5, model: "m@1", withStats: true })).map((h) => h.stats?.id)).toEqual([mine.id]);
    expect((await store.similarities!(notVisible, vector, [mine.id], { model: "m@1" })).size).toBe(0);
  }, 120_000);
});
