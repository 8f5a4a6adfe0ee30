/**
 * Pure visual encoding of the belief graph: colour by tension, size by credence, shape by kind, edge colour, arrow
 * and line style by type, width by weight. Values are precomputed into element data so Cytoscape's stylesheet only
 * reads `data(…)` fields (no per-element style functions: they dominate render time on large graphs).
 */
import type { EdgeKind } from "@/lib/engine/model";
import type { EdgeElement, NodeElement } from "@/lib/graph/cytoscape-elements";

/**
 * Cividis (Nuñez, Anderton & Renslow 2018): perceptually even lightness and readable with colour-vision deficiencies.
 * Stops sampled from matplotlib's table at 0, 0.25, 0.5, 0.75, 1; linear interpolation between neighbours keeps
 * lightness monotone. Settled (tension 0) is dark blue, contested (1) bright yellow.
 */
export const TENSION_STOPS: readonly (readonly [number, number, number])[] = [
  [0x00, 0x22, 0x4e],
  [0x3d, 0x4d, 0x6c],
  [0x7c, 0x7b, 0x78],
  [0xbc, 0xaf, 0x6f],
  [0xfd, 0xe7, 0x37],
];

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

function hex(rgb: readonly [number, number, number]): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

/** tension t ∈ [0,1] → `#rrggbb` on the cividis ramp; out-of-range and NaN are clamped (NaN → 0). */
export function tensionColour(tension: number): string {
  const t = clamp01(tension) * (TENSION_STOPS.length - 1);
  const i = Math.min(TENSION_STOPS.length - 2, Math.floor(t));
  const f = t - i;
  const a = TENSION_STOPS[i] ?? TENSION_STOPS[0]!;
  const b = TENSION_STOPS[i + 1] ?? a;
  return hex([a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f]);
}

/** Label colour that stays readable on `tensionColour(t)`: light text on the dark half of the ramp. */
export function tensionTextColour(tension: number): string {
  return clamp01(tension) < 0.55 ? "#ffffff" : "#111827";
}

/**
 * Where a tension sits on the ramp: 0 (nothing live rebuts) keeps the ramp's dark end; any live rebuttal starts at
 * 0.3 and rises with √t, so a small tension (0.13 → 0.55) is a visibly different colour from none, and the status
 * thresholds 0.25 and 0.5 land at 0.65 and 0.79.
 */
export function tensionRampPosition(tension: number): number {
  const t = clamp01(tension);
  return t <= 0 ? 0 : 0.3 + 0.7 * Math.sqrt(t);
}

/** The canvas behind the graph in each scheme (Tailwind white and zinc-950): what every node and edge colour is measured against. */
export const CANVAS_BACKGROUND = { light: "#ffffff", dark: "#09090b" } as const;

/**
 * The part of the cividis ramp each scheme draws with: every colour in it stands at ≥ 3:1 against that scheme's canvas
 * (WCAG 1.4.11 for graphics). The light canvas loses the ramp's pale yellow end, the dark one its navy end; both keep
 * its order (settled darker and bluer, contested lighter and yellower on light; the reverse end cut on dark).
 */
export const SCHEME_RAMP = { light: [0, 0.58], dark: [0.36, 1] } as const;

/** The fill a belief of this tension gets on the graph, the legend and the tension bars (`dark`: on the dark canvas). */
export function tensionFill(tension: number, dark = false): string {
  const [from, to] = SCHEME_RAMP[dark ? "dark" : "light"];
  return tensionColour(from + (to - from) * tensionRampPosition(tension));
}

/** Label colour readable on `tensionFill(t, dark)`. */
export function tensionFillText(tension: number, dark = false): string {
  const [from, to] = SCHEME_RAMP[dark ? "dark" : "light"];
  return tensionTextColour(from + (to - from) * tensionRampPosition(tension));
}

/** The thresholds the status rules read (docs/design.md §4.5), marked on the legend's scale. */
export const TENSION_THRESHOLDS: readonly { at: number; name: string }[] = [
  { at: 0.25, name: "contested" },
  { at: 0.5, name: "sharply contested" },
];

