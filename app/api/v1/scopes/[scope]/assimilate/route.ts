import { apiRoute } from "@/lib/api/api-route";
import { presentBelief } from "@/lib/api/present";

/** A claim and its evidence entries (tiers, directions or relations, weights) → the belief after the change-set. */
export const POST = apiRoute(async ({ services, principal, params, body }) => {
  const result = await services.assimilate(principal, params.scope ?? "", (await body()) as never);
  return { belief: presentBelief(result.belief), created: result.created, entries: result.entries, changeSetId: result.changeSetId, cascade: result.cascade };
});
