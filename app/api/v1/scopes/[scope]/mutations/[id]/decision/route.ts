import { apiRoute, withFields } from "@/lib/api/api-route";
import { presentMutationResult } from "@/lib/api/present";

/** A reviewer's decision on a queued mutation: approve (with a resolution) or reject, with a note. */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  presentMutationResult(await services.reviewMutation(principal, params.scope ?? "", withFields(await body(), { mutationId: params.id ?? "" }))),
);
