/**
 * Maps Postgres errors raised inside a change-set transaction to the graph layer's typed errors, by SQLSTATE and
 * constraint name (both stable: the constraint names are the migration's own).
 */
import { ChangeSetRejected, GraphStoreError, VersionConflict } from "../errors";

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
  detail?: unknown;
  message?: unknown;
}

function fields(error: unknown): PgErrorFields {
  return error !== null && typeof error === "object" ? (error as PgErrorFields) : {};
}

/** The typed error for `error`, or `error` itself when it is not one the store knows how to name. */
export function mapPgError(error: unknown): unknown {
  if (error instanceof GraphStoreError) return error;
  const { code, constraint, detail } = fields(error);
  const why = typeof detail === "string" ? ` (${detail})` : "";
  const opts = { cause: error };
  if (code === "40P01" || code === "40001") {
    return new VersionConflict(null, "deadlock", "Another writer held the same beliefs; nothing was written.", opts);
  }
  if (code === "23505") {
    switch (constraint) {
      case "graph_beliefs_live_key":
        return new VersionConflict(null, "live_key", `Another live belief of the scope already has this key${why}.`, opts);
      case "graph_beliefs_pkey":
        return new VersionConflict(null, "exists", `The belief to insert already exists${why}.`, opts);
      case "graph_history_pkey":
        return new VersionConflict(null, "history_seq", `History seq already taken${why}.`, opts);
      case "graph_evidence_pkey":
      case "graph_mutations_pkey":
        return new ChangeSetRejected("duplicate_id", `An item with this id already exists${why}.`, opts);
      case "graph_change_sets_pkey":
        return new ChangeSetRejected("already_applied", `This change-set was applied before${why}.`, opts);
      case "graph_idempotency_marks_pkey":
        return new ChangeSetRejected("already_applied", `This write was already applied under its Idempotency-Key${why}.`, opts);
      default:
        return error;
    }
  }
  if (code === "23503" && constraint === "graph_history_belief_fkey") {
    return new ChangeSetRejected("unknown_belief", `History appended to a belief that does not exist${why}.`, opts);
  }
  if (code === "08006" || code === "08003" || code === "08001" || code === "57P01" || code === "25P03") {
    return new GraphStoreError("store_unavailable", "The graph database connection failed.", opts);
  }
  return error;
}
