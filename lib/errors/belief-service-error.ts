import type { ZodError } from "zod";
import { issueFields, type FieldError } from "@/lib/engine";

/**
 * The one error type that access, identity and the belief services throw, kept below all three (the kernel layer) so
 * that none of them imports another's. Each `code` is stable; the API maps it to an HTTP status with `httpStatusOf`
 * (one place), the UI shows `message`, and `details` carries machine-readable specifics.
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
export type FieldProblem = FieldError;

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
  /** `conflict`: `last_owner` when the change would leave a scope without an owner; `contention` when concurrent writers kept winning. */
  reason?: "last_owner" | "contention";
  /** `conflict` (contention): how long the write kept retrying, and the belief that kept changing. */
  elapsedMs?: number;
  beliefId?: string;
}

/**
 * A registry symbol, the same in every copy of this module. Next.js bundles a module once per route graph, while the
 * services are one process singleton: an error made by the singleton's copy of the class must still be recognised by
 * an action's or a route's copy, so `instanceof` checks this brand instead of the prototype chain.
 */
const SERVICE_ERROR_BRAND = Symbol.for("credence.BeliefServiceError");

export class BeliefServiceError extends Error {
  readonly [SERVICE_ERROR_BRAND] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [SERVICE_ERROR_BRAND]?: unknown })[SERVICE_ERROR_BRAND] === true;
  }

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

/** A failure about one input field (forms show `message` beside it). */
export function fieldError(code: BeliefServiceErrorCode, message: string, field: string, details: BeliefServiceErrorDetails = {}): BeliefServiceError {
  return new BeliefServiceError(code, message, { ...details, fields: [{ field, message }] });
}

/** A zod failure as `invalid`, naming every problem. */
export function invalidInputError(error: Pick<ZodError, "issues">, options?: { cause?: unknown }): BeliefServiceError {
  const fields = issueFields(error.issues);
  return new BeliefServiceError("invalid", fields.map((f) => `${f.field}: ${f.message}`).join("; "), { fields }, options);
}

/** Parses a service input with `schema`; a failure becomes `invalid` with every problem listed. */
export function parseServiceInput<T>(schema: { safeParse(input: unknown): { success: true; data: T } | { success: false; error: Pick<ZodError, "issues"> } }, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw invalidInputError(result.error);
}

/** The not-found answer for a scope: identical for a missing scope and one the caller may not read (docs/design.md §5). */
export function scopeNotFoundError(slug: string, field = "scope"): BeliefServiceError {
  return new BeliefServiceError("not_found", `no scope ${slug}`, { fields: [{ field, message: "not found" }] });
}

/** The not-found answer for an item id: identical for a missing id and a hidden one. */
export function itemNotFoundError(kind: string, id: string, field = "id"): BeliefServiceError {
  return new BeliefServiceError("not_found", `no ${kind} ${id}`, { fields: [{ field, message: "not found" }] });
}
