import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDataFolderLock, DataFolderInUseError, LOCK_FILE_NAME, readLiveLock, type HeldLock } from "./data-folder-lock";
import { runNodeEval } from "./spawn-script";

describe("data folder lock", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "credence-lock-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function race(count: number): Promise<{ won: HeldLock[]; lost: unknown[] }> {
    const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => acquireDataFolderLock(dir, `starter ${i}`)));
    return {
      won: results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : [])),
      lost: results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : [])),
    };
  }

  it("lets exactly one of many simultaneous starters take a free folder", async () => {
    const { won, lost } = await race(12);
    expect(won).toHaveLength(1);
    expect(lost.every((error) => error instanceof DataFolderInUseError)).toBe(true);
  });

  it("lets exactly one of many simultaneous starters take over a dead process's lock, leaving no debris", async () => {
    const dead = await runNodeEval("process.stdout.write(String(process.pid))");
    await writeFile(
      path.join(dir, LOCK_FILE_NAME),
      JSON.stringify({ pid: Number(dead.stdout), owner: "crashed", token: "old", startedAt: new Date().toISOString() }),
    );
    expect(await readLiveLock(dir)).toBeNull();
    const { won } = await race(12);
    expect(won).toHaveLength(1);
    expect((await readLiveLock(dir))?.owner).toBe(won[0]?.content.owner);
    expect(await readdir(dir)).toEqual([LOCK_FILE_NAME]);
  });

  it("publishes the socket address and releases only its own lock", async () => {
    const held = await acquireDataFolderLock(dir, "server");
    await held.publish({ kind: "unix", dir, port: 5432 });
    expect((await readLiveLock(dir))?.socket).toEqual({ kind: "unix", dir, port: 5432 });
    await held.release();
    expect(await readLiveLock(dir)).toBeNull();
    const next = await acquireDataFolderLock(dir, "next server");
    await held.release();
    expect((await readLiveLock(dir))?.owner).toBe("next server");
    await next.release();
  });
});
