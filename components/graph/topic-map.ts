/**
 * The topic map of a large scope, pure: what is drawn (topics, the beliefs that stay visible at every level, expanded
 * topics, a belief's local graph) as styled Cytoscape elements, and where (a deterministic layout computed from the
 * graph itself: the same input always gives the same positions, with no randomness anywhere).
 */
import type { Belief } from "@/lib/engine/model";
import type { GraphExpansion, GraphOverviewResult } from "@/lib/beliefs/belief-services";
import { toCytoscapeElements } from "@/lib/graph/cytoscape-elements";
import { hexOffsets, hexRadius, localLayout, ringOffsets, roundPoint, separateDiscs, type Disc, type Point } from "./map-placement";
import { EDGE_STYLES, styleEdge, styleNode, tensionFill, tensionFillText, type StyledEdge, type StyledNode } from "./graph-style";

/** Scopes with more beliefs than this open as their topic map; smaller ones as the whole graph. */
export const LARGE_SCOPE_BELIEFS = 300;

export type { Point } from "./map-placement";

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

export interface TopicMapInput {
  overview: GraphOverviewResult;
  /** Expanded topics, each with its loaded pages (in order). */
  expanded: ReadonlyMap<string, readonly GraphExpansion[]>;
  /** Where each topic stands (stored, or `layoutTopics`). */
  topicPositions: ReadonlyMap<string, Point>;
  /** Stored or moved positions: where a topic stands before others make room; where a pinned node stays. */
  fixed: ReadonlyMap<string, Point>;
  /** Nodes the user placed by hand (moved now, or stored pinned): drawn where they are fixed, never moved. */
  pinned?: ReadonlySet<string>;
}

