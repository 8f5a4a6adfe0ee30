import { apiRoute, created } from "@/lib/api/api-route";
import { presentGrant, presentGrants } from "@/lib/api/present";
import { addGrantBodySchema } from "@/lib/api/request-schemas";

/** The scope's grants: to other scopes (`grants`) and from them (`incoming`); any member may read them. */
export const GET = apiRoute(async ({ services, principal, params }) => {
  const scope = params.scope ?? "";
  const [grants, incoming] = await Promise.all([services.listGrants(principal, scope), services.listIncomingGrants(principal, scope)]);
  return presentGrants(grants, incoming);
});

/** Owner: lets scope `toSlug` resolve this scope's items. */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  created(presentGrant(await services.addGrant(principal, params.scope ?? "", addGrantBodySchema.parse(await body())))),
);
