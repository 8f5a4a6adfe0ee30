import { z } from "zod";
import { BeliefServiceError, httpStatusOf } from "@/lib/errors/belief-service-error";
import { issueFields } from "@/lib/engine";
import { DATABASE_BUSY_RETRY_AFTER_SECONDS, DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, isPoolBusy } from "@/lib/db/db-errors";
import { GraphStoreError } from "@/lib/graph/errors";
import { getLogger } from "@/lib/ops/logger";
import { currentRequest } from "@/lib/ops/request-context";

/** The REST API's error body: `{"error": {"code", "message", "details"}}`, never a stack trace (docs/design.md §7). */
export interface ApiErrorBody {
  error: { code: string; message: string; details: Record<string, unknown>; requestId?: string };
}

/** An error raised at the HTTP boundary itself (bad JSON, body too large, no credentials…). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function errorResponse(status: number, code: string, message: string, details: Record<string, unknown> = {}): Response {
  const request = currentRequest();
  if (request) request.errorCode = code;
  // Our own failures (5xx) carry the request id to quote in a report; every answer has it in `x-request-id`. Client
  // errors keep the plain documented body (a hidden and a missing item must answer byte for byte alike).
  const requestId = status >= 500 ? request?.requestId : undefined;
  const body: ApiErrorBody = { error: { code, message, details, ...(requestId !== undefined ? { requestId } : {}) } };
  // Every 503 is an outage or a full pool the client should wait out: say how long.
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (status === 503) headers["retry-after"] = String(typeof details.retryAfterSeconds === "number" ? details.retryAfterSeconds : DATABASE_RETRY_AFTER_SECONDS);
  return Response.json(body, { status, headers });
}

/**
 * One place maps every error to a status (the dub.co `handleApiError` pattern): our own error classes keep their
 * status and code; zod errors become 422 naming each field; anything else is logged and answered with a generic 500.
 */
export function handleApiError(error: unknown): Response {
  if (error instanceof ApiError) return errorResponse(error.status, error.code, error.message, error.details);
  // Checked before the services' own `unavailable`, which may wrap it: a full pool is load, not an outage.
  if (isPoolBusy(error)) {
    return errorResponse(503, "busy", "Every database connection is in use right now; retry shortly (with the same Idempotency-Key, a write is never applied twice).", { retryAfterSeconds: DATABASE_BUSY_RETRY_AFTER_SECONDS });
  }
  if (error instanceof BeliefServiceError) {
    return errorResponse(httpStatusOf(error.code), error.code, error.message, { ...error.details });
  }
  if (error instanceof z.ZodError) {
    return errorResponse(422, "invalid", "The request has invalid fields.", { fields: issueFields(error.issues) });
  }
  if (isDatabaseUnavailable(error)) {
    return errorResponse(503, "unavailable", "The database is unreachable right now; retry later (with the same Idempotency-Key, a write is never applied twice).", { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
  }
  // The graph store failing outside a service call (its selection on first use, e.g. Neo4j down when the server starts).
  if (error instanceof GraphStoreError && error.code === "store_unavailable") {
    return errorResponse(503, "unavailable", "The graph store is unreachable right now; retry later (with the same Idempotency-Key, a write is never applied twice).", { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
  }
  getLogger().error({ err: error }, "api: unhandled error");
  return errorResponse(500, "internal", "Something went wrong on our side; nothing was changed.");
}
