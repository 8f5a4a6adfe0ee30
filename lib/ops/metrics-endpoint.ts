/**
 * `GET /api/metrics`: the Prometheus text format of this process's registry. Open like any Prometheus target unless
 * `CREDENCE_METRICS_TOKEN` is set; then only `Authorization: Bearer <that token>` gets it (compared in constant time),
 * anyone else a 401 in the API's error shape.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { getMetrics } from "./metrics";

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

export function metricsAllowed(request: Request, token: string | undefined = process.env.CREDENCE_METRICS_TOKEN): boolean {
  if (token === undefined || token === "") return true;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

export async function metricsResponse(request: Request): Promise<Response> {
  if (!metricsAllowed(request)) {
    return Response.json(
      { error: { code: "unauthenticated", message: "Send the metrics token as `Authorization: Bearer <CREDENCE_METRICS_TOKEN>`.", details: {} } },
      { status: 401, headers: { "cache-control": "no-store", "www-authenticate": 'Bearer realm="metrics"' } },
    );
  }
  const { registry } = getMetrics();
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}
