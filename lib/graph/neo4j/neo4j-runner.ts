/**
 * What the adapter needs of a transaction: `run(cypher, params)`. The store wraps each managed transaction in one so
 * that every statement can be reported to an optional observer (the contract suite records query sequences to prove
 * that a hidden id and a missing one take the same path).
 */
import type { ManagedTransaction } from "neo4j-driver";

export interface CypherRecord {
  toObject(): Record<string, unknown>;
}

export interface CypherRunner {
  run(cypher: string, params: Record<string, unknown>): Promise<{ records: readonly CypherRecord[] }>;
}

/**
 * Told of every statement before it is sent. It may return a function, called with the statement's elapsed
 * milliseconds once its result has arrived (or it failed): how a benchmark times each statement.
 */
export type QueryObserver = (cypher: string, params: Record<string, unknown>) => ((elapsedMs: number) => void) | void;

export function runnerFor(tx: ManagedTransaction, observer: QueryObserver | undefined): CypherRunner {
  return {
    async run(cypher, params) {
      const done = observer?.(cypher, params);
      if (typeof done !== "function") return tx.run(cypher, params);
      const started = performance.now();
      try {
        return await tx.run(cypher, params);
      } finally {
        done(performance.now() - started);
      }
    },
  };
}
