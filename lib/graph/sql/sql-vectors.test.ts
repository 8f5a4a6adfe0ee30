/**
 * Which vector path the one migration leaves on each SQL backend: pgvector's native column on embedded PGlite (it
 * loads the extension), and on a server exactly when the server offers the extension — otherwise the exact REAL[]
 * fallback, which the contract suite then exercises (this machine's Postgres 15 has no pgvector).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { TEST_BACKENDS, type TestLocation } from "@/lib/db/testing/test-backends";
import { embeddingTextHash } from "../embeddings";
import { changeSet, makeBelief, uid } from "../testing/fixtures";
import { createSqlGraphStore } from "./sql-graph-store";
import { detectPgvector, dotPacked, packedHexOf, sketchCandidates, sketchOf } from "./sql-vectors";

describe.each(TEST_BACKENDS)("graph_embeddings on $name", (backend) => {
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

  it("has the native pgvector column exactly when the extension is available", async () => {
    const available = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'vector'");
    const expected = backend.name === "embedded" ? true : (available[0]?.n ?? 0) > 0;
    expect(await detectPgvector(db.sql)).toBe(expected);
    const columns = await db.sql.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'graph_embeddings' ORDER BY column_name",
    );
    expect(columns.map((c) => c.column_name)).toEqual(
      expect.arrayContaining(["dimensions", "id", "kind", "model", "scope", "text_hash", "updated_at", "vector"]),
    );
  });

  it("refuses a row whose dimensions do not match its vector", async () => {
    await expect(
      db.sql.query(
        `INSERT INTO graph_embeddings (id, scope, kind, model, dimensions, text_hash, vector) VALUES ('x', 's', 'belief', 'm', 3, 'h', '{1,0}')`,
      ),
    ).rejects.toThrow();
  });

  it("packs and sketches a vector in the application exactly as the migration's backfill does in SQL", async () => {
    // The migration fills `packed` and the sketches of rows written before it with these expressions; the store
    // writes them from JavaScript (sketchOf, packedHexOf): both must give the same bytes and bits.
    const vector = Float32Array.from({ length: 384 }, (_, i) => Math.sin(i * 1.7) * (i % 7 === 0 ? 0 : 1) - (i === 5 ? 1e-8 : 0));
    const literal = `{${Array.from(vector).join(",")}}`;
    const [row] = await db.sql.query<{ packed: string; sketch: string }>(
      `SELECT encode((SELECT string_agg(float4send(x), ''::bytea ORDER BY i) FROM unnest($1::real[]) WITH ORDINALITY AS u(x, i)), 'hex') AS packed,
              (SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i) FROM unnest($1::real[]) WITH ORDINALITY AS u(x, i)) AS sketch`,
      [literal],
    );
    expect(row?.packed).toBe(packedHexOf(vector));
    expect(row?.sketch).toBe(sketchOf(vector));
    const query = Float32Array.from({ length: 384 }, (_, i) => Math.cos(i));
    const expected = Array.from(vector).reduce((sum, x, i) => sum + x * (query[i] ?? 0), 0);
    expect(dotPacked(query, Buffer.from(packedHexOf(vector), "hex"))).toBeCloseTo(expected, 10);
    expect(dotPacked(query.subarray(0, 8), Buffer.from(packedHexOf(vector), "hex"))).toBeNull();
  });

  it("past sketchCandidates(k) vectors, finds a near-duplicate through the sketch pass and scores every hit exactly", async () => {
    const store = createSqlGraphStore({ sql: db.sql, location: db.describe() });
    const scope = uid("sketch");
    const view = { homeScopeId: scope, visibleScopeIds: [scope] };
    const count = sketchCandidates(5) + 200;
    let x = 12345;
    const random = () => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x / 0xffffffff - 0.5;
    };
    const unit = (v: Float32Array) => {
      const n = Math.hypot(...v);
      return v.map((c) => c / n);
    };
    const beliefs = Array.from({ length: count }, (_, i) => makeBelief(scope, `Sketch belief ${i}.`));
    const vectors = beliefs.map(() => unit(Float32Array.from({ length: 384 }, random)));
    await store.apply(changeSet({ beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })) }));
    await store.upsertEmbeddings(
      view,
      beliefs.map((b, i) => ({ id: b.id, kind: "belief" as const, vector: vectors[i] as Float32Array, model: "m@1", textHash: embeddingTextHash(b.text) })),
    );
    // The query: belief 777's vector, slightly moved.
    const target = 777;
    const query = unit(Float32Array.from(vectors[target] as Float32Array, (c) => c + 0.01 * random()));
    const hits = await store.vectorSearch(view, query, { k: 5, model: "m@1" });
    expect(hits[0]?.id).toBe(beliefs[target]?.id);
    expect(hits).toHaveLength(5);
    for (let i = 0; i < hits.length; i++) {
      const index = beliefs.findIndex((b) => b.id === hits[i]?.id);
      const exact = Array.from(query).reduce((sum, c, d) => sum + c * ((vectors[index] as Float32Array)[d] ?? 0), 0);
      expect(hits[i]?.similarity).toBeCloseTo(exact, 5);
      if (i > 0) expect(hits[i]?.similarity).toBeLessThanOrEqual(hits[i - 1]?.similarity ?? 1);
    }
  }, 120_000);
});
