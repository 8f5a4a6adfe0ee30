/**
 * Deterministic placement for the topic map, pure arithmetic: the beliefs of an expanded topic packed in a disc, the
 * beliefs that orbit a collapsed topic on rings around it, the discs of all topics moved apart until none overlaps
 * (expanded topics keep their place, collapsed ones make room), and a belief's local graph on rings by distance.
 * The same input always gives the same positions, and no two placed nodes overlap.
 */
export type Point = { x: number; y: number };

/** Positions are kept to 0.1 px, as saved layouts store them: a stored layout and a computed one compare equal. */
export function roundPoint(p: Point): Point {
  return { x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 };
}

function maxOf(values: readonly number[]): number {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

/**
 * Offsets of `count` points on a hexagonal lattice of pitch `spacing`, nearest the centre first (then by angle): a
 * round disc in which any two points are at least `spacing` apart.
 */
export function hexOffsets(count: number, spacing: number): Point[] {
  if (count <= 0) return [];
  // Every lattice point within k hexagonal rings; the disc of `count` points lies well inside them.
  const k = Math.ceil(Math.sqrt(count)) + 1;
  const h = Math.sqrt(3) / 2;
  const points: { x: number; y: number; d: number; a: number }[] = [];
  for (let j = -k; j <= k; j++)
    for (let i = -k; i <= k; i++) {
      const x = (i + j / 2) * spacing;
      const y = j * h * spacing;
      points.push({ x, y, d: Math.round((x * x + y * y) / (spacing * spacing) * 1e6), a: Math.atan2(y, x) });
    }
  points.sort((p, q) => p.d - q.d || p.a - q.a);
  return points.slice(0, count).map(({ x, y }) => ({ x, y }));
}

/** Radius of the disc `hexOffsets(count, spacing)` fills, to the outer edge of nodes `size` px across. */
export function hexRadius(count: number, spacing: number, size: number): number {
  const offsets = hexOffsets(count, spacing);
  return maxOf(offsets.map((p) => Math.hypot(p.x, p.y))) + size / 2;
}

/**
 * Offsets for nodes of the given sizes (in order) on concentric rings around a centre: the first ring's nodes `inner`
 * px from the centre (to their edge), each ring filled before the next, `gap` px clear between any two nodes. A ring
 * holds as many as its circumference allows and spreads a partial ring evenly; no node sits straight below the
 * centre, where its label goes. Returns the offsets and the outer radius reached (to the outer nodes' edge).
 */
export function ringOffsets(sizes: readonly number[], inner: number, gap: number): { offsets: Point[]; outer: number } {
  const m = maxOf(sizes);
  const offsets: Point[] = [];
  let edge = inner;
  let outer = inner;
  for (let i = 0; i < sizes.length; ) {
    const r = edge + m / 2;
    // Neighbours on a ring of n nodes are a chord 2r·sin(π/n) apart: at most the n for which that is m + gap.
    const ratio = (m + gap) / (2 * r);
    const capacity = ratio >= 1 ? 1 : Math.max(1, Math.floor(Math.PI / Math.asin(ratio) + 1e-9));
    const n = Math.min(capacity, sizes.length - i);
    // From the top, clockwise; an even ring turned by half a step so that neither a node nor the gap is at the bottom.
    const start = -Math.PI / 2 + (n % 2 === 0 ? Math.PI / n : 0);
    for (let k = 0; k < n; k++) {
      const a = start + (2 * Math.PI * k) / n;
      offsets.push({ x: r * Math.cos(a), y: r * Math.sin(a) });
    }
    i += n;
    outer = r + m / 2;
    edge = outer + gap;
  }
  return { offsets, outer };
}

export interface Disc {
  id: string;
  x: number;
  y: number;
  /** Radius, to the edge of everything the disc holds. */
  r: number;
  /**
   * Discs are placed by rank, then id (0: pinned by the user, never moves; 1: an expanded topic; 2: a collapsed
   * topic): a disc stays where it is unless it overlaps one placed before it, and then takes the nearest free place.
   */
  rank: 0 | 1 | 2;
}

/**
 * Moves discs apart so that each keeps `gap` px from every other: in order of rank then id, each disc stays at its
 * place when that is free, else takes the nearest free place (rings of candidates around it, outwards, the ones
 * straight away from the disc it overlapped most first). A layout with no overlap comes back unchanged, so a stored
 * layout drawn again stays as stored; pinned discs never move. Centres rounded to 0.1 px.
 */
export function separateDiscs(discs: readonly Disc[], gap: number): Map<string, Point> {
  const order = [...discs].sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Overlaps below half a pixel are ignored and free places are sought half a pixel wider: rounding never re-opens one.
  const slack = 0.5;
  const placed: { x: number; y: number; r: number }[] = [];
  const out = new Map<string, Point>();
  // Placed discs by grid cell (each in every cell its bounding box touches): a check looks only at nearby discs.
  const cell = 128;
  const grid = new Map<number, number[]>();
  const key = (gx: number, gy: number) => gx * 1_000_003 + gy;
  const visited: number[] = [];
  let query = 0;
  /** The placed disc that (x, y, r) overlaps most deeply (by more than `tolerance`), or null; `first` stops at any. */
  const overlapped = (x: number, y: number, r: number, tolerance: number, first: boolean): { x: number; y: number; r: number } | null => {
    query += 1;
    let found = -1;
    let deepest = 0;
    const reach = r + gap;
    for (let gx = Math.floor((x - reach) / cell); gx <= Math.floor((x + reach) / cell); gx++)
      for (let gy = Math.floor((y - reach) / cell); gy <= Math.floor((y + reach) / cell); gy++)
        for (const i of grid.get(key(gx, gy)) ?? []) {
          if (visited[i] === query) continue;
          visited[i] = query;
          const p = placed[i]!;
          const depth = p.r + r + gap - tolerance - Math.hypot(p.x - x, p.y - y);
          // Ties go to the disc placed first, whatever order the cells are visited in.
          if (depth > deepest || (depth === deepest && depth > 0 && i < found)) [found, deepest] = [i, depth];
          if (found >= 0 && first) return p;
        }
    return found >= 0 ? placed[found]! : null;
  };
  const place = (p: { x: number; y: number; r: number }) => {
    const i = placed.length;
    placed.push(p);
    for (let gx = Math.floor((p.x - p.r) / cell); gx <= Math.floor((p.x + p.r) / cell); gx++)
      for (let gy = Math.floor((p.y - p.r) / cell); gy <= Math.floor((p.y + p.r) / cell); gy++) {
        const list = grid.get(key(gx, gy));
        if (list) list.push(i);
        else grid.set(key(gx, gy), [i]);
      }
  };
  for (const d of order) {
    // Checked as it will be stored (rounded), so that the same layout drawn again meets the same checks.
    let at = d.rank === 0 ? { x: d.x, y: d.y } : roundPoint(d);
    const blocker = d.rank === 0 ? null : overlapped(at.x, at.y, d.r, slack, false);
    if (blocker) {
      const dx = d.x - blocker.x;
      const dy = d.y - blocker.y;
      const away = Math.hypot(dx, dy) > 1e-6 ? Math.atan2(dy, dx) : 0;
      const step = Math.max(4, d.r / 4);
      search: for (let k = 1; ; k++) {
        const radius = k * step;
        const count = Math.max(8, Math.ceil((2 * Math.PI * radius) / step));
        // Straight away first, then alternately either side of it.
        for (let m = 0; m < count; m++) {
          const turn = (m % 2 === 0 ? 1 : -1) * Math.ceil(m / 2);
          const a = away + (2 * Math.PI * turn) / count;
          const candidate = roundPoint({ x: d.x + radius * Math.cos(a), y: d.y + radius * Math.sin(a) });
          if (!overlapped(candidate.x, candidate.y, d.r + slack, 0, true)) {
            at = candidate;
            break search;
          }
        }
      }
    }
    place({ ...at, r: d.r });
    out.set(d.id, at);
  }
  return out;
}

export interface LocalNode {
  id: string;
  size: number;
  /** Sorts nodes at the same distance (evidence, beliefs, mutations side by side), before their id. */
  group: number;
}

/**
 * A belief's local graph, laid out alone: the belief at the origin, the nodes one step away on rings around it, two
 * steps on rings further out, and so on (breadth first over the edges, both directions); a node sits beside the
 * others reached from the same node. `gap` px clear between any two nodes; nodes not reached go on the outer rings.
 */
export function localLayout(root: string, nodes: readonly LocalNode[], edges: readonly { source: string; target: string }[], gap = 24): Map<string, Point> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out = new Map<string, Point>();
  const rootNode = byId.get(root);
  if (!rootNode) return out;
  const neighbours = new Map<string, string[]>();
  for (const e of edges) {
    if (!byId.has(e.source) || !byId.has(e.target) || e.source === e.target) continue;
    for (const [a, b] of [[e.source, e.target], [e.target, e.source]] as const) {
      const list = neighbours.get(a);
      if (list) list.push(b);
      else neighbours.set(a, [b]);
    }
  }
  const compare = (a: LocalNode, b: LocalNode) => a.group - b.group || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  for (const list of neighbours.values()) list.sort((a, b) => compare(byId.get(a)!, byId.get(b)!));
  // Levels, breadth first; each node keeps the index (on its own level) of the node it was reached from.
  const levels: { node: LocalNode; parent: number }[][] = [[{ node: rootNode, parent: 0 }]];
  const seen = new Set([root]);
  for (;;) {
    const previous = levels[levels.length - 1]!;
    const next: { node: LocalNode; parent: number }[] = [];
    previous.forEach(({ node }, p) => {
      for (const id of neighbours.get(node.id) ?? []) {
        if (seen.has(id)) continue;
        seen.add(id);
        next.push({ node: byId.get(id)!, parent: p });
      }
    });
    if (next.length === 0) break;
    next.sort((a, b) => a.parent - b.parent || compare(a.node, b.node));
    levels.push(next);
  }
  const unreached = nodes.filter((n) => !seen.has(n.id)).sort(compare);
  if (unreached.length > 0) levels.push(unreached.map((node) => ({ node, parent: 0 })));
  out.set(root, { x: 0, y: 0 });
  // Rings further out for each level: one step away is twice the gap beyond the last ring, so levels read apart.
  let edge = rootNode.size / 2 + 2 * gap;
  for (const level of levels.slice(1)) {
    const { offsets, outer } = ringOffsets(level.map((l) => l.node.size), edge, gap);
    level.forEach((l, i) => out.set(l.node.id, roundPoint(offsets[i]!)));
    edge = outer + 2 * gap;
  }
  return out;
}