export const BELIEF_SIZE_MIN = 18;
export const BELIEF_SIZE_MAX = 58;
/**
 * Diameter in px = 18 + 40·√credence: area (what the eye compares) grows linearly with credence, so a 0.25 belief
 * reads as a quarter of a certain one's extra area rather than vanishing.
 */
export function beliefSize(credence: number): number {
  return BELIEF_SIZE_MIN + (BELIEF_SIZE_MAX - BELIEF_SIZE_MIN) * Math.sqrt(clamp01(credence));
}

export type NodeKind = NodeElement["data"]["kind"];
export const NODE_SHAPES: Readonly<Record<NodeKind, string>> = { belief: "ellipse", evidence: "round-rectangle", mutation: "diamond" };
/** Fills of the other node kinds, per scheme; each ≥ 3:1 against its canvas (graph-style.test.ts checks them all). */
export const KIND_COLOURS = {
  evidence: { light: "#6b6b75", dark: "#c4c4cc" },
  evidenceRetracted: { light: "#8e8e98", dark: "#7c7c86" },
  mutation: { light: "#b06a00", dark: "#e69f00" },
  topic: { light: "#3d4d6c", dark: "#9aa3b5" },
} as const;

/**
 * Okabe–Ito colours (distinguishable with colour-vision deficiencies), each with its own arrow so colour is never alone;
 * sky blue and reddish purple darkened so that every edge stands at ≥ 3:1 on both canvases.
 */
export const EDGE_STYLES: Readonly<Record<EdgeKind, { colour: string; arrow: string; line: "solid" | "dotted"; meaning: string }>> = {
  SUPPORTS: { colour: "#009e73", arrow: "triangle", line: "solid", meaning: "evidence or a belief supports it" },
  REBUTS: { colour: "#d55e00", arrow: "tee", line: "solid", meaning: "rebuts it" },
  CONTEXTUALIZES: { colour: "#8a8a8a", arrow: "circle", line: "solid", meaning: "scopes it (context, no weight)" },
  SUPERSEDES: { colour: "#0072b2", arrow: "triangle-backcurve", line: "solid", meaning: "replaces an older belief" },
  REFINES: { colour: "#3489bf", arrow: "vee", line: "solid", meaning: "narrows a broader belief" },
  SYNTHESIZES: { colour: "#b8609a", arrow: "diamond", line: "solid", meaning: "reconciles two rival beliefs" },
  CONCERNS: { colour: "#b07d00", arrow: "square", line: "dotted", meaning: "a mutation touched this belief" },
};

/** Width in px = 1 + 4·weight, weight ∈ [0,1] (the entry's effective weight; 1 for structural edges). */
export function edgeWidth(weight: number): number {
  return 1 + 4 * clamp01(weight);
}

export interface StyledNodeData {
  /** Fill on the light canvas, and on the dark one. */
  colour: string;
  colourDark: string;
  textColour: string;
  size: number;
  shape: string;
}

export function nodeVisual(data: NodeElement["data"]): StyledNodeData {
  if (data.kind === "belief") {
    const tension = data.tension ?? 0;
    return { colour: tensionFill(tension), colourDark: tensionFill(tension, true), textColour: tensionFillText(tension), size: beliefSize(data.credence ?? 0), shape: NODE_SHAPES.belief };
  }
  if (data.kind === "evidence") {
    const c = data.retracted ? KIND_COLOURS.evidenceRetracted : KIND_COLOURS.evidence;
    return { colour: c.light, colourDark: c.dark, textColour: "#111827", size: 14, shape: NODE_SHAPES.evidence };
  }
  return { colour: KIND_COLOURS.mutation.light, colourDark: KIND_COLOURS.mutation.dark, textColour: "#111827", size: 18, shape: NODE_SHAPES.mutation };
}

export interface StyledEdgeData {
  colour: string;
  arrow: string;
  /** Not-live edges (retracted or stripped entries) are dashed; CONCERNS is dotted. */
  line: "solid" | "dotted" | "dashed";
  width: number;
}

