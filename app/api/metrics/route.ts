import { metricsResponse } from "@/lib/ops/metrics-endpoint";

/** Prometheus metrics: open by default; with CREDENCE_METRICS_TOKEN set, only for `Authorization: Bearer <token>`. */
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return metricsResponse(request);
}
