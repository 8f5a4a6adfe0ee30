import { apiRoute } from "@/lib/api/api-route";
import { asOfFromQuery } from "@/lib/api/as-of";
import { presentBelief } from "@/lib/api/present";

/** One belief with its full history (entries with their replay outputs, and events); `asOf` reconstructs the past. */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const asOf = asOfFromQuery(url);
  const detail = await services.getBelief(principal, params.scope ?? "", { beliefId: params.id ?? "", ...(asOf ? { asOf } : {}) });
  return {
    belief: presentBelief(detail.belief, detail.history),
    timeline: detail.timeline,
    mutations: detail.mutations,
    supersedes: detail.supersedes.map((b) => presentBelief(b)),
    supersededBy: detail.supersededBy ? presentBelief(detail.supersededBy) : null,
    asOf: detail.asOf,
  };
});
