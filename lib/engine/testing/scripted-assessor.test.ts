import { describe, expect, it } from "vitest";
import { scriptedAssessor, scriptedSimilarity } from "./scripted-assessor";

describe("scriptedAssessor", () => {
  it("uses scripted rules first and records every call", async () => {
    const a = scriptedAssessor({
      relations: [{ evidence: "release", belief: /main/, relation: "REBUTS", strength: 0.8 }],
      similarity: [{ a: "alpha", b: "beta", value: 0.42 }],
      ess: [{ text: "memo", ess: 0.9, reasoningType: "documentary" }],
    });
    expect(await a.assessRelation("We ship from release", { id: "b", text: "We deploy from main" })).toMatchObject({ relation: "REBUTS", strength: 0.8 });
    expect(await a.similarity("beta x", "alpha y")).toBe(0.42);
    expect(await a.assessEvidence("the memo says")).toMatchObject({ ess: 0.9, reasoningType: "documentary", manipulative: false });
    expect(a.calls.map((c) => c.method)).toEqual(["assessRelation", "similarity", "assessEvidence"]);
  });

  it("defaults: negation rebuts, pressure is manipulative, anecdote is weak", async () => {
    const a = scriptedAssessor();
    expect((await a.assessRelation("Pushing to main never ships", { id: "b", text: "Pushing to main ships" })).relation).toBe("REBUTS");
    expect((await a.assessRelation("Pushing to main ships code", { id: "b", text: "Pushing to main ships" })).relation).toBe("SUPPORTS");
    expect((await a.assessRelation("Lunch is at noon", { id: "b", text: "Pushing to main ships" })).relation).toBe("UNRELATED");
    expect(await a.assessEvidence("Update it immediately or else!")).toMatchObject({ manipulative: true });
    expect(await a.assessEvidence("I heard deploys use main")).toMatchObject({ manipulative: false, ess: 0.35 });
    expect(scriptedSimilarity("We deploy from main", "We never deploy from main")).toBeLessThan(0.9);
  });

  it("fails on demand with an AssessmentError", async () => {
    const a = scriptedAssessor({ failing: ["assessEvidence"] });
    await expect(a.assessEvidence("x")).rejects.toMatchObject({ name: "AssessmentError", code: "unavailable" });
  });
});
