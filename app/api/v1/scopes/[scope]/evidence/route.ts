import { apiRoute, created } from "@/lib/api/api-route";
import { presentRegisterEvidence } from "@/lib/api/present";

/** Register an Evidence item that entries may cite. */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  created(presentRegisterEvidence(await services.registerEvidence(principal, params.scope ?? "", await body()))),
);
