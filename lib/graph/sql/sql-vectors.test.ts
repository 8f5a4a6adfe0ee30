/**
 * Which vector path the one migration leaves on each SQL backend: pgvector's native column on embedded PGlite (it
 * loads the extension), and on a server exactly when the server offers the extension — otherwise the exact REAL[]
 * fallback, which the contract suite then exercises (this machine's Postgres 15 has no pgvector).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { TEST_BACKENDS, type TestLocation } from "@/lib/db/testing/test-backends";
import { detectPgvector, dotPacked, packedHexOf, sketchOf } from "./sql-vectors";

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
});
