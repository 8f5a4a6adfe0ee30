/**
 * Spawns the real Credence server (`tsx scripts/serve.ts --port <free>`, the production build in `.next`) on a fresh
 * embedded data folder, for suites that drive the app over HTTP (REST API, MCP). The operator CLI runs against the
 * same folder (it connects through the server's socket), so tests make their users, scopes and tokens the way an
 * operator would.
 *
 * The build is never made here: other suites read `.next` at the same time. Without `.next/BUILD_ID` the start fails
 * with "run `npx next build` first" (a missing build is a failure, never a skip).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { freshEmbeddedFolder } from "@/lib/db/test-backends";
import { runTsx } from "@/lib/db/spawn-tsx";

export interface AppServer {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  baseUrl: string;
  port: number;
  /** The embedded data folder the server holds (removed by `stop`). */
  dataDir: string;
  /** The environment the server and the CLI run with (beyond `process.env`). */
  env: Record<string, string>;
  /** Runs the operator CLI against this server's database; resolves to its trimmed stdout, rejects on a non-zero exit. */
  cli(...args: string[]): Promise<string>;
  /** The server's recent output (stdout and stderr), for failure messages. */
  logs(): string;
  /** SIGTERM to the server's process group (SIGKILL after 10 s), then removes the data folder. Idempotent. */
  stop(): Promise<void>;
}

export interface StartAppServerOptions {
  /** Extra environment for the server and the CLI, e.g. `{ NEO4J_URI }` or `{ CREDENCE_RATE_LIMIT_PER_MINUTE: "5" }`. */
  env?: Record<string, string>;
  /** Seed the demo (`--demo`). */
  demo?: boolean;
  /** Default 120 s (a cold production start on a loaded machine takes 5–20 s). */
  readyTimeoutMs?: number;
}

const ROOT = process.cwd();
const SERVE = path.join(ROOT, "scripts", "serve.ts");
const CLI = path.join(ROOT, "scripts", "cli.ts");
const LOG_TAIL_LINES = 60;

/** Throws unless a production build exists: the e2e-style suites serve `.next`, they never build it. */
export function requireProductionBuild(root: string = ROOT): void {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    throw new Error("No production build (.next/BUILD_ID is missing): run `npx next build` first (npm test builds before Vitest runs).");
  }
}

/** A TCP port that was free a moment ago on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

export async function startAppServer(options: StartAppServerOptions = {}): Promise<AppServer> {
  requireProductionBuild();
  const dataDir = await freshEmbeddedFolder();
  const port = await freePort();
  const env: Record<string, string> = { NODE_ENV: "production", CREDENCE_DATA_DIR: dataDir, DATABASE_URL: "", ...(options.env ?? {}) };
  const args = [SERVE, "--port", String(port), ...(options.demo ? ["--demo"] : [])];
  // Own process group: tsx runs the script in a child node process, and stop() must end both.
  const child: ChildProcess = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const tail: string[] = [];
  const keep = (line: string) => {
    tail.push(line);
    if (tail.length > LOG_TAIL_LINES) tail.shift();
  };
  let exitedWith: string | null = null;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exitedWith = `code ${code}, signal ${signal}`;
      resolve();
    });
  });
  const killOnExit = () => signalGroup(child, "SIGKILL");
  process.once("exit", killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.removeListener("exit", killOnExit);
      if (exitedWith === null) {
        signalGroup(child, "SIGTERM");
        const timer = setTimeout(() => signalGroup(child, "SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dataDir, { recursive: true, force: true });
    })();
    return stopping;
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await new Promise<void>((resolve, reject) => {
      const timeoutMs = options.readyTimeoutMs ?? 120_000;
      const fail = (why: string) => reject(new Error(`Credence server ${why}. Last output:\n${tail.join("\n") || "(none)"}`));
      const timer = setTimeout(() => fail(`was not serving within ${timeoutMs} ms`), timeoutMs);
      createInterface({ input: child.stderr! }).on("line", keep);
      createInterface({ input: child.stdout! }).on("line", (line) => {
        keep(line);
        if (line.includes(`serving on ${baseUrl}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        fail(`could not be spawned (${error.message})`);
      });
      void exited.then(() => {
        clearTimeout(timer);
        fail(`exited before it was serving (${exitedWith})`);
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    baseUrl,
    port,
    dataDir,
    env,
    async cli(...cliArgs: string[]) {
      const result = await runTsx(CLI, cliArgs, env);
      if (result.code !== 0) throw new Error(`cli ${cliArgs.join(" ")} exited with ${result.code}: ${result.stderr.trim()}`);
      return result.stdout.trim();
    },
    logs: () => tail.join("\n"),
    stop,
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}
