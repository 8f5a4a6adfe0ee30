import { apiRoute, withFields } from "@/lib/api/api-route";
import { presentCorrectRelation } from "@/lib/api/present";

/** Correct how an evidence item bears on a belief; the belief replays as if the evidence had carried it from the start. */
export const POST = apiRoute(async ({ services, principal, params, body }) =>
  presentCorrectRelation(await services.correctRelation(principal, params.scope ?? "", withFields(await body(), { evidenceId: params.id ?? "" }))),
);
