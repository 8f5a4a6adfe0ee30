/**
 * A Postgres cluster of its own for outage tests: `initdb` into a temp folder, served on a free port, so a
 * test can stop it, start it again, or freeze it (SIGSTOP to every process of the cluster) without touching the
 * machine's shared server. Uses the Postgres 15 binaries in /usr/lib/postgresql/15/bin (override with PG_BIN); as
 * root the cluster runs as the `postgres` user. A missing binary is a failure, never a skip.
 */
import { execFile } from "node:child_process";
import { chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./app-server";

const run = promisify(execFile);
const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export interface ThrowawayCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  start(): Promise<void>;
  /** Fast shutdown: open connections are closed. */
  stop(): Promise<void>;
  /** Every process of the cluster stops answering (SIGSTOP) until `thaw`. */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  /** Stops the cluster and deletes its folder. */
  destroy(): Promise<void>;
}

async function asPostgres(binary: string, args: string[]): Promise<void> {
  const file = path.join(PG_BIN, binary);
  if (!existsSync(file)) throw new Error(`${file} is missing: install postgresql-15 (the outage tests need their own cluster).`);
  const root = process.getuid?.() === 0;
  await run(root ? "runuser" : file, root ? ["-u", "postgres", "--", file, ...args] : args, { timeout: 60_000 });
}

export async function createThrowawayCluster(): Promise<ThrowawayCluster> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "credence-pgcluster-"));
  if (process.getuid?.() === 0) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, "data");
  await asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  let frozen = false;
  const pids = async (): Promise<number[]> => {
    const main = Number((await readFile(path.join(data, "postmaster.pid"), "utf8")).split("\n")[0]);
    const { stdout } = await run("pgrep", ["-P", String(main)]).catch(() => ({ stdout: "" }));
    return [main, ...stdout.split("\n").filter(Boolean).map(Number)];
  };
  const signal = async (sig: NodeJS.Signals) => {
    for (const pid of await pids()) {
      try {
        process.kill(pid, sig);
      } catch {
        // a backend that just exited
      }
    }
  };
  const cluster: ThrowawayCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => asPostgres("pg_ctl", ["-D", data, "-o", options, "-w", "-t", "60", "-l", path.join(dir, "log"), "start"]),
    stop: () => asPostgres("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    async freeze() {
      frozen = true;
      await signal("SIGSTOP");
    },
    async thaw() {
      frozen = false;
      await signal("SIGCONT");
    },
    async destroy() {
      if (frozen) await cluster.thaw();
      await asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
