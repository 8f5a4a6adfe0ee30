import { describe, expect, it } from "vitest";
import { labelBox, labelLines, labelsAt, nodeBox, nodeImportance, pickLabels, pickLabelSides, readableView, ringAround, type LabelCandidate, type LabelledNode } from "./graph-labels";

const at = (id: string, x: number, y: number, importance: number, chars = 20): LabelCandidate => ({ id, x, y, size: 20, chars, importance });
const view = { width: 800, height: 600 };

describe("pickLabels", () => {
  it("labels the most important of two close nodes under it, the other over its own, and both under when apart", () => {
    expect(pickLabelSides([at("a", 100, 100, 1), at("b", 105, 102, 5)], view)).toEqual(new Map([["b", "below"], ["a", "above"]]));
    expect(pickLabelSides([at("a", 100, 100, 1), at("b", 400, 300, 5)], view)).toEqual(new Map([["b", "below"], ["a", "below"]]));
    // Nodes just under and just over it: no room either side, no label.
    expect(pickLabels([at("a", 100, 100, 9), at("under", 100, 125, 1, 1), at("over", 100, 75, 1, 1)], view)).not.toContain("a");
  });

  it("never returns overlapping labels unless pinned, and skips nodes off screen", () => {
    const nodes = Array.from({ length: 60 }, (_, i) => at(`n${i}`, (i * 137) % 800, (i * 53) % 600, i % 7));
    const sides = pickLabelSides(nodes, view);
    const kept = [...sides.keys()];
    const boxes = kept.map((id) => labelBox(nodes.find((n) => n.id === id)!, sides.get(id)));
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        expect(a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2).toBe(false);
      }
    expect(pickLabels([at("off", -10, 50, 9)], view)).toEqual([]);
    // A selected node's label comes first; the other takes the other side.
    expect(pickLabelSides([at("a", 100, 100, 9), at("sel", 102, 101, 0)], view, new Set(["sel"]))).toEqual(new Map([["sel", "below"], ["a", "above"]]));
    expect(kept.length).toBeGreaterThan(3);
    expect(pickLabels(nodes, view, new Set(), 3)).toHaveLength(3);
  });

  it("never draws a label over another node, nor across the canvas edge", () => {
    const nodes = Array.from({ length: 60 }, (_, i) => at(`n${i}`, (i * 137) % 800, (i * 53) % 600, i % 7, 10 + (i % 50)));
    for (const [id, side] of pickLabelSides(nodes, view)) {
      const box = labelBox(nodes.find((n) => n.id === id)!, side);
      expect(box.x1).toBeGreaterThanOrEqual(0);
      expect(box.y1).toBeGreaterThanOrEqual(0);
      expect(box.x2).toBeLessThanOrEqual(view.width);
      expect(box.y2).toBeLessThanOrEqual(view.height);
      for (const other of nodes) {
        if (other.id === id) continue;
        const n = nodeBox(other);
        expect(box.x1 < n.x2 && n.x1 < box.x2 && box.y1 < n.y2 && n.y1 < box.y2).toBe(false);
      }
    }
    // A node sitting just under another's label sends that label over its node; moved aside, the label returns under.
    expect(pickLabelSides([at("a", 100, 100, 9), at("b", 100, 125, 1, 1)], view)).toEqual(new Map([["a", "above"], ["b", "below"]]));
    expect(pickLabelSides([at("a", 100, 100, 9), at("b", 400, 125, 1, 1)], view)).toEqual(new Map([["a", "below"], ["b", "below"]]));
    // A selected node's label is never drawn over another node either: with no room on either side it is left out.
    expect(pickLabels([at("sel", 100, 100, 0), at("under", 100, 125, 1, 1), at("over", 100, 75, 1, 1)], view, new Set(["sel"]))).not.toContain("sel");
    // Near the right edge a long label does not fit: it is left out rather than clipped.
    expect(pickLabels([at("edge", 790, 100, 9, 40)], view)).toEqual([]);
  });

  it("measures a label as drawn: larger on screen when zoomed in past 1", () => {
    const big = labelBox({ ...at("x", 100, 100, 1, 30), scale: 1.5 });
    const normal = labelBox(at("x", 100, 100, 1, 30));
    expect(big.x2 - big.x1).toBeCloseTo(1.5 * (normal.x2 - normal.x1), 6);
    expect(big.y2 - big.y1).toBeCloseTo(1.5 * (normal.y2 - normal.y1), 6);
    // Apart enough at 1, too close at 1.5.
    expect(pickLabelSides([at("a", 100, 100, 9, 30), at("b", 100, 140, 1, 1)], view).get("a")).toBe("below");
    expect(pickLabelSides([{ ...at("a", 300, 100, 9, 30), scale: 1.5 }, { ...at("b", 300, 140, 1, 1), scale: 1.5 }], view).get("a")).toBe("above");
  });

  it("wraps long labels onto more lines instead of cutting them", () => {
    expect(labelLines(10)).toBe(1);
    expect(labelLines(90)).toBe(3);
    expect(labelBox(at("x", 100, 100, 1, 90)).y2 - labelBox(at("x", 100, 100, 1, 10)).y2).toBeGreaterThan(20);
  });
});

