/**
 * What the custom server (bin/serve.ts) checks before Next sees a request, and the API's answers for paths no
 * route handles: a path under /api/ whose percent-encoding is broken (`/api/v1/scopes/%zz/beliefs`) is a
 * JSON 400 `malformed_path` instead of Next's plain-text 500; an unmatched /api/v1 path is a JSON 404 `not_found`.
 * Both in the API's error shape `{"error": {"code", "message", "details"}}`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

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
 * Answers the request itself when it must not reach Next (returns true); otherwise leaves it alone (false).
 * Only /api/ paths are guarded: pages keep Next's own handling.
 */
export function guardApiRequest(req: IncomingMessage, res: ServerResponse, requestId?: string): boolean {
  const target = req.url ?? "/";
  if (!target.startsWith("/api/")) return false;
  if (decodablePath(target)) return false;
  const payload = body("malformed_path", "The request path is not valid percent-encoding.", requestId ? { requestId } : {});
  res.writeHead(400, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(payload));
  return true;
}

export function unmatchedApiPath(request: Request): Response {
  const path = new URL(request.url).pathname;
  return Response.json(body("not_found", `No API endpoint at ${request.method} ${path}.`, { path }), { status: 404, headers: { "cache-control": "no-store" } });
}
