import { apiRoute, withFields } from "@/lib/api/api-route";

/** Retract a source: every entry citing it is retracted and grounding losses propagate (a dry run writes nothing). */
export const POST = apiRoute(async ({ services, principal, params, body, url }) => {
  const result = await services.retract(principal, params.scope ?? "", withFields(await body(), { dryRun: url.searchParams.get("dryRun") === "true" }) as never);
  return { touched: result.touched, dryRun: result.dryRun, changeSetId: result.changeSetId };
});
