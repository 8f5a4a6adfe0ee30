import { apiRoute, withFields } from "@/lib/api/api-route";
import { presentMutationResult } from "@/lib/api/present";

/**
 * A reviewer undoes a decision: the approved change is reversed in a new change-set (nothing is deleted) and the
 * proposal waits for review again; the note says why.
 */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  presentMutationResult(await services.undoReview(principal, params.scope ?? "", withFields(await body(), { mutationId: params.id ?? "" }))),
);
