/**
 * Planner statistics where nothing else keeps them. PGlite runs no autovacuum (it has no background workers), and a
 * Postgres server may run with `autovacuum = off` (this project's test machines do); there the tables are never
 * analysed: the planner takes every table for empty and picks plans for empty tables. Measured on a 2 000-belief
 * scope: the postings probe of a search with one common word (`sql-search.ts`, TERM_POSTINGS) scanned the common
 * term's whole list once per row, 279 ms for one statement; after ANALYZE the same statement probed the primary key,
 * 16 ms, and such searches fell from ~330 to ~60 ms over HTTP.
 *
 * A server on such a database (`needsPlannerStatistics`) therefore does autovacuum's analyse step itself: a table is
 * analysed when it has not been analysed yet, or when more rows changed since its last ANALYZE than 50 + 10 % of its rows
 * (Postgres's own `autovacuum_analyze_threshold` and `autovacuum_analyze_scale_factor`). ANALYZE samples at most
 * 30 000 rows per table, so one pass stays bounded however large the scope grows.
 */
import type { Database } from "./database";
import type { SqlExecutor } from "./sql-executor";
import { getLogger } from "@/lib/ops/logger";

export const ANALYZE_THRESHOLD = 50;
export const ANALYZE_SCALE_FACTOR = 0.1;

const STALE_TABLES = `
  SELECT s.relname AS name
  FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
  WHERE s.schemaname = current_schema()
    AND (c.reltuples < 0 OR s.n_mod_since_analyze > $1::float8 + $2::float8 * greatest(c.reltuples, 0))
  ORDER BY s.relname`;

/** Analyses the tables whose statistics are missing or stale (module comment); returns their names. */
export async function analyzeStaleTables(sql: SqlExecutor): Promise<string[]> {
  const stale = await sql.query<{ name: string }>(STALE_TABLES, [ANALYZE_THRESHOLD, ANALYZE_SCALE_FACTOR]);
  if (stale.length === 0) return [];
  const names = stale.map((row) => row.name);
  await sql.query(`ANALYZE ${names.map((name) => `"${name.replace(/"/g, '""')}"`).join(", ")}`);
  return names;
}

/** Whether nothing else analyses this database: always embedded (PGlite), and a server whose autovacuum is off. */
export async function needsPlannerStatistics(db: Pick<Database, "mode" | "sql">): Promise<boolean> {
  if (db.mode === "embedded") return true;
  if (db.mode !== "server") return false;
  const [row] = await db.sql.query<{ on: boolean }>("SELECT current_setting('autovacuum') = 'on' AS on");
  return row?.on !== true;
}

export interface StatisticsKeeper {
  stop(): Promise<void>;
}

/**
 * Checks every `intervalMs` (first after `firstDelayMs`, so start-up is not slowed) and analyses what is stale. The
 * timer never keeps the process alive; a failed pass is logged and the next one tries again.
 */
export function keepPlannerStatistics(sql: SqlExecutor, options: { intervalMs?: number; firstDelayMs?: number } = {}): StatisticsKeeper {
  const intervalMs = options.intervalMs ?? 60_000;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const pass = () => {
    running = (async () => {
      try {
        const analysed = await analyzeStaleTables(sql);
        if (analysed.length > 0) getLogger().debug({ tables: analysed }, "database: analysed tables whose planner statistics were missing or stale");
      } catch (error) {
        if (!stopped) getLogger().warn({ err: error }, "database: analysing tables failed; tried again later");
      }
    })();
  };
  let timer: ReturnType<typeof setTimeout> = setTimeout(function tick() {
    pass();
    void running.then(() => {
      if (!stopped) timer = setTimeout(tick, intervalMs).unref();
    });
  }, options.firstDelayMs ?? 5_000).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
