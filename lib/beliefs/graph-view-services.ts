/**
 * Saved views of a scope's graph (Prisma's `graph_views`): where its nodes stand and what is shown. The view named ''
 * is the scope's own layout, drawn on every visit so the picture stays put; named views are saved by editors and
 * opened by every reader of the scope. Positions are keyed by node id; pinned nodes keep their place when a layout runs.
 */
import { z } from "zod";
import type { Caller } from "@/lib/access/principal";
import { parseServiceInput } from "@/lib/errors/belief-service-error";
import type { ServiceKit } from "./service-kit";

/** At most this many positions per view (a drawn graph, never a whole scope of 20 000). */
export const GRAPH_VIEW_MAX_POSITIONS = 6_000;

const coordinate = z.number().finite().min(-1e7).max(1e7);
/** Node id → [x, y, pinned (1) or not (0)]. */
export const graphPositionsSchema = z
  .record(z.string().min(1).max(500), z.tuple([coordinate, coordinate, z.union([z.literal(0), z.literal(1)])]))
  .refine((p) => Object.keys(p).length <= GRAPH_VIEW_MAX_POSITIONS, { message: `At most ${GRAPH_VIEW_MAX_POSITIONS} positions per view.` });
export type GraphPositions = z.infer<typeof graphPositionsSchema>;

/** What a view shows: the explorer's parameters (expanded topics, the local graph and its depth, filters). */
export const graphViewStateSchema = z
  .object({
    topics: z.array(z.string().min(1).max(200)).max(500).default([]),
    local: z.string().min(1).max(500).optional(),
    depth: z.number().int().min(1).max(5).optional(),
    filters: z.record(z.string().max(40), z.string().max(2_000)).optional(),
  })
  .strict();
export type GraphViewState = z.infer<typeof graphViewStateSchema>;

const viewName = z.string().trim().max(80);
const getGraphViewInputSchema = z.object({ name: viewName }).strict();
const saveGraphViewInputSchema = z.object({ name: viewName, state: graphViewStateSchema, positions: graphPositionsSchema }).strict();

export interface GraphViewRecord {
  name: string;
  state: GraphViewState;
  positions: GraphPositions;
  updatedAt: string;
}

export interface GraphViewServices {
  /** The scope's named views (not its own layout ''), by name. Readers. */
  listGraphViews(caller: Caller, scopeSlug: string): Promise<readonly { name: string; updatedAt: string }[]>;
  /** A view by name ('' = the scope's own layout), or null when none was saved. Readers. */
  getGraphView(caller: Caller, scopeSlug: string, input: unknown): Promise<GraphViewRecord | null>;
  /** Saves (replaces) a view by name. Editors. */
  saveGraphView(caller: Caller, scopeSlug: string, input: unknown): Promise<GraphViewRecord>;
}

function recordOf(row: { name: string; state: unknown; positions: unknown; updatedAt: Date }): GraphViewRecord {
  // Stored by saveGraphView after the same parse; a row that no longer parses is shown as empty rather than trusted.
  const state = graphViewStateSchema.safeParse(row.state);
  const positions = graphPositionsSchema.safeParse(row.positions);
  return { name: row.name, state: state.success ? state.data : { topics: [] }, positions: positions.success ? positions.data : {}, updatedAt: row.updatedAt.toISOString() };
}

export function graphViewServices(kit: ServiceKit): GraphViewServices {
  const { db } = kit.config;
  return {
    async listGraphViews(caller, scopeSlug) {
      const ctx = await kit.context(caller, scopeSlug, "read");
      const rows = await db.prisma.graphView.findMany({ where: { scopeId: ctx.scope.id, name: { not: "" } }, select: { name: true, updatedAt: true }, orderBy: { name: "asc" } });
      return rows.map((r) => ({ name: r.name, updatedAt: r.updatedAt.toISOString() }));
    },

    async getGraphView(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(getGraphViewInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      const row = await db.prisma.graphView.findUnique({ where: { scopeId_name: { scopeId: ctx.scope.id, name: input.name } } });
      return row ? recordOf(row) : null;
    },

    async saveGraphView(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(saveGraphViewInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const createdById = "operator" in caller ? null : caller.userId;
      const data = { state: input.state, positions: input.positions };
      const row = await db.prisma.graphView.upsert({
        where: { scopeId_name: { scopeId: ctx.scope.id, name: input.name } },
        create: { scopeId: ctx.scope.id, name: input.name, createdById, ...data },
        update: data,
      });
      return recordOf(row);
    },
  };
}
