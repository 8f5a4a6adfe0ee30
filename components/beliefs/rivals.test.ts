import { describe, expect, it } from "vitest";
import type { Belief, Evidence } from "@/lib/engine/model";
import type { GraphEdge, GraphSlice } from "@/lib/graph/graph-store";
import { rivalsOf } from "./rivals";

const belief = (id: string, text: string) => ({ id, text }) as Belief;
const evidence = (id: string, text: string) => ({ id, text }) as Evidence;
const edge = (from: string, to: string, kind: GraphEdge["kind"], live = true): GraphEdge => ({ kind, from, to, beliefId: to, seq: 1, live, time: "2026-01-01T00:00:00.000Z", changeSet: "cs" });

describe("rivalsOf", () => {
  const slice: GraphSlice = {
    beliefs: [
      belief("b_new", "The lift is out of order."),
      belief("b_also", "The café opens at nine."),
      belief("b_old", "The lift works."),
      belief("b_far", "Stairs are open."),
      belief("b_cite", "The elevator was fixed."),
    ],
    evidence: [evidence("ev_note", "The lift is out of order. The café opens at nine."), evidence("ev_old", "The lift was inspected.")],
    mutations: [],
    edges: [
      edge("ev_note", "b_new", "SUPPORTS"),
      edge("ev_note", "b_also", "SUPPORTS"),
      edge("ev_note", "b_old", "REBUTS"),
      edge("ev_old", "b_old", "SUPPORTS"),
      edge("ev_old", "b_far", "CONTEXTUALIZES"),
      edge("b_cite", "b_new", "REBUTS"),
      // A retracted entry says nothing any more.
      edge("ev_old", "b_new", "REBUTS", false),
    ],
  };
  const shape = (id: string) => rivalsOf(id, slice).map((r) => [r.side, r.sourceId, r.text, r.beliefs.map((b) => b.id)]);

  it("names both sides of a conflict, one item per source, from either belief's page", () => {
    expect(shape("b_new")).toEqual([
      ["rebuts_this", "b_cite", null, ["b_cite"]],
      ["this_rebuts", "ev_note", "The lift is out of order. The café opens at nine.", ["b_old"]],
    ]);
    // The rebutting text supports two beliefs; which of its claims rebutted is not recorded, so both are named.
    expect(shape("b_old")).toEqual([["rebuts_this", "ev_note", "The lift is out of order. The café opens at nine.", ["b_also", "b_new"]]]);
    expect(shape("b_cite")).toEqual([["this_rebuts", "b_cite", null, ["b_new"]]]);
    expect(shape("b_far")).toEqual([]);
  });
});
