/**
 * Which vector path the one migration leaves on each SQL backend: pgvector's native column on embedded PGlite (it
 * loads the extension), and on a server exactly when the server offers the extension — otherwise the exact REAL[]
 * fallback, which the contract suite then exercises (this machine's Postgres 15 has no pgvector).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { TEST_BACKENDS, type TestLocation } from "@/lib/db/test-backends";
import { detectPgvector } from "./sql-vectors";

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
});
