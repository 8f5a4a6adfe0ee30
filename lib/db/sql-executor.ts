import { createHash } from "node:crypto";
import type { Pool, PoolClient, QueryConfig } from "pg";

/**
 * The raw-SQL port (the SQL graph store and the migration runner use it) over the same Postgres as Prisma.
 * `transaction` runs `fn` on one connection between BEGIN and COMMIT and rolls back if `fn` throws; calling
 * `transaction` on the `tx` executor nests with a savepoint.
 */
export type SqlExecutor = {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
};

/** Runs one statement on a session and gives its rows (a pg connection, or the embedded PGlite during a turn). */
export type RunStatement = (text: string, params?: unknown[]) => Promise<unknown[]>;

/** Runs `fn` between `begin` and `commit`; on failure runs `rollback` and rethrows `fn`'s error. */
async function runInTransaction<T>(
  run: RunStatement,
  statements: { begin: string; commit: string; rollback: string },
  fn: () => Promise<T>,
  onRollbackFailure: (error: Error) => void,
): Promise<T> {
  await run(statements.begin);
  try {
    const value = await fn();
    await run(statements.commit);
    return value;
  } catch (error) {
    try {
      await run(statements.rollback);
    } catch (rollbackError) {
      onRollbackFailure(rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError)));
    }
    throw error;
  }
}

const TOP_LEVEL = { begin: "BEGIN", commit: "COMMIT", rollback: "ROLLBACK" };

/**
 * Runs `fn` in a transaction on one session, with the executor it gets: BEGIN/COMMIT at depth 0, a savepoint deeper.
 * `onRollbackFailure` hears of a ROLLBACK that failed (the session is then in an unknown state).
 */
export function sessionTransaction<T>(
  run: RunStatement,
  depth: number,
  fn: (tx: SqlExecutor) => Promise<T>,
  onRollbackFailure: (error: Error) => void = () => {},
): Promise<T> {
  const savepoint = `credence_sp_${depth}`;
  const statements =
    depth === 0
      ? TOP_LEVEL
      : { begin: `SAVEPOINT ${savepoint}`, commit: `RELEASE SAVEPOINT ${savepoint}`, rollback: `ROLLBACK TO SAVEPOINT ${savepoint}` };
  return runInTransaction(run, statements, () => fn(sessionExecutor(run, depth + 1)), onRollbackFailure);
}

/** An executor on one session; `depth` > 0 means it is already inside a transaction. */
export function sessionExecutor(run: RunStatement, depth = 0): SqlExecutor {
  return {
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      return (await run(text, params)) as T[];
    },
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return sessionTransaction(run, depth, fn);
    },
  };
}

/** How an executor names its statements: `statementNames()` on a Postgres server, never (undefined) elsewhere. */
export type StatementNamer = (text: string, params?: unknown[]) => string | undefined;

/**
 * Put in a statement's text (it is an SQL comment) when the statement must never be prepared, whatever the session's
 * plan cache mode: one whose parameters choose the index that serves it (`($n IS NULL OR id = ANY($n))`: a null
 * filter folds away, listed ids are read by the primary key). A generic plan has to serve every value and scans
 * instead (listing beliefs by id on a 2 400-belief scope: 0.7 ms with its values, 132 ms generic on a loaded
 * machine). The sessions this process opens plan every prepared statement with its values (`PLAN_CACHE_MODE`,
 * database.ts); the marker keeps these few right on a session that does not. Such a text always goes unnamed.
 */
export const PLANNED_WITH_VALUES = "/* planned with its values */";

/**
 * Chooses which statements run as named prepared statements on a Postgres server connection: Postgres then parses
 * and analyses the text once per connection instead of on every call, and plans it with each call's values
 * (`PLAN_CACHE_MODE`, database.ts: the plans are those of the unnamed statement, never a generic one). pg keeps the
 * per-connection record of what it has prepared (`client.query({ name, text, values })` sends Parse only the
 * first time on each connection).
 *
 * Prepared: statements with parameters whose text this process has sent `after` times (default 3), while fewer
 * than `max` texts (default 200) are prepared; once prepared a text stays prepared. Postgres frees a connection's
 * prepared statements only when the connection closes, and texts built per call (IN lists, bulk inserts with one
 * placeholder group per row) would each become one more entry on every pooled connection: the threshold leaves a
 * text seen once or twice unnamed, and the cap bounds every backend's cache at `max` entries whatever the flood
 * (the app's fixed statements are a few dozen, so the fixed ones fit with room to spare, and 200 plans are a few
 * MB per backend at most). The counts of texts not prepared yet are forgotten when they reach 10 000 texts.
 * Not prepared: statements without parameters (transaction control, DDL, SET, multi-statement strings, which
 * the extended protocol refuses) — they go as simple queries as before; and texts holding `PLANNED_WITH_VALUES`.
 *
 * Plans: forced generic against forced custom on a 2 400-belief scope (EXPLAIN ANALYZE; the commit timed in
 * rolled-back savepoints), the hot statements' generic plans were as fast or faster (search's first read 0.06 + 2.05
 * against 0.84 + 6.24 ms planning + execution); on 100 000 beliefs they doubled a search's CPU (PGlite), so the
 * sessions keep custom plans (`PLAN_CACHE_MODE`).
 *
 * The name is a hash of the text; within a process a name is only ever given to one text (a second text that
 * hashed to a name already taken stays unnamed), since pg refuses to reuse a name for another text.
 */
