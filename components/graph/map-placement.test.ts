import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hexOffsets, hexRadius, localLayout, ringOffsets, separateDiscs, type Disc, type LocalNode, type Point } from "./map-placement";

const distance = (p: Point, q: Point) => Math.hypot(p.x - q.x, p.y - q.y);

/** A permutation of `items` chosen by `seed` (deterministic). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("hexOffsets", () => {
  it("packs any number of points at least one pitch apart, the first at the centre, within the radius it reports", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 320 }), fc.integer({ min: 10, max: 80 }), (count, spacing) => {
        const points = hexOffsets(count, spacing);
        expect(points).toHaveLength(count);
        expect(points[0]).toEqual({ x: 0, y: 0 });
        let nearest = Infinity;
        for (let i = 0; i < points.length; i++) for (let j = i + 1; j < points.length; j++) nearest = Math.min(nearest, distance(points[i]!, points[j]!));
        expect(nearest).toBeGreaterThanOrEqual(spacing - 1e-6);
        const radius = hexRadius(count, spacing, 20);
        for (const p of points) expect(distance(p, { x: 0, y: 0 }) + 10).toBeLessThanOrEqual(radius + 1e-6);
      }),
      { numRuns: 40 },
    );
  });

  it("is round: 60 points fill a disc not much wider than their area needs", () => {
    const radius = hexRadius(60, 40, 0);
    // A hexagonal packing covers √3/2·pitch² per point.
    expect(radius).toBeLessThan(1.25 * Math.sqrt((60 * (Math.sqrt(3) / 2) * 40 * 40) / Math.PI));
  });
});

describe("ringOffsets", () => {
  it("keeps nodes of any sizes apart by the gap, beyond the inner radius, none straight below the centre", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 8, max: 60 }), { minLength: 1, maxLength: 120 }), fc.integer({ min: 0, max: 120 }), fc.integer({ min: 2, max: 40 }), (sizes, inner, gap) => {
        const { offsets, outer } = ringOffsets(sizes, inner, gap);
        expect(offsets).toHaveLength(sizes.length);
        for (let i = 0; i < offsets.length; i++) {
          const d = distance(offsets[i]!, { x: 0, y: 0 });
          expect(d - sizes[i]! / 2).toBeGreaterThanOrEqual(inner - 1e-6);
          expect(d + sizes[i]! / 2).toBeLessThanOrEqual(outer + 1e-6);
          if (offsets.length > 1) expect(Math.abs(offsets[i]!.x) > 1e-6 || offsets[i]!.y < 0).toBe(true);
          for (let j = i + 1; j < offsets.length; j++) expect(distance(offsets[i]!, offsets[j]!)).toBeGreaterThanOrEqual((sizes[i]! + sizes[j]!) / 2 + gap - 1e-6);
        }
      }),
      { numRuns: 150 },
    );
  });
});

const discArb = fc.uniqueArray(
  fc.record({ id: fc.string({ minLength: 1, maxLength: 4 }), x: fc.integer({ min: -400, max: 400 }), y: fc.integer({ min: -400, max: 400 }), r: fc.integer({ min: 10, max: 160 }), rank: fc.constantFrom(1 as const, 2 as const) }),
  { minLength: 1, maxLength: 40, selector: (d) => d.id },
);

function overlapping(discs: readonly Disc[], at: ReadonlyMap<string, Point>, gap: number): string[] {
  const bad: string[] = [];
  for (let i = 0; i < discs.length; i++)
    for (let j = i + 1; j < discs.length; j++) {
      const a = discs[i]!;
      const b = discs[j]!;
      if (distance(at.get(a.id)!, at.get(b.id)!) < a.r + b.r + gap - 0.5) bad.push(`${a.id}|${b.id}`);
    }
  return bad;
}

describe("separateDiscs", () => {
  it("leaves no two discs overlapping, whatever the start", () => {
    fc.assert(
      fc.property(discArb, (discs) => {
        expect(overlapping(discs, separateDiscs(discs, 30), 30)).toEqual([]);
      }),
      { numRuns: 120 },
    );
  });

  it("gives the same positions for the same discs in any order, and changes nothing on a layout without overlap", () => {
    fc.assert(
      fc.property(discArb, fc.integer(), (discs, seed) => {
        const once = separateDiscs(discs, 30);
        expect([...separateDiscs(shuffled(discs, seed), 30).entries()].sort()).toEqual([...once.entries()].sort());
        const again = separateDiscs(discs.map((d) => ({ ...d, ...once.get(d.id)! })), 30);
        expect([...again.entries()].sort()).toEqual([...once.entries()].sort());
      }),
      { numRuns: 120 },
    );
  });

  it("moves collapsed topics out of an expanded one's way, and never a pinned one", () => {
    const discs: Disc[] = [
      { id: "expanded", x: 0, y: 0, r: 200, rank: 1 },
      { id: "near", x: 150, y: 0, r: 40, rank: 2 },
      { id: "far", x: 2000, y: 0, r: 40, rank: 2 },
      { id: "pinned", x: 0, y: 300, r: 40, rank: 0 },
    ];
    const at = separateDiscs(discs, 30);
    expect(at.get("expanded")).toEqual({ x: 0, y: 0 });
    expect(at.get("near")!.x).toBeGreaterThanOrEqual(200 + 40 + 30);
    expect(at.get("far")).toEqual({ x: 2000, y: 0 });
    expect(at.get("pinned")).toEqual({ x: 0, y: 300 });
    expect(overlapping(discs, at, 30)).toEqual([]);
    // An expanded topic on a pinned one makes room itself.
    const onPinned = separateDiscs([{ id: "expanded", x: 0, y: 0, r: 200, rank: 1 }, { id: "pinned", x: 0, y: 100, r: 40, rank: 0 }], 30);
    expect(onPinned.get("pinned")).toEqual({ x: 0, y: 100 });
    expect(onPinned.get("expanded")!.y).toBeLessThanOrEqual(100 - 270);
  });
});

const localArb = fc
  .integer({ min: 1, max: 120 })
  .chain((n) =>
    fc.record({
      nodes: fc.constant(n).chain((count) => fc.array(fc.record({ size: fc.integer({ min: 10, max: 58 }), group: fc.integer({ min: 0, max: 2 }) }), { minLength: count, maxLength: count })),
      edges: fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })), { maxLength: 3 * n }),
    }),
  )
  .map(({ nodes, edges }) => ({
    nodes: nodes.map((node, i): LocalNode => ({ id: `n${i}`, ...node })),
    edges: edges.map(([s, t]) => ({ source: `n${s}`, target: `n${t}` })),
  }));

describe("localLayout", () => {
  it("places every node, the belief at the centre, no two nodes overlapping", () => {
    fc.assert(
      fc.property(localArb, ({ nodes, edges }) => {
        const at = localLayout("n0", nodes, edges, 20);
        expect(at.size).toBe(nodes.length);
        expect(at.get("n0")).toEqual({ x: 0, y: 0 });
        // The clearance of the closest pair (rounding to 0.1 px may take up to 0.15 px).
        let closest = Infinity;
        for (let i = 0; i < nodes.length; i++)
          for (let j = i + 1; j < nodes.length; j++) closest = Math.min(closest, distance(at.get(nodes[i]!.id)!, at.get(nodes[j]!.id)!) - (nodes[i]!.size + nodes[j]!.size) / 2);
        expect(closest).toBeGreaterThanOrEqual(20 - 0.15);
      }),
      { numRuns: 120 },
    );
  });

  it("gives the same positions for the same graph, whatever order its nodes and edges come in", () => {
    fc.assert(
      fc.property(localArb, fc.integer(), ({ nodes, edges }, seed) => {
        const a = localLayout("n0", nodes, edges);
        const b = localLayout("n0", shuffled(nodes, seed), shuffled(edges, seed + 1));
        expect([...b.entries()].sort()).toEqual([...a.entries()].sort());
      }),
      { numRuns: 120 },
    );
  });

  it("puts what is one step away nearer than what is two steps away", () => {
    const nodes: LocalNode[] = ["root", "a", "b", "c"].map((id) => ({ id, size: 20, group: 0 }));
    const at = localLayout("root", nodes, [{ source: "a", target: "root" }, { source: "root", target: "b" }, { source: "b", target: "c" }]);
    const r = (id: string) => distance(at.get(id)!, { x: 0, y: 0 });
    expect(r("a")).toBe(r("b"));
    expect(r("c")).toBeGreaterThan(r("b"));
  });
});
