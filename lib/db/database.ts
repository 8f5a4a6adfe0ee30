import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import {
  acquireDataFolderLock,
  DataFolderInUseError,
  readLiveLock,
  type HeldLock,
  type SocketAddress,
} from "./data-folder-lock";
import type { EmbeddedSocketServer } from "./embedded-socket-server";
import { databaseTimeoutsFromEnv, poolSizeFromEnv, poolTimeoutOptions, type DatabaseTimeouts } from "./db-errors";
import { getLogger } from "@/lib/ops/logger";
import { processSingleton } from "@/lib/process-singleton";
import { redactUrl } from "@/lib/redact-url";
import { migrate } from "./migrate";
import { pgliteExecutor } from "./pglite-executor";
import { createPrismaClient, type AppPrismaClient } from "./prisma-client";
import { poolExecutor, statementNames, type SqlExecutor } from "./sql-executor";

export type DatabaseMode = "embedded" | "server" | "embedded-client";

/**
 * One database, three ways to reach it, one code path above: Prisma through @prisma/adapter-pg over a pg Pool in
 * every mode, raw SQL (`sql`) through the same pool, except in embedded mode: there the pool talks to this process's
 * own PGlite through the socket server it exposes to other processes (see docs in embedded-socket-server.ts), and
 * `sql` runs on that PGlite directly, in turn with the socket's connections (pglite-executor.ts).
 */
export type Database = {
  readonly mode: DatabaseMode;
  readonly prisma: AppPrismaClient;
  readonly sql: SqlExecutor;
  /** Where the data lives, for logs: the server URL without its password, or the data folder. */
  readonly location: string;
  /** Migrations this open applied (empty in embedded-client mode, which never migrates). */
  readonly appliedMigrations: readonly string[];
  /** One line for logs, e.g. "embedded PGlite in ./.data (shared on unix socket ./.data/.s.PGSQL.5432)". */
  describe(): string;
  close(): Promise<void>;
};

export type OpenDatabaseConfig = {
  /** Set: server mode. */
  databaseUrl?: string;
  /** Embedded data folder (CREDENCE_DATA_DIR); default ./.data. */
  dataDir?: string;
  /** Recorded in the lock file and quoted to a second opener, e.g. "credence server on http://localhost:3000". */
  owner?: string;
  /**
   * What to do when another live process holds the data folder: "connect" through its socket (the CLI, tests)
   * or "fail" with DataFolderInUseError (a second server). Default "fail".
   */
  ifHeld?: "connect" | "fail";
  /**
   * With `ifHeld: "fail"`, how long to wait for the holder to let go first (a CLI command holding a never-served
   * folder for a few seconds should not stop a server from starting). Default 0.
   */
  waitIfHeldMs?: number;
  /** Default prisma/migrations under the working directory. */
  migrationsDir?: string;
  /** Pool size; default `CREDENCE_DB_POOL_SIZE`, else 10 on a server, 4 embedded (PGlite runs one statement at a time anyway). */
  maxConnections?: number;
  /** Server mode: connect / statement / read timeouts; default `databaseTimeoutsFromEnv()` (lib/db/db-errors). */
  timeouts?: DatabaseTimeouts;
};

/** The parsed environment's database settings (DATABASE_URL, CREDENCE_DATA_DIR), as `openDatabase` takes them. */
export type DatabaseEnv = { DATABASE_URL?: string | undefined; CREDENCE_DATA_DIR?: string | undefined };

export function databaseConfigFromEnv(env: DatabaseEnv, extra: Omit<OpenDatabaseConfig, "databaseUrl" | "dataDir"> = {}): OpenDatabaseConfig {
  return { ...extra, databaseUrl: env.DATABASE_URL, dataDir: env.CREDENCE_DATA_DIR };
}

/**
 * Opens (and migrates, unless it connects to another process's embedded database) the configured database.
 * Nothing happens at import time. Accepts the parsed environment directly (`openDatabase(getEnv())`) too.
 */
