import { apiRoute, created } from "@/lib/api/api-route";
import { presentSyntheses, presentSynthesisAccepted } from "@/lib/api/present";
import { pairInput } from "@/lib/api/synthesis-pair";

/** Long-running two-sided disputes the engine proposes to reconcile by scoping both sides. */
export const GET = apiRoute(async ({ services, principal, params }) => presentSyntheses(await services.listSynthesisCandidates(principal, params.scope ?? "")));

/** Accept a synthesis: it enters as a fresh provisional belief with SYNTHESIZES edges to both sides. */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  created(presentSynthesisAccepted(await services.acceptSynthesis(principal, params.scope ?? "", pairInput(await body())))),
);
