import { apiRoute } from "@/lib/api/api-route";
import { presentGraphOverview } from "@/lib/api/present";
import { graphOverviewQuerySchema, readQuery } from "@/lib/api/request-schemas";

/** The scope's topic map: one row per topic, the relations between topics, the contested and recently changed beliefs. */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const input = graphOverviewQuerySchema.parse(readQuery(url, graphOverviewQuerySchema));
  return presentGraphOverview(await services.graphOverview(principal, params.scope ?? "", input));
});
