/**
 * Which nodes carry a label at the current zoom, pure over rendered positions: the most important nodes first, each
 * label kept only where it does not overlap one already placed (screen space), so the default fit shows the labels
 * that matter instead of none, and zooming in reveals more. Labels are drawn at ~LABEL_PX on screen whatever the zoom.
 */

/** On-screen font size of a label (px). */
export const LABEL_PX = 12;
/** On-screen width budget of one label (px); longer text ends in an ellipsis. */
export const LABEL_MAX_PX = 220;
/** At most this many labels at once (drawing text is what makes a frame slow). */
export const LABEL_LIMIT = 150;
/** Approximate width of one character at LABEL_PX (system sans-serif). */
const CHAR_PX = 6.4;
const LINE_PX = 16;

export interface LabelCandidate {
  id: string;
  /** Rendered (screen) position of the node's centre, px. */
  x: number;
  y: number;
  /** Rendered diameter, px. */
  size: number;
  chars: number;
  /** Higher first. */
  importance: number;
  /** On-screen size of the label text relative to LABEL_PX (above 1 when zoomed in past 1); default 1. */
  scale?: number;
}

export interface Viewport {
  width: number;
  height: number;
}

interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Lines a label wraps to within LABEL_MAX_PX (the stylesheet wraps, never cuts: labels are at most 90 characters). */
export function labelLines(chars: number): number {
  return Math.max(1, Math.ceil((Math.max(1, chars) * CHAR_PX) / LABEL_MAX_PX));
}

/** Where a label goes: under its node (the default), or over it when the place under it is taken. */
export type LabelSide = "below" | "above";

/** The label's screen box: centred under (or over) the node, one LINE_PX per wrapped line. */
export function labelBox(c: LabelCandidate, side: LabelSide = "below"): Box {
  const k = c.scale ?? 1;
  const w = k * (Math.min(LABEL_MAX_PX, Math.max(1, c.chars) * CHAR_PX) + 6);
  const h = k * LINE_PX * labelLines(c.chars);
  const top = side === "below" ? c.y + c.size / 2 + 2 : c.y - c.size / 2 - 2 - h;
  return { x1: c.x - w / 2, y1: top, x2: c.x + w / 2, y2: top + h };
}

/** The node's own screen box (its bounding square). */
export function nodeBox(c: LabelCandidate): Box {
  const r = c.size / 2;
  return { x1: c.x - r, y1: c.y - r, x2: c.x + r, y2: c.y + r };
}

function overlaps(a: Box, b: Box): boolean {
  return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
}

/**
 * Ids to label: candidates whose whole label box is inside the viewport (never clipped at an edge), by importance then
 * id, greedily skipping any whose box overlaps a kept label or any other node on screen (labels are never drawn over
 * nodes); `pinned` ids (selection, search matches) are placed first. A label goes under its node, or over it when the
 * place under it is taken.
 */
export function pickLabels(candidates: readonly LabelCandidate[], viewport: Viewport, pinned: ReadonlySet<string> = new Set(), limit = LABEL_LIMIT): string[] {
  return [...pickLabelSides(candidates, viewport, pinned, limit).keys()];
}

