/**
 * Idempotency marks: how a write under an `Idempotency-Key` proves, in the same transaction as its change-set, that it
 * happened. The key itself is claimed and completed in the app's database (`lib/api/idempotency.ts`); the
 * mark is written by the graph store's `apply` inside the change-set's own transaction (SQL: a row of
 * `graph_idempotency_marks`; Neo4j: an `IdempotencyMark` node), so "committed" and "marked" are one event on every
 * backend. A retry that takes a stale key over reads the marks of that claim: any mark means the first attempt's
 * write committed and must not run again.
 *
 * A mark is unique per (principal, key, claim, ordinal): the ordinal counts the writes of one request (harvest makes
 * several), so two attempts of one claim racing each other cannot both commit the same write; the loser's change-set
 * is rejected whole (`ChangeSetRejected("already_applied")`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ChangeSet } from "@/lib/engine";
import { processValue } from "@/lib/process-singleton";
import type { ApplyOptions, ApplyResult, GraphStore } from "./graph-store";

import type { IdempotencyMark } from "./graph-store";
export type { IdempotencyMark, IdempotencyMarkRecord, IdempotencyMarks } from "./graph-store";

/** Marks live a little longer than the keys they belong to (24 h), so a mark never disappears before its key. */
export const IDEMPOTENCY_MARK_HOURS = 25;

interface AmbientClaim {
  principal: string;
  key: string;
  claimId: string;
  /** Writes of this request that committed so far. */
  committed: number;
}

/**
 * One per process, not per module copy: the job worker (the server script's copy of this module) runs a job under its
 * claim while the store the services write through may have been wrapped by Next's bundled copy; with a storage per
 * copy the store saw no claim, wrote no mark, and a job re-run after a kill wrote its ingest twice (found by the
 * crash-safety test on the embedded default).
 */
const ambient = processValue("__credenceIdempotencyClaim", () => new AsyncLocalStorage<AmbientClaim>()).get();

/** Runs `fn` with the claim ambient: every `apply` made inside it (through `withAmbientIdempotency`) writes a mark. */
export async function runUnderIdempotencyClaim<T>(claim: { principal: string; key: string; claimId: string }, fn: () => Promise<T>): Promise<{ value: T; committed: number }> {
  const state: AmbientClaim = { ...claim, committed: 0 };
  const value = await ambient.run(state, fn);
  return { value, committed: state.committed };
}

/** How many writes of the current request committed (0 outside a claim). */
export function committedUnderClaim(): number {
  return ambient.getStore()?.committed ?? 0;
}

/**
 * The store as the services see it: `apply` without options picks up the ambient claim (if any) and writes its next
 * mark in the change-set's transaction. Every other method is the store's own.
 */
export function withAmbientIdempotency<S extends GraphStore>(store: S): S {
  const apply = async (changeSet: ChangeSet, options?: ApplyOptions): Promise<ApplyResult> => {
    const claim = ambient.getStore();
    if (options?.idempotency !== undefined || claim === undefined) return store.apply(changeSet, options);
    const { principal, key, claimId } = claim;
    const result = await store.apply(changeSet, { ...options, idempotency: { principal, key, claimId, ordinal: claim.committed + 1 } });
    claim.committed += 1;
    return result;
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === "apply") return apply;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/** The text id of a mark (Neo4j's node id; a readable primary key elsewhere). */
export function markId(mark: Omit<IdempotencyMark, "ordinal">, ordinal: number): string {
  return `${markPrefix(mark)}${ordinal}`;
}

export function markPrefix(mark: Omit<IdempotencyMark, "ordinal">): string {
  return `${mark.principal}\u0000${mark.key}\u0000${mark.claimId}\u0000`;
}
