import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Pool, PoolClient } from "pg";
import type { Umzug } from "umzug";
import { clientExecutor, type SqlExecutor } from "./sql-executor";

/** Default location, relative to the working directory (the repository root for npm scripts and Next.js). */
// The migrations are read from disk at run time, never bundled: the comment keeps Next.js from tracing the project.
export const DEFAULT_MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");

/** Any constant works; it only has to be the same for every Credence process sharing a server. */
const MIGRATION_LOCK_KEY = 7_262_001;

export type MigrationFile = { name: string; sql: string };

/** The migrations' names: `prisma/migrations/<timestamp>_<name>/` folders, ordered by name (the timestamp prefix). */
async function migrationNames(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** `prisma/migrations/<timestamp>_<name>/migration.sql`, ordered by folder name (the timestamp prefix). */
export async function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const folders = await migrationNames(dir);
  return Promise.all(
    folders.map(async (name) => ({ name, sql: await readFile(path.join(dir, name, "migration.sql"), "utf8") })),
  );
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_credence_migrations" (
  "name" TEXT PRIMARY KEY,
  "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
)`;

async function migrator(sql: SqlExecutor, files: MigrationFile[]): Promise<Umzug<SqlExecutor>> {
  // Loaded when a process migrates (~0.3 s of start-up with its dependencies), not at import: a CLI command on a folder
  // a server holds connects through the server's socket and never migrates.
  const umzug = await import("umzug");
  return new umzug.Umzug<SqlExecutor>({
    context: sql,
    logger: undefined,
    migrations: files.map((file) => ({
      name: file.name,
      // The file and its record commit together, so a failed migration leaves neither behind.
      up: ({ context }) =>
        context.transaction(async (tx) => {
          await tx.query(file.sql);
          await tx.query(`INSERT INTO "_credence_migrations" ("name") VALUES ($1)`, [file.name]);
        }),
    })),
    storage: {
      // Recorded inside `up`'s transaction instead.
      async logMigration() {},
      async unlogMigration() {
        throw new Error("Credence migrations only go forward");
      },
      async executed({ context }) {
        await context.query(CREATE_TABLE);
        const rows = await context.query<{ name: string }>(`SELECT "name" FROM "_credence_migrations" ORDER BY "name"`);
        return rows.map((row) => row.name);
      },
    },
  });
}

/** How often a process waiting for another's migration asks for the lock again. */
const LOCK_POLL_MS = 100;

/**
 * Takes the migration lock, waiting as long as another process migrates. Asked with `pg_try_advisory_lock` in a loop
 * rather than one blocking `pg_advisory_lock`, so the wait is never a statement that `statement_timeout` (or the
 * client's query timeout) could cancel.
 */
async function waitForMigrationLock(client: PoolClient): Promise<void> {
  for (;;) {
    const [row] = (await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [MIGRATION_LOCK_KEY])).rows;
    if (row?.locked) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

/**
 * True when the database records every one of `names` as applied. A migration's record commits in the migration's own
 * transaction, so a recorded name is a migration wholly applied, and one still being applied by another process is
 * missing here.
 */
async function allApplied(client: PoolClient, names: readonly string[]): Promise<boolean> {
  const [table] = (await client.query<{ present: boolean }>(`SELECT to_regclass('"_credence_migrations"') IS NOT NULL AS "present"`)).rows;
  if (!table?.present) return false;
  const applied = new Set((await client.query<{ name: string }>(`SELECT "name" FROM "_credence_migrations"`)).rows.map((row) => row.name));
  return names.every((name) => applied.has(name));
}

/**
 * Applies every pending migration on one connection that holds a session advisory lock, so concurrent starters
 * against one server wait for each other and the second finds nothing to do. Returns the names applied.
 * A database that already records every migration (each start of a server or CLI call after the first) is left as it
 * is after two small reads: no lock, no migration file read, no migration library loaded.
 * Multi-statement files rely on the simple query protocol (no parameters on the file itself).
 */
export async function migrate(pool: Pool, options: { dir?: string } = {}): Promise<string[]> {
  const dir = options.dir ?? DEFAULT_MIGRATIONS_DIR;
  const client = await pool.connect();
  try {
    if (await allApplied(client, await migrationNames(dir))) return [];
    const files = await readMigrations(dir);
    await waitForMigrationLock(client);
    try {
      const applied = await (await migrator(clientExecutor(client), files)).up();
      return applied.map((migration) => migration.name);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
