import { apiRoute } from "@/lib/api/api-route";
import { presentIngest } from "@/lib/api/present";
import { dryRunQuerySchema, ingestBodySchema, readQuery } from "@/lib/api/request-schemas";

/** Register the text as evidence, assess it, and stage one change-set (committed, discarded as manipulative, or a dry run). */
export const POST = apiRoute(async ({ services, principal, params, body, url }) => {
  const request = ingestBodySchema.parse(await body());
  const { dryRun } = dryRunQuerySchema.parse(readQuery(url, dryRunQuerySchema));
  const result = await services.ingest(principal, params.scope ?? "", {
    text: request.text,
    kind: request.source?.kind,
    uri: request.source?.uri,
    topic: request.topic,
    observedAt: request.observedAt,
    ...(request.edits ? { edits: request.edits } : {}),
    dryRun,
  });
  return presentIngest(result);
});
