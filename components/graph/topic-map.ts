/**
 * The topic map of a large scope, pure: what is drawn (topics, the beliefs that stay visible at every level, expanded
 * topics, a belief's local graph) as styled Cytoscape elements, and where (a deterministic layout computed from the
 * graph itself: the same input always gives the same positions, with no randomness anywhere).
 */
import type { Belief } from "@/lib/engine/model";
import type { GraphExpansion, GraphOverviewResult } from "@/lib/beliefs/belief-services";
import { toCytoscapeElements } from "@/lib/graph/cytoscape-elements";
import { ringAround } from "./graph-labels";
import { EDGE_STYLES, styleEdge, styleNode, tensionFill, tensionFillText, type StyledEdge, type StyledNode } from "./graph-style";

/** Scopes with more beliefs than this open as their topic map; smaller ones as the whole graph. */
export const LARGE_SCOPE_BELIEFS = 300;

export type Point = { x: number; y: number };

export function topicNodeId(topic: string): string {
  return `topic:${topic}`;
}

/** A topic's diameter: area grows with its belief count (√), between 34 and 140 px. */
export function topicSize(beliefs: number): number {
  return Math.min(140, 34 + 6 * Math.sqrt(Math.max(0, beliefs)));
}

/**
 * Topic positions by a spring-electrical layout (Fruchterman–Reingold) started from a sunflower spiral in topic order
 * (largest first), then separated so that no two topics overlap. Deterministic: plain arithmetic over sorted input.
 */
export function layoutTopics(topics: readonly { topic: string; beliefs: number }[], links: readonly { from: string; to: string; relations: number }[]): Map<string, Point> {
  const order = [...topics].sort((a, b) => b.beliefs - a.beliefs || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
  const n = order.length;
  const index = new Map(order.map((t, i) => [t.topic, i]));
  const radius = order.map((t) => topicSize(t.beliefs) / 2);
  const spacing = 2.4 * (radius.reduce((s, r) => s + r, 0) / Math.max(1, n)) + 30;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const r = spacing * Math.sqrt(i + 0.5);
    xs[i] = r * Math.cos(i * golden);
    ys[i] = r * Math.sin(i * golden);
  }
  const springs = links
    .map((l) => ({ a: index.get(l.from), b: index.get(l.to), w: Math.log2(1 + l.relations) }))
    .filter((s): s is { a: number; b: number; w: number } => s.a !== undefined && s.b !== undefined);
  const k = spacing;
  const iterations = n > 400 ? 60 : 120;
  let temperature = spacing;
  const frame = spacing * Math.sqrt(n + 1) * 1.1;
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  for (let it = 0; it < iterations; it++) {
    dx.fill(0);
    dy.fill(0);
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        let ex = xs[i]! - xs[j]!;
        let ey = ys[i]! - ys[j]!;
        let d2 = ex * ex + ey * ey;
        if (d2 < 1e-6) {
          ex = 1e-3 * (j - i);
          ey = 1e-3;
          d2 = ex * ex + ey * ey;
        }
        const f = (k * k) / d2;
        dx[i] = dx[i]! + ex * f;
        dy[i] = dy[i]! + ey * f;
        dx[j] = dx[j]! - ex * f;
        dy[j] = dy[j]! - ey * f;
      }
    for (const s of springs) {
      const ex = xs[s.a]! - xs[s.b]!;
      const ey = ys[s.a]! - ys[s.b]!;
      const d = Math.sqrt(ex * ex + ey * ey) || 1e-3;
      const f = (d / k) * (0.25 + 0.15 * s.w);
      dx[s.a] = dx[s.a]! - ex * f;
      dy[s.a] = dy[s.a]! - ey * f;
      dx[s.b] = dx[s.b]! + ex * f;
      dy[s.b] = dy[s.b]! + ey * f;
    }
    for (let i = 0; i < n; i++) {
      const d = Math.sqrt(dx[i]! * dx[i]! + dy[i]! * dy[i]!) || 1;
      const step = Math.min(d, temperature);
      xs[i] = xs[i]! + (dx[i]! / d) * step;
      ys[i] = ys[i]! + (dy[i]! / d) * step;
      // The frame: a disc as large as the starting spiral, so unlinked topics cannot drift away from the rest.
      const r = Math.sqrt(xs[i]! * xs[i]! + ys[i]! * ys[i]!);
      if (r > frame) {
        xs[i] = (xs[i]! / r) * frame;
        ys[i] = (ys[i]! / r) * frame;
      }
    }
    temperature *= 0.95;
  }
  // Clear space around each topic for its label and the beliefs that orbit it.
  separate(xs, ys, radius, 90);
  const out = new Map<string, Point>();
  order.forEach((t, i) => out.set(t.topic, { x: Math.round(xs[i]! * 10) / 10, y: Math.round(ys[i]! * 10) / 10 }));
  return out;
}

