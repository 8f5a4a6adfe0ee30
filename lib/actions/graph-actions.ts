"use server";

import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { entryWeightKey } from "@/lib/graph/cytoscape-elements";
import type { GraphSlice, ScopeExport } from "@/lib/graph/graph-store";
import { runAction, type ActionResult } from "./safe-action";

const graphSliceInput = z
  .object({
    scope: z.string().min(1).max(48),
    nodeId: z.string().trim().min(1).max(500).optional(),
    depth: z.number().int().min(1).max(5).optional(),
    maxNodes: z.number().int().min(1).max(5_000).optional(),
    asOf: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export interface GraphSliceResult {
  slice: GraphSlice;
  /**
   * Entry edge weights keyed by `entryWeightKey(beliefId, seq)`: the replayed effective weight for the present view;
   * with `asOf`, the assessed strength weight × ess (the stored effective weight is the present replay's, not the past's).
   * Only for the whole-scope view; neighbourhood views fall back to live = 1.
   */
  weights: Record<string, number>;
}

function weightsOf(data: ScopeExport, asOf: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { belief, history } of data.beliefs) {
    for (const item of history) {
      if (item.type !== "entry") continue;
      out[entryWeightKey(belief.id, item.seq)] = asOf ? item.weight * item.ess : item.effectiveWeight;
    }
  }
  return out;
}

/** The graph explorer's data: the same service and authorisation as `GET /api/v1/scopes/{scope}/graph`. */
export async function graphSliceAction(input: z.input<typeof graphSliceInput>): Promise<ActionResult<GraphSliceResult>> {
  return runAction(graphSliceInput, input, async ({ scope, ...rest }, userId) => {
    const services = await getBeliefServices();
    const caller = sessionPrincipal(userId);
    if (rest.nodeId) return { slice: await services.graph(caller, scope, rest), weights: {} };
    const [slice, data] = await Promise.all([
      services.graph(caller, scope, rest),
      // Weights are a refinement: a reader the export refuses still gets the graph, with live edges at full width.
      services.exportScope(caller, scope, rest.asOf ? { asOf: rest.asOf } : {}).catch(() => null),
    ]);
    return { slice, weights: data ? weightsOf(data, rest.asOf) : {} };
  });
}
