import type { Principal } from "@/lib/access/principal";
import type { BeliefServices } from "@/lib/beliefs/belief-services";
import { getDatabase } from "@/lib/db/database";
import { authenticateCaller, getBeliefServices } from "./api-context";
import { ApiError, handleApiError } from "./api-error";
import { textProblem, unstorableText } from "./nul-path";
import { readTextCapped } from "./read-body";
import { requireSameOriginWrite } from "./same-origin";
import { operationFor } from "./openapi";
import { checkQuery } from "./request-schemas";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { getGraphStore } from "@/lib/graph/select-graph-store";
import { observeRequest } from "@/lib/ops/metrics";
import { processValue } from "@/lib/process-singleton";
import { requestIdOf, routePattern, runWithRequestContext, type RequestContext } from "@/lib/ops/request-context";
import { claimIdempotencyKey, fingerprintRequest, idempotencyKeyOf, principalKey, purgeExpiredIdempotencyKeys, runClaimed } from "./idempotency";
import { getRateLimiter, rateLimited, type RateDecision } from "./rate-limiter";

/** Bodies above this are refused with 413 before parsing (docs/design.md §7). */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ApiContext {
  request: Request;
  principal: Principal;
  services: BeliefServices;
  params: Record<string, string>;
  url: URL;
  /** The parsed JSON body (POST); `{}` when the body is empty. */
  body(): Promise<unknown>;
}

function readBodyText(request: Request): Promise<string> {
  return readTextCapped(request, MAX_BODY_BYTES, () => new ApiError(413, "payload_too_large", `The body exceeds ${MAX_BODY_BYTES} bytes.`));
}

function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, "malformed_json", "The body is not valid JSON.");
  }
  const problem = unstorableText(parsed);
  if (problem !== null) throw textError(problem.field || "body", problem.message);
  return parsed;
}

// Postgres cannot store U+0000 or a lone surrogate: refused here as an invalid field rather than failing in the database as a 500.
function textError(field: string, message: string): ApiError {
  return new ApiError(422, "invalid", "The request has invalid fields.", { fields: [{ field, message }] });
}

function checkText(field: string, value: string): void {
  const message = textProblem(value);
  if (message !== null) throw textError(field, message);
}

/** A path segment as text; one that is not valid percent-encoding (e.g. a bare `%`) is kept as is, never a 500. */
function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function toResponse(result: Response | object): Response {
  return result instanceof Response ? result : Response.json(result, { headers: { "cache-control": "no-store" } });
}

function withRateHeaders(response: Response, decision: RateDecision): Response {
  try {
    response.headers.set("ratelimit-limit", String(decision.limit));
    response.headers.set("ratelimit-remaining", String(decision.remaining));
  } catch {
    // A response with immutable headers keeps them; the limit still applied.
  }
  return response;
}

/**
 * Wraps a route handler: authenticates (Bearer token or session; a session's writes must be same-origin JSON), spends one request from the caller's rate bucket
 * (429 with Retry-After when empty), hands over the services, parses the body lazily, makes a POST with an
 * `Idempotency-Key` idempotent, and maps every error to the documented shape. A handler returns a Response or a
 * JSON-able value (200).
 */
export function apiRoute(handler: (ctx: ApiContext) => Promise<Response | object>) {
  const handle = answer(handler);
  // Every request runs with its id and route in context (logs, error bodies), and is counted and timed (metrics).
  return async (request: Request, route: { params: Promise<Record<string, string | string[]>> }): Promise<Response> => {
    const started = performance.now();
    const context: RequestContext = { requestId: requestIdOf(request), route: "unknown" };
    const response = await runWithRequestContext(context, async () => {
      try {
        context.route = routePattern(new URL(request.url).pathname, (await route.params) ?? {});
      } catch {
        // a route without params
      }
      return handle(request, route);
    });
    try {
      response.headers.set("x-request-id", context.requestId);
    } catch {
      // immutable headers: the id is still in error bodies
    }
    observeRequest(context.route, request.method, response.status, (performance.now() - started) / 1000, response.status >= 400 ? (context.errorCode ?? "unknown") : undefined);
    return response;
  };
}

