import { apiRoute, withFields } from "@/lib/api/api-route";
import { presentBelief } from "@/lib/api/present";

/** Correct an earlier entry's weight or relation; the belief is replayed as if it had carried them from the start. */
export const POST = apiRoute(async ({ services, principal, params, body }) => {
  const result = await services.reviseEntry(principal, params.scope ?? "", withFields(await body(), { beliefId: params.id ?? "" }) as never);
  return { belief: presentBelief(result.belief), changeSetId: result.changeSetId, cascade: result.cascade };
});
