import { z } from "zod";
import { apiRoute, queryInput } from "@/lib/api/api-route";
import { asOfFromQuery } from "@/lib/api/as-of";
import { BELIEF_STATUSES, EDGE_KINDS } from "@/lib/engine";
import { toCytoscapeElements } from "@/lib/graph/cytoscape-elements";

const filtersSchema = z
  .object({
    minCredence: z.number().min(0).max(1).optional(),
    maxCredence: z.number().min(0).max(1).optional(),
    minTension: z.number().min(0).max(1).optional(),
    maxTension: z.number().min(0).max(1).optional(),
    status: z.array(z.enum(BELIEF_STATUSES)).optional(),
    edgeTypes: z.array(z.enum(EDGE_KINDS)).optional(),
    topic: z.string().max(200).optional(),
    text: z.string().max(500).optional(),
  })
  .strict();

/** The scope (or a node's neighbourhood) as Cytoscape elements `{nodes, edges}`; filters and `asOf` as query parameters. */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const filters = filtersSchema.parse(
    queryInput(url, {
      minCredence: "number",
      maxCredence: "number",
      minTension: "number",
      maxTension: "number",
      status: "string[]",
      edgeTypes: "string[]",
      topic: "string",
      text: "string",
    }),
  );
  const asOf = asOfFromQuery(url);
  const slice = await services.graph(principal, params.scope ?? "", { ...queryInput(url, { nodeId: "string", depth: "number", maxNodes: "number" }), ...(asOf ? { asOf } : {}) } as never);
  const { status, ...rest } = filters;
  return toCytoscapeElements(slice, { ...rest, ...(status ? { statuses: status } : {}) });
});
