/**
 * The explorer's view state ⇄ URL search params, so a view can be shared. Parameter names match
 * `GET /api/v1/scopes/{scope}/graph` (`status`, `minCredence`, …, `edgeTypes`, `topic`, `text`, `asOf`, `nodeId`),
 * plus `expand` (nodes whose neighbourhoods were added) and `node` (the selected node). Unknown or malformed values
 * are dropped, never thrown: a hand-edited link still opens.
 */
import { z } from "zod";
import { BELIEF_STATUSES, EDGE_KINDS, type BeliefStatus, type EdgeKind } from "@/lib/engine/model";
import type { ElementFilters } from "@/lib/graph/cytoscape-elements";

export interface GraphViewParams {
  statuses: BeliefStatus[];
  edgeTypes: EdgeKind[];
  minCredence?: number;
  maxCredence?: number;
  minTension?: number;
  maxTension?: number;
  maxConfidence?: number;
  /** ISO time: only beliefs changed since. */
  changedSince?: string;
  topic?: string;
  text?: string;
  /** ISO time: replay the scope to this moment. */
  asOf?: string;
  /** Neighbourhood focus: show this node's neighbourhood instead of the whole scope. */
  nodeId?: string;
  /** Nodes whose neighbourhoods were added to a focused view (double-click). */
  expand: string[];
  /** The node shown in the side panel. */
  node?: string;
  /** "list": the accessible table of the same elements instead of the canvas. */
  mode?: "list";
}

export const EMPTY_VIEW: GraphViewParams = { statuses: [], edgeTypes: [], expand: [] };

const unit = z.coerce.number().min(0).max(1);
/** Longest text filter or search kept (the API's limit); a longer one is refused with a message, never silently dropped. */
export const TEXT_FILTER_MAX = 500;
const idSchema = z.string().trim().min(1).max(200);
const isoSchema = z.iso.datetime({ offset: true });

type Reader = { get(name: string): string | null; getAll(name: string): string[] };

function list(params: Reader, name: string): string[] {
  return params.getAll(name).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
}

