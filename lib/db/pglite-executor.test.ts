import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapPgError } from "@/lib/graph/sql/pg-errors";
import { ChangeSetRejected, VersionConflict } from "@/lib/graph/errors";
import { startEmbeddedSocketServer, TurnLostError, type EmbeddedSocketServer } from "./embedded-socket-server";
import { pgliteExecutor, preparedCount } from "./pglite-executor";
import { PLANNED_WITH_VALUES } from "./sql-executor";
import { NAMED_STATEMENTS_MAX, poolExecutor, type SqlExecutor } from "./sql-executor";

/**
 * The in-process executor must answer exactly as a pg connection to the same PGlite does (the SQL graph store was
 * written against pg's values and errors), and take turns with the socket's connections.
 */
describe("the in-process PGlite executor", () => {
  let db: PGlite;
  let server: EmbeddedSocketServer;
  let pool: pg.Pool;
  let direct: SqlExecutor;
  let pooled: SqlExecutor;
  /** Runs `fn` with a connection of its own to the socket server, closed afterwards. */
  const withClient = async (fn: (client: pg.Client) => Promise<void>): Promise<void> => {
    const { address } = server;
    if (address.kind !== "tcp") throw new Error("expected loopback");
    const client = new pg.Client({ host: address.host, port: address.port, user: "postgres", database: "postgres" });
    await client.connect();
    try {
      await fn(client);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    server = await startEmbeddedSocketServer(db, { socketDir: null, idleInTransactionMs: 300 });
    const { address } = server;
    pool = new pg.Pool({ host: address.kind === "tcp" ? address.host : "", port: address.port, user: "postgres", database: "postgres", max: 3 });
    pooled = poolExecutor(pool);
    direct = pgliteExecutor(db, server.runTurn);
    await db.exec(`
      CREATE EXTENSION vector;
      CREATE TABLE "owners" ("id" TEXT PRIMARY KEY);
      CREATE TABLE "pets" (
        "id" TEXT CONSTRAINT "pets_pkey" PRIMARY KEY,
        "owner" TEXT CONSTRAINT "pets_owner_fkey" REFERENCES "owners" ("id"),
        "legs" INTEGER CONSTRAINT "pets_legs_check" CHECK ("legs" >= 0),
        "data" JSONB
      );
      CREATE TABLE "counter" ("k" INTEGER PRIMARY KEY, "n" INTEGER NOT NULL);
      INSERT INTO "owners" VALUES ('ada');
      INSERT INTO "counter" VALUES (1, 0);
    `);
  });
  afterAll(async () => {
    await pool?.end();
    await server?.close();
    await db?.close();
  });

  const when = new Date("2026-03-04T05:06:07.089Z");
  // Every type the SQL store sends or reads (its casts), plus pg's other parsed types.
  const probes: [name: string, text: string, params?: unknown[]][] = [
    ["scalars", `SELECT $1::text AS "t", $2::int AS "i", $3::bigint AS "b", $4::float AS "f", $5::boolean AS "yes", $6::boolean AS "no"`, ["héllo, 'world'", 42, "9007199254740993", 1.25, true, false]],
    ["numbers given as strings", `SELECT $1::int AS "i", $2::float AS "f", $3::numeric AS "n"`, ["7", "2.5", "12345678901234567890.123"]],
    ["json from strings and objects", `SELECT $1::jsonb AS "j", $2::jsonb AS "o", $3::json AS "js", $4::jsonb AS "s"`, [JSON.stringify({ a: [1, 2] }), { nested: { x: 1, when } }, '{"b": null}', '"just a string"']],
    ["timestamps from strings and Dates", `SELECT $1::timestamptz AS "at", $2::timestamptz AS "d", $2::timestamptz::text AS "dt", $3::timestamptz AS "none"`, ["2026-01-02T03:04:05.678Z", when, null]],
    ["arrays", `SELECT $1::text[] AS "tags", $2::int[] AS "ns", $3::text[] AS "empty", $4::float[] AS "fs"`, [["a", "b,c", '"q"', null, "{x}"], [1, 2, 3], [], [0.5, -1e-9]]],
    ["bytea in and out", `SELECT $1::bytea AS "raw", '\\x0102ff'::bytea AS "lit", float4send(1.5::float4) AS "packed"`, [Buffer.from([0, 1, 2, 255])]],
    ["varbit, vector, regconfig, xid8", `SELECT $1::varbit AS "bits", $2::vector AS "v", '[1,2,3]'::vector AS "lit", to_tsquery('simple'::regconfig, $3) AS "q", 'simple'::regconfig AS "cfg", pg_current_xact_id() >= $4::xid8 AS "later", '17'::xid8 AS "x8"`, ["0101", "[0.5,1,2]", "cats & dogs", "0"]],
    ["nulls and undefined", `SELECT $1::text IS NULL AS "n1", $2::int AS "n2", $3::jsonb AS "n3"`, [null, undefined, null]],
    [
      "types without parameters",
      `SELECT count(*) AS "n", 1.5::numeric AS "num", 2::int2 AS "small", 1.25::float4 AS "real", '2026-03-04'::date AS "day",
              '2026-01-02 03:04:05'::timestamp AS "ts", '2026-01-02 03:04:05+02'::timestamptz AS "tz", interval '1 day 2 hours' AS "span",
              '00000000-0000-0000-0000-000000000001'::uuid AS "id", NULL AS "nothing", ARRAY[1.5, 2.5]::float8[] AS "floats",
              ARRAY['{"a": 1}']::jsonb[] AS "docs", ARRAY[true, false] AS "flags", ARRAY[1, 2]::bigint[] AS "bigs",
              ARRAY['2026-01-02 03:04:05+00'::timestamptz] AS "times", 'x'::char AS "ch", 'y'::name AS "nm", 42::oid AS "o",
              jsonb_build_object('k', ARRAY[1, 2]) AS "built", 'Infinity'::float8 AS "inf", 'NaN'::float8 AS "nan"
         FROM "owners"`,
    ],
    ["repeated column names", `SELECT 1 AS "a", 2 AS "a", $1::text AS "b"`, ["x"]],
    ["no rows", `SELECT "id" FROM "owners" WHERE "id" = $1`, ["nobody"]],
    ["an empty parameter list", `SELECT 'plain' AS "p"`, []],
  ];

  it.each(probes)("returns what pg returns: %s", async (_name, text, params) => {
    const viaPool = await pooled.query(text, params);
    const viaDirect = await direct.query(text, params);
    expect(viaDirect).toEqual(viaPool);
    // Same values down to their classes (Date, Buffer, PostgresInterval) and own keys' order.
    expect(viaDirect.map((row) => Object.entries(row).map(([key, value]) => [key, value?.constructor]))).toEqual(
      viaPool.map((row) => Object.entries(row).map(([key, value]) => [key, value?.constructor])),
    );
  });

  it("writes the same values pg writes (a JSON string parameter is stored once, not double-encoded)", async () => {
    const insert = `INSERT INTO "pets" ("id", "owner", "legs", "data") VALUES ($1, $2, $3, $4::jsonb) RETURNING *`;
    const fromPool = await pooled.query(insert, ["p1", "ada", 4, JSON.stringify({ name: "Rex", at: when })]);
    const fromDirect = await direct.query(insert, ["p2", "ada", 4, JSON.stringify({ name: "Rex", at: when })]);
    expect(fromDirect.map((r) => ({ ...r, id: "" }))).toEqual(fromPool.map((r) => ({ ...r, id: "" })));
    expect(await direct.query(`SELECT jsonb_typeof("data") AS "t" FROM "pets" WHERE "id" = 'p2'`)).toEqual([{ t: "object" }]);
    expect(await direct.query(`UPDATE "pets" SET "legs" = 3 WHERE "id" = $1`, ["p2"])).toEqual([]);
  });

  const failureOf = async (run: () => Promise<unknown>) => {
    const error = await run().then(
      () => {
        throw new Error("expected the statement to fail");
      },
      (caught: unknown) => caught as Error,
    );
    return { ...error, class: error.constructor, text: error.message };
  };

  it.each([
    ["a unique violation", `INSERT INTO "pets" ("id", "legs") VALUES ($1, 1)`, ["p1"], "23505", "pets_pkey"],
    ["a foreign key violation", `INSERT INTO "pets" ("id", "owner") VALUES ($1, $2)`, ["p9", "nobody"], "23503", "pets_owner_fkey"],
    ["a check violation", `INSERT INTO "pets" ("id", "legs") VALUES ($1, $2)`, ["p9", -1], "23514", "pets_legs_check"],
    ["a serialization failure", `DO $$ BEGIN RAISE EXCEPTION 'another writer won' USING ERRCODE = '40001'; END $$`, undefined, "40001", undefined],
    ["a syntax error", `SELEC 1`, undefined, "42601", undefined],
    ["a bad parameter", `SELECT $1::int AS "i"`, ["seven"], "22P02", undefined],
  ])("fails with pg's error for %s", async (_name, text, params, code, constraint) => {
    const viaPool = await failureOf(() => pooled.query(text, params));
    const viaDirect = await failureOf(() => direct.query(text, params));
    expect(viaDirect).toEqual(viaPool);
    expect(viaDirect).toMatchObject({ class: pg.DatabaseError, code, constraint });
    // The session is usable afterwards (not left in an aborted state).
    expect(await direct.query(`SELECT 1::int AS "one"`)).toEqual([{ one: 1 }]);
  });

  it("gives the graph store's error mapping what it reads", async () => {
    const duplicate = await direct.query(`INSERT INTO "pets" ("id") VALUES ('p1')`).catch((error: unknown) => error);
    expect(duplicate).toMatchObject({ code: "23505", constraint: "pets_pkey", detail: "Key (id)=(p1) already exists." });
    const serialization = await direct.query(`DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '40001'; END $$`).catch((error: unknown) => error);
    expect(mapPgError(serialization)).toBeInstanceOf(VersionConflict);
    expect(mapPgError(serialization)).not.toBeInstanceOf(ChangeSetRejected);
  });

  it("commits, rolls back on a throw or a failed statement, and nests with savepoints", async () => {
    await direct.transaction(async (tx) => {
      await tx.query(`INSERT INTO "pets" ("id") VALUES ('t1')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.query(`INSERT INTO "pets" ("id") VALUES ('t2')`);
          throw new Error("inner");
        }),
      ).rejects.toThrow("inner");
      await tx.query(`INSERT INTO "pets" ("id") VALUES ('t3')`);
    });
    await expect(
      direct.transaction(async (tx) => {
        await tx.query(`INSERT INTO "pets" ("id") VALUES ('t4')`);
        await tx.query(`INSERT INTO "pets" ("id") VALUES ('t1')`);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    const ids = await pooled.query<{ id: string }>(`SELECT "id" FROM "pets" WHERE "id" LIKE 't%' ORDER BY "id"`);
    expect(ids.map((r) => r.id)).toEqual(["t1", "t3"]);
    expect(db.isInTransaction()).toBe(false);
  });

  it("waits for a connection's open transaction and reads what it committed", async () => {
    await withClient(async (client) => {
      await client.query("BEGIN");
      await client.query(`UPDATE "counter" SET "n" = -5 WHERE "k" = 1`);
      // Same session: without the turn, this read would see the uncommitted -5.
      const read = direct.query<{ n: number }>(`SELECT "n" FROM "counter" WHERE "k" = 1`);
      await client.query(`UPDATE "counter" SET "n" = 7 WHERE "k" = 1`);
      await client.query("COMMIT");
      expect(await read).toEqual([{ n: 7 }]);
    });
  });

  it("holds the turn for a whole transaction: a connection's statement runs after it", async () => {
    await withClient(async (client) => {
      let clientRead: Promise<pg.QueryResult<{ n: number }>> | undefined;
      await direct.transaction(async (tx) => {
        await tx.query(`UPDATE "counter" SET "n" = -9 WHERE "k" = 1`);
        clientRead = client.query<{ n: number }>(`SELECT "n" FROM "counter" WHERE "k" = 1`);
        let answered = false;
        void clientRead.then(() => (answered = true));
        // The read reaches the server and waits behind this transaction (else this case proves nothing).
        while (server.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        expect(answered).toBe(false);
        await tx.query(`UPDATE "counter" SET "n" = 11 WHERE "k" = 1`);
      });
      expect((await clientRead)?.rows).toEqual([{ n: 11 }]);
    });
  });

  it("takes the turn from a transaction that waits on a connection, rolls it back, and serves that connection", async () => {
    await withClient(async (client) => {
      let clientRead: Promise<pg.QueryResult<{ n: number }>> | undefined;
      const deadlocked = direct.transaction(async (tx) => {
        await tx.query(`UPDATE "counter" SET "n" = -1 WHERE "k" = 1`);
        // Waits on a connection that waits for this transaction's turn: only the idle guard ends it.
        clientRead = client.query<{ n: number }>(`SELECT "n" FROM "counter" WHERE "k" = 1`);
        await clientRead;
        await tx.query(`UPDATE "counter" SET "n" = -2 WHERE "k" = 1`);
      });
      await expect(deadlocked).rejects.toBeInstanceOf(TurnLostError);
      await expect(deadlocked).rejects.toMatchObject({ code: "25P03" });
      expect((await clientRead)?.rows).toEqual([{ n: 11 }]);
      expect(await direct.query(`SELECT "n" FROM "counter" WHERE "k" = 1`)).toEqual([{ n: 11 }]);
    });
  });

  it("gives the turn back when its work throws, rolling back a transaction left open", async () => {
    await expect(
      server.runTurn(async (turn) => {
        await turn.step(() => db.exec(`BEGIN; UPDATE "counter" SET "n" = -3 WHERE "k" = 1`));
        throw new Error("left open");
      }),
    ).rejects.toThrow("left open");
    expect(db.isInTransaction()).toBe(false);
    expect(await pooled.query(`SELECT "n" FROM "counter" WHERE "k" = 1`)).toEqual([{ n: 11 }]);
  });
});

describe("closing the socket server with in-process work in flight", () => {
  it("lets a running transaction and a queued statement finish before it closes, then refuses new work", async () => {
    const db = await PGlite.create();
    const server = await startEmbeddedSocketServer(db, { socketDir: null });
    const sql = pgliteExecutor(db, server.runTurn);
    await sql.query(`CREATE TABLE "log" ("n" INTEGER PRIMARY KEY)`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = sql.transaction(async (tx) => {
      await tx.query(`INSERT INTO "log" VALUES (1)`);
      await held;
      await tx.query(`INSERT INTO "log" VALUES (2)`);
    });
    const queued = sql.query(`INSERT INTO "log" VALUES (3)`);
    const closed = server.close();
    setTimeout(release, 50);
    await closed;
    await expect(transaction).resolves.toBeUndefined();
    await expect(queued).resolves.toEqual([]);
    await expect(sql.query(`SELECT 1`)).rejects.toThrow(/closed/);
    expect((await db.query<{ n: number }>(`SELECT "n" FROM "log" ORDER BY "n"`)).rows.map((r) => r.n)).toEqual([1, 2, 3]);
    await db.close();
  });
});

describe("statements prepared on the embedded session", () => {
  let db: PGlite;
  let server: EmbeddedSocketServer;
  let sql: SqlExecutor;
  const held = async () =>
    (await db.query<{ name: string; statement: string }>(`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'credence_%' ORDER BY statement`)).rows;

  beforeAll(async () => {
    db = await PGlite.create();
    server = await startEmbeddedSocketServer(db, { socketDir: null });
    sql = pgliteExecutor(db, server.runTurn);
    await sql.query(`CREATE TABLE "plants" ("id" TEXT PRIMARY KEY, "waterings" INTEGER NOT NULL)`);
    await sql.query(`INSERT INTO "plants" VALUES ('fern', 3), ('cactus', 0)`);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it("prepares a parameterised text on its third use, once, and answers as the unnamed statement did", async () => {
    const text = `SELECT "id", "waterings" FROM "plants" WHERE "waterings" >= $1::int ORDER BY "id"`;
    const before = preparedCount(db);
    const first = await sql.query(text, [0]);
    expect(await sql.query(text, [0])).toEqual(first);
    expect(preparedCount(db)).toBe(before);
    for (let i = 0; i < 4; i++) expect(await sql.query(text, [0])).toEqual(first);
    expect(await sql.query(text, [1])).toEqual([{ id: "fern", waterings: 3 }]);
    expect(preparedCount(db)).toBe(before + 1);
    expect((await held()).filter((h) => h.statement === text)).toHaveLength(1);
    // Without parameters: the simple protocol, never prepared.
    await sql.query(`SELECT count(*) FROM "plants"`);
    await sql.query(`SELECT count(*) FROM "plants"`);
    expect(preparedCount(db)).toBe(before + 1);
  });

  it("never prepares a text planned with its values", async () => {
    const text = `${PLANNED_WITH_VALUES} SELECT "id" FROM "plants" WHERE ($1::text IS NULL OR "id" = $1) ORDER BY "id"`;
    const before = preparedCount(db);
    for (let i = 0; i < 4; i++) expect(await sql.query(text, ["fern"])).toEqual([{ id: "fern" }]);
    expect(preparedCount(db)).toBe(before);
    expect((await held()).filter((h) => h.statement === text)).toHaveLength(0);
  });

  it("keeps a prepared statement usable after it fails, and after a transaction that used it rolls back", async () => {
    const text = `SELECT 12 / $1::int AS "q"`;
    await sql.query(text, [3]);
    expect(await sql.query(text, [4])).toEqual([{ q: 3 }]);
    await expect(sql.query(text, [0])).rejects.toMatchObject({ code: "22012" });
    expect(await sql.query(text, [6])).toEqual([{ q: 2 }]);
    await expect(
      sql.transaction(async (tx) => {
        expect(await tx.query(text, [2])).toEqual([{ q: 6 }]);
        await tx.query(`UPDATE "plants" SET "waterings" = "waterings" + $1::int WHERE "id" = 'fern'`, [1]);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await sql.query(text, [1])).toEqual([{ q: 12 }]);
    expect(await sql.query(`SELECT "waterings" FROM "plants" WHERE "id" = $1`, ["fern"])).toEqual([{ waterings: 3 }]);
  });

  it("parses afresh a statement the session lost (DEALLOCATE from another connection) without failing the call", async () => {
    const text = `SELECT "id" FROM "plants" WHERE "id" = $1`;
    for (let i = 0; i < 3; i++) await sql.query(text, ["fern"]);
    expect((await held()).some((h) => h.statement === text)).toBe(true);
    await db.query(`DEALLOCATE ALL`);
    expect(await sql.query(text, ["cactus"])).toEqual([{ id: "cactus" }]);
    expect(await sql.query(text, ["fern"])).toEqual([{ id: "fern" }]);
  });

  it("prepares a text once when one transaction runs it several times at once", async () => {
    const text = `SELECT "id" FROM "plants" WHERE "waterings" > $1::int ORDER BY "id"`;
    const answers = await sql.transaction((tx) => Promise.all([-1, 0, 1, 2, 2, 2].map((n) => tx.query(text, [n]))));
    expect(answers[0]).toEqual([{ id: "cactus" }, { id: "fern" }]);
    expect(answers.slice(1)).toEqual(Array(5).fill([{ id: "fern" }]));
    expect((await held()).filter((h) => h.statement === text)).toHaveLength(1);
    expect(await sql.query(text, [2])).toEqual([{ id: "fern" }]);
  });

  it("parses again, even inside a transaction, a text whose preparing parse failed", async () => {
    const text = `SELECT "name" FROM "pots" WHERE "size" > $1::int`;
    for (let i = 0; i < 3; i++) await expect(sql.query(text, [0])).rejects.toMatchObject({ code: "42P01" });
    await sql.query(`CREATE TABLE "pots" ("name" TEXT PRIMARY KEY, "size" INTEGER NOT NULL)`);
    await sql.query(`INSERT INTO "pots" VALUES ('terracotta', 20)`);
    expect(await sql.transaction((tx) => tx.query(text, [10]))).toEqual([{ name: "terracotta" }]);
  });

  it("prepares at most NAMED_STATEMENTS_MAX texts per session; the rest run unnamed", async () => {
    const fresh = await PGlite.create();
    const socket = await startEmbeddedSocketServer(fresh, { socketDir: null });
    try {
      const run = pgliteExecutor(fresh, socket.runTurn);
      for (let i = 0; i < NAMED_STATEMENTS_MAX + 20; i++) {
        const text = `SELECT $1::int + ${i} AS "n"`;
        for (let j = 1; j <= 3; j++) expect(await run.query(text, [j])).toEqual([{ n: j + i }]);
      }
      expect(preparedCount(fresh)).toBe(NAMED_STATEMENTS_MAX);
      expect((await fresh.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements`)).rows[0]?.n).toBe(NAMED_STATEMENTS_MAX);
    } finally {
      await socket.close();
      await fresh.close();
    }
  });
});
