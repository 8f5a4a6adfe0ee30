/**
 * Requests a browser may have been tricked into sending. A page on another origin can make the browser send its
 * cookies with a form post or a `text/plain` fetch; it cannot set a foreign `Origin` nor send JSON without a
 * preflight. So a write authenticated by the session cookie must come from the app's own origin and carry JSON; a
 * write with an API token (which a browser never attaches on its own) is not affected.
 */
import { ApiError } from "./api-error";

/** Methods that only read: never refused here. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The hosts (with port) this request may call itself from: `Host`, and `X-Forwarded-Host` behind a reverse proxy. */
function ownHosts(request: Request): (string | null)[] {
  return [request.headers.get("host") ?? new URL(request.url).host, request.headers.get("x-forwarded-host")];
}

/** An `Origin` header naming another origin (host and port) than this server's; no `Origin` is not cross-origin. */
export function crossOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  try {
    return !ownHosts(request).includes(new URL(origin).host);
  } catch {
    return true;
  }
}

/** Whether the browser says the request comes from this very origin: a same-host `Origin`, or `Sec-Fetch-Site: same-origin`. */
export function sameOrigin(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "same-origin") return true;
  return request.headers.get("origin") !== null && !crossOrigin(request);
}

/** `application/json` or any `+json` type, with or without parameters. */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  const type = value.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || /^application\/[\w.-]+\+json$/.test(type);
}

/**
 * Throws for a write authenticated by the session cookie that does not prove it is the app's own: 403 `forbidden`
 * without a same-origin `Origin` (or `Sec-Fetch-Site: same-origin`), 415 `unsupported_media_type` without a JSON body type.
 */
export function requireSameOriginWrite(request: Request): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  if (!sameOrigin(request)) {
    throw new ApiError(403, "forbidden", "A write signed in by cookie must come from this app's own origin (send an API token from other origins).");
  }
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new ApiError(415, "unsupported_media_type", "A write signed in by cookie must send Content-Type: application/json.", { contentType: request.headers.get("content-type") });
  }
}
