import { apiRoute, queryInput } from "@/lib/api/api-route";

/** What do we believe about q, and where do we disagree? The settled answer or the contested briefing. */
export const GET = apiRoute(async ({ services, principal, params, url }) =>
  services.recall(principal, params.scope ?? "", queryInput(url, { q: "string", k: "number" }) as never),
);
