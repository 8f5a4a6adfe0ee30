import { apiRoute, created } from "@/lib/api/api-route";
import { presentMutationResult, presentMutations } from "@/lib/api/present";
import { listMutationsQuerySchema, readQuery } from "@/lib/api/request-schemas";

/** Propose a mutation through the protocol; the answer's `decision` is what the protocol did. */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  created(presentMutationResult(await services.proposeMutation(principal, params.scope ?? "", await body()))),
);

/** The mutation journal, newest first; `status` filters (e.g. `pending_review` is the review queue). */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const { status, ...rest } = listMutationsQuerySchema.parse(readQuery(url, listMutationsQuerySchema));
  return presentMutations(await services.listMutations(principal, params.scope ?? "", { ...rest, ...(status ? { statuses: status } : {}) }));
});
