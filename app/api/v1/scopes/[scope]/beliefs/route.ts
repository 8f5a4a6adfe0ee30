import { apiRoute, queryInput } from "@/lib/api/api-route";
import { presentBelief } from "@/lib/api/present";

/** With `q`: live beliefs ranked by relevance × credence. Without: the scope's beliefs (paged by `afterId`). */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const scope = params.scope ?? "";
  if (url.searchParams.has("q")) {
    const ranked = await services.retrieve(principal, scope, queryInput(url, { q: "string", k: "number", minCredence: "number", includeEnded: "boolean" }) as never);
    return { beliefs: ranked.map((r) => ({ ...presentBelief(r.belief), relevance: r.relevance, score: r.score })) };
  }
  const beliefs = await services.listBeliefs(
    principal,
    scope,
    queryInput(url, { liveOnly: "boolean", topic: "string", status: "string", reviewState: "string", afterId: "string", limit: "number" }) as never,
  );
  return { beliefs: beliefs.map((b) => presentBelief(b)) };
});
