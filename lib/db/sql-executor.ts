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

/** Runs `fn` between `begin` and `commit`; on failure runs `rollback` and rethrows `fn`'s error. */
async function runInTransaction<T>(
  client: PoolClient,
  statements: { begin: string; commit: string; rollback: string },
  fn: () => Promise<T>,
  onRollbackFailure: (error: Error) => void,
): Promise<T> {
  await client.query(statements.begin);
  try {
    const value = await fn();
    await client.query(statements.commit);
    return value;
  } catch (error) {
    try {
      await client.query(statements.rollback);
    } catch (rollbackError) {
      onRollbackFailure(rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError)));
    }
    throw error;
  }
}

/** An executor on one checked-out connection; `depth` > 0 means it is already inside a transaction. */
export function clientExecutor(client: PoolClient, depth = 0): SqlExecutor {
  return {
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      const result = await client.query(text, params);
      return result.rows as T[];
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const savepoint = `credence_sp_${depth}`;
      const statements =
        depth === 0
          ? { begin: "BEGIN", commit: "COMMIT", rollback: "ROLLBACK" }
          : {
              begin: `SAVEPOINT ${savepoint}`,
              commit: `RELEASE SAVEPOINT ${savepoint}`,
              rollback: `ROLLBACK TO SAVEPOINT ${savepoint}`,
            };
      return runInTransaction(client, statements, () => fn(clientExecutor(client, depth + 1)), () => {});
    },
  };
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
        return await runInTransaction(
          client,
          { begin: "BEGIN", commit: "COMMIT", rollback: "ROLLBACK" },
          () => fn(clientExecutor(client, 1)),
          (error) => {
            broken = error;
          },
        );
      } finally {
        client.release(broken);
      }
    },
  };
}
