/** Liveness: the process is up and answering (no dependency is checked). */
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "live" }, { headers: { "cache-control": "no-store" } });
}