function optional<T>(schema: z.ZodType<T>, raw: string | null): T | undefined {
  if (raw === null || raw.trim() === "") return undefined;
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

function oneOf<T extends string>(allowed: readonly T[], values: readonly string[]): T[] {
  return [...new Set(values.filter((v): v is T => (allowed as readonly string[]).includes(v)))];
}

export function parseGraphViewParams(params: Reader): GraphViewParams {
  const view: GraphViewParams = {
    statuses: oneOf(BELIEF_STATUSES, list(params, "status")),
    edgeTypes: oneOf(EDGE_KINDS, list(params, "edgeTypes")),
    expand: [...new Set(list(params, "expand").filter((v) => idSchema.safeParse(v).success))],
  };
  const numbers = ["minCredence", "maxCredence", "minTension", "maxTension", "maxConfidence"] as const;
  for (const name of numbers) {
    const value = optional(unit, params.get(name));
    if (value !== undefined) view[name] = value;
  }
  const topic = optional(z.string().trim().min(1).max(200), params.get("topic"));
  if (topic !== undefined) view.topic = topic;
  const text = optional(z.string().trim().min(1).max(TEXT_FILTER_MAX), params.get("text"));
  if (text !== undefined) view.text = text;
  const changedSince = optional(isoSchema, params.get("changedSince"));
  if (changedSince !== undefined) view.changedSince = changedSince;
  if (params.get("view") === "list") view.mode = "list";
  const asOf = optional(isoSchema, params.get("asOf"));
  if (asOf !== undefined) view.asOf = asOf;
  const nodeId = optional(idSchema, params.get("nodeId"));
  if (nodeId !== undefined) view.nodeId = nodeId;
  const node = optional(idSchema, params.get("node"));
  if (node !== undefined) view.node = node;
  return view;
}

/** Canonical, minimal query: defaults are left out and lists are comma-joined in a fixed order. */
export function graphViewSearchParams(view: GraphViewParams): URLSearchParams {
  const out = new URLSearchParams();
  if (view.statuses.length > 0) out.set("status", BELIEF_STATUSES.filter((s) => view.statuses.includes(s)).join(","));
  if (view.edgeTypes.length > 0) out.set("edgeTypes", EDGE_KINDS.filter((k) => view.edgeTypes.includes(k)).join(","));
  for (const name of ["minCredence", "maxCredence", "minTension", "maxTension", "maxConfidence"] as const) {
    const value = view[name];
    if (value !== undefined) out.set(name, String(value));
  }
  if (view.changedSince) out.set("changedSince", view.changedSince);
  if (view.topic) out.set("topic", view.topic);
  if (view.text) out.set("text", view.text);
  if (view.asOf) out.set("asOf", view.asOf);
  if (view.nodeId) out.set("nodeId", view.nodeId);
  if (view.expand.length > 0) out.set("expand", view.expand.join(","));
  if (view.node) out.set("node", view.node);
  if (view.mode) out.set("view", view.mode);
  return out;
}

/** The element filters of a view (what `toCytoscapeElements` applies). */
export function elementFiltersOf(view: GraphViewParams): ElementFilters {
  const f: ElementFilters = {};
  if (view.statuses.length > 0) f.statuses = view.statuses;
  if (view.edgeTypes.length > 0) f.edgeTypes = view.edgeTypes;
  if (view.minCredence !== undefined) f.minCredence = view.minCredence;
  if (view.maxCredence !== undefined) f.maxCredence = view.maxCredence;
  if (view.minTension !== undefined) f.minTension = view.minTension;
  if (view.maxTension !== undefined) f.maxTension = view.maxTension;
  if (view.maxConfidence !== undefined) f.maxConfidence = view.maxConfidence;
  if (view.changedSince) f.changedSince = view.changedSince;
  if (view.topic) f.topic = view.topic;
  if (view.text) f.text = view.text;
  return f;
}

export function hasFilters(view: GraphViewParams): boolean {
  return Object.keys(elementFiltersOf(view)).length > 0;
}

/** Drops every filter, keeping what is being looked at (time, focus, expansions, selection). */
export function withoutFilters(view: GraphViewParams): GraphViewParams {
  return { ...EMPTY_VIEW, asOf: view.asOf, nodeId: view.nodeId, expand: view.expand, node: view.node, mode: view.mode };
}

/** One-click views an analyst asks for first. */
export const GRAPH_PRESETS = [
  { id: "contested", label: "Contested", hint: "any live rebuttal (tension above 0)" },
  { id: "disputed", label: "Disputed", hint: "status disputed" },
  { id: "recent", label: "Recently changed", hint: "changed in the 7 days before the latest change" },
  { id: "lowConfidence", label: "Low confidence", hint: "confidence under 0.4: thinly evidenced, or not enough evidence" },
] as const;
export type GraphPreset = (typeof GRAPH_PRESETS)[number]["id"];

/** Smallest tension the "contested" preset keeps: anything a live rebuttal produces. */
export const CONTESTED_MIN_TENSION = 0.01;
const LOW_CONFIDENCE_MAX = 0.39;
const RECENT_DAYS = 7;

/** The view with only the preset's filter (focus, time, selection and mode kept). `latest`: the scope's last change. */
export function applyPreset(view: GraphViewParams, preset: GraphPreset, latest: string): GraphViewParams {
  const base = withoutFilters(view);
  if (preset === "contested") return { ...base, minTension: CONTESTED_MIN_TENSION };
  if (preset === "disputed") return { ...base, statuses: ["disputed"] };
  if (preset === "lowConfidence") return { ...base, maxConfidence: LOW_CONFIDENCE_MAX };
  return { ...base, changedSince: new Date(Date.parse(latest) - RECENT_DAYS * 86_400_000).toISOString() };
}

/** The preset a view is exactly (its only filter), if any. */
export function activePreset(view: GraphViewParams): GraphPreset | null {
  const f = elementFiltersOf(view);
  const keys = Object.keys(f);
  if (keys.length !== 1) return null;
  if (f.minTension === CONTESTED_MIN_TENSION) return "contested";
  if (f.statuses?.length === 1 && f.statuses[0] === "disputed") return "disputed";
  if (f.maxConfidence === LOW_CONFIDENCE_MAX) return "lowConfidence";
  if (f.changedSince) return "recent";
  return null;
}
