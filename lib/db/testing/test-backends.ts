import { createHash } from "node:crypto";
import { cp, mkdtemp, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createThrowawayDatabase } from "./postgres";
import { openDatabase, type Database, type OpenDatabaseConfig } from "../database";
import { readMigrations } from "../migrate";

/**
 * The two backends every database test runs against (one shared suite, `describe.each(TEST_BACKENDS)`):
 * embedded PGlite in a fresh temp folder, and a throwaway database on the local Postgres server.
 */
export type TestBackend = {
  readonly name: "embedded" | "server";
  /** A fresh, empty location: its config for openDatabase (or the CLI's environment) and its cleanup. */
  create(): Promise<TestLocation>;
};

export type TestLocation = {
  config: OpenDatabaseConfig;
  /** Environment variables that select this location for a child process (the CLI). */
  env: Record<string, string>;
  open(extra?: Partial<OpenDatabaseConfig>): Promise<Database>;
  cleanup(): Promise<void>;
};

export const embeddedBackend: TestBackend = {
  name: "embedded",
  async create() {
    const dataDir = await freshEmbeddedFolder();
    const config: OpenDatabaseConfig = { dataDir, owner: `vitest ${process.pid}` };
    return {
      config,
      env: { CREDENCE_DATA_DIR: dataDir, DATABASE_URL: "" },
      open: (extra) => openDatabase({ ...config, ...extra }),
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
  },
};

export const serverBackend: TestBackend = {
  name: "server",
  async create() {
    const throwaway = await createThrowawayDatabase();
    const config: OpenDatabaseConfig = { databaseUrl: throwaway.url };
    return {
      config,
      env: { DATABASE_URL: throwaway.url },
      open: (extra) => openDatabase({ ...config, ...extra }),
      cleanup: () => throwaway.drop(),
    };
  },
};

export const TEST_BACKENDS: readonly TestBackend[] = [embeddedBackend, serverBackend];

/**
 * A new PGlite's initdb costs seconds, so the first caller builds a migrated template folder (keyed by the
 * migrations' content) and everyone copies it. With `migrated: false` the copy is an empty, never-migrated
 * cluster (for testing first-run migration).
 */
export async function freshEmbeddedFolder(options: { migrated?: boolean } = {}): Promise<string> {
  const migrated = options.migrated ?? true;
  const template = await ensureTemplate(migrated);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "credence-test-"));
  await cp(template, path.join(dataDir, "pglite"), { recursive: true });
  return dataDir;
}

async function ensureTemplate(migrated: boolean): Promise<string> {
  const migrations = await readMigrations();
  const key = createHash("sha256")
    .update(migrated ? JSON.stringify(migrations) : "empty")
    .digest("hex")
    .slice(0, 16);
  const template = path.join(os.tmpdir(), `credence-pglite-template-${key}`);
  if (await exists(template)) return template;
  const building = await mkdtemp(path.join(os.tmpdir(), "credence-template-build-"));
  if (migrated) {
    const db = await openDatabase({ dataDir: building, owner: "template builder" });
    await db.close();
  } else {
    const { PGlite } = await import("@electric-sql/pglite");
    const pglite = await PGlite.create({ dataDir: path.join(building, "pglite") });
    await pglite.close();
  }
  // Whoever renames first wins; a loser's build is simply discarded.
  await rename(path.join(building, "pglite"), template).catch(() => {});
  await rm(building, { recursive: true, force: true });
  return template;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
