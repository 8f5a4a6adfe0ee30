import { apiRoute } from "@/lib/api/api-route";
import { asOfFromQuery } from "@/lib/api/as-of";
import { presentBeliefDetail } from "@/lib/api/present";

/** One belief with its full history (entries with their replay outputs, and events); `asOf` reconstructs the past. */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const asOf = asOfFromQuery(url);
  return presentBeliefDetail(await services.getBelief(principal, params.scope ?? "", { beliefId: params.id ?? "", ...(asOf ? { asOf } : {}) }));
});
