import { describe, expect, it } from "vitest";
import type { GraphEdge, GraphSlice } from "@/lib/graph/graph-store";
import { mergeGraphSlices } from "./merge-graph-slices";

function edge(kind: GraphEdge["kind"], from: string, to: string, seq: number | null): GraphEdge {
  return { kind, from, to, beliefId: seq === null ? null : to, seq, live: true, time: "2026-01-01T00:00:00Z", changeSet: "c" };
}
const ev = (id: string) => ({ id, scope: "s", kind: "document" as const, text: id, uri: null, registeredBy: "u", ess: null, reasoningType: null, discarded: false, createdAt: "2026-01-01T00:00:00Z", retractedAt: null });

describe("mergeGraphSlices", () => {
  it("unions nodes by id and edges by kind, ends and seq", () => {
    const a: GraphSlice = { beliefs: [], evidence: [ev("e1"), ev("e2")], mutations: [], edges: [edge("SUPPORTS", "e1", "b", 1), edge("SUPPORTS", "e2", "b", 2)] };
    const b: GraphSlice = { beliefs: [], evidence: [ev("e2"), ev("e3")], mutations: [], edges: [edge("SUPPORTS", "e2", "b", 2), edge("SUPPORTS", "e2", "b", 3), edge("REFINES", "x", "b", null)] };
    const merged = mergeGraphSlices([a, b]);
    expect(merged.evidence.map((e) => e.id)).toEqual(["e1", "e2", "e3"]);
    expect(merged.edges.map((e) => `${e.kind}:${e.from}>${e.to}#${e.seq}`)).toEqual(["SUPPORTS:e1>b#1", "SUPPORTS:e2>b#2", "SUPPORTS:e2>b#3", "REFINES:x>b#null"]);
  });

  it("returns a lone slice as is and an empty union for none", () => {
    const only: GraphSlice = { beliefs: [], evidence: [ev("e")], mutations: [], edges: [] };
    expect(mergeGraphSlices([only])).toBe(only);
    expect(mergeGraphSlices([])).toEqual({ beliefs: [], evidence: [], mutations: [], edges: [] });
  });
});
