/**
 * One Credence app server as a child process (`bin/serve.ts --port N`, compiled by lib/ops/compiled-script.ts; the
 * production build in `.next`), for the local cluster (`npm run cluster`, lib/ops/local-cluster.ts) and the suites that
 * drive real servers. The server runs in its own process group, so a stop or a kill -9 ends whatever it started.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { scriptCommand } from "./compiled-script";

const LOG_TAIL_LINES = 80;

export interface ServerProcess {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  baseUrl: string;
  port: number;
  /** The process group's leader (the server's node process); signals go to the whole group. */
  pid: number;
  /** The server's recent output (stdout and stderr). */
  logs(): string;
  /** True until the process exited. */
  alive(): boolean;
  /** SIGKILL to the group (a crash: nothing is flushed, nothing drains); resolves once it exited. */
  kill(): Promise<void>;
  /** SIGTERM to the group (SIGKILL after `graceMs`, default 10 s); resolves once it exited. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartServerProcessOptions {
  /** The repository root (default the working directory). */
  root?: string;
  port: number;
  /** The environment beyond `process.env` (DATABASE_URL, CREDENCE_DATA_DIR, NEO4J_URI…). */
  env: Record<string, string>;
  /** Extra arguments to serve.ts, e.g. `--demo`. */
  args?: string[];
  /** Default 120 s (a cold production start on a loaded machine takes 5–20 s). */
  readyTimeoutMs?: number;
  /** Every output line, as it comes (the cluster prefixes and prints them). */
  onLine?: (line: string) => void;
}

/** Throws unless a production build exists: servers here serve `.next`, they never build it. */
export function requireProductionBuild(root: string = process.cwd()): void {
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

/** Starts a server and resolves once it prints `serving on <url>`; rejects (and ends it) if it exits or times out first. */
export async function startServerProcess(options: StartServerProcessOptions): Promise<ServerProcess> {
  const root = options.root ?? process.cwd();
  requireProductionBuild(root);
  const { command, args } = scriptCommand(path.join("bin", "serve.ts"), ["--port", String(options.port), ...(options.args ?? [])], root);
  const child: ChildProcess = spawn(command, args, {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const tail: string[] = [];
  const keep = (line: string) => {
    tail.push(line);
    if (tail.length > LOG_TAIL_LINES) tail.shift();
    options.onLine?.(line);
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

  const end = async (signal: NodeJS.Signals, graceMs: number) => {
    process.removeListener("exit", killOnExit);
    if (exitedWith !== null) return;
    signalGroup(child, signal);
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  };
  let stopping: Promise<void> | undefined;
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const server: ServerProcess = {
    baseUrl,
    port: options.port,
    pid: child.pid ?? -1,
    logs: () => tail.join("\n"),
    alive: () => exitedWith === null,
    kill: () => end("SIGKILL", 0),
    stop: (graceMs = 10_000) => (stopping ??= end("SIGTERM", graceMs)),
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timeoutMs = options.readyTimeoutMs ?? 120_000;
      const fail = (why: string) => reject(new Error(`Credence server ${why}. Last output:\n${tail.join("\n") || "(none)"}`));
      const timer = setTimeout(() => fail(`on port ${options.port} was not serving within ${timeoutMs} ms`), timeoutMs);
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
    await server.stop();
    throw error;
  }
  return server;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}