export async function openDatabase(input: OpenDatabaseConfig | DatabaseEnv = {}): Promise<Database> {
  const config = "DATABASE_URL" in input || "CREDENCE_DATA_DIR" in input ? databaseConfigFromEnv(input) : (input as OpenDatabaseConfig);
  if (config.databaseUrl) return openServer(config.databaseUrl, config);
  const dataDir = path.resolve(/*turbopackIgnore: true*/ config.dataDir ?? "./.data");
  const displayDir = config.dataDir ?? "./.data";
  await mkdir(dataDir, { recursive: true });
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const holder = await readLiveLock(dataDir);
    if (holder) {
      if (config.ifHeld !== "connect") {
        if (Date.now() - started < (config.waitIfHeldMs ?? 0)) {
          await sleep(200);
          continue;
        }
        throw new DataFolderInUseError(displayDir, holder);
      }
      if (holder.socket) return openEmbeddedClient(holder.socket, displayDir, config);
      // The holder is still opening its database; its address appears in the lock file shortly.
      if (attempt > 300) throw new DataFolderInUseError(displayDir, holder);
      await sleep(100);
      continue;
    }
    try {
      return await openEmbedded(dataDir, displayDir, config);
    } catch (error) {
      // Lost a race for the lock to a process that started at the same moment: treat it like any other holder.
      if (error instanceof DataFolderInUseError && (config.ifHeld === "connect" || config.waitIfHeldMs)) continue;
      throw error;
    }
  }
}

async function openServer(databaseUrl: string, config: OpenDatabaseConfig): Promise<Database> {
  // Timeouts: a database that stops answering fails requests quickly (503) instead of hanging them.
  const timeouts = config.timeouts ?? databaseTimeoutsFromEnv();
  const pool = new pg.Pool({ ...withPlanCacheMode(databaseUrl), max: config.maxConnections ?? poolSizeFromEnv(10), ...poolTimeoutOptions(timeouts) });
  guardPoolErrors(pool, redactUrl(databaseUrl, "DATABASE_URL"));
  try {
    const applied = await migrate(pool, { dir: config.migrationsDir });
    const location = redactUrl(databaseUrl, "DATABASE_URL");
    return assemble("server", pool, location, `Postgres server ${location}`, applied, async () => {}, poolExecutor(pool, statementNames()));
  } catch (error) {
    await pool.end();
    throw error;
  }
}

/**
 * How Postgres plans the statements this process prepares (`statementNames`, sql-executor.ts; pglite-executor.ts):
 * with each call's values, as it planned them when they went unnamed, so preparing saves the parse and analysis of
 * the text and never changes a plan. Postgres's default (auto) switches a statement to one generic plan after five
 * calls when that plan's estimate is no dearer: on a 2 400-belief scope that was as fast or faster for every hot
 * statement, but on 100 000 beliefs (PGlite, `bench:http --seed-bulk`) it doubled a search's CPU (179 / 164 →
 * 337 / 331 ms a request), and the vector index's freshness read in primary-key order scanned the whole key (2.9 s).
 * A plan chosen for every value cannot know whether a query word is rare or in half the scope.
 */
export const PLAN_CACHE_MODE = "force_custom_plan";

/**
 * The pool's connection settings with `PLAN_CACHE_MODE` in every session's start-up options: pg sends them when it
 * connects, before any query. Options the URL carries itself (`?options=…`, which pg would let override the pool's)
 * are kept, ours added after them.
 */
export function withPlanCacheMode(databaseUrl: string): { connectionString: string; options?: string } {
  const mode = `-c plan_cache_mode=${PLAN_CACHE_MODE}`;
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return { connectionString: databaseUrl, options: mode };
  }
  const own = url.searchParams.get("options");
  if (!own) return { connectionString: databaseUrl, options: mode };
  url.searchParams.set("options", `${own} ${mode}`);
  return { connectionString: url.toString() };
}

/**
 * PGlite's buffer pool. Postgres's default, 128MB, is resident in PGlite's wasm memory from the start and never given
 * back. Measured on this machine: a process that opened the database held 290 MiB with 128MB, 190 MiB with 32MB (and
 * spent 0.3–0.5 s less CPU opening it); after scanning a 52 MB table, 370 against 211 MiB, the scan 10 % slower (pages
 * missing from the pool are read from the operating system's cache).
 */
export const PGLITE_SHARED_BUFFERS = "32MB";

