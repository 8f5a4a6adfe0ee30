import { describe, expect, it } from "vitest";
import { confidenceMeaning, credenceMeaning, tensionMeaning } from "./node-meaning";

describe("plain-language meanings", () => {
  it("reads credence bands", () => {
    expect([0, 0.2, 0.4, 0.5, 0.6, 0.8, 0.95].map(credenceMeaning)).toEqual([
      "almost certainly false",
      "likely false",
      "leaning false",
      "a toss-up",
      "leaning true",
      "likely true",
      "almost certainly true",
    ]);
  });

  it("reads tension against the status thresholds 0.25 and 0.5", () => {
    expect(tensionMeaning(0)).toMatch(/^no disagreement/);
    expect(tensionMeaning(0.24)).toMatch(/^minor disagreement/);
    expect(tensionMeaning(0.25)).toMatch(/^contested/);
    expect(tensionMeaning(0.5)).toMatch(/^sharply contested/);
  });

  it("reads confidence", () => {
    expect(confidenceMeaning(0.1)).toBe("thinly evidenced");
    expect(confidenceMeaning(0.5)).toBe("moderately established");
    expect(confidenceMeaning(0.9)).toBe("well established");
  });
});
