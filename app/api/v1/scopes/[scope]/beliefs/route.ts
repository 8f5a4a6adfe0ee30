import { apiRoute } from "@/lib/api/api-route";
import { presentBeliefList, presentRetrieved } from "@/lib/api/present";
import { listBeliefsQuerySchema, readQuery, retrieveQuerySchema } from "@/lib/api/request-schemas";

/** With `q`: live beliefs ranked by relevance × credence. Without: the scope's beliefs (paged by `afterId`). */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const scope = params.scope ?? "";
  if (url.searchParams.has("q")) return presentRetrieved(await services.retrieve(principal, scope, readQuery(url, retrieveQuerySchema)));
  return presentBeliefList(await services.listBeliefs(principal, scope, readQuery(url, listBeliefsQuerySchema)));
});
