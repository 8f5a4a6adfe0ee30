import { apiRoute, created } from "@/lib/api/api-route";
import { presentMember, presentMembers } from "@/lib/api/present";
import { addMemberBodySchema } from "@/lib/api/request-schemas";

/** The scope's members with their roles (any member may read the roster). */
export const GET = apiRoute(async ({ services, principal, params }) => presentMembers(await services.listMembers(principal, params.scope ?? "")));

/** Owner: adds an existing user, by email, with a role. */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  created(presentMember(await services.addMember(principal, params.scope ?? "", addMemberBodySchema.parse(await body())))),
);
