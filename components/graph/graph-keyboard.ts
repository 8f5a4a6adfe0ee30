/**
 * Keyboard movement between graph nodes, pure over node positions. Arrow keys pick the nearest node in that direction
 * (within a 45° cone either side, cost = distance along the axis + 2 × sideways offset, so straight-ahead wins);
 * Tab / Shift+Tab walk nodes in reading order (top to bottom, then left to right).
 */
export interface PlacedNode {
  id: string;
  x: number;
  y: number;
}

export type ArrowKey = "ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight";
const DIRECTIONS: Readonly<Record<ArrowKey, readonly [number, number]>> = {
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
};

export function isArrowKey(key: string): key is ArrowKey {
  return key in DIRECTIONS;
}

/** Reading order: rows of `rowHeight` px, top to bottom, left to right within a row; ties by id (stable). */
export function readingOrder(nodes: readonly PlacedNode[], rowHeight = 40): PlacedNode[] {
  return [...nodes].sort((a, b) => Math.floor(a.y / rowHeight) - Math.floor(b.y / rowHeight) || a.x - b.x || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The node an arrow key moves to from `currentId`; with no current node, the first in reading order. Null: stay. */
export function nodeInDirection(nodes: readonly PlacedNode[], currentId: string | null, key: ArrowKey): string | null {
  const current = nodes.find((n) => n.id === currentId);
  if (!current) return readingOrder(nodes)[0]?.id ?? null;
  const [dx, dy] = DIRECTIONS[key];
  let best: { id: string; cost: number } | null = null;
  for (const n of nodes) {
    if (n.id === current.id) continue;
    const vx = n.x - current.x;
    const vy = n.y - current.y;
    const along = vx * dx + vy * dy;
    const side = Math.abs(vx * dy - vy * dx);
    if (along <= 0 || side > along) continue;
    const cost = along + 2 * side;
    if (!best || cost < best.cost) best = { id: n.id, cost };
  }
  return best?.id ?? null;
}

/** Tab (or Shift+Tab) from `currentId` in reading order; null at either end, so focus can leave the graph. */
export function nodeInTabOrder(nodes: readonly PlacedNode[], currentId: string | null, backwards: boolean): string | null {
  const order = readingOrder(nodes);
  if (order.length === 0) return null;
  const index = order.findIndex((n) => n.id === currentId);
  if (index < 0) return (backwards ? order[order.length - 1] : order[0])?.id ?? null;
  return order[index + (backwards ? -1 : 1)]?.id ?? null;
}
