import { apiRoute, withFields } from "@/lib/api/api-route";
import { presentFreeze } from "@/lib/api/present";

/** Lift the freeze an oscillation hard stop put on a topic (reviewer or owner). */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  presentFreeze(await services.liftFreeze(principal, params.scope ?? "", withFields(await body(), { topic: params.topic ?? "" }))),
);
