import { apiRoute } from "@/lib/api/api-route";
import { presentGraphExpansion } from "@/lib/api/present";
import { graphExpandQuerySchema, readQuery } from "@/lib/api/request-schemas";

/** One expansion of the graph: `?topic=` (paged by `afterId`, `limit`) or `?belief=` (with `depth`, `maxNodes`). */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const input = graphExpandQuerySchema.parse(readQuery(url, graphExpandQuerySchema));
  return presentGraphExpansion(await services.graphExpand(principal, params.scope ?? "", input));
});
