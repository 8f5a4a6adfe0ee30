/**
 * Every failure of a service becomes a `BeliefServiceError` here (one place), so each boundary maps one error type:
 * zod → `invalid` naming each field; the engine's `EngineError` → `invalid` (or `conflict` for a mutation that is no
 * longer pending, a reading decided already, or a review decision that can no longer be undone), its fields kept; assessor failures → `assessment_failed` (nothing was written); store races that
 * outlived the retries → `conflict`; a store that is down → `unavailable`.
 * Anything else is rethrown unchanged: a bug, which the boundary logs and answers with a generic 500.
 */
import { ZodError } from "zod";
import { AssessmentError, EngineError } from "@/lib/engine";
import { ChangeSetRejected, GraphStoreError, VersionConflict } from "@/lib/graph/errors";
import { BeliefServiceError, invalidInputError } from "@/lib/errors/belief-service-error";

export function toServiceError(error: unknown): unknown {
  if (error instanceof BeliefServiceError) return error;
  if (error instanceof ZodError) return invalidInputError(error);
  if (error instanceof EngineError) {
    const code = error.code === "not_pending" || error.code === "already_decided" || error.code === "not_undoable" ? "conflict" : "invalid";
    return new BeliefServiceError(code, error.message, error.fields.length > 0 ? { fields: error.fields } : {}, { cause: error });
  }
  if (error instanceof AssessmentError) {
    return new BeliefServiceError("assessment_failed", `assessment failed (${error.code}): ${error.message}; nothing was written`, { assessorCode: error.code }, { cause: error });
  }
  if (error instanceof VersionConflict) {
    return new BeliefServiceError("conflict", "a concurrent write changed this belief; try again", {}, { cause: error });
  }
  if (error instanceof ChangeSetRejected) {
    const code = error.reason === "invalid" || error.reason === "unknown_target" || error.reason === "unknown_belief" ? "invalid" : "conflict";
    return new BeliefServiceError(code, error.message, {}, { cause: error });
  }
  if (error instanceof GraphStoreError) {
    return new BeliefServiceError("unavailable", `the graph store is unavailable: ${error.message}`, {}, { cause: error });
  }
  return error;
}

/** `methods` with each method's failure passed through `toServiceError` (a frozen copy; the methods are async). */
export function withServiceErrors<T extends object>(methods: T): T {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(methods) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await method(...args);
      } catch (error) {
        throw toServiceError(error);
      }
    };
  }
  return Object.freeze(wrapped) as T;
}
