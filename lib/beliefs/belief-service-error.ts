/**
 * The one error type of the belief services. Each `code` is stable; the API maps it to an HTTP status with
 * `httpStatusOf` (one place), the UI shows `message`, and `details` carries machine-readable specifics.
 */

export const BELIEF_SERVICE_ERROR_CODES = [
  "not_found",
  "forbidden",
  "invalid",
  "conflict",
  "oscillation_hard_stop",
  "topic_frozen",
  "assessment_failed",
  "unavailable",
] as const;
export type BeliefServiceErrorCode = (typeof BELIEF_SERVICE_ERROR_CODES)[number];

/** One invalid input field: its dotted path (e.g. `evidence.0.tier`) and what is wrong with it. */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface BeliefServiceErrorDetails {
  /** `invalid`: every problem found, one per field. */
  fields?: readonly FieldProblem[];
  /** `oscillation_hard_stop`: the journaled (blocked) mutation; `topic_frozen`: the freezing mutation, if known. */
  mutationId?: string;
  topic?: string;
  /** `conflict`: how many attempts were made before giving up. */
  attempts?: number;
  /** `assessment_failed`: the assessor's own code (timeout, refused, malformed, rate_limited, unavailable, budget_exhausted). */
  assessorCode?: string;
}

export class BeliefServiceError extends Error {
  constructor(
    readonly code: BeliefServiceErrorCode,
    message: string,
    readonly details: BeliefServiceErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "BeliefServiceError";
  }
}

/**
 * HTTP status per code: not_found 404 · forbidden 403 · invalid 422 · conflict 409 · oscillation_hard_stop 409 ·
 * topic_frozen 409 · assessment_failed 502 · unavailable 503.
 */
export function httpStatusOf(code: BeliefServiceErrorCode): number {
  switch (code) {
    case "not_found":
      return 404;
    case "forbidden":
      return 403;
    case "invalid":
      return 422;
    case "conflict":
    case "oscillation_hard_stop":
    case "topic_frozen":
      return 409;
    case "assessment_failed":
      return 502;
    case "unavailable":
      return 503;
  }
}

export function isBeliefServiceError(error: unknown): error is BeliefServiceError {
  return error instanceof BeliefServiceError;
}

/** The not-found answer for a scope: identical for a missing scope and one the caller may not read (SPEC §5). */
export function scopeNotFoundError(slug: string): BeliefServiceError {
  return new BeliefServiceError("not_found", `no scope ${slug}`, { fields: [{ field: "scope", message: "not found" }] });
}

/** The not-found answer for an item id: identical for a missing id and a hidden one. */
export function itemNotFoundError(kind: string, id: string, field = "id"): BeliefServiceError {
  return new BeliefServiceError("not_found", `no ${kind} ${id}`, { fields: [{ field, message: "not found" }] });
}
