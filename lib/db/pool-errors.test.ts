/**
 * A pooled connection that breaks while checked out (its backend terminated between two statements of a
 * transaction) must not end the process with an unhandled `error` event: the failure is logged once, the
 * transaction rejects, and the next statement runs on a fresh connection.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, setLogger } from "@/lib/ops/logger";
import type { Database } from "./database";
import { serverBackend, type TestLocation } from "./testing/test-backends";

const MESSAGE = "database: a pooled connection failed and is discarded";

describe("a pooled connection that breaks (Postgres server)", () => {
  let location: TestLocation;
  let db: Database;
  const lines: Record<string, unknown>[] = [];
  let onLine: (() => void) | undefined;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        onLine?.();
        done();
      },
    });
    setLogger(createLogger(sink));
    location = await serverBackend.create();
    db = await location.open();
  });
  afterAll(async () => {
    setLogger(undefined);
    await db?.close();
    await location?.cleanup();
  });

  const failureLogged = () =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (lines.some((line) => line.msg === MESSAGE)) resolve();
      };
      onLine = check;
      check();
    });

  it("logs the failure once, rejects the transaction, and serves the next queries on a fresh connection", async () => {
    let killedPid = 0;
    await expect(
      db.sql.transaction(async (tx) => {
        const [row] = await tx.query<{ pid: number }>(`SELECT pg_backend_pid() AS "pid"`);
        killedPid = row!.pid;
        // From another pooled connection, while this one is checked out and between statements.
        await db.sql.query(`SELECT pg_terminate_backend($1)`, [killedPid]);
        await failureLogged();
        await tx.query(`SELECT 1`);
      }),
    ).rejects.toThrow();
    expect(lines.filter((line) => line.msg === MESSAGE)).toHaveLength(1);
    expect(lines.find((line) => line.msg === MESSAGE)).toMatchObject({ level: 40 });

    const [fresh] = await db.sql.query<{ pid: number }>(`SELECT pg_backend_pid() AS "pid"`);
    expect(fresh!.pid).not.toBe(killedPid);
    const rows = await db.prisma.$queryRaw<{ one: number }[]>`SELECT 1::int AS "one"`;
    expect(rows).toEqual([{ one: 1 }]);
    await db.sql.transaction(async (tx) => {
      expect((await tx.query<{ pid: number }>(`SELECT pg_backend_pid() AS "pid"`))[0]!.pid).not.toBe(killedPid);
    });
  });
});
