import { describe, expect, it } from "vitest";
import { lexicalOverlap, textSimilarity } from "./lexical-overlap";

describe("lexicalOverlap", () => {
  it("measures how much of the belief the evidence touches, through stems", () => {
    const o = lexicalOverlap("Every merge to main triggers the production deploy pipeline.", "The team deploys to production from the main branch.");
    expect(o.shared.sort()).toEqual(["deploi", "main", "product"]);
    expect(o.beliefCoverage).toBeCloseTo(3 / 5);
  });

  it("is zero for unrelated texts", () => {
    const o = lexicalOverlap("The cafeteria serves soup on Fridays.", "The team deploys from main.");
    expect(o.shared).toEqual([]);
    expect(o.beliefCoverage).toBe(0);
    expect(o.jaccard).toBe(0);
  });
});

describe("textSimilarity", () => {
  it("is 1 for the same content, symmetric, and in [0,1]", () => {
    expect(textSimilarity("Deploys use main.", "deploys use MAIN")).toBe(1);
    const a = "The team deploys to production from the main branch.";
    const b = "Production deploys come from the release branch.";
    expect(textSimilarity(a, b)).toBe(textSimilarity(b, a));
    expect(textSimilarity(a, b)).toBeGreaterThan(0.3);
    expect(textSimilarity(a, b)).toBeLessThan(1);
    expect(textSimilarity(a, "The cafeteria serves soup on Fridays.")).toBeLessThan(0.15);
  });

  it("compares texts without content words by equality", () => {
    expect(textSimilarity("", "")).toBe(1);
    expect(textSimilarity("it is", "the")).toBe(0);
  });
});