export interface TopicMapElements {
  nodes: StyledNode[];
  edges: StyledEdge[];
  /** Every belief drawn, by id (the side panel reads them). */
  beliefs: Map<string, Belief>;
  /** Where each expanded topic stands (by its topic node's id), for a saved layout: its beliefs are placed around it. */
  centres: Map<string, Point>;
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

/** Clear space between the discs of two topics (a collapsed topic with its orbit, or an expanded one's beliefs). */
export const TOPIC_GAP = 40;
/** Clear space between two beliefs of an expanded topic, and around the beliefs orbiting a collapsed one. */
export const BELIEF_GAP = 12;

/**
 * The elements of the map. Collapsed topics are one node each, linked by their relations; the contested and the
 * recently changed beliefs of a collapsed topic orbit it on rings (they stay visible at every level); an expanded topic
 * is replaced where it stood by its beliefs, packed in a disc (the most contested at the centre), each linked to the
 * beliefs it relates to, or to the collapsed topic that holds them. Every topic is a disc that holds what it draws;
 * discs that would overlap are moved apart (expanded ones keep their place, collapsed ones make room), so no two nodes
 * overlap. Deterministic; nodes the user pinned stay where they were put.
 */
export function topicMapElements(input: TopicMapInput): TopicMapElements {
  const { overview, expanded, topicPositions, fixed } = input;
  const pinned = input.pinned ?? new Set<string>();
  const nodes = new Map<string, StyledNode>();
  const edges = new Map<string, StyledEdge>();
  const beliefs = new Map<string, Belief>();
  const baseOf = (topic: string): Point => fixed.get(topicNodeId(topic)) ?? topicPositions.get(topic) ?? { x: 0, y: 0 };

  const styled = (b: Belief): StyledNode | null => {
    const [element] = toCytoscapeElements({ beliefs: [b], evidence: [], mutations: [], edges: [] }).nodes;
    return element ? styleNode(element) : null;
  };
  // What each topic holds: an expanded topic its beliefs, a collapsed one the contested and recent beliefs orbiting it.
  const members = new Map<string, StyledNode[]>();
  for (const [topic, pages] of expanded) {
    const list: { node: StyledNode; belief: Belief; index: number }[] = [];
    for (const page of pages)
      for (const b of page.beliefs) {
        if (beliefs.has(b.id)) continue;
        const node = styled(b);
        if (!node) continue;
        beliefs.set(b.id, b);
        list.push({ node, belief: b, index: list.length });
      }
    // The most contested at the centre, where the eye goes first.
    list.sort((a, b) => b.belief.tension - a.belief.tension || a.index - b.index);
    members.set(topic, list.map((l) => l.node));
  }
  // The beliefs orbiting each topic while collapsed (drawn only for collapsed ones; they size every topic's place).
  const known = new Set(overview.topics.map((t) => t.topic));
  const orbits = new Map<string, { node: StyledNode; belief: Belief }[]>();
  const orbiting = new Set<string>();
  for (const b of [...overview.contested, ...overview.recent]) {
    if (orbiting.has(b.id) || !known.has(b.topic)) continue;
    const node = styled(b);
    if (!node) continue;
    orbiting.add(b.id);
    orbits.set(b.topic, [...(orbits.get(b.topic) ?? []), { node, belief: b }]);
  }
  for (const [topic, list] of orbits) {
    if (expanded.has(topic)) continue;
    for (const { belief } of list) beliefs.set(belief.id, belief);
    members.set(topic, list.map((l) => l.node));
  }

  // Each topic's disc: its members' offsets from its centre, and its radius. First the map as it stands collapsed (its
  // orbits given room), then with the expanded topics' discs, so that a stored collapsed map expands the same way.
  const collapsedDiscs: Disc[] = [];
  const discs: Disc[] = [];
  const offsets = new Map<string, Point[]>();
  for (const t of overview.topics) {
    const orbit = ringOffsets((orbits.get(t.topic) ?? []).map((o) => o.node.data.size), topicSize(t.beliefs) / 2 + BELIEF_GAP, BELIEF_GAP);
    const collapsedR = orbits.has(t.topic) ? orbit.outer : topicSize(t.beliefs) / 2;
    let r = collapsedR;
    if (expanded.has(t.topic)) {
      const list = members.get(t.topic) ?? [];
      const size = list.reduce((m, n) => Math.max(m, n.data.size), 0);
      offsets.set(t.topic, hexOffsets(list.length, size + BELIEF_GAP));
      if (list.length > 0) r = Math.max(collapsedR, hexRadius(list.length, size + BELIEF_GAP, size));
    } else offsets.set(t.topic, orbit.offsets);
    const base = baseOf(t.topic);
    const isPinned = pinned.has(topicNodeId(t.topic));
    collapsedDiscs.push({ id: t.topic, x: base.x, y: base.y, r: collapsedR, rank: isPinned ? 0 : 2 });
    discs.push({ id: t.topic, x: base.x, y: base.y, r, rank: isPinned ? 0 : expanded.has(t.topic) ? 1 : 2 });
  }
  const collapsed = separateDiscs(collapsedDiscs, TOPIC_GAP);
  const centres = expanded.size === 0 ? collapsed : separateDiscs(discs.map((d) => ({ ...d, ...collapsed.get(d.id)! })), TOPIC_GAP);

  const placeMember = (node: StyledNode, computed: Point) => {
    const at = pinned.has(node.data.id) ? fixed.get(node.data.id) ?? computed : computed;
    nodes.set(node.data.id, { ...node, position: at });
  };
  const expandedCentres = new Map<string, Point>();
  for (const t of overview.topics) {
    const centre = centres.get(t.topic)!;
    if (expanded.has(t.topic)) expandedCentres.set(topicNodeId(t.topic), centre);
    else nodes.set(topicNodeId(t.topic), topicNode(t, centre));
    const at = offsets.get(t.topic) ?? [];
    (members.get(t.topic) ?? []).forEach((node, i) => placeMember(node, roundPoint({ x: centre.x + at[i]!.x, y: centre.y + at[i]!.y })));
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
          const edge = styleEdge(toCytoscapeElements({ beliefs: [beliefs.get(e.from)!, beliefs.get(e.to)!], evidence: [], mutations: [], edges: [e] }).edges[0]!);
          edges.set(edge.data.id, edge);
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
  return { nodes: [...nodes.values()], edges: [...edges.values()], beliefs, centres: expandedCentres };
}

/** Evidence beside evidence, beliefs beside beliefs, on the local graph's rings. */
const KIND_GROUP: Record<StyledNode["data"]["kind"], number> = { belief: 0, evidence: 1, mutation: 2, topic: 3 };

/**
 * A belief's local graph (its neighbourhood at the chosen depth), drawn on its own: the belief at the centre, what is
 * one step away on rings around it, two steps further out, and so on (`localLayout`). Deterministic.
 */
export function localGraphElements(id: string, slice: GraphExpansion): TopicMapElements {
  const elements = toCytoscapeElements({ beliefs: slice.beliefs, evidence: slice.evidence, mutations: slice.mutations, edges: slice.edges });
  const styledNodes = elements.nodes.map(styleNode);
  const styledEdges = elements.edges.map(styleEdge);
  const at = localLayout(
    id,
    styledNodes.map((n) => ({ id: n.data.id, size: n.data.size, group: KIND_GROUP[n.data.kind] ?? 3 })),
    styledEdges.map((e) => e.data),
  );
  const nodes = styledNodes.filter((n) => at.has(n.data.id)).map((n) => ({ ...n, position: at.get(n.data.id)! }));
  const drawn = new Set(nodes.map((n) => n.data.id));
  return {
    nodes,
    edges: styledEdges.filter((e) => drawn.has(e.data.source) && drawn.has(e.data.target)),
    beliefs: new Map(slice.beliefs.filter((b) => drawn.has(b.id)).map((b) => [b.id, b])),
    centres: new Map(),
  };
}
