import { describe, expect, it } from "vitest";
import { layoutOptions, layoutRequest, parseLayoutResponse, WORKER_LAYOUT_MIN_NODES } from "./graph-layout";
import { layOut } from "./layout-worker";

describe("layout worker", () => {
  const nodes = Array.from({ length: WORKER_LAYOUT_MIN_NODES + 50 }, (_, i) => ({ id: `n${i}`, size: 14 + (i % 5) * 8 }));
  // Ten clusters of 35 chained nodes, each cluster's head linked to the next cluster's head.
  const edges = nodes.flatMap((n, i) => (i % 35 === 0 ? (i + 35 < nodes.length ? [{ source: n.id, target: `n${i + 35}` }] : []) : [{ source: `n${i - 1}`, target: n.id }]));

  it("packs ids, sizes, edges by index and known positions (NaN where none) into transferable arrays", () => {
    const request = layoutRequest(7, [{ id: "a", size: 20, position: { x: 1, y: 2 } }, { id: "b", size: 30 }], [{ source: "a", target: "b" }, { source: "a", target: "gone" }], true);
    expect(request.nodes).toEqual(["a", "b"]);
    expect(Array.from(request.sizes)).toEqual([20, 30]);
    expect(Array.from(request.edges)).toEqual([0, 1]);
    expect(Array.from(request.positions).slice(0, 2)).toEqual([1, 2]);
    expect(Number.isNaN(request.positions[2])).toBe(true);
  });

  it("lays a large graph out headless: a finite, spread position per node, linked nodes nearer than unlinked ones", () => {
    const request = layoutRequest(1, nodes, edges, false);
    const positions = layOut(request);
    expect(positions).toHaveLength(nodes.length * 2);
    expect(Array.from(positions).every(Number.isFinite)).toBe(true);
    const at = (i: number) => ({ x: positions[2 * i]!, y: positions[2 * i + 1]! });
    const distance = (a: number, b: number) => Math.hypot(at(a).x - at(b).x, at(a).y - at(b).y);
    const linked = edges.slice(0, 100).map((e) => distance(Number(e.source.slice(1)), Number(e.target.slice(1))));
    const far = Array.from({ length: 100 }, (_, i) => distance(i, (i + 175) % nodes.length));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(linked)).toBeLessThan(mean(far));
    expect(new Set(Array.from(positions, (v) => Math.round(v))).size).toBeGreaterThan(nodes.length);
  });

  it("trusts only a well-formed answer of the right length", () => {
    expect(parseLayoutResponse({ id: 1, ok: true, positions: new Float64Array(4), layoutMs: 3 }, 2)).toMatchObject({ ok: true });
    expect(parseLayoutResponse({ id: 1, ok: true, positions: new Float64Array(2), layoutMs: 3 }, 2)).toBeNull();
    expect(parseLayoutResponse({ id: 1, ok: true, positions: [0, 0, 0, 0], layoutMs: 3 }, 2)).toBeNull();
    expect(parseLayoutResponse({ id: 1, ok: false, error: "boom" }, 2)).toEqual({ id: 1, ok: false, error: "boom" });
    expect(parseLayoutResponse("nonsense", 2)).toBeNull();
  });

  it("keeps small graphs on the main thread (animated, labels counted) and drafts the large ones", () => {
    expect(layoutOptions(WORKER_LAYOUT_MIN_NODES, false)).toMatchObject({ animate: true, nodeDimensionsIncludeLabels: true });
    expect(layoutOptions(WORKER_LAYOUT_MIN_NODES + 1, false)).toMatchObject({ animate: false, nodeDimensionsIncludeLabels: false });
  });
});
