import { describe, expect, it } from "vitest";
import { EDGE_KINDS } from "@/lib/engine/model";
import { beliefSize, CANVAS_BACKGROUND, EDGE_STYLES, edgeVisual, edgeWidth, graphStylesheet, KIND_COLOURS, nodeVisual, tensionColour, tensionFill, tensionFillText, tensionRampPosition, tensionTextColour, TENSION_STOPS } from "./graph-style";

function rgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** Relative luminance (WCAG 2.x): L = 0.2126 R + 0.7152 G + 0.0722 B over linearised sRGB channels. */
function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe("tensionColour", () => {
  it("hits the cividis stops at 0, 0.25, 0.5, 0.75 and 1", () => {
    expect(tensionColour(0)).toBe("#00224e");
    expect(tensionColour(0.5)).toBe("#7c7b78");
    expect(tensionColour(1)).toBe("#fde737");
    TENSION_STOPS.forEach((stop, i) => expect(rgb(tensionColour(i / 4))).toEqual([...stop]));
  });

  it("gets strictly lighter from settled to contested (perceptual order)", () => {
    const lum = Array.from({ length: 101 }, (_, i) => luminance(tensionColour(i / 100)));
    for (let i = 1; i < lum.length; i++) expect(lum[i]).toBeGreaterThan(lum[i - 1]!);
  });

  it("clamps out-of-range and NaN tension", () => {
    expect(tensionColour(-3)).toBe(tensionColour(0));
    expect(tensionColour(7)).toBe(tensionColour(1));
    expect(tensionColour(Number.NaN)).toBe(tensionColour(0));
  });

  it("picks a label colour with at least 3:1 contrast everywhere on the ramp", () => {
    for (let i = 0; i <= 100; i++) expect(contrast(tensionColour(i / 100), tensionTextColour(i / 100))).toBeGreaterThanOrEqual(3);
  });
});

describe("tension fill", () => {
  it("sets any live rebuttal visibly apart from none, rising monotonically", () => {
    expect(tensionRampPosition(0)).toBe(0);
    expect(tensionRampPosition(0.01)).toBeGreaterThanOrEqual(0.3);
    expect(tensionRampPosition(0.13)).toBeCloseTo(0.3 + 0.7 * Math.sqrt(0.13), 10);
    expect(tensionRampPosition(1)).toBe(1);
    for (let i = 1; i <= 100; i++) expect(tensionRampPosition(i / 100)).toBeGreaterThan(tensionRampPosition((i - 1) / 100));
    // 0 and 0.13 (the demo's deploy-branch story) differ by far more than the unwarped ramp's step.
    for (const dark of [false, true]) expect(contrast(tensionFill(0.13, dark), tensionFill(0, dark))).toBeGreaterThan(2);
  });

  it("keeps 3:1 label contrast on the warped fill", () => {
    for (const dark of [false, true]) for (let i = 0; i <= 100; i++) expect(contrast(tensionFill(i / 100, dark), tensionFillText(i / 100, dark))).toBeGreaterThanOrEqual(3);
  });

  it("gets lighter with tension on both canvases", () => {
    for (const dark of [false, true]) for (let i = 1; i <= 20; i++) expect(luminance(tensionFill(i / 20, dark))).toBeGreaterThan(luminance(tensionFill((i - 1) / 20, dark)));
  });
});

