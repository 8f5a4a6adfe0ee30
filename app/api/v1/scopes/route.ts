import { apiRoute } from "@/lib/api/api-route";
import { presentScopes } from "@/lib/api/present";

/** The scopes the caller may read (member or public; a scope-limited token: its own), with its role in each. */
export const GET = apiRoute(async ({ services, principal }) => presentScopes(await services.listScopes(principal)));
