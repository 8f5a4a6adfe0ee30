import { apiRoute } from "@/lib/api/api-route";
import { presentHarvest } from "@/lib/api/present";

/** Split model output into atomic claims stamped with their producer. */
export const POST = apiRoute(async ({ services, principal, params, body }) => presentHarvest(await services.harvest(principal, params.scope ?? "", await body())));