describe("nodeImportance", () => {
  it("puts beliefs first, contested before settled", () => {
    expect(nodeImportance("belief", 0, 0, 0)).toBeGreaterThan(nodeImportance("mutation", 50, 0, 0));
    expect(nodeImportance("mutation", 0, 0, 0)).toBeGreaterThan(nodeImportance("evidence", 50, 0, 0));
    expect(nodeImportance("belief", 1, 0.13, 0.5)).toBeGreaterThan(nodeImportance("belief", 3, 0, 0.9));
  });
});

describe("ringAround", () => {
  it("spreads new nodes evenly around their anchor", () => {
    const ps = [0, 1, 2, 3].map((i) => ringAround({ x: 0, y: 0 }, 4, i));
    for (const p of ps) expect(Math.hypot(p.x, p.y)).toBeCloseTo(90, 6);
    expect(ps[2]!.x).toBeCloseTo(-90, 6);
  });
});

describe("readableView", () => {
  // A 10 × 10 grid of large topic-like nodes 100 graph units apart, each with a 20-character label.
  const grid: LabelledNode[] = Array.from({ length: 100 }, (_, i) => ({ id: `n${String(i).padStart(2, "0")}`, x: (i % 10) * 100, y: Math.floor(i / 10) * 100, size: 60, chars: 20, importance: i === 55 ? 10 : 1 }));
  const fitTo = (width: number, height: number) => {
    const zoom = Math.min((width - 60) / 900, (height - 60) / 900);
    return { zoom, pan: { x: width / 2 - zoom * 450, y: height / 2 - zoom * 450 } };
  };

  it("keeps the fitted view when it already names enough nodes", () => {
    const fitted = fitTo(1400, 860);
    expect(labelsAt(grid, { width: 1400, height: 860 }, fitted).length).toBeGreaterThanOrEqual(6);
    expect(readableView(grid, { width: 1400, height: 860 }, fitted)).toEqual(fitted);
  });

  it("zooms a narrow screen in around the most important node until six labels fit", () => {
    const viewport = { width: 358, height: 500 };
    const fitted = fitTo(viewport.width, viewport.height);
    expect(labelsAt(grid, viewport, fitted).length).toBeLessThan(6);
    const view = readableView(grid, viewport, fitted);
    expect(view.zoom).toBeGreaterThan(fitted.zoom);
    expect(view.zoom).toBeLessThanOrEqual(1.5);
    expect(labelsAt(grid, viewport, view).length).toBeGreaterThanOrEqual(6);
    // The most important node sits in the middle of the screen.
    expect(500 * view.zoom + view.pan.x).toBeCloseTo(viewport.width / 2);
    expect(500 * view.zoom + view.pan.y).toBeCloseTo(viewport.height / 2);
  });

  it("centres on the node nearest the middle of the graph when every node is as important", () => {
    const flat = grid.map((n) => ({ ...n, importance: 1 }));
    const viewport = { width: 358, height: 500 };
    const view = readableView(flat, viewport, fitTo(viewport.width, viewport.height));
    // The grid's middle is (450, 450); its four nearest nodes tie, and the first by id is n44 at (400, 400).
    expect(400 * view.zoom + view.pan.x).toBeCloseTo(viewport.width / 2);
    expect(400 * view.zoom + view.pan.y).toBeCloseTo(viewport.height / 2);
  });

  it("never zooms past its bound, and keeps the view that named the most when none names enough", () => {
    const crowded: LabelledNode[] = grid.map((n) => ({ ...n, x: n.x / 20, y: n.y / 20 }));
    const viewport = { width: 358, height: 500 };
    const fitted = { zoom: 0.1, pan: { x: 0, y: 0 } };
    const view = readableView(crowded, viewport, fitted, { maxZoom: 1.5 });
    expect(view.zoom).toBeLessThanOrEqual(1.5);
    expect(labelsAt(crowded, viewport, view).length).toBeGreaterThanOrEqual(labelsAt(crowded, viewport, fitted).length);
  });
});