export function edgeVisual(data: EdgeElement["data"]): StyledEdgeData {
  const style = EDGE_STYLES[data.type];
  return { colour: style.colour, arrow: style.arrow, line: data.live ? style.line : "dashed", width: edgeWidth(data.live ? data.weight : 0) };
}

/** Elements as Cytoscape receives them: the mapped data plus the visual fields the stylesheet reads. */
/** Node kinds drawn: the graph's own, plus the topic map's topics (never sent by the REST graph endpoint). */
export type DrawnKind = NodeKind | "topic";
export type StyledNode = { group: "nodes"; data: Omit<NodeElement["data"], "kind"> & { kind: DrawnKind } & StyledNodeData; position?: { x: number; y: number } };
export type StyledEdge = { group: "edges"; data: EdgeElement["data"] & StyledEdgeData };

export function styleNode(node: NodeElement): StyledNode {
  return { group: "nodes", data: { ...node.data, ...nodeVisual(node.data) } };
}

export function styleEdge(edge: EdgeElement): StyledEdge {
  return { group: "edges", data: { ...edge.data, ...edgeVisual(edge.data) } };
}

/**
 * One stylesheet for both renderers. Labels are text drawn on the canvas (never HTML). Only nodes the canvas marks
 * `.lbl` show one (the most important that fit without overlapping at the current zoom); their font size (`fs`) and
 * width (`tw`) are set in graph units so the label reads at ~12 px whatever the zoom.
 */
export function graphStylesheet(dark = false): { selector: string; style: Record<string, string | number> }[] {
  const text = dark ? "#e4e4e7" : "#18181b";
  const textBackground = dark ? "#18181b" : "#ffffff";
  return [
    {
      selector: "node",
      style: {
        "background-color": dark ? "data(colourDark)" : "data(colour)",
        shape: "data(shape)",
        width: "data(size)",
        height: "data(size)",
        "border-width": 1,
        "border-color": dark ? "#a1a1aa" : "#3f3f46",
        label: "",
        "font-size": 12,
        color: text,
        "text-valign": "bottom",
        "text-margin-y": 3,
        "text-wrap": "wrap",
        "text-max-width": "220px",
        "min-zoomed-font-size": 0,
        "text-background-color": textBackground,
        "text-background-opacity": 0.8,
        "text-background-padding": "2px",
        "text-background-shape": "round-rectangle",
      },
    },
    { selector: "node.lbl", style: { label: "data(label)", "font-size": "data(fs)", "text-max-width": "data(tw)", "text-margin-y": "data(tm)" } },
    { selector: "node.lbl-above", style: { "text-valign": "top", "text-margin-y": "data(tmu)" } },
    { selector: 'node[kind = "evidence"]', style: { color: dark ? "#d4d4d8" : "#3f3f46" } },
    { selector: 'node[kind = "topic"]', style: { "border-width": 2, "font-weight": "bold" } },
    { selector: "node[?retracted]", style: { "border-style": "dashed" } },
    {
      selector: "edge",
      style: {
        "line-color": "data(colour)",
        "target-arrow-color": "data(colour)",
        "target-arrow-shape": "data(arrow)",
        "line-style": "data(line)",
        width: "data(width)",
        "curve-style": "straight",
        "arrow-scale": 0.8,
      },
    },
    { selector: "node:selected", style: { "border-width": 4, "border-color": "#db2777", "underlay-color": "#db2777", "underlay-opacity": 0.25, "underlay-padding": 6, "underlay-shape": "ellipse" } },
    { selector: "edge:selected", style: { width: 6, opacity: 1 } },
    { selector: "node.match", style: { "border-width": 4, "border-color": dark ? "#fde047" : "#a16207", "underlay-color": "#facc15", "underlay-opacity": 0.45, "underlay-padding": 8, "underlay-shape": "ellipse" } },
    { selector: ".faded", style: { opacity: 0.2 } },
  ];
}
