import { randomUUID } from "node:crypto";
import { link, open, readFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

export const LOCK_FILE_NAME = "credence.lock";

export const socketAddressSchema = z.discriminatedUnion("kind", [
  /** pg connects to `${dir}/.s.PGSQL.${port}`. */
  z.object({ kind: z.literal("unix"), dir: z.string(), port: z.number().int() }),
  z.object({ kind: z.literal("tcp"), host: z.string(), port: z.number().int() }),
]);
export type SocketAddress = z.infer<typeof socketAddressSchema>;

const lockContentSchema = z.object({
  pid: z.number().int().positive(),
  /** Who holds it, for the error a second opener sees ("credence server on http://localhost:3000"). */
  owner: z.string(),
  token: z.string(),
  startedAt: z.string(),
  /** Absent while the holder is still opening the database. */
  socket: socketAddressSchema.optional(),
});
export type LockContent = z.infer<typeof lockContentSchema>;

export class DataFolderInUseError extends Error {
  readonly code = "data_folder_in_use";
  constructor(
    readonly dataDir: string,
    readonly holder: LockContent,
  ) {
    super(`data folder ${dataDir} is in use by process ${holder.pid} (${holder.owner})`);
    this.name = "DataFolderInUseError";
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The current holder, or null when the folder is free (no lock, an unreadable lock, or a dead holder's lock). */
export async function readLiveLock(dataDir: string): Promise<LockContent | null> {
  const content = await readLock(path.join(dataDir, LOCK_FILE_NAME));
  return content && isProcessAlive(content.pid) ? content : null;
}

async function readLock(file: string): Promise<LockContent | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const parsed = lockContentSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    // A holder killed between creating and writing the file leaves it empty or partial.
    return null;
  }
}

export type HeldLock = {
  readonly content: LockContent;
  /** Records the address other processes connect through. */
  publish(socket: SocketAddress): Promise<void>;
  /** Deletes the lock file if it is still ours. */
  release(): Promise<void>;
};

/**
 * Takes the folder's lock: the file is created with O_EXCL (atomic), so of two starters exactly one wins. A lock
 * left by a dead process (or a half-written one) is moved aside and the exclusive create retried; see
 * `removeStaleLock` for why two starters taking over the same stale lock cannot both win.
 */
export async function acquireDataFolderLock(dataDir: string, owner: string): Promise<HeldLock> {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const content: LockContent = { pid: process.pid, owner, token: randomUUID(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const handle = await open(file, "wx", 0o600);
      try {
        await handle.writeFile(JSON.stringify(content));
      } finally {
        await handle.close();
      }
      const check = await readLock(file);
      if (check?.token !== content.token) continue;
      return heldLock(file, content);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = await readLock(file);
      if (holder && isProcessAlive(holder.pid)) throw new DataFolderInUseError(dataDir, holder);
      await removeStaleLock(file, holder?.token ?? null);
    }
  }
  const holder = await readLock(file);
  if (holder) throw new DataFolderInUseError(dataDir, holder);
  throw new Error(`could not lock data folder ${dataDir}`);
}

/**
 * Moves the stale lock aside with an atomic rename, then checks that what it moved is the stale lock it judged.
 * If another starter replaced the stale lock in between, the moved file is that starter's live lock: it is put
 * back with link() (which never overwrites), so that starter keeps the folder and this one finds it in use.
 */
async function removeStaleLock(file: string, staleToken: string | null): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${randomUUID()}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = await readLock(aside);
  if (moved !== null && moved.token !== staleToken && isProcessAlive(moved.pid)) {
    await link(aside, file).catch(() => {});
  }
  await unlink(aside).catch(() => {});
}

function heldLock(file: string, initial: LockContent): HeldLock {
  let content = initial;
  return {
    get content() {
      return content;
    },
    async publish(socket) {
      content = { ...content, socket };
      // Write-then-rename so a reader never sees a partial file.
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(content), { mode: 0o600 });
      await rename(temp, file);
    },
    async release() {
      const current = await readLock(file);
      if (current?.token === content.token) await unlink(file).catch(() => {});
    },
  };
}