function answer(handler: (ctx: ApiContext) => Promise<Response | object>) {
  return async (request: Request, route: { params: Promise<Record<string, string | string[]>> }): Promise<Response> => {
    try {
      const raw = await route.params;
      const params: Record<string, string> = {};
      for (const [key, value] of Object.entries(raw ?? {})) params[key] = Array.isArray(value) ? value.join("/") : decodeParam(value);
      const { principal, rateKey, via } = await authenticateCaller(request);
      if (via === "session") requireSameOriginWrite(request);
      const decision = await getRateLimiter().take(rateKey);
      if (!decision.allowed) return rateLimited(decision);
      for (const [key, value] of Object.entries(params)) checkText(key, value);
      const url = new URL(request.url);
      for (const [key, value] of url.searchParams) checkText(key, value);
      const operation = operationFor(request.method, url.pathname);
      if (operation) checkQuery(url, operation.query);
      const idempotencyKey = request.method === "POST" ? idempotencyKeyOf(request) : null;
      let text: Promise<string> | undefined;
      let parsed: Promise<unknown> | undefined;
      const bodyText = () => (text ??= readBodyText(request));
      const ctx: ApiContext = {
        request,
        principal,
        services: await getBeliefServices(),
        params,
        url,
        body: () => (parsed ??= bodyText().then(parseJsonBody)),
      };
      if (idempotencyKey === null) return withRateHeaders(toResponse(await handler(ctx)), decision);
      return withRateHeaders(await runIdempotent(ctx, principal, idempotencyKey, bodyText, handler), decision);
    } catch (error) {
      return handleApiError(error);
    }
  };
}

const lastPurge = processValue("__credenceIdempotencyPurgedAt", () => 0);

/** At most once an hour per process, expired keys are removed off the request's path (a failure only waits an hour). */
function purgeNowAndThen(sql: SqlExecutor): void {
  const now = Date.now();
  if (now - lastPurge.get() < 3_600_000) return;
  lastPurge.set(now);
  void getGraphStore()
    .then((store) => purgeExpiredIdempotencyKeys(sql, store.idempotency))
    .catch(() => {});
}

/**
 * A write under an Idempotency-Key: the body must be well-formed JSON before the key is claimed (a malformed retry
 * never occupies it); the first request runs, its final response (`isFinalStatus`) is stored and replayed byte for byte to
 * every later request with the same key and bytes; a different request under the key is 409 `idempotency_conflict`.
 */
async function runIdempotent(
  ctx: ApiContext,
  principal: Principal,
  key: string,
  bodyText: () => Promise<string>,
  handler: (ctx: ApiContext) => Promise<Response | object>,
): Promise<Response> {
  await ctx.body();
  const fingerprint = fingerprintRequest(ctx.request.method, ctx.url, await bodyText());
  const { sql } = await getDatabase();
  purgeNowAndThen(sql);
  const who = principalKey(principal);
  const claim = await claimIdempotencyKey(sql, { principal: who, key, fingerprint });
  const headers = { "content-type": "application/json", "cache-control": "no-store" };
  if (claim.kind === "replay") {
    return new Response(claim.response.body, { status: claim.response.status, headers: { ...headers, "idempotent-replayed": "true" } });
  }
  const { response, replayed } = await runClaimed(claim, { principal: who, key, marks: async () => (await getGraphStore()).idempotency }, async () => {
    let answer: Response;
    try {
      answer = toResponse(await handler(ctx));
    } catch (error) {
      answer = handleApiError(error);
    }
    return { status: answer.status, body: await answer.text() };
  });
  return new Response(response.body, { status: response.status, headers: replayed ? { ...headers, "idempotent-replayed": "true" } : headers });
}

/** Query parameters as the services' typed inputs expect them: numbers and booleans parsed, blanks dropped. */
export function queryInput(url: URL, spec: Record<string, "string" | "number" | "boolean" | "string[]">): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(spec)) {
    if (type === "string[]") {
      const values = url.searchParams.getAll(name).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
      if (values.length > 0) out[name] = values;
      continue;
    }
    const value = url.searchParams.get(name);
    if (value === null || value.trim() === "") continue;
    if (type === "number") out[name] = Number(value);
    else if (type === "boolean") out[name] = value === "true" ? true : value === "false" ? false : value;
    else out[name] = value;
  }
  return out;
}

export function created(body: object): Response {
  return Response.json(body, { status: 201, headers: { "cache-control": "no-store" } });
}

/** Merges an object body with extra fields; a non-object body is passed through for the schema to reject. */
export function withFields(body: unknown, fields: Record<string, unknown>): unknown {
  return body !== null && typeof body === "object" && !Array.isArray(body) ? { ...body, ...fields } : body;
}