/** The most texts one process names (`statementNames`' default `max`). */
export const NAMED_STATEMENTS_MAX = 200;

export function statementNames(options: { after?: number; max?: number } = {}): StatementNamer {
  const after = options.after ?? 3;
  const max = options.max ?? NAMED_STATEMENTS_MAX;
  const named = new Map<string, string>();
  const taken = new Set<string>();
  const seen = new Map<string, number>();
  return (text, params) => {
    if (params === undefined || params.length === 0 || text.includes(PLANNED_WITH_VALUES)) return undefined;
    const name = named.get(text);
    if (name !== undefined || named.size >= max) return name;
    const count = (seen.get(text) ?? 0) + 1;
    if (count < after) {
      if (seen.size >= 10_000) seen.clear();
      seen.set(text, count);
      return undefined;
    }
    seen.delete(text);
    const candidate = `credence_${createHash("sha256").update(text).digest("base64url").slice(0, 20)}`;
    if (taken.has(candidate)) return undefined;
    taken.add(candidate);
    named.set(text, candidate);
    return candidate;
  };
}

const unnamed: StatementNamer = () => undefined;

function queryConfig(text: string, params: unknown[] | undefined, nameOf: StatementNamer): QueryConfig {
  const name = nameOf(text, params);
  return name === undefined ? { text, values: params } : { name, text, values: params };
}

/**
 * Did a named statement fail because its connection's prepared statement is no longer usable: 0A000 (its cached plan
 * no longer fits its tables, after DDL from a migration changed a row type) or 26000 (the session no longer has it)?
 * On that connection it would fail on every later call, since pg believes it is still prepared.
 */
function isStalePrepared(error: unknown): boolean {
  // Also through the causes of an error the caller mapped (the graph store wraps what a transaction threw).
  for (let cause = error, depth = 0; cause !== null && typeof cause === "object" && depth < 5; depth++) {
    const { code } = cause as { code?: unknown };
    if (code === "0A000" || code === "26000") return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

function clientStatements(client: PoolClient, nameOf: StatementNamer): RunStatement {
  return async (text, params) => (await client.query(queryConfig(text, params, nameOf))).rows;
}

/** An executor on one checked-out connection; `depth` > 0 means it is already inside a transaction. */
export function clientExecutor(client: PoolClient, depth = 0): SqlExecutor {
  return sessionExecutor(clientStatements(client, unnamed), depth);
}

/**
 * Queries go to any pooled connection; each transaction checks one connection out for its whole life. `nameOf`
 * (`statementNames()`) makes statements named prepared statements: only on a Postgres server, where each pooled
 * connection is its own session; never on the embedded database's socket, whose connections share one session
 * (one connection's prepared name would collide with another's Parse of the same name).
 */
export function poolExecutor(pool: Pool, nameOf: StatementNamer = unnamed): SqlExecutor {
  return {
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      const config = queryConfig(text, params, nameOf);
      try {
        return (await pool.query(config)).rows as T[];
      } catch (error) {
        // pg-pool has discarded the connection that failed; run the statement once more unnamed, since another
        // pooled connection may hold the same stale statement.
        if (config.name === undefined || !isStalePrepared(error)) throw error;
        return (await pool.query({ text, values: params })).rows as T[];
      }
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A connection whose ROLLBACK failed is in an unknown state, one holding a stale prepared statement would fail
      // it again: either is destroyed, not returned to the pool.
      let broken: Error | undefined;
      try {
        return await sessionTransaction(clientStatements(client, nameOf), 0, fn, (error) => {
          broken = error;
        });
      } catch (error) {
        if (isStalePrepared(error)) broken ??= error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}
