"use server";

import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { entryWeightKey } from "@/lib/graph/cytoscape-elements";
import type { GraphSlice, ScopeExport } from "@/lib/graph/graph-store";
import type { GraphExpandInput } from "@/lib/beliefs/belief-schemas";
import type { GraphExpansion, GraphOverviewResult } from "@/lib/beliefs/belief-services";
import type { GraphPositions, GraphViewRecord, GraphViewState } from "@/lib/beliefs/graph-view-services";
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

/** One change-set of the scope's history: when, and how many beliefs it touched. */
export interface TimelineChange {
  time: string;
  changeSet: string;
  beliefs: number;
}

/** Change-sets in time order (history items grouped by change-set; evidence retractions included). */
function timelineOf(data: ScopeExport): TimelineChange[] {
  const sets = new Map<string, { time: string; beliefs: Set<string> }>();
  for (const { belief, history } of data.beliefs) {
    for (const item of history) {
      const set = sets.get(item.changeSet);
      if (set) {
        set.beliefs.add(belief.id);
        if (item.time < set.time) set.time = item.time;
      } else sets.set(item.changeSet, { time: item.time, beliefs: new Set([belief.id]) });
    }
  }
  return [...sets.entries()]
    .map(([changeSet, { time, beliefs }]) => ({ time, changeSet, beliefs: beliefs.size }))
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.changeSet < b.changeSet ? -1 : 1));
}

const timelineInput = z.object({ scope: z.string().min(1).max(48) }).strict();

/** The scope's history as change-sets, for the explorer's time slider (bounded by the first and last). */
export async function graphTimelineAction(input: z.input<typeof timelineInput>): Promise<ActionResult<{ changes: TimelineChange[] }>> {
  return runAction(timelineInput, input, async ({ scope }, userId) => {
    const services = await getBeliefServices();
    const data = await services.exportScope(sessionPrincipal(userId), scope, {});
    return { changes: timelineOf(data) };
  });
}

const scopeSlug = z.string().min(1).max(48);

/** The topic map of a large scope (the explorer's first view there): the same service as `GET …/graph/overview`. */
export async function graphOverviewAction(input: { scope: string }): Promise<ActionResult<GraphOverviewResult>> {
  return runAction(z.object({ scope: scopeSlug }).strict(), input, async ({ scope }, userId) => (await getBeliefServices()).graphOverview(sessionPrincipal(userId), scope, { notable: 24 }));
}

const expandInput = z.object({ scope: scopeSlug, expand: z.unknown() }).strict();

/** One expansion (a topic's page, or a belief's neighbourhood): the same service as `GET …/graph/expand`. */
export async function graphExpandAction(input: { scope: string; expand: GraphExpandInput }): Promise<ActionResult<GraphExpansion>> {
  return runAction(expandInput, input, async ({ scope, expand }, userId) => (await getBeliefServices()).graphExpand(sessionPrincipal(userId), scope, expand));
}

/** A saved view ('' = the scope's own layout), or null. */
export async function graphViewAction(input: { scope: string; name: string }): Promise<ActionResult<GraphViewRecord | null>> {
  return runAction(z.object({ scope: scopeSlug, name: z.string().max(80) }).strict(), input, async ({ scope, name }, userId) => (await getBeliefServices()).getGraphView(sessionPrincipal(userId), scope, { name }));
}

/** The scope's named views. */
export async function graphViewsAction(input: { scope: string }): Promise<ActionResult<readonly { name: string; updatedAt: string }[]>> {
  return runAction(z.object({ scope: scopeSlug }).strict(), input, async ({ scope }, userId) => (await getBeliefServices()).listGraphViews(sessionPrincipal(userId), scope));
}

/** Saves a view (editors): its state and positions, checked by the service. */
export async function saveGraphViewAction(input: { scope: string; name: string; state: GraphViewState; positions: GraphPositions }): Promise<ActionResult<GraphViewRecord>> {
  return runAction(z.object({ scope: scopeSlug, name: z.string().max(80), state: z.unknown(), positions: z.unknown() }).strict(), input, async ({ scope, ...view }, userId) =>
    (await getBeliefServices()).saveGraphView(sessionPrincipal(userId), scope, view),
  );
}
