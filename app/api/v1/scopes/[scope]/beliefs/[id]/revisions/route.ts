import { apiRoute, withFields } from "@/lib/api/api-route";
import { presentRevise } from "@/lib/api/present";

/** Correct an earlier entry's weight or relation; the belief is replayed as if it had carried them from the start. */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  presentRevise(await services.reviseEntry(principal, params.scope ?? "", withFields(await body(), { beliefId: params.id ?? "" }))),
);
