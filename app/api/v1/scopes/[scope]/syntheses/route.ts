import { apiRoute, created } from "@/lib/api/api-route";
import { presentBelief } from "@/lib/api/present";
import { pairInput } from "@/lib/api/synthesis-pair";

/** Long-running two-sided disputes the engine proposes to reconcile by scoping both sides. */
export const GET = apiRoute(async ({ services, principal, params }) => ({
  syntheses: await services.listSynthesisCandidates(principal, params.scope ?? ""),
}));

/** Accept a synthesis: it enters as a fresh provisional belief with SYNTHESIZES edges to both sides. */
export const POST = apiRoute(async ({ services, principal, params, body }) => {
  const result = await services.acceptSynthesis(principal, params.scope ?? "", pairInput(await body()) as never);
  return created({ belief: presentBelief(result.belief) });
});
