import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedSocketServer, type EmbeddedSocketServer } from "./embedded-socket-server";

describe("embedded socket server", () => {
  let db: PGlite;
  let server: EmbeddedSocketServer;
  const connect = () => {
    const { address } = server;
    if (address.kind !== "tcp") throw new Error("expected loopback");
    return new pg.Client({ host: address.host, port: address.port, user: "postgres", database: "postgres" });
  };

  beforeAll(async () => {
    db = await PGlite.create();
    server = await startEmbeddedSocketServer(db, { socketDir: null, idleInTransactionMs: 300 });
    await db.exec(`CREATE TABLE "counter" ("k" INTEGER PRIMARY KEY, "n" INTEGER NOT NULL); INSERT INTO "counter" VALUES (1, 0);`);
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it("gives every connection its own answers under concurrent extended-protocol queries", async () => {
    const { address } = server;
    const pooled = new pg.Pool({ host: address.kind === "tcp" ? address.host : "", port: address.port, user: "postgres", database: "postgres", max: 12 });
    try {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) => pooled.query<{ k: number; v: number }>(`SELECT ${i} AS "k", $1::int AS "v"`, [i]).then((r) => r.rows[0])),
      );
      expect(answers.every((row, i) => row?.k === i && row?.v === i)).toBe(true);
    } finally {
      await pooled.end();
    }
  });

  it("serialises read-modify-write transactions from many connections", async () => {
    const clients = Array.from({ length: 6 }, connect);
    await Promise.all(clients.map((c) => c.connect()));
    try {
      await Promise.all(
        clients.map(async (client) => {
          for (let round = 0; round < 5; round++) {
            // One backend session serves every connection: only the turn queue keeps these transactions apart.
            await client.query("BEGIN");
            const { rows } = await client.query<{ n: number }>(`SELECT "n" FROM "counter" WHERE "k" = 1`);
            await client.query(`UPDATE "counter" SET "n" = $1 WHERE "k" = 1`, [(rows[0]?.n ?? 0) + 1]);
            await client.query("COMMIT");
          }
        }),
      );
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    expect((await db.query<{ n: number }>(`SELECT "n" FROM "counter"`)).rows[0]?.n).toBe(30);
  });

  it("rolls back the transaction of a connection that disconnects in the middle of it", async () => {
    // Both connect first: a new connection's startup also waits for an open transaction's turn.
    const quitter = connect();
    const other = connect();
    await Promise.all([quitter.connect(), other.connect()]);
    await quitter.query("BEGIN");
    await quitter.query(`UPDATE "counter" SET "n" = -1 WHERE "k" = 1`);
    try {
      const pending = other.query<{ n: number }>(`SELECT "n" FROM "counter" WHERE "k" = 1`);
      await quitter.end();
      expect((await pending).rows[0]?.n).toBe(30);
    } finally {
      await other.end();
    }
  });

  it("disconnects a connection idle inside a transaction while others wait, rolling it back", async () => {
    const idle = connect();
    idle.on("error", () => {});
    const waiting = connect();
    await Promise.all([idle.connect(), waiting.connect()]);
    await idle.query("BEGIN");
    await idle.query(`UPDATE "counter" SET "n" = -2 WHERE "k" = 1`);
    try {
      // Blocked behind the idle transaction until the server gives up on it.
      expect((await waiting.query<{ n: number }>(`SELECT "n" FROM "counter" WHERE "k" = 1`)).rows[0]?.n).toBe(30);
      await expect(idle.query("COMMIT")).rejects.toThrow();
    } finally {
      await waiting.end();
      await idle.end().catch(() => {});
    }
  });
});
