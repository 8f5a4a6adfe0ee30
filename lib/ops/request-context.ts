/**
 * The request being served, carried through every await of its handling (AsyncLocalStorage): its id (from a
 * well-formed `X-Request-Id` header, else generated) reaches the services' logs and is echoed in error bodies and the
 * `x-request-id` response header, so one id ties a client's report to the server's log lines.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export interface RequestContext {
  requestId: string;
  /** The route pattern, e.g. "/api/v1/scopes/[scope]/ingest" (metrics label); "unknown" when not known. */
  route: string;
  /** The error code answered, if any (set by the error mapping; a metrics label). */
  errorCode?: string;
  /** Values computed once for this request (`oncePerRequest`). */
  memo?: Map<unknown, unknown>;
}

const storage = new AsyncLocalStorage<RequestContext>();

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's own id when it is a plain token (letters, digits, `._:-`, ≤ 128), else a fresh UUID. */
export function requestIdOf(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming !== null && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

export function runWithRequestContext<T>(context: RequestContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(context, fn);
}

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * `compute()` once per request and `key`: later calls in the same request get the first call's value. Outside a
 * request, undefined (nothing is shared: the caller does its own work).
 */
export function oncePerRequest<T>(key: unknown, compute: () => T): T | undefined {
  const context = storage.getStore();
  if (context === undefined) return undefined;
  context.memo ??= new Map();
  if (!context.memo.has(key)) context.memo.set(key, compute());
  return context.memo.get(key) as T;
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/**
 * The route pattern of a path, for metrics labels: each segment equal to a route parameter's value becomes `[name]`,
 * so `/api/v1/scopes/platform/beliefs/b_1` → `/api/v1/scopes/[scope]/beliefs/[id]` (bounded label cardinality).
 */
export function routePattern(pathname: string, params: Readonly<Record<string, string | string[]>>): string {
  const byValue = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) for (const v of Array.isArray(value) ? value : [value]) byValue.set(v, name);
  return pathname
    .split("/")
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // kept as is
      }
      const name = byValue.get(segment) ?? byValue.get(decoded);
      return name !== undefined ? `[${name}]` : segment;
    })
    .join("/");
}
