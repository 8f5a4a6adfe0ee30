import { apiRoute, created } from "@/lib/api/api-route";
import { presentScopeCreated, presentScopes } from "@/lib/api/present";
import { createScopeBodySchema } from "@/lib/api/request-schemas";

/** The scopes the caller may read (member or public; a scope-limited token: its own), with its role in each. */
export const GET = apiRoute(async ({ services, principal }) => presentScopes(await services.listScopes(principal)));

/** A new scope with the caller as its owner (an unrestricted token or a session; a scope-limited token is refused). */
export const POST = apiRoute(async ({ services, principal, body }) => created(presentScopeCreated(await services.createScope(principal, createScopeBodySchema.parse(await body())))));
