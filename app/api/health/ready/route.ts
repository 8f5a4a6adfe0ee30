import { readiness } from "@/lib/api/health";

/** Readiness: 200 when ready or degraded (no embedding model), 503 when the database or graph store fails or the server drains. */
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const result = await readiness();
  return Response.json(result, { status: result.status === "not_ready" ? 503 : 200, headers: { "cache-control": "no-store" } });
}
