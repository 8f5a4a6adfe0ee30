import { apiRoute, withFields } from "@/lib/api/api-route";
import { presentRetract } from "@/lib/api/present";
import { dryRunQuerySchema, readQuery } from "@/lib/api/request-schemas";

/** Retract a source: every entry citing it is retracted and grounding losses propagate (a dry run writes nothing). */
export const POST = apiRoute(async ({ services, principal, params, body, url }) => {
  const { dryRun } = dryRunQuerySchema.parse(readQuery(url, dryRunQuerySchema));
  return presentRetract(await services.retract(principal, params.scope ?? "", withFields(await body(), { dryRun })));
});
