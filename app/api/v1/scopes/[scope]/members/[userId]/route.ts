import { ApiError } from "@/lib/api/api-error";
import { apiRoute } from "@/lib/api/api-route";
import { presentMember } from "@/lib/api/present";
import { changeRoleBodySchema } from "@/lib/api/request-schemas";

/** Owner: changes a member's role; demoting the last owner is a 409 `conflict` (`details.reason: "last_owner"`). */
export const PATCH = apiRoute(async ({ services, principal, params, body }) => {
  const scope = params.scope ?? "";
  const userId = params.userId ?? "";
  const { role } = changeRoleBodySchema.parse(await body());
  await services.changeRole(principal, scope, { userId, role });
  const member = (await services.listMembers(principal, scope)).find((m) => m.userId === userId);
  if (!member) throw new ApiError(404, "not_found", "No such member.", { userId });
  return presentMember(member);
});

/** Owner, or a member leaving: removes the membership; removing the last owner is a 409 `conflict`. */
export const DELETE = apiRoute(async ({ services, principal, params }) => {
  await services.removeMember(principal, params.scope ?? "", { userId: params.userId ?? "" });
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
});
