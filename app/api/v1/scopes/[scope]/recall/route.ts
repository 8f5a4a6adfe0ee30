import { apiRoute } from "@/lib/api/api-route";
import { presentRecall } from "@/lib/api/present";
import { readQuery, recallQuerySchema } from "@/lib/api/request-schemas";

/** What do we believe about q, and where do we disagree? The settled answer or the contested briefing. */
export const GET = apiRoute(async ({ services, principal, params, url }) =>
  presentRecall(await services.recall(principal, params.scope ?? "", readQuery(url, recallQuerySchema))),
);
