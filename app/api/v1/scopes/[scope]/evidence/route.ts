import { apiRoute, created } from "@/lib/api/api-route";

/** Register an Evidence item that entries may cite. */
export const POST = apiRoute(async ({ services, principal, params, body }) => {
  const result = await services.registerEvidence(principal, params.scope ?? "", (await body()) as never);
  return created({ evidence: result.evidence, assessment: result.assessment });
});
