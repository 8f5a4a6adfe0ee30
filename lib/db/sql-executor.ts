import type { Pool, PoolClient } from "pg";

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

function clientStatements(client: PoolClient): RunStatement {
  return async (text, params) => (await client.query(text, params)).rows;
}

/** An executor on one checked-out connection; `depth` > 0 means it is already inside a transaction. */
export function clientExecutor(client: PoolClient, depth = 0): SqlExecutor {
  return sessionExecutor(clientStatements(client), depth);
}

/** Queries go to any pooled connection; each transaction checks one connection out for its whole life. */
export function poolExecutor(pool: Pool): SqlExecutor {
  return {
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      const result = await pool.query(text, params);
      return result.rows as T[];
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A connection whose ROLLBACK failed is in an unknown state: it is destroyed, not returned to the pool.
      let broken: Error | undefined;
      try {
        return await sessionTransaction(clientStatements(client), 0, fn, (error) => {
          broken = error;
        });
      } finally {
        client.release(broken);
      }
    },
  };
}
