/**
 * On a Postgres server, `db.sql` runs a statement it has sent a few times as a named prepared statement on each
 * connection (statementNames in sql-executor.ts). The pool here has one connection, so `pg_prepared_statements`
 * read through `db.sql` (a statement without parameters: never prepared itself) shows everything prepared.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./database";
import { isDatabaseUnavailable } from "./db-errors";
import { PLANNED_WITH_VALUES, statementNames } from "./sql-executor";
import { serverBackend, type TestLocation } from "./testing/test-backends";

type Prepared = { name: string; statement: string; executions: number };

/** A throwaway server database opened with one connection (so it sees every statement prepared) and a probe table. */
function probeDatabase(): { readonly db: Database } {
  let location: TestLocation | undefined;
  const opened: { db: Database } = { db: undefined as unknown as Database };
  beforeAll(async () => {
    location = await serverBackend.create();
    opened.db = await location.open({ maxConnections: 1 });
    await opened.db.sql.query(`CREATE TABLE "prep_probe" ("id" INTEGER PRIMARY KEY, "note" TEXT NOT NULL)`);
  });
  afterAll(async () => {
    await opened.db?.close();
    await location?.cleanup();
  });
  return opened;
}

describe("named prepared statements on a Postgres server", () => {
  const probe = probeDatabase();

  const prepared = () =>
    probe.db.sql.query<Prepared>(
      `SELECT name, statement, (generic_plans + custom_plans)::int AS executions FROM pg_prepared_statements WHERE NOT from_sql ORDER BY name`,
    );
  it("prepares a statement run many times once on its connection, with the rows the unnamed statement gave", async () => {
    const text = `SELECT $1::int + 1 AS "next", $2::text[] AS "words", '{"a": [1, 2]}'::jsonb AS "doc", 0.5::float8 AS "half",
      12.25::numeric AS "exact", NULL::text AS "nothing", TIMESTAMPTZ '2026-01-02T03:04:05Z' AS "at", $3::boolean AS "flag"`;
    const params = [41, ["alpha", "beta"], true];
    const results: unknown[] = [];
    for (let i = 0; i < 12; i++) results.push(await probe.db.sql.query(text, params));
    for (const rows of results) expect(rows).toEqual(results[0]);

    const mine = (await prepared()).filter((row) => row.statement === text);
    // Named from its third run on: parsed once, then executed ten times.
    expect(mine).toHaveLength(1);
    expect(mine[0]!.executions).toBe(10);
    expect(mine[0]!.name).toMatch(/^credence_/);
  });

  it("keeps a flood of distinct texts within the bound, and keeps running the ones it prepared", async () => {
    for (let i = 0; i < 260; i++) {
      const text = `SELECT $1::int + ${i} AS "v"`;
      for (let run = 0; run < 4; run++) expect(await probe.db.sql.query(text, [run])).toEqual([{ v: run + i }]);
    }
    const after = await prepared();
    expect(after).toHaveLength(200);
    // Once full, a new text runs unnamed however often it comes; the prepared ones still run.
    for (let run = 0; run < 10; run++) expect(await probe.db.sql.query(`SELECT $1::int * 1000 AS "v"`, [run])).toEqual([{ v: run * 1000 }]);
    expect(await prepared()).toHaveLength(200);
    expect(await probe.db.sql.query(`SELECT $1::int + 7 AS "v"`, [1])).toEqual([{ v: 8 }]);
  });
});

