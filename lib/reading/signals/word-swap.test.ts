import { describe, expect, it } from "vitest";
import { closestSwap, swapCandidates } from "./word-swap";

const unit = (...xs: number[]) => {
  const n = Math.sqrt(xs.reduce((s, x) => s + x * x, 0));
  return Float32Array.from(xs.map((x) => x / n));
};

describe("swapCandidates", () => {
  it("keeps the content words only one side uses, by stem", () => {
    const c = swapCandidates("The survey found the walls are built of granite blocks.", "The old walls were built from limestone.");
    expect(c.belief).toEqual(["old", "limestone"]);
    expect(c.evidence).toEqual(["survey", "found", "granite", "blocks"]);
  });

  it("is empty on a side whose words the other side all uses", () => {
    expect(swapCandidates("Ferries leave the pier hourly.", "The ferry leaves the pier.").belief).toEqual([]);
  });
});

describe("closestSwap", () => {
  it("is the cosine of the closest pair across the two sides", () => {
    expect(closestSwap([unit(1, 0, 0), unit(0, 1, 0)], [unit(0, 0, 1), unit(1, 1, 0)])).toBeCloseTo(Math.SQRT1_2, 5);
  });

  it("is 0 when a side has no word", () => {
    expect(closestSwap([], [unit(1, 0)])).toBe(0);
    expect(closestSwap([unit(1, 0)], [])).toBe(0);
  });
});
