import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataFolderInUseError, LOCK_FILE_NAME } from "./data-folder-lock";
import { openDatabase, PGLITE_SHARED_BUFFERS, PLAN_CACHE_MODE, withPlanCacheMode, type Database } from "./database";
import { readMigrations } from "./migrate";
import { freshEmbeddedFolder, serverBackend, TEST_BACKENDS, type TestLocation } from "./testing/test-backends";
import { holdDataFolder, runNodeEval } from "./spawn-script";

describe.each(TEST_BACKENDS)("database on $name", (backend) => {
  let location: TestLocation;
  let db: Database;

  beforeAll(async () => {
    location = await backend.create();
    db = await location.open();
    await db.sql.query(`CREATE TABLE "tx_probe" ("id" INTEGER PRIMARY KEY, "note" TEXT)`);
  });
  afterAll(async () => {
    await db?.close();
    await location?.cleanup();
  });

  it("reports its mode and has applied the migrations", async () => {
    expect(db.mode).toBe(backend.name);
    const rows = await db.sql.query<{ name: string }>(`SELECT "name" FROM "_credence_migrations"`);
    expect(rows.map((row) => row.name)).toContain("20250101000000_identity");
    // PGlite runs with its smaller buffer pool; a Postgres server keeps its own setting.
    if (backend.name === "embedded") expect(await db.sql.query("SHOW shared_buffers")).toEqual([{ shared_buffers: PGLITE_SHARED_BUFFERS }]);
  });

  it("plans the statements it prepares with each call's values, on every connection", async () => {
    for (let i = 0; i < 3; i++) expect(await db.sql.query("SHOW plan_cache_mode")).toEqual([{ plan_cache_mode: PLAN_CACHE_MODE }]);
    await db.sql.transaction(async (tx) => expect(await tx.query("SHOW plan_cache_mode")).toEqual([{ plan_cache_mode: PLAN_CACHE_MODE }]));
  });

  it("commits a transaction, rolls one back when its function throws, and nests with savepoints", async () => {
    await db.sql.transaction(async (tx) => {
      await tx.query(`INSERT INTO "tx_probe" VALUES (1, 'kept')`);
    });
    await expect(
      db.sql.transaction(async (tx) => {
        await tx.query(`INSERT INTO "tx_probe" VALUES (2, 'dropped')`);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await db.sql.transaction(async (tx) => {
      await tx.query(`INSERT INTO "tx_probe" VALUES (3, 'outer')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.query(`INSERT INTO "tx_probe" VALUES (4, 'inner')`);
          throw new Error("inner boom");
        }),
      ).rejects.toThrow("inner boom");
    });
    const rows = await db.sql.query<{ id: number }>(`SELECT "id" FROM "tx_probe" ORDER BY "id"`);
    expect(rows.map((row) => row.id)).toEqual([1, 3]);
  });

  it("does not let another connection see or join an open transaction", async () => {
    let concurrentRead: Promise<{ n: number }[]> | undefined;
    await expect(
      db.sql.transaction(async (tx) => {
        await tx.query(`INSERT INTO "tx_probe" VALUES (10, 'uncommitted')`);
        // Issued from another pooled connection while this transaction is open, then given time to run.
        concurrentRead = db.sql.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "tx_probe" WHERE "id" = 10`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await concurrentRead).toEqual([{ n: 0 }]);
  });

  it("re-running the migrations applies nothing", async () => {
    const again = await location.open({ ifHeld: "connect" });
    try {
      expect(again.appliedMigrations).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it("rolls a failing migration back whole, keeping the ones before it", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "credence-migrations-"));
    const write = async (name: string, sql: string) => {
      await mkdir(path.join(dir, name));
      await writeFile(path.join(dir, name, "migration.sql"), sql);
    };
    const real = await readMigrations();
    for (const migration of real) await write(migration.name, migration.sql);
    await write("20990101000000_good", `CREATE TABLE "probe_good" ("id" INTEGER);`);
    await write("20990102000000_bad", `CREATE TABLE "probe_bad" ("id" INTEGER);\nSELECT * FROM "no_such_table";`);
    const other = await backend.create();
    try {
      await expect(other.open({ migrationsDir: dir })).rejects.toThrow(/no_such_table/);
      const check = await other.open();
      try {
        const tables = await check.sql.query<{ name: string }>(
          `SELECT table_name AS "name" FROM information_schema.tables WHERE table_name LIKE 'probe_%'`,
        );
        expect(tables.map((t) => t.name)).toEqual(["probe_good"]);
        const applied = await check.sql.query<{ name: string }>(`SELECT "name" FROM "_credence_migrations" ORDER BY "name"`);
        expect(applied.map((row) => row.name)).toEqual([...real.map((m) => m.name), "20990101000000_good"]);
      } finally {
        await check.close();
      }
    } finally {
      await other.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("embedded data folder ownership", () => {
  it("refuses a second server with a clear error and serves a client through the holder's socket", async () => {
    const dataDir = await freshEmbeddedFolder();
    const owner = await openDatabase({ dataDir, owner: "credence server on http://127.0.0.1:3000" });
    try {
      const error = await openDatabase({ dataDir, owner: "second server" }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DataFolderInUseError);
      expect((error as Error).message).toBe(
        `data folder ${dataDir} is in use by process ${process.pid} (credence server on http://127.0.0.1:3000)`,
      );

      const client = await openDatabase({ dataDir, ifHeld: "connect" });
      try {
        expect(client.mode).toBe("embedded-client");
        expect(client.appliedMigrations).toEqual([]);
        await owner.prisma.scope.create({ data: { slug: "shared", name: "Shared" } });
        expect((await client.prisma.scope.findUniqueOrThrow({ where: { slug: "shared" } })).name).toBe("Shared");
      } finally {
        await client.close();
      }
    } finally {
      await owner.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("isolates the holder's transaction from a client connection's statements", async () => {
    const dataDir = await freshEmbeddedFolder();
    const owner = await openDatabase({ dataDir });
    const client = await openDatabase({ dataDir, ifHeld: "connect" });
    try {
      let clientRead: Promise<{ n: number }[]> | undefined;
      await expect(
        owner.sql.transaction(async (tx) => {
          await tx.query(`INSERT INTO "scopes" ("id", "slug", "name") VALUES ('s1', 'in-flight', 'In flight')`);
          clientRead = client.sql.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "scopes"`);
          await new Promise((resolve) => setTimeout(resolve, 200));
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await clientRead).toEqual([{ n: 0 }]);
    } finally {
      await client.close();
      await owner.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("closes after the holder's transaction under way has committed whole, and refuses work asked after", async () => {
    const dataDir = await freshEmbeddedFolder();
    try {
      const owner = await openDatabase({ dataDir });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const transaction = owner.sql.transaction(async (tx) => {
        await tx.query(`INSERT INTO "scopes" ("id", "slug", "name") VALUES ('s1', 'first', 'First')`);
        await held;
        await tx.query(`INSERT INTO "scopes" ("id", "slug", "name") VALUES ('s2', 'second', 'Second')`);
      });
      const closed = owner.close();
      setTimeout(release, 100);
      await closed;
      await expect(transaction).resolves.toBeUndefined();
      await expect(owner.sql.query(`SELECT 1`)).rejects.toThrow(/closed/);
      const again = await openDatabase({ dataDir });
      try {
        expect((await again.sql.query<{ slug: string }>(`SELECT "slug" FROM "scopes" ORDER BY "slug"`)).map((r) => r.slug)).toEqual(["first", "second"]);
      } finally {
        await again.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("lets a server wait for a short-lived holder (a CLI command) instead of failing", async () => {
    const dataDir = await freshEmbeddedFolder();
    const cli = await openDatabase({ dataDir, owner: "credence cli" });
    try {
      const server = openDatabase({ dataDir, owner: "server", waitIfHeldMs: 60_000 });
      // Gives the server time to find the folder held before the CLI lets go.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await cli.close();
      const opened = await server;
      expect(opened.mode).toBe("embedded");
      await opened.close();
    } finally {
      await cli.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("releases the folder on close and takes over a lock left by a dead process", async () => {
    const dataDir = await freshEmbeddedFolder();
    try {
      const first = await openDatabase({ dataDir });
      await first.close();
      await expect(readFile(path.join(dataDir, LOCK_FILE_NAME))).rejects.toThrow(/ENOENT/);

      const dead = await runNodeEval("process.stdout.write(String(process.pid))");
      const stale = { pid: Number(dead.stdout), owner: "crashed server", token: "t", startedAt: new Date().toISOString() };
      await writeFile(path.join(dataDir, LOCK_FILE_NAME), JSON.stringify(stale));
      const second = await openDatabase({ dataDir });
      expect(second.mode).toBe("embedded");
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("names another process that holds the folder, and lets a client in through it", async () => {
    const dataDir = await freshEmbeddedFolder();
    const holder = await holdDataFolder(dataDir, "credence server on http://127.0.0.1:4000");
    try {
      await expect(openDatabase({ dataDir })).rejects.toThrow(
        `data folder ${dataDir} is in use by process ${holder.pid} (credence server on http://127.0.0.1:4000)`,
      );
      const client = await openDatabase({ dataDir, ifHeld: "connect" });
      try {
        expect(client.mode).toBe("embedded-client");
        expect(await client.prisma.user.count()).toBe(0);
      } finally {
        await client.close();
      }
    } finally {
      await holder.release();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("server mode", () => {
  it("plans prepared statements with their values alongside the session options a DATABASE_URL carries", async () => {
    const location = await serverBackend.create();
    const url = new URL(location.config.databaseUrl as string);
    url.searchParams.set("options", "-c work_mem=5MB");
    const db = await openDatabase({ ...location.config, databaseUrl: url.toString() });
    try {
      expect(await db.sql.query("SHOW work_mem")).toEqual([{ work_mem: "5MB" }]);
      expect(await db.sql.query("SHOW plan_cache_mode")).toEqual([{ plan_cache_mode: PLAN_CACHE_MODE }]);
    } finally {
      await db.close();
      await location.cleanup();
    }
    expect(withPlanCacheMode("postgres://u@h/db")).toEqual({ connectionString: "postgres://u@h/db", options: `-c plan_cache_mode=${PLAN_CACHE_MODE}` });
  });

  it("migrates once when two processes start against one database at the same moment", async () => {
    const location = await serverBackend.create();
    try {
      const [a, b] = await Promise.all([location.open(), location.open()]);
      const real = (await readMigrations()).map((m) => m.name);
      expect([...a.appliedMigrations, ...b.appliedMigrations].sort()).toEqual(real);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await location.cleanup();
    }
  });

  it("opens a database that records every migration without waiting for the migration lock", async () => {
    const location = await serverBackend.create();
    const migrator = new pg.Client({ connectionString: location.config.databaseUrl });
    const dir = await mkdtemp(path.join(os.tmpdir(), "credence-migrations-"));
    try {
      await (await location.open()).close();
      await migrator.connect();
      // What another process holds while it applies files this one does not know (a newer version starting).
      await migrator.query("SELECT pg_advisory_lock(7262001)");
      const again = await location.open();
      expect(again.appliedMigrations).toEqual([]);
      await again.close();
      // A migration the database does not record: the opener waits for the lock, then applies it.
      for (const migration of await readMigrations()) {
        await mkdir(path.join(dir, migration.name));
        await writeFile(path.join(dir, migration.name, "migration.sql"), migration.sql);
      }
      await mkdir(path.join(dir, "20990101000000_newer"));
      await writeFile(path.join(dir, "20990101000000_newer", "migration.sql"), `CREATE TABLE "probe_newer" ("id" INTEGER);`);
      let settled = false;
      const waiting = location.open({ migrationsDir: dir }).finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(settled).toBe(false);
      await migrator.query("SELECT pg_advisory_unlock(7262001)");
      const newer = await waiting;
      expect(newer.appliedMigrations).toEqual(["20990101000000_newer"]);
      await newer.close();
    } finally {
      await migrator.end().catch(() => {});
      await location.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
