import { describe, expect, it } from "vitest";
import { editCount, editsRequest, NO_EDITS, relationEditKey, withClaimKept, withRelationKept, withRelationKind } from "./ingest-edits";

describe("ingest edits", () => {
  it("tracks what is left out and changed, and choosing the reader's relation again undoes a change", () => {
    const a = relationEditKey(0, "belief_a");
    const b = relationEditKey(1, "belief:with:colons");
    let state = withRelationKept(NO_EDITS, a, false);
    state = withRelationKind(state, b, "CONTEXTUALIZES", "REBUTS");
    expect(editCount(state)).toBe(2);
    expect(editsRequest(state, "plan_x")).toEqual({
      planId: "plan_x",
      excludeClaims: [],
      excludeRelations: [{ claim: 0, beliefId: "belief_a" }],
      overrides: [{ claim: 1, beliefId: "belief:with:colons", relation: "CONTEXTUALIZES" }],
    });
    state = withRelationKind(state, b, "REBUTS", "REBUTS");
    state = withRelationKept(state, a, true);
    expect(editCount(state)).toBe(0);
    expect(editsRequest(state, null)).toEqual({ excludeClaims: [], excludeRelations: [], overrides: [] });
  });

  it("a claim left out takes its relations' edits with it, so the request never names both", () => {
    let state = withRelationKept(NO_EDITS, relationEditKey(2, "belief_a"), false);
    state = withRelationKind(state, relationEditKey(2, "belief_b"), "SUPPORTS", "REBUTS");
    state = withClaimKept(state, 2, false);
    state = withClaimKept(state, 0, false);
    expect(editsRequest(state, null)).toEqual({ excludeClaims: [0, 2], excludeRelations: [], overrides: [] });
    expect(editsRequest(withClaimKept(state, 2, true), null).excludeRelations).toEqual([{ claim: 2, beliefId: "belief_a" }]);
  });
});
