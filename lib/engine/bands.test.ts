import { describe, expect, it } from "vitest";
import {
  CONFIDENCE_BANDS,
  CREDENCE_BANDS,
  INSUFFICIENT_CONFIDENCE,
  beliefReading,
  confidenceBand,
  confidenceWords,
  credenceBand,
  credenceWords,
  tensionBand,
  tensionWords,
  uncertaintyWords,
} from "./bands";
import { defaultParams } from "./params";

describe("figure bands", () => {
  it("reads credence in seven symmetric bands", () => {
    expect([0, 0.2, 0.4, 0.5, 0.6, 0.8, 0.95].map(credenceWords)).toEqual([
      "almost certainly false",
      "likely false",
      "leaning false",
      "a toss-up",
      "leaning true",
      "likely true",
      "almost certainly true",
    ]);
  });

  it("puts each credence boundary on the side the comments state", () => {
    expect([0.1, 0.3, 0.45, 0.55, 0.7, 0.9].map(credenceBand)).toEqual(["almost_certainly_false", "likely_false", "toss_up", "toss_up", "likely_true", "almost_certainly_true"]);
    // Mirror images: 1 − c falls in the band opposite c's (away from the boundaries).
    for (const c of [0.05, 0.2, 0.35, 0.5]) {
      const i = CREDENCE_BANDS.indexOf(credenceBand(c));
      expect(CREDENCE_BANDS.indexOf(credenceBand(1 - c))).toBe(CREDENCE_BANDS.length - 1 - i);
    }
  });

  it("calls confidence below recall's threshold insufficient, and agrees with recall's default", () => {
    expect(INSUFFICIENT_CONFIDENCE).toBe(defaultParams.recallMinConfidence);
    expect(confidenceBand(0)).toBe("insufficient");
    expect(confidenceBand(0.0999)).toBe("insufficient");
    expect(confidenceBand(0.1)).toBe("thin");
    expect(confidenceBand(0.39)).toBe("thin");
    expect(confidenceBand(0.4)).toBe("moderate");
    expect(confidenceBand(0.6)).toBe("well_established");
    expect([0.05, 0.2, 0.5, 0.9].map(confidenceWords)).toEqual(["not enough evidence", "thinly evidenced", "moderately established", "well established"]);
  });

  it("words uncertainty from the same confidence bands, one phrase per band", () => {
    const phrases = CONFIDENCE_BANDS.map((_, i) => uncertaintyWords([0.05, 0.2, 0.5, 0.9][i] ?? 0));
    expect(new Set(phrases).size).toBe(CONFIDENCE_BANDS.length);
    expect(uncertaintyWords(0.2)).toBe("much is unknown");
  });

  it("reads tension against the status thresholds 0.25 and 0.5", () => {
    expect([0, 0.01, 0.24, 0.25, 0.49, 0.5, 1].map(tensionBand)).toEqual(["none", "minor", "minor", "contested", "contested", "sharp", "sharp"]);
    expect(tensionWords(0)).toMatch(/^no disagreement/);
    expect(tensionWords(0.5)).toMatch(/^sharply contested/);
  });

  it("joins credence and confidence into one reading", () => {
    expect(beliefReading(0.33, 0.3)).toBe("leaning false, thinly evidenced");
    expect(beliefReading(0.97, 0.7)).toBe("almost certainly true, well established");
  });
});
