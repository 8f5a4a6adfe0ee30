import { apiRoute, withFields } from "@/lib/api/api-route";

/** Lift the freeze an oscillation hard stop put on a topic (reviewer or owner). */
export const POST = apiRoute(async ({ services, principal, params, body }) => ({
  freeze: await services.liftFreeze(principal, params.scope ?? "", withFields(await body(), { topic: params.topic ?? "" }) as never),
}));
