import { apiRoute } from "@/lib/api/api-route";

/** Split model output into atomic claims stamped with their producer. */
export const POST = apiRoute(async ({ services, principal, params, body }) => {
  const result = await services.harvest(principal, params.scope ?? "", (await body()) as never);
  return { claims: result.claims, assimilated: result.assimilated.map((a) => ({ beliefId: a.belief.id, created: a.created })) };
});