/** Pushes overlapping circles apart (each keeps `gap` px of clear space), a few sweeps. */
function separate(xs: Float64Array, ys: Float64Array, radius: readonly number[], gap: number): void {
  const n = xs.length;
  for (let sweep = 0; sweep < 200; sweep++) {
    let moved = false;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const ex = xs[j]! - xs[i]!;
        const ey = ys[j]! - ys[i]!;
        const d = Math.sqrt(ex * ex + ey * ey) || 1e-3;
        const need = radius[i]! + radius[j]! + gap;
        if (d >= need) continue;
        const push = (need - d) / 2;
        const ux = ex / d;
        const uy = ey / d;
        xs[i] = xs[i]! - ux * push;
        ys[i] = ys[i]! - uy * push;
        xs[j] = xs[j]! + ux * push;
        ys[j] = ys[j]! + uy * push;
        moved = true;
      }
    if (!moved) return;
  }
}

/** The i-th of `count` points of a sunflower around `centre` (beliefs of an expanded topic), spaced `step` px. */
export function sunflower(centre: Point, index: number, step = 26, offset = 0): Point {
  const golden = Math.PI * (3 - Math.sqrt(5));
  const r = offset + step * Math.sqrt(index + 0.5);
  return { x: centre.x + r * Math.cos(index * golden), y: centre.y + r * Math.sin(index * golden) };
}

export interface TopicMapInput {
  overview: GraphOverviewResult;
  /** Expanded topics, each with its loaded pages (in order). */
  expanded: ReadonlyMap<string, readonly GraphExpansion[]>;
  /** A belief's local graph (its neighbourhood at the chosen depth), or null. */
  local: { id: string; expansion: GraphExpansion } | null;
  /** Where each topic stands (stored, or `layoutTopics`). */
  topicPositions: ReadonlyMap<string, Point>;
  /** Positions that win over computed ones (stored or moved by the user). */
  fixed: ReadonlyMap<string, Point>;
}

export interface TopicMapElements {
  nodes: StyledNode[];
  edges: StyledEdge[];
  /** Every belief drawn, by id (the side panel reads them). */
  beliefs: Map<string, Belief>;
  /** The local graph's node ids (empty without one): the view centres on them. */
  focus: string[];
}

const LINK_COLOUR = EDGE_STYLES.CONTEXTUALIZES.colour;

function topicNode(t: GraphOverviewResult["topics"][number], position: Point): StyledNode {
  return {
    group: "nodes",
    data: {
      id: topicNodeId(t.topic),
      kind: "topic",
      label: `${t.topic} · ${t.beliefs.toLocaleString("en")}`,
      scope: "",
      tension: t.maxTension,
      topic: t.topic,
      colour: tensionFill(t.maxTension),
      colourDark: tensionFill(t.maxTension, true),
      textColour: tensionFillText(t.maxTension),
      size: topicSize(t.beliefs),
      shape: "round-octagon",
    },
    position,
  };
}

function linkEdge(id: string, source: string, target: string, relations: number, rebuttals: number): StyledEdge {
  return {
    group: "edges",
    data: {
      id,
      source,
      target,
      type: rebuttals > 0 ? "REBUTS" : "CONTEXTUALIZES",
      live: true,
      seq: null,
      weight: 1,
      colour: rebuttals > 0 ? EDGE_STYLES.REBUTS.colour : LINK_COLOUR,
      arrow: "none",
      line: "solid",
      width: Math.min(8, 1 + 1.5 * Math.log2(1 + relations)),
    },
  };
}

/**
 * The elements of the map. Collapsed topics are one node each, linked by their relations; the contested and the
 * recently changed beliefs of a collapsed topic orbit it (they stay visible at every level); an expanded topic is
 * replaced in place by its beliefs on a sunflower around where it stood, each linked to the beliefs it relates to, or to
 * the collapsed topic that holds them; a local graph adds a belief's neighbourhood on rings around the nodes it hangs from.
 */
