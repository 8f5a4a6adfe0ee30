/**
 * Every failure of a service becomes a `BeliefServiceError` here (one place), so the API maps one error type:
 * zod → `invalid` naming each field; identity's DomainError → its own code; assessor failures → `assessment_failed`
 * (nothing was written); store races that outlived the retries → `conflict`; a store that is down → `unavailable`;
 * the engine's refusals (an entry that does not exist, a topic that is not frozen…) → `invalid`.
 * Anything else is rethrown unchanged: a bug, which the boundary logs and answers with a generic 500.
 */
import { ZodError } from "zod";
import { AssessmentError } from "@/lib/engine";
import { MutationValidationError, ReviewError } from "@/lib/engine/mutation";
import { ChangeSetRejected, GraphStoreError, VersionConflict } from "@/lib/graph/errors";
import { DomainError } from "@/lib/identity/errors";
import { BeliefServiceError, type FieldProblem } from "./belief-service-error";

export function fieldProblems(error: ZodError, prefix = ""): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "input",
    message: issue.message,
  }));
}

/** Names of engine error classes whose refusals are the caller's to fix. */
const ENGINE_REFUSALS = new Set(["StabilityError", "SynthesisError", "IngestError", "MutationError", "AssimilationError", "RevisionError", "GroundingError"]);

export function toServiceError(error: unknown): unknown {
  if (error instanceof BeliefServiceError) return error;
  if (error instanceof ZodError) {
    const fields = fieldProblems(error);
    return new BeliefServiceError("invalid", fields.map((f) => `${f.field}: ${f.message}`).join("; "), { fields });
  }
  if (error instanceof DomainError) {
    const code = error.code === "last_owner" ? "conflict" : error.code === "unauthenticated" ? "forbidden" : error.code;
    return new BeliefServiceError(code, error.message, error.field ? { fields: [{ field: error.field, message: error.message }] } : {});
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
  if (error instanceof MutationValidationError) {
    return new BeliefServiceError("invalid", error.message, { fields: error.fields }, { cause: error });
  }
  if (error instanceof ReviewError) {
    return new BeliefServiceError(error.code === "not_pending" ? "conflict" : "invalid", error.message, {}, { cause: error });
  }
  if (error instanceof Error && ENGINE_REFUSALS.has(error.name)) {
    return new BeliefServiceError("invalid", error.message, {}, { cause: error });
  }
  return error;
}

/** Parses a service input with `schema`; a ZodError becomes `invalid` with every problem listed. */
export function parseServiceInput<T>(schema: { parse(input: unknown): T }, input: unknown): T {
  try {
    return schema.parse(input ?? {});
  } catch (error) {
    throw toServiceError(error);
  }
}
