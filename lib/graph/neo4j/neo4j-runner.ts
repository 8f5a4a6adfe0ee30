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

export type QueryObserver = (cypher: string, params: Record<string, unknown>) => void;

export function runnerFor(tx: ManagedTransaction, observer: QueryObserver | undefined): CypherRunner {
  return {
    async run(cypher, params) {
      observer?.(cypher, params);
      return tx.run(cypher, params);
    },
  };
}
