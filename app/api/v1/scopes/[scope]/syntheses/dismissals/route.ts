import { apiRoute } from "@/lib/api/api-route";
import { presentDismissed } from "@/lib/api/present";
import { pairInput } from "@/lib/api/synthesis-pair";

/** Dismiss a synthesis: not proposed again for the pair until either side gains new support. */
export const POST = apiRoute(async ({ services, principal, params, body }) => {
  await services.dismissSynthesis(principal, params.scope ?? "", pairInput(await body()));
  return presentDismissed();
});
