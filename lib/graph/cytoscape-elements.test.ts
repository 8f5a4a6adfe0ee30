import { describe, expect, it } from "vitest";
import type { Belief } from "@/lib/engine";
import type { GraphSlice } from "./graph-store";
import { entryWeightKey, mutationLabel, shortLabel, toCytoscapeElements } from "./cytoscape-elements";

function belief(id: string, credence: number, tension: number, text = `belief ${id}`): Belief {
  return {
    id, scope: "s", topic: "t", text, key: text, quantity: null, contextTags: [], validFrom: "2026-01-01T00:00:00Z", supersedesId: null,
    version: 1, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z", credence, valence: 2 * credence - 1, confidence: 0.3,
    uncertainty: 0.7, supportCount: 1, contradictCount: 0, evidenceCount: 1, supportWeight: 1, rebuttalWeight: 0, tension,
    status: "provisional", reviewState: "none", validUntil: null, paramsVersion: "p1",
  };
}

const slice: GraphSlice = {
  beliefs: [belief("a", 0.8, 0.1), belief("b", 0.3, 0.6, "<script>alert(1)</script>")],
  evidence: [{ id: "e", scope: "s", kind: "document", text: "doc", uri: null, registeredBy: "u", ess: null, reasoningType: null, discarded: false, createdAt: "2026-01-01T00:00:00Z", retractedAt: null }],
  mutations: [],
  edges: [
    { kind: "SUPPORTS", from: "e", to: "a", beliefId: "a", seq: 1, live: true, time: "2026-01-01T00:00:00Z", changeSet: "c" },
    { kind: "REBUTS", from: "a", to: "b", beliefId: "b", seq: 2, live: true, time: "2026-01-01T00:00:00Z", changeSet: "c" },
  ],
};

describe("toCytoscapeElements", () => {
  it("maps beliefs, evidence and typed edges, keeping labels as plain text", () => {
    const { nodes, edges } = toCytoscapeElements(slice);
    expect(nodes.map((n) => n.data.id).sort()).toEqual(["a", "b", "e"]);
    expect(edges.map((e) => e.data.type)).toEqual(["SUPPORTS", "REBUTS"]);
    expect(nodes.find((n) => n.data.id === "b")?.data.label).toBe("<script>alert(1)</script>");
  });

  it("filters beliefs before edges, and drops evidence no kept edge reaches", () => {
    const { nodes, edges } = toCytoscapeElements(slice, { minCredence: 0.5 });
    expect(nodes.map((n) => n.data.id).sort()).toEqual(["a", "e"]);
    expect(edges.map((e) => e.data.type)).toEqual(["SUPPORTS"]);
    expect(toCytoscapeElements(slice, { minTension: 0.5 }).nodes.map((n) => n.data.id)).toEqual(["b"]);
    expect(toCytoscapeElements(slice, { edgeTypes: ["REBUTS"] }).edges).toHaveLength(1);
  });

  it("weights entry edges by the given effective weight, clamped; live 1 and dead 0 without one", () => {
    expect(toCytoscapeElements(slice).edges.map((e) => e.data.weight)).toEqual([1, 1]);
    const weights = new Map([[entryWeightKey("a", 1), 0.4], [entryWeightKey("b", 2), 7]]);
    expect(toCytoscapeElements(slice, {}, weights).edges.map((e) => e.data.weight)).toEqual([0.4, 1]);
    const dead: GraphSlice = { ...slice, edges: slice.edges.map((e) => ({ ...e, live: false })) };
    expect(toCytoscapeElements(dead, {}, weights).edges.map((e) => e.data.weight)).toEqual([0, 0]);
  });

  it("draws a SUPERSEDES edge dead once its older belief is reinstated, and a REFINES edge dead while its refinement waits for review again", () => {
    const older: Belief = { ...belief("old", 0.9, 0), status: "superseded" };
    const newer = belief("new", 0.6, 0);
    const structural = (o: Partial<Belief>, n: Partial<Belief>): GraphSlice => ({
      beliefs: [{ ...older, ...o }, { ...newer, ...n }],
      evidence: [],
      mutations: [],
      edges: [
        { kind: "SUPERSEDES", from: "new", to: "old", beliefId: null, seq: null, live: true, time: "2026-01-01T00:00:00Z", changeSet: "c1" },
        { kind: "REFINES", from: "new", to: "old", beliefId: null, seq: null, live: true, time: "2026-01-01T00:00:00Z", changeSet: "c1" },
      ],
    });
    const liveOf = (s: GraphSlice) => toCytoscapeElements(s).edges.map((e) => [e.data.type, e.data.live, e.data.weight]);
    expect(liveOf(structural({}, {}))).toEqual([["SUPERSEDES", true, 1], ["REFINES", true, 1]]);
    expect(liveOf(structural({ status: "supported" }, { reviewState: "pending_review" }))).toEqual([["SUPERSEDES", false, 0], ["REFINES", false, 0]]);
  });

  it("labels a mutation by what it did and its status, not by its belief's text", () => {
    const m = { id: "m", scope: "s", topic: "t", belief: "belief a", decision: "supersede", status: "pending_review" } as unknown as GraphSlice["mutations"][number];
    const withMutation: GraphSlice = { ...slice, mutations: [m], edges: [...slice.edges, { kind: "CONCERNS", from: "m", to: "a", beliefId: null, seq: null, live: true, time: "2026-01-01T00:00:00Z", changeSet: "c" }] };
    const node = toCytoscapeElements(withMutation).nodes.find((n) => n.data.id === "m");
    expect(node?.data.label).toBe("supersede · pending review");
    expect(mutationLabel({ decision: "new", status: "applied" })).toBe("new · applied");
  });

  it("cuts long labels with an ellipsis", () => {
    expect(shortLabel("x".repeat(200))).toHaveLength(90);
    expect(shortLabel("a\n  b")).toBe("a b");
  });
});
