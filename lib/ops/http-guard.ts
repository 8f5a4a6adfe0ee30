/**
 * What the custom server (bin/serve.ts) checks before Next sees a request, and the API's answers for paths no
 * route handles: a path under /api/ whose percent-encoding is broken (`/api/v1/scopes/%zz/beliefs`) is a JSON 400
 * `malformed_path` instead of Next's plain-text 500; a method the server does not serve (TRACE on any path, PUT on a
 * POST-only route) is a JSON 405 `method_not_allowed` with `Allow`; an unmatched /api/v1 path is a JSON 404
 * `not_found`; a request whose head is too large is a JSON 431. All in the API's error shape
 * `{"error": {"code", "message", "details"}}`.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

/** Methods some route of this server answers; anything else (TRACE, CONNECT, made-up verbs) is refused everywhere. */
const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** What a page answers (POST: server actions). */
const PAGE_METHODS = ["GET", "HEAD", "POST"];
/** The endpoints under /api/ outside the REST API's OpenAPI document, with their methods (the files under app/api). */
const OTHER_API_ROUTES: readonly [RegExp, string[]][] = [
  [/^\/api\/mcp$/, ["DELETE", "GET", "HEAD", "POST"]],
  [/^\/api\/(?:health\/(?:live|ready)|metrics|docs)$/, ["GET", "HEAD"]],
  [/^\/api\/auth\//, ["GET", "HEAD", "POST"]],
];

/** The methods a REST path answers (HEAD with GET), or null for a path no operation has: the REST API's route table. */
export type RestMethods = (pathname: string) => string[] | null;

/** The methods an /api/ path answers, or null for a path no route serves (the 404 is the routes' to give). */
function apiMethods(path: string, restMethods: RestMethods | undefined): string[] | null {
  if (path.startsWith("/api/v1/")) return restMethods?.(path) ?? null;
  return OTHER_API_ROUTES.find(([pattern]) => pattern.test(path))?.[1] ?? null;
}

interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

function body(code: string, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, details } };
}

/** Whether every segment of the target's path (the part before `?`) is valid percent-encoding. */
export function decodablePath(target: string): boolean {
  const path = target.split("?")[0] ?? "";
  try {
    for (const segment of path.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * Answers the request itself when it must not reach Next (returns true); otherwise leaves it alone (false). Methods
 * are checked on every path (`restMethods`: the REST API's own table, from its OpenAPI document); percent-encoding
 * only on /api/ paths: pages keep Next's own handling.
 */
export function guardApiRequest(req: IncomingMessage, res: ServerResponse, options: { requestId?: string; restMethods?: RestMethods } = {}): boolean {
  const { requestId, restMethods } = options;
  const target = req.url ?? "/";
  const method = (req.method ?? "GET").toUpperCase();
  const path = target.split("?")[0] ?? "/";
  const api = path.startsWith("/api/") ? apiMethods(path, restMethods) : null;
  const allow = api ?? PAGE_METHODS;
  if (!SERVED_METHODS.has(method) || (api !== null && method !== "OPTIONS" && !api.includes(method))) {
    const payload = body("method_not_allowed", `${method} is not allowed on ${path}; allowed: ${allow.join(", ")}.`, { method, allow });
    res.writeHead(405, { "content-type": "application/json", "cache-control": "no-store", allow: allow.join(", ") });
    res.end(JSON.stringify(payload));
    return true;
  }
  if (!target.startsWith("/api/")) return false;
  if (decodablePath(target)) return false;
  const payload = body("malformed_path", "The request path is not valid percent-encoding.", requestId ? { requestId } : {});
  res.writeHead(400, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(payload));
  return true;
}

/** A raw HTTP/1.1 answer with a JSON body, then the connection closes (for sockets Node hands over before Next). */
function writeRaw(socket: Duplex, status: number, reason: string, payload: ErrorBody, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(payload);
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncache-control: no-store\r\n${extra}content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

/** CONNECT (the server's `connect` event: Node never hands it to the request handler): a JSON 405 like any other method. */
export function answerConnect(req: IncomingMessage, socket: Duplex): void {
  const allow = PAGE_METHODS.join(", ");
  writeRaw(socket, 405, "Method Not Allowed", body("method_not_allowed", `CONNECT is not allowed; allowed: ${allow}.`, { method: "CONNECT", allow: PAGE_METHODS }), { allow });
}

/**
 * The answer to a request Node could not parse (the server's `clientError`): 431 for a head past the size limit (a
 * 100 kB query string), 400 otherwise, each with a JSON body, then the connection is closed. A socket that is already
 * gone is just destroyed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? 431 : 400;
  const payload = tooLarge
    ? body("headers_too_large", "The request line and headers are too large (a long query string?); send the input in a POST body.")
    : body("malformed_request", "The request is not valid HTTP.");
  writeRaw(socket, status, tooLarge ? "Request Header Fields Too Large" : "Bad Request", payload);
}

/**
 * How long an idle kept-alive connection stays open: 65 s, past the 60 s idle timeout of common proxies and load
 * balancers (nginx's `keepalive_timeout` with an upstream pool, cloud load balancers) and past the clients' own. With
 * Node's 5 s default the server closes idle connections first, and a client that reuses one at that moment has its
 * request reset (ECONNRESET) without an answer. `headersTimeout` must stay above it.
 */
export const KEEP_ALIVE_MS = 65_000;

export function keepConnectionsAlive(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
}

export function unmatchedApiPath(request: Request): Response {
  const path = new URL(request.url).pathname;
  return Response.json(body("not_found", `No API endpoint at ${request.method} ${path}.`, { path }), { status: 404, headers: { "cache-control": "no-store" } });
}
