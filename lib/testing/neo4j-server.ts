import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** The launcher of the in-process Neo4j Community server (see tools/neo4j-test-server/README.md). */
export const NEO4J_START_SCRIPT = fileURLToPath(new URL("../../tools/neo4j-test-server/start.sh", import.meta.url));

export type Neo4jTestServer = {
  /** `bolt://127.0.0.1:<port>`; auth is disabled: `neo4j.driver(uri)` with no token (any token is accepted too). */
  uri: string;
  /** SIGTERM, then SIGKILL after `stopTimeoutMs`; resolves once the process has exited. Idempotent, needs no `this`. */
  stop(): Promise<void>;
  /** An outage without losing the data: every process of the server stops answering (SIGSTOP) until `thaw`. */
  freeze(): void;
  thaw(): void;
};

export type StartNeo4jServerOptions = {
  /** Fixed Bolt port; by default the OS picks a free one. */
  port?: number;
  /** Keep the data in this folder (left in place on stop), so another server can start on it: a restart. */
  dataDir?: string;
  /** The first run builds the module and downloads ~125 MB from Maven Central, hence the generous default. */
  readyTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** Receives every stderr line of the server (Maven and Neo4j logs); by default they are kept for error messages only. */
  onLog?: (line: string) => void;
};

const DEFAULT_READY_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_STOP_TIMEOUT_MS = 15_000;
const LOG_TAIL_LINES = 40;

const readyLineSchema = z
  .string()
  .regex(/^NEO4J_URI=bolt:\/\/127\.0\.0\.1:\d{1,5}$/)
  .transform((line) => line.slice("NEO4J_URI=".length));

/**
 * Spawns tools/neo4j-test-server/start.sh and resolves when it prints its `NEO4J_URI=` line.
 *
 * The child keeps a stdin pipe from this process: if this process dies without calling `stop()`, the pipe closes and
 * the JVM shuts down and deletes its data, so no orphan server survives a crashed test run. The child runs in its own
 * process group so `stop()` also ends a Maven build still in progress.
 */
export async function startNeo4jServer(options: StartNeo4jServerOptions = {}): Promise<Neo4jTestServer> {
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const stopTimeoutMs = options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  const args = [
    ...(options.port === undefined ? [] : ["--port", String(portSchema.parse(options.port))]),
    ...(options.dataDir === undefined ? [] : ["--data", options.dataDir]),
  ];

  const child = spawn("bash", [NEO4J_START_SCRIPT, ...args], { stdio: ["pipe", "pipe", "pipe"], detached: true });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  const logTail: string[] = [];
  createInterface({ input: child.stderr }).on("line", (line) => {
    logTail.push(line);
    if (logTail.length > LOG_TAIL_LINES) logTail.shift();
    options.onLog?.(line);
  });
  const describeFailure = (what: string) =>
    `Neo4j test server ${what}. Last log lines:\n${logTail.join("\n") || "(none)"}\n` +
    "Needs Java 17+ and Maven; the first run downloads Neo4j from Maven Central (see tools/neo4j-test-server/README.md).";

  // A parent that exits normally without stop(): SIGTERM still lets the JVM delete its data (SIGKILL would not).
  const killOnExit = () => signalGroup(child, "SIGTERM");
  process.once("exit", killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.removeListener("exit", killOnExit);
      if (!hasExited) {
        signalGroup(child, "SIGCONT");
        signalGroup(child, "SIGTERM");
        const timer = setTimeout(() => signalGroup(child, "SIGKILL"), stopTimeoutMs);
        await exited;
        clearTimeout(timer);
      }
      child.stdin.destroy();
    })();
    return stopping;
  };

  try {
    const uri = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(describeFailure(`printed no NEO4J_URI line within ${readyTimeoutMs} ms`))),
        readyTimeoutMs,
      );
      const stdout = createInterface({ input: child.stdout });
      stdout.on("line", (line) => {
        const parsed = readyLineSchema.safeParse(line.trim());
        clearTimeout(timer);
        if (parsed.success) resolve(parsed.data);
        else reject(new Error(describeFailure(`printed an unexpected line on stdout: ${JSON.stringify(line)}`)));
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(new Error(describeFailure(`could not be spawned (${error.message})`)));
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(describeFailure(`exited before it was ready (code ${code}, signal ${signal})`)));
      });
    });
    return { uri, stop, freeze: () => signalGroup(child, "SIGSTOP"), thaw: () => signalGroup(child, "SIGCONT") };
  } catch (error) {
    await stop();
    throw error;
  }
}

const portSchema = z.number().int().min(1).max(65_535);

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone: nothing left to stop.
  }
}
