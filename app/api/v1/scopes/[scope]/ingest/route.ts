import { z } from "zod";
import { apiRoute } from "@/lib/api/api-route";
import { presentIngest } from "@/lib/api/present";

const ingestBody = z
  .object({
    text: z.string(),
    topic: z.string().optional(),
    source: z
      .object({ kind: z.string().default("observation"), uri: z.string().optional(), title: z.string().max(500).optional() })
      .strict()
      .optional(),
  })
  .strict();

/** Register the text as evidence, assess it, and stage one change-set (committed, discarded as manipulative, or a dry run). */
export const POST = apiRoute(async ({ services, principal, params, body, url }) => {
  const request = ingestBody.parse(await body());
  const result = await services.ingest(principal, params.scope ?? "", {
    text: request.text,
    kind: request.source?.kind as never,
    uri: request.source?.uri,
    topic: request.topic,
    dryRun: url.searchParams.get("dryRun") === "true",
  });
  return presentIngest(result);
});
