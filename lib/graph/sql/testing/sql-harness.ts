/**
 * Contract-suite harnesses for the SQL store: a fresh embedded PGlite data folder, or a throwaway database on the
 * Postgres server. Both run every migration through `openDatabase`, exactly as the app does.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "@/lib/db/database";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { createThrowawayDatabase } from "@/lib/db/testing/postgres";
import type { GraphStoreHarness, RecordedQuery } from "../../testing/graph-store-contract";
import { createSqlGraphStore } from "../sql-graph-store";

const MIGRATIONS = path.join(process.cwd(), "prisma", "migrations");

/** Wraps an executor so every statement (transactions included) is reported to `sink` while one is installed. */
export function recordingExecutor(inner: SqlExecutor, sink: () => RecordedQuery[] | null): SqlExecutor {
  return {
    query<T>(text: string, params?: unknown[]): Promise<T[]> {
      sink()?.push({ text, params: params ?? [] });
      return inner.query<T>(text, params);
    },
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return inner.transaction((tx) => fn(recordingExecutor(tx, sink)));
    },
  };
}

function harnessFor(db: Database, discard: () => Promise<void>): GraphStoreHarness {
  let recording: RecordedQuery[] | null = null;
  const store = createSqlGraphStore({ sql: recordingExecutor(db.sql, () => recording), location: db.describe() });
  return {
    store,
    async recordQueries<T>(fn: () => Promise<T>) {
      recording = [];
      try {
        const result = await fn();
        return { result, queries: recording };
      } finally {
        recording = null;
      }
    },
    async close() {
      await store.close();
      await db.close();
      await discard();
    },
  };
}

export async function makePgliteHarness(): Promise<GraphStoreHarness> {
  const dir = await mkdtemp(path.join(tmpdir(), "credence-graph-"));
  const db = await openDatabase({ dataDir: dir, migrationsDir: MIGRATIONS, owner: "graph contract suite" });
  return harnessFor(db, () => rm(dir, { recursive: true, force: true }));
}

export async function makePostgresHarness(): Promise<GraphStoreHarness> {
  const throwaway = await createThrowawayDatabase("credence_graph");
  try {
    const db = await openDatabase({ databaseUrl: throwaway.url, migrationsDir: MIGRATIONS });
    return harnessFor(db, () => throwaway.drop());
  } catch (error) {
    await throwaway.drop();
    throw error;
  }
}