export function topicMapElements(input: TopicMapInput): TopicMapElements {
  const { overview, expanded, local, topicPositions, fixed } = input;
  const nodes = new Map<string, StyledNode>();
  const edges = new Map<string, StyledEdge>();
  const beliefs = new Map<string, Belief>();
  const topicOf = new Map<string, string>();
  const place = (id: string, computed: Point): Point => fixed.get(id) ?? computed;
  const centreOf = (topic: string): Point => fixed.get(topicNodeId(topic)) ?? topicPositions.get(topic) ?? { x: 0, y: 0 };

  const addBelief = (b: Belief, computed: Point) => {
    if (nodes.has(b.id)) return;
    const [element] = toCytoscapeElements({ beliefs: [b], evidence: [], mutations: [], edges: [] }).nodes;
    if (!element) return;
    nodes.set(b.id, { ...styleNode(element), position: place(b.id, computed) });
    beliefs.set(b.id, b);
    topicOf.set(b.id, b.topic);
  };

  for (const t of overview.topics) {
    if (expanded.has(t.topic)) continue;
    nodes.set(topicNodeId(t.topic), topicNode(t, place(topicNodeId(t.topic), centreOf(t.topic))));
  }
  for (const [topic, pages] of expanded) {
    const centre = centreOf(topic);
    let i = 0;
    for (const page of pages) for (const b of page.beliefs) addBelief(b, sunflower(centre, i++));
  }
  // Contested and recently changed beliefs of collapsed topics orbit their topic.
  const orbiting = new Map<string, number>();
  for (const b of [...overview.contested, ...overview.recent]) {
    if (expanded.has(b.topic) || nodes.has(b.id)) continue;
    const t = overview.topics.find((x) => x.topic === b.topic);
    if (!t) continue;
    const k = orbiting.get(b.topic) ?? 0;
    orbiting.set(b.topic, k + 1);
    addBelief(b, sunflower(centreOf(b.topic), k, 16, topicSize(t.beliefs) / 2 + 22));
  }

  const drawnTopic = (topic: string) => nodes.has(topicNodeId(topic));
  for (const l of overview.links) {
    if (!drawnTopic(l.from) || !drawnTopic(l.to)) continue;
    edges.set(`link:${l.from}|${l.to}`, linkEdge(`link:${l.from}|${l.to}`, topicNodeId(l.from), topicNodeId(l.to), l.relations, l.rebuttals));
  }
  // Edges of expanded topics: to a drawn belief as itself, else to the collapsed topic holding the far end.
  const toTopic = new Map<string, { source: string; target: string; relations: number; rebuttals: number }>();
  for (const pages of expanded.values())
    for (const page of pages)
      for (const e of page.edges) {
        if (nodes.has(e.from) && nodes.has(e.to)) {
          const styled = styleEdge(toCytoscapeElements({ beliefs: [beliefs.get(e.from)!, beliefs.get(e.to)!], evidence: [], mutations: [], edges: [e] }).edges[0]!);
          edges.set(styled.data.id, styled);
          continue;
        }
        const [near, farTopic] = nodes.has(e.from) ? [e.from, e.toTopic] : [e.to, e.fromTopic];
        if (!nodes.has(near) || farTopic === undefined || !drawnTopic(farTopic)) continue;
        const key = `to:${near}|${farTopic}`;
        const agg = toTopic.get(key) ?? { source: near, target: topicNodeId(farTopic), relations: 0, rebuttals: 0 };
        agg.relations += 1;
        if (e.kind === "REBUTS") agg.rebuttals += 1;
        toTopic.set(key, agg);
      }
  for (const [key, a] of toTopic) edges.set(key, linkEdge(key, a.source, a.target, a.relations, a.rebuttals));

  // The local graph's nodes: the view centres on them when it opens.
  const focus: string[] = [];
  if (local) {
    const slice = local.expansion;
    const elements = toCytoscapeElements({ beliefs: slice.beliefs, evidence: slice.evidence, mutations: slice.mutations, edges: slice.edges });
    const byId = new Map(slice.beliefs.map((b) => [b.id, b]));
    // Breadth first from the focused belief: each new node on a ring around the first drawn node it hangs from.
    const neighbours = new Map<string, string[]>();
    for (const e of elements.edges) {
      for (const [a, b] of [[e.data.source, e.data.target], [e.data.target, e.data.source]] as const) neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
    }
    const fallback = nodes.get(local.id)?.position ?? centreOf(byId.get(local.id)?.topic ?? "");
    const positionOf = (id: string) => nodes.get(id)?.position;
    const queue = [local.id];
    const seen = new Set(queue);
    const element = new Map(elements.nodes.map((n) => [n.data.id, n]));
    if (!nodes.has(local.id)) {
      const n = element.get(local.id);
      if (n) nodes.set(local.id, { ...styleNode(n), position: place(local.id, fallback) });
    }
    while (queue.length > 0) {
      const id = queue.shift()!;
      const anchor = positionOf(id) ?? fallback;
      const fresh = (neighbours.get(id) ?? []).filter((other) => !seen.has(other));
      fresh.forEach((other) => seen.add(other));
      const unplaced = fresh.filter((other) => !nodes.has(other));
      unplaced.forEach((other, i) => {
        const n = element.get(other);
        if (n) nodes.set(other, { ...styleNode(n), position: place(other, ringAround(anchor, unplaced.length, i, 0.3)) });
      });
      queue.push(...fresh);
    }
    for (const b of slice.beliefs) if (!beliefs.has(b.id) && nodes.has(b.id)) beliefs.set(b.id, b);
    for (const e of elements.edges) if (nodes.has(e.data.source) && nodes.has(e.data.target)) edges.set(e.data.id, styleEdge(e));
    focus.push(...[...seen].filter((id) => nodes.has(id)));
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], beliefs, focus };
}
