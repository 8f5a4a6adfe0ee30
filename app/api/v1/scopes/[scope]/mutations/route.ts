import { apiRoute, created, queryInput } from "@/lib/api/api-route";
import { presentBelief, presentMutation } from "@/lib/api/present";

/** Propose a mutation through the protocol; the answer's `decision` is what the protocol did. */
export const POST = apiRoute(async ({ services, principal, params, body }) => {
  const result = await services.proposeMutation(principal, params.scope ?? "", (await body()) as never);
  return created({ mutation: presentMutation(result.mutation), belief: result.belief ? presentBelief(result.belief) : null });
});

/** The mutation journal, newest first; `status` filters (e.g. `pending_review` is the review queue). */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const query = queryInput(url, { status: "string[]", topic: "string", beliefId: "string", limit: "number" });
  const { status, ...rest } = query;
  const mutations = await services.listMutations(principal, params.scope ?? "", { ...rest, ...(status ? { statuses: status } : {}) } as never);
  return { mutations: mutations.map(presentMutation) };
});