describe("contrast against the canvas (graphics need 3:1)", () => {
  it("measures what the issue measured: the settled navy fails on the dark canvas, and the dark scheme no longer draws it", () => {
    expect(contrast("#00224e", CANVAS_BACKGROUND.dark)).toBeLessThan(1.3);
    expect(tensionFill(0, true)).not.toBe("#00224e");
  });

  it("draws every belief fill at ≥ 3:1 on its canvas, light and dark", () => {
    for (let i = 0; i <= 1000; i++) {
      expect(contrast(tensionFill(i / 1000), CANVAS_BACKGROUND.light)).toBeGreaterThanOrEqual(3);
      expect(contrast(tensionFill(i / 1000, true), CANVAS_BACKGROUND.dark)).toBeGreaterThanOrEqual(3);
    }
  });

  it("draws evidence, mutations and topics at ≥ 3:1 in both schemes", () => {
    for (const c of Object.values(KIND_COLOURS)) {
      expect(contrast(c.light, CANVAS_BACKGROUND.light)).toBeGreaterThanOrEqual(3);
      expect(contrast(c.dark, CANVAS_BACKGROUND.dark)).toBeGreaterThanOrEqual(3);
    }
    for (const data of [
      { id: "e", kind: "evidence" as const, label: "", scope: "s" },
      { id: "r", kind: "evidence" as const, label: "", scope: "s", retracted: true },
      { id: "m", kind: "mutation" as const, label: "", scope: "s" },
    ]) {
      const v = nodeVisual(data);
      expect(contrast(v.colour, CANVAS_BACKGROUND.light)).toBeGreaterThanOrEqual(3);
      expect(contrast(v.colourDark, CANVAS_BACKGROUND.dark)).toBeGreaterThanOrEqual(3);
    }
  });

  it("draws every edge type at ≥ 3:1 on both canvases, fully opaque", () => {
    for (const kind of EDGE_KINDS) {
      expect(contrast(EDGE_STYLES[kind].colour, CANVAS_BACKGROUND.light)).toBeGreaterThanOrEqual(3);
      expect(contrast(EDGE_STYLES[kind].colour, CANVAS_BACKGROUND.dark)).toBeGreaterThanOrEqual(3);
    }
    for (const dark of [false, true]) expect(graphStylesheet(dark).find((r) => r.selector === "edge")?.style.opacity).toBeUndefined();
  });

  it("reads the dark fill in the dark stylesheet", () => {
    expect(graphStylesheet(true).find((r) => r.selector === "node")?.style["background-color"]).toBe("data(colourDark)");
    expect(graphStylesheet(false).find((r) => r.selector === "node")?.style["background-color"]).toBe("data(colour)");
  });
});

describe("sizes and widths", () => {
  it("sizes beliefs by √credence between the bounds", () => {
    expect(beliefSize(0)).toBe(18);
    expect(beliefSize(1)).toBe(58);
    expect(beliefSize(0.25)).toBe(38);
    expect(beliefSize(2)).toBe(58);
  });

  it("widths edges 1 + 4·weight", () => {
    expect(edgeWidth(0)).toBe(1);
    expect(edgeWidth(0.5)).toBe(3);
    expect(edgeWidth(1)).toBe(5);
  });
});

describe("node and edge visuals", () => {
  it("shapes nodes by kind", () => {
    expect(nodeVisual({ id: "b", kind: "belief", label: "", scope: "s", credence: 1, tension: 1 })).toMatchObject({ shape: "ellipse", size: 58, colour: tensionColour(0.58), colourDark: "#fde737" });
    expect(nodeVisual({ id: "e", kind: "evidence", label: "", scope: "s" }).shape).toBe("round-rectangle");
    expect(nodeVisual({ id: "m", kind: "mutation", label: "", scope: "s" }).shape).toBe("diamond");
  });

  it("gives every edge type its own colour and arrow, and dashes edges that are not live", () => {
    expect(new Set(EDGE_KINDS.map((k) => EDGE_STYLES[k].colour)).size).toBe(EDGE_KINDS.length);
    expect(new Set(EDGE_KINDS.map((k) => EDGE_STYLES[k].arrow)).size).toBe(EDGE_KINDS.length);
    const live = edgeVisual({ id: "x", source: "a", target: "b", type: "REBUTS", live: true, seq: 1, weight: 0.5 });
    expect(live).toEqual({ colour: "#d55e00", arrow: "tee", line: "solid", width: 3 });
    const dead = edgeVisual({ id: "x", source: "a", target: "b", type: "REBUTS", live: false, seq: 1, weight: 0.5 });
    expect(dead).toMatchObject({ line: "dashed", width: 1 });
    expect(edgeVisual({ id: "y", source: "m", target: "b", type: "CONCERNS", live: true, seq: null, weight: 1 }).line).toBe("dotted");
  });
});
