import { describe, expect, it } from "vitest";
import type { ConflictReport } from "@/lib/engine";
import { decisionPath } from "./decision-path";

const params = { conflictMinCredence: 0.7, conflictMinSimilarity: 0.7, strongRebuttalStrength: 0.5 };
const report = (over: Partial<ConflictReport> = {}): ConflictReport => ({
  existingBeliefId: "b1",
  existingText: "The public API rate limit is 100 requests per minute.",
  existingCredence: 0.9,
  similarity: 0.85,
  moreSpecific: false,
  differentContext: false,
  contradictedByStrongEvidence: false,
  strongRebuttalSeqs: [],
  proposedContextTags: [],
  existingContextTags: [],
  decision: "review",
  reasoning: "",
  assessor: "heuristic@1",
  ...over,
});

describe("decisionPath", () => {
  it("walks every branch to review when nothing resolves the conflict", () => {
    const steps = decisionPath(report(), params);
    expect(steps.map((s) => s.answer)).toEqual(["yes", "no", "no", "no"]);
    expect(steps.map((s) => s.outcome)).toEqual([null, null, null, "review"]);
  });

  it("stops at the first branch that holds", () => {
    expect(decisionPath(report({ moreSpecific: true, contradictedByStrongEvidence: true, decision: "merge" }), params).map((s) => s.outcome)).toEqual([null, "merge"]);
    const supersede = decisionPath(report({ contradictedByStrongEvidence: true, strongRebuttalSeqs: [3, 5], decision: "supersede" }), params);
    expect(supersede.at(-1)).toMatchObject({ outcome: "supersede", detail: expect.stringContaining("#3, #5") });
    expect(decisionPath(report({ differentContext: true, decision: "coexist" }), params).at(-1)?.outcome).toBe("coexist");
  });

  it("ends at the conflict check when the figures are below the thresholds (strictly greater is required)", () => {
    const steps = decisionPath(report({ similarity: 0.7, decision: "new" }), params);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ answer: "no", outcome: "new" });
  });

  it("ends at the conflict check when the existing belief has ended since, whatever its figures", () => {
    const steps = decisionPath(report({ decision: "new" }), params, "superseded");
    expect(steps).toEqual([expect.objectContaining({ answer: "no", outcome: "new", detail: "the existing belief is superseded now" })]);
    expect(decisionPath(report(), params, "supported").map((s) => s.answer)).toEqual(["yes", "no", "no", "no"]);
  });
});