/** `pickLabels`, with the side of its node each label is drawn on (in the order they were chosen). */
export function pickLabelSides(candidates: readonly LabelCandidate[], viewport: Viewport, pinned: ReadonlySet<string> = new Set(), limit = LABEL_LIMIT): Map<string, LabelSide> {
  const onScreen = candidates.filter((c) => c.x + c.size / 2 >= 0 && c.x - c.size / 2 <= viewport.width && c.y + c.size / 2 >= 0 && c.y - c.size / 2 <= viewport.height);
  const inside = (box: Box) => box.x1 >= 0 && box.x2 <= viewport.width && box.y1 >= 0 && box.y2 <= viewport.height;
  const visible = candidates.filter((c) => c.x >= 0 && c.x <= viewport.width && c.y >= 0 && c.y <= viewport.height);
  const order = [...visible].sort(
    (a, b) => Number(pinned.has(b.id)) - Number(pinned.has(a.id)) || b.importance - a.importance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const cell = 64;
  const grid = new Map<string, Box[]>();
  const cellsOf = (box: Box) => {
    const keys: string[] = [];
    for (let gx = Math.floor(box.x1 / cell); gx <= Math.floor(box.x2 / cell); gx++) for (let gy = Math.floor(box.y1 / cell); gy <= Math.floor(box.y2 / cell); gy++) keys.push(`${gx},${gy}`);
    return keys;
  };
  // Nodes are obstacles too (each tagged with its id, so a label is never refused for its own node).
  const nodes = new Map<string, { id: string; box: Box }[]>();
  for (const c of onScreen) {
    const box = nodeBox(c);
    for (const k of cellsOf(box)) {
      const list = nodes.get(k);
      if (list) list.push({ id: c.id, box });
      else nodes.set(k, [{ id: c.id, box }]);
    }
  }
  const kept = new Map<string, LabelSide>();
  for (const c of order) {
    if (kept.size >= limit) break;
    for (const side of ["below", "above"] as const) {
      const box = labelBox(c, side);
      // A pinned label may run past the edge (its node is on screen); any other is left out rather than clipped.
      if (!pinned.has(c.id) && !inside(box)) continue;
      const keys = cellsOf(box);
      if (keys.some((k) => (grid.get(k) ?? []).some((other) => overlaps(box, other)))) continue;
      if (keys.some((k) => (nodes.get(k) ?? []).some((n) => n.id !== c.id && overlaps(box, n.box)))) continue;
      for (const k of keys) {
        const list = grid.get(k);
        if (list) list.push(box);
        else grid.set(k, [box]);
      }
      kept.set(c.id, side);
      break;
    }
  }
  return kept;
}

/**
 * Importance of a node for labelling: beliefs before evidence and mutations; among beliefs, tension (disagreement is
 * what an analyst looks for), then how connected, then credence.
 */
export function nodeImportance(kind: "belief" | "evidence" | "mutation" | "topic", degree: number, tension: number, credence: number): number {
  const connected = Math.log2(1 + Math.max(0, degree));
  const t = Math.min(1, Math.max(0, tension));
  // Topics name the map: labelled before anything else, the most connected first.
  if (kind === "topic") return 200 + 20 * t + 4 * connected;
  if (kind === "belief") return 100 + (t > 0 ? 10 : 0) + 20 * t + 4 * connected + Math.min(1, Math.max(0, credence));
  if (kind === "mutation") return 50 + connected;
  return 10 + connected;
}

/**
 * Positions for nodes new to the view that hang off an already placed anchor: spread on a ring around it (radius
 * grows with their number), so an expansion grows where the user asked and nothing else moves.
 */
export function ringAround(anchor: { x: number; y: number }, count: number, index: number, startAngle = 0): { x: number; y: number } {
  const radius = 90 + 12 * Math.max(0, count - 6);
  const angle = startAngle + (2 * Math.PI * index) / Math.max(1, count);
  return { x: anchor.x + radius * Math.cos(angle), y: anchor.y + radius * Math.sin(angle) };
}

/** A node in graph (model) coordinates, for planning a view before it is drawn: size in graph units. */
export type LabelledNode = LabelCandidate;

export interface View {
  zoom: number;
  pan: { x: number; y: number };
}

/** What `pickLabels` would label if the graph were drawn at `view`. */
export function labelsAt(nodes: readonly LabelledNode[], viewport: Viewport, view: View): string[] {
  const candidates = nodes.map((n) => ({ id: n.id, x: n.x * view.zoom + view.pan.x, y: n.y * view.zoom + view.pan.y, size: n.size * view.zoom, chars: n.chars, importance: n.importance, scale: Math.max(1, view.zoom) }));
  return pickLabels(candidates, viewport);
}

/**
 * The first view of a graph: `fitted` (everything on screen) when it can name at least `minLabels` nodes; otherwise
 * the widest zoom, stepping in by `step` up to `maxZoom`, that names them, centred on the most important node (of
 * equally important ones, the nearest to the middle of the graph: a scope of unlinked beliefs opens on its middle, not
 * on a corner). A small screen then opens on a part of the map it can read (Fit still shows the whole) instead of a
 * tangle with one label.
 */
export function readableView(nodes: readonly LabelledNode[], viewport: Viewport, fitted: View, { minLabels = 6, step = 1.25, maxZoom = 1.5 } = {}): View {
  const want = Math.min(minLabels, nodes.length);
  let bestCount = labelsAt(nodes, viewport, fitted).length;
  if (want === 0 || bestCount >= want) return fitted;
  const mid = { x: nodes.reduce((sum, n) => sum + n.x, 0) / nodes.length, y: nodes.reduce((sum, n) => sum + n.y, 0) / nodes.length };
  const off = (n: LabelledNode) => (n.x - mid.x) ** 2 + (n.y - mid.y) ** 2;
  // The most important node; of equals, the nearest the middle; then the first by id.
  const before = (a: LabelledNode, b: LabelledNode) => (a.importance !== b.importance ? a.importance > b.importance : off(a) !== off(b) ? off(a) < off(b) : a.id < b.id);
  const focus = nodes.reduce((a, b) => (before(b, a) ? b : a));
  const centred = (zoom: number): View => ({ zoom, pan: { x: viewport.width / 2 - zoom * focus.x, y: viewport.height / 2 - zoom * focus.y } });
  let best: View = fitted;
  for (let zoom = fitted.zoom * step; zoom <= maxZoom * step; zoom *= step) {
    const view = centred(Math.min(zoom, maxZoom));
    const count = labelsAt(nodes, viewport, view).length;
    if (count >= want) return view;
    if (count > bestCount) [best, bestCount] = [view, count];
    if (zoom >= maxZoom) break;
  }
  return best;
}
