import { apiRoute } from "@/lib/api/api-route";
import { presentAssimilate } from "@/lib/api/present";

/** A claim and its evidence entries (tiers, directions or relations, weights) → the belief after the change-set, with its history. */
export const POST = apiRoute(async ({ services, principal, params, body }) => presentAssimilate(await services.assimilate(principal, params.scope ?? "", await body())));
