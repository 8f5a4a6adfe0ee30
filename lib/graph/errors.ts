/**
 * Errors of the graph layer, each with a stable `code` the service and API layers map (409 for conflicts, 422 for a
 * rejected change-set, 503 when the store is unavailable).
 */

export type GraphStoreErrorCode = "version_conflict" | "change_set_rejected" | "store_unavailable" | "store_misconfigured";

/**
 * Registry symbols, the same in every copy of this module. The graph store is a process singleton that may be built by
 * the server script's copy of this module (bin/serve.ts runs the job worker) while the services that catch its
 * errors are Next.js's bundled copy: `instanceof` checks these brands instead of the prototype chain, or a version
 * conflict from the other copy escapes the conflict retry as a 500 (found by the crash-safety test, embedded mode).
 */
const GRAPH_STORE_ERROR = Symbol.for("credence.GraphStoreError");
const VERSION_CONFLICT = Symbol.for("credence.VersionConflict");
const CHANGE_SET_REJECTED = Symbol.for("credence.ChangeSetRejected");

function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

export class GraphStoreError extends Error {
  readonly [GRAPH_STORE_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, GRAPH_STORE_ERROR);
  }

  constructor(
    readonly code: GraphStoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "GraphStoreError";
  }
}

/**
 * Why a change-set lost an optimistic-concurrency race:
 * `version` — a belief's stored version is not `expectedVersion`;
 * `exists` — a belief to insert (expectedVersion null) already exists;
 * `history_seq` — appended items do not continue the stored history;
 * `live_key` — another live belief of the scope already holds the key;
 * `deadlock` — the database aborted the transaction to break a lock cycle or a serialization failure.
 * All of them mean: nothing was written; reload, re-run the engine, apply again.
 */
export type VersionConflictReason = "version" | "exists" | "history_seq" | "live_key" | "deadlock";

export class VersionConflict extends GraphStoreError {
  readonly [VERSION_CONFLICT] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, VERSION_CONFLICT);
  }

  constructor(
    readonly beliefId: string | null,
    readonly reason: VersionConflictReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super("version_conflict", message, options);
    this.name = "VersionConflict";
  }
}

/**
 * A change-set (or import) that can never apply as given — not a race, so retrying will not help:
 * `invalid_version` (belief.version ≠ expectedVersion + 1), `unknown_belief` (history for a belief that does not
 * exist), `unknown_target` (entry outputs, retractions or mutation updates naming a missing item), `duplicate_id`
 * (an Evidence or Mutation id that exists), `already_applied` (the change-set id was applied before),
 * `import_conflict` (import into a non-empty scope or over existing ids), `invalid` (shape errors).
 */
export type ChangeSetRejectedReason =
  | "invalid_version"
  | "unknown_belief"
  | "unknown_target"
  | "duplicate_id"
  | "already_applied"
  | "import_conflict"
  | "invalid";

export class ChangeSetRejected extends GraphStoreError {
  readonly [CHANGE_SET_REJECTED] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, CHANGE_SET_REJECTED);
  }

  constructor(
    readonly reason: ChangeSetRejectedReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super("change_set_rejected", message, options);
    this.name = "ChangeSetRejected";
  }
}

export function isVersionConflict(error: unknown): error is VersionConflict {
  return error instanceof VersionConflict;
}