async function openEmbedded(dataDir: string, displayDir: string, config: OpenDatabaseConfig): Promise<Database> {
  const lock: HeldLock = await acquireDataFolderLock(dataDir, config.owner ?? `credence process ${process.pid}`);
  let pglite: PGlite | undefined;
  let socketServer: EmbeddedSocketServer | undefined;
  let pool: pg.Pool | undefined;
  const shutdown = async () => {
    await pool?.end().catch(() => {});
    await socketServer?.close().catch(() => {});
    await pglite?.close().catch(() => {});
    await lock.release();
  };
  try {
    // Loaded here, not at import: clients and server mode never need PGlite's wasm.
    const [{ PGlite }, { startEmbeddedSocketServer }, { vector }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("./embedded-socket-server"),
      import("@electric-sql/pglite-pgvector"),
    ]);
    // pgvector ships with PGlite as a package: loaded always, so a database that created the extension opens again.
    pglite = await PGlite.create({
      dataDir: path.join(dataDir, "pglite"),
      extensions: { vector },
      startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`, "-c", `plan_cache_mode=${PLAN_CACHE_MODE}`],
    });
    socketServer = await startEmbeddedSocketServer(pglite, { socketDir: dataDir });
    pool = createSocketPool(socketServer.address, config.maxConnections ?? poolSizeFromEnv(4));
    const applied = await migrate(pool, { dir: config.migrationsDir });
    // Published only after migrating, so a client never sees a half-migrated database.
    await lock.publish(socketServer.address);
    const description = `embedded PGlite in ${displayDir} (shared on ${describeAddress(socketServer.address)})`;
    const sql = pgliteExecutor(pglite, socketServer.runTurn);
    return assemble("embedded", pool, displayDir, description, applied, async () => {
      await shutdown();
    }, sql);
  } catch (error) {
    await shutdown();
    throw error;
  }
}

async function openEmbeddedClient(address: SocketAddress, dataDir: string, config: OpenDatabaseConfig): Promise<Database> {
  const pool = createSocketPool(address, config.maxConnections ?? 2);
  const description = `embedded PGlite in ${dataDir}, through ${describeAddress(address)} of its holder`;
  return assemble("embedded-client", pool, dataDir, description, [], async () => {});
}

function createSocketPool(address: SocketAddress, max: number): pg.Pool {
  const pool = new pg.Pool({
    host: address.kind === "unix" ? address.dir : address.host,
    port: address.port,
    user: "postgres",
    database: "postgres",
    max,
  });
  guardPoolErrors(pool, describeAddress(address));
  return pool;
}

/**
 * A pg client emits `error` when its connection breaks (backend terminated, socket closed, EPIPE), even while it
 * is checked out and between queries, where pg-pool has no listener on it: unhandled, that event ends the
 * process. Every client gets a listener for its whole life; it logs the first failure once, and the client, now
 * unqueryable, is discarded by the pool (at once when idle, on release when checked out). The query in flight, if
 * any, still rejects, and the next query gets a fresh connection.
 */
function guardPoolErrors(pool: pg.Pool, where: string): void {
  pool.on("connect", (client) => {
    let logged = false;
    client.on("error", (error) => {
      if (logged) return;
      logged = true;
      getLogger().warn({ err: error, database: where }, "database: a pooled connection failed and is discarded");
    });
  });
  // An idle client's failure reaches the pool too, after the client's own listener has logged it.
  pool.on("error", () => {});
}

function assemble(
  mode: DatabaseMode,
  pool: pg.Pool,
  location: string,
  description: string,
  appliedMigrations: string[],
  afterPool: () => Promise<void>,
  sql: SqlExecutor = poolExecutor(pool),
): Database {
  const prisma = createPrismaClient(pool);
  let closing: Promise<void> | undefined;
  return {
    mode,
    prisma,
    sql,
    location,
    appliedMigrations,
    describe: () => description,
    close() {
      closing ??= (async () => {
        await prisma.$disconnect();
        await pool.end().catch(() => {});
        await afterPool();
      })();
      return closing;
    },
  };
}

function describeAddress(address: SocketAddress): string {
  return address.kind === "unix" ? `unix socket ${address.dir}/.s.PGSQL.${address.port}` : `${address.host}:${address.port}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const processDatabase = processSingleton<Database>("__credenceDatabase", async () => {
  const { getEnv } = await import("@/lib/env");
  return openDatabase(databaseConfigFromEnv(getEnv(), { owner: `credence web process ${process.pid}` }));
});

/**
 * The process-wide database. The custom server (bin/serve.ts) opens it at start and registers it, so Next.js
 * route handlers, server actions and the server share one instance (globalThis survives Next's module reloads).
 * Without a registration (e.g. plain `next dev`), the first call opens it from the environment.
 */
export function getDatabase(): Promise<Database> {
  return processDatabase.get();
}

export function registerDatabase(db: Database): void {
  processDatabase.set(db);
}

/** Forgets the registered instance (tests); does not close it. */
export function unregisterDatabase(): void {
  processDatabase.forget();
}
