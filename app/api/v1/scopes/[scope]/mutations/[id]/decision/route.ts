import { apiRoute, withFields } from "@/lib/api/api-route";
import { presentBelief, presentMutation } from "@/lib/api/present";

/** A reviewer's decision on a queued mutation: approve (with a resolution) or reject, with a note. */
export const POST = apiRoute(async ({ services, principal, params, body }) => {
  const result = await services.reviewMutation(principal, params.scope ?? "", withFields(await body(), { mutationId: params.id ?? "" }) as never);
  return { mutation: presentMutation(result.mutation), belief: result.belief ? presentBelief(result.belief) : null };
});
