import { apiRoute } from "@/lib/api/api-route";
import { presentReplay } from "@/lib/api/present";

/** The stored state beside the replay of the stored history: they must always match. */
export const GET = apiRoute(async ({ services, principal, params }) => {
  const scope = params.scope ?? "";
  const beliefId = params.id ?? "";
  const [detail, check] = await Promise.all([services.getBelief(principal, scope, { beliefId }), services.replayCheck(principal, scope, { beliefId })]);
  return presentReplay(detail.belief, check);
});
