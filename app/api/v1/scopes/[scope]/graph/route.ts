import { apiRoute } from "@/lib/api/api-route";
import { presentGraph } from "@/lib/api/present";
import { graphQuerySchema, readQuery } from "@/lib/api/request-schemas";
import { toCytoscapeElements } from "@/lib/graph/cytoscape-elements";

/** The scope (or a node's neighbourhood) as Cytoscape elements `{nodes, edges}`; filters and `asOf` as query parameters. */
export const GET = apiRoute(async ({ services, principal, params, url }) => {
  const { nodeId, depth, maxNodes, asOf, status, ...filters } = graphQuerySchema.parse(readQuery(url, graphQuerySchema));
  const slice = await services.graph(principal, params.scope ?? "", { nodeId, depth, maxNodes, asOf });
  return presentGraph(toCytoscapeElements(slice, { ...filters, ...(status ? { statuses: status } : {}) }));
});
