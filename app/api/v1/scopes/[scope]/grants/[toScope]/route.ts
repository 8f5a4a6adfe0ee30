import { apiRoute } from "@/lib/api/api-route";

/** Owner: withdraws the grant from this scope to `{toScope}`. */
export const DELETE = apiRoute(async ({ services, principal, params }) => {
  await services.removeGrant(principal, params.scope ?? "", { toSlug: params.toScope ?? "" });
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
});
