/**
 * Spawns the real Credence server (`bin/serve.ts --port <free>`, the production build in `.next`) on a fresh
 * embedded data folder, for suites that drive the app over HTTP (REST API, MCP). The operator CLI runs against the
 * same folder (it connects through the server's socket), so tests make their users, scopes and tokens the way an
 * operator would. `operator` does the same work in this process (the identity services the CLI's commands call, on a
 * connection opened the way the CLI opens it) without a node process per user, scope and token; the CLI's own path,
 * argument parsing to printed token, is covered end to end by bin/cli.test.ts.
 *
 * The build is never made here: other suites read `.next` at the same time. Without `.next/BUILD_ID` the start fails
 * with "run `npx next build` first" (a missing build is a failure, never a skip).
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { OPERATOR, type Caller } from "@/lib/access/principal";
import { identityServices, type IdentityServices } from "@/lib/beliefs/identity-services";
import { databaseConfigFromEnv, openDatabase } from "@/lib/db/database";
import { freshEmbeddedFolder } from "@/lib/db/testing/test-backends";
import { runScript } from "@/lib/db/spawn-script";
import { freePort, startServerProcess } from "@/lib/ops/server-process";

export { freePort, requireProductionBuild } from "@/lib/ops/server-process";

export interface AppServer {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  baseUrl: string;
  port: number;
  /** The process group's leader. */
  pid: number;
  /** The embedded data folder the server holds (removed by `stop` unless the caller gave it). */
  dataDir: string;
  /** The environment the server and the CLI run with (beyond `process.env`). */
  env: Record<string, string>;
  /** Runs the operator CLI against this server's database; resolves to its trimmed stdout, rejects on a non-zero exit. */
  cli(...args: string[]): Promise<string>;
  /**
   * Runs `work` with the identity services the operator CLI's commands call (`user create` is
   * `services.createUser(OPERATOR, …)`, `token create` is `services.createToken(OPERATOR, …)`…), on a database
   * connection opened as the CLI opens it (through the server's socket on the embedded backend); closes it after.
   */
  operator<T>(work: (services: IdentityServices, caller: Caller) => Promise<T>): Promise<T>;
  /** The server's recent output (stdout and stderr), for failure messages. */
  logs(): string;
  /** kill -9 to the server's process group (a crash); the data folder stays. */
  kill(): Promise<void>;
  /** SIGTERM to the server's process group (SIGKILL after 10 s), then removes the data folder it made. Idempotent. */
  stop(): Promise<void>;
}

export interface StartAppServerOptions {
  /** Extra environment for the server and the CLI, e.g. `{ NEO4J_URI }` or `{ CREDENCE_RATE_LIMIT_PER_MINUTE: "5" }`. */
  env?: Record<string, string>;
  /** Seed the demo (`--demo`). */
  demo?: boolean;
  /** Default 120 s (a cold production start on a loaded machine takes 5–20 s). */
  readyTimeoutMs?: number;
  /** Serve this embedded data folder (e.g. again after a crash); the caller removes it. Default a fresh one. */
  dataDir?: string;
}

/**
 * `work` with the identity services the operator CLI's commands call, on a connection to the database `env` selects,
 * opened as the CLI opens it (through the holder's socket when another process holds the embedded folder).
 */
export async function asOperator<T>(env: Record<string, string>, work: (services: IdentityServices, caller: Caller) => Promise<T>): Promise<T> {
  const db = await openDatabase(
    databaseConfigFromEnv({ DATABASE_URL: env.DATABASE_URL, CREDENCE_DATA_DIR: env.CREDENCE_DATA_DIR }, { owner: "credence operator (test)", ifHeld: "connect", maxConnections: 2 }),
  );
  try {
    return await work(identityServices(db), OPERATOR);
  } finally {
    await db.close();
  }
}

const ROOT = process.cwd();
const CLI = path.join(ROOT, "bin", "cli.ts");

export async function startAppServer(options: StartAppServerOptions = {}): Promise<AppServer> {
  const ownFolder = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await freshEmbeddedFolder());
  const env: Record<string, string> = { NODE_ENV: "production", CREDENCE_DATA_DIR: dataDir, DATABASE_URL: "", ...(options.env ?? {}) };
  let server;
  try {
    server = await startServerProcess({
      root: ROOT,
      port: await freePort(),
      env,
      args: options.demo ? ["--demo"] : [],
      ...(options.readyTimeoutMs ? { readyTimeoutMs: options.readyTimeoutMs } : {}),
    });
  } catch (error) {
    if (ownFolder) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const started = server;
  let stopping: Promise<void> | undefined;
  return {
    baseUrl: started.baseUrl,
    port: started.port,
    pid: started.pid,
    dataDir,
    env,
    async cli(...cliArgs: string[]) {
      const result = await runScript(CLI, cliArgs, env);
      if (result.code !== 0) throw new Error(`cli ${cliArgs.join(" ")} exited with ${result.code}: ${result.stderr.trim()}`);
      return result.stdout.trim();
    },
    operator: (work) => asOperator(env, work),
    logs: started.logs,
    kill: started.kill,
    stop: () =>
      (stopping ??= (async () => {
        await started.stop();
        if (ownFolder) await rm(dataDir, { recursive: true, force: true });
      })()),
  };
}