describe("errors of named prepared statements on a Postgres server", () => {
  const probe = probeDatabase();

  const isPrepared = async (text: string) =>
    (await probe.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [text]))[0]!.n === 1;
  const backendPid = async () => (await probe.db.sql.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`))[0]!.pid;

  it("fails as the unnamed statement failed, on the pool and inside a transaction, and keeps the transaction's connection", async () => {
    const text = `SELECT 100 / $1::int AS "q"`;
    const describeFailure = (caught: unknown) => {
      const error = caught as Record<string, unknown>;
      return { name: error.constructor.name, code: error.code, message: error.message, severity: error.severity, unavailable: isDatabaseUnavailable(error) };
    };
    const expected = { name: "DatabaseError", code: "22012", message: "division by zero", severity: "ERROR", unavailable: false };
    // The first two runs are unnamed, the rest named. pg-pool discards a connection whose `pool.query` failed (as
    // before), so the next statement runs on a fresh connection and prepares the text there again.
    for (let i = 0; i < 4; i++) {
      expect(await probe.db.sql.query(text, [4])).toEqual([{ q: 25 }]);
      await expect(probe.db.sql.query(text, [0]).catch((caught: unknown) => Promise.reject(describeFailure(caught)))).rejects.toEqual(expected);
    }
    expect(await probe.db.sql.query(text, [5])).toEqual([{ q: 20 }]);
    expect(await isPrepared(text)).toBe(true);

    const pid = await backendPid();
    await expect(
      probe.db.sql.transaction(async (tx) => {
        expect(await tx.query(text, [2])).toEqual([{ q: 50 }]);
        await tx.query(text, [0]);
      }),
    ).rejects.toMatchObject({ code: "22012", message: "division by zero" });
    // A transaction's connection goes back to the pool after ROLLBACK, its prepared statement still there.
    expect(await backendPid()).toBe(pid);
    expect(await isPrepared(text)).toBe(true);
    expect(await probe.db.sql.query(text, [10])).toEqual([{ q: 10 }]);
  });

  it("rolls a transaction back when its prepared statement fails, and the statement runs again afterwards", async () => {
    const insert = `INSERT INTO "prep_probe" ("id", "note") VALUES ($1, $2)`;
    for (let id = 1; id <= 4; id++) await probe.db.sql.query(insert, [id, "kept"]);
    expect(await isPrepared(insert)).toBe(true);
    const pid = await backendPid();

    await expect(
      probe.db.sql.transaction(async (tx) => {
        await tx.query(insert, [10, "dropped"]);
        await tx.query(insert, [1, "duplicate"]);
      }),
    ).rejects.toMatchObject({ code: "23505", constraint: "prep_probe_pkey" });
    // A statement first named inside a transaction that rolls back stays prepared (Postgres does not roll it back).
    const fresh = `UPDATE "prep_probe" SET "note" = $2 WHERE "id" = $1`;
    await probe.db.sql.query(fresh, [1, "a"]);
    await probe.db.sql.query(fresh, [1, "b"]);
    await expect(
      probe.db.sql.transaction(async (tx) => {
        await tx.query(fresh, [2, "dropped"]);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await isPrepared(fresh)).toBe(true);
    await probe.db.sql.query(fresh, [3, "after"]);

    const rows = await probe.db.sql.query<{ id: number; note: string }>(`SELECT "id", "note" FROM "prep_probe" ORDER BY "id"`);
    expect(rows).toEqual([
      { id: 1, note: "b" },
      { id: 2, note: "kept" },
      { id: 3, note: "after" },
      { id: 4, note: "kept" },
    ]);
    expect(await backendPid()).toBe(pid);
    await expect(probe.db.sql.query(insert, [2, null])).rejects.toMatchObject({ code: "23502", column: "note" });
  });
});

describe("a prepared statement made stale by DDL on a Postgres server", () => {
  let location: TestLocation;
  let db: Database;

  beforeAll(async () => {
    location = await serverBackend.create();
    db = await location.open({ maxConnections: 1 });
    for (const table of ["stale_pool", "stale_tx"]) {
      await db.sql.query(`CREATE TABLE "${table}" ("id" INTEGER PRIMARY KEY)`);
      await db.sql.query(`INSERT INTO "${table}" VALUES (1)`);
    }
  });
  afterAll(async () => {
    await db?.close();
    await location?.cleanup();
  });

  const backendPid = async () => (await db.sql.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`))[0]!.pid;

  it("answers a query whose prepared statement no longer fits its table (run again unnamed)", async () => {
    const text = `SELECT * FROM "stale_pool" WHERE "id" = $1`;
    for (let i = 0; i < 4; i++) expect(await db.sql.query(text, [1])).toEqual([{ id: 1 }]);
    await db.sql.query(`ALTER TABLE "stale_pool" ADD COLUMN "note" TEXT DEFAULT 'added'`);
    expect(await db.sql.query(text, [1])).toEqual([{ id: 1, note: "added" }]);
    expect(await db.sql.query(text, [1])).toEqual([{ id: 1, note: "added" }]);
  });

  it("fails the transaction that met one, and discards its connection rather than return it to the pool", async () => {
    const text = `SELECT * FROM "stale_tx" WHERE "id" = $1`;
    for (let i = 0; i < 4; i++) expect(await db.sql.query(text, [1])).toEqual([{ id: 1 }]);
    const pid = await backendPid();
    await db.sql.query(`ALTER TABLE "stale_tx" ADD COLUMN "note" TEXT DEFAULT 'added'`);
    await expect(db.sql.transaction((tx) => tx.query(text, [1]))).rejects.toMatchObject({ code: "0A000" });
    expect(await backendPid()).not.toBe(pid);
    expect(await db.sql.transaction((tx) => tx.query(text, [1]))).toEqual([{ id: 1, note: "added" }]);
  });
});

describe("statementNames", () => {
  it("names a text with parameters from its third time on, the same name every time, one name per text", () => {
    const nameOf = statementNames();
    const text = `SELECT $1::int`;
    expect([nameOf(text, [1]), nameOf(text, [2])]).toEqual([undefined, undefined]);
    const name = nameOf(text, [3]);
    expect(name).toMatch(/^credence_[\w-]{20}$/);
    expect(nameOf(text, [4])).toBe(name);
    const other = `SELECT $1::int + 0`;
    for (let i = 0; i < 2; i++) nameOf(other, [i]);
    expect(nameOf(other, [9])).not.toBe(name);
    // The name depends on the text only: another process (another namer) gives the same.
    const again = statementNames();
    for (let i = 0; i < 2; i++) again(text, [i]);
    expect(again(text, [0])).toBe(name);
  });

  it("never names a statement without parameters or one planned with its values, and names no more than `max` texts", () => {
    const nameOf = statementNames({ after: 1, max: 3 });
    expect(nameOf("COMMIT")).toBeUndefined();
    expect(nameOf("SELECT 1", [])).toBeUndefined();
    for (let i = 0; i < 5; i++) expect(nameOf(`${PLANNED_WITH_VALUES} SELECT $1::int`, [i])).toBeUndefined();
    const names = Array.from({ length: 5 }, (_, i) => nameOf(`SELECT $1::int + ${i}`, [i]));
    expect(names.filter((name) => name !== undefined)).toHaveLength(3);
    expect(new Set(names.slice(0, 3)).size).toBe(3);
  });
});
