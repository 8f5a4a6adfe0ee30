import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { WordVector } from "@/lib/engine/embedder";
import { wordAlignment } from "./word-alignment";

/** A unit vector along axis i of a small space, or between two axes. */
const axis = (i: number, n = 6) => Float32Array.from({ length: n }, (_, k) => (k === i ? 1 : 0));
const between = (i: number, j: number, n = 6) => Float32Array.from({ length: n }, (_, k) => (k === i || k === j ? Math.SQRT1_2 : 0));
const w = (word: string, vector: Float32Array): WordVector => ({ word, vector });

describe("wordAlignment", () => {
  it("is 1 when every content word of each side has an identical counterpart, ignoring stop words and numbers", () => {
    const a = [w("the", axis(5)), w("ferry", axis(0)), w("leaves", axis(1)), w("42", axis(4))];
    const b = [w("leaves", axis(1)), w("a", axis(3)), w("ferry", axis(0))];
    expect(wordAlignment(a, b).weakest).toBeCloseTo(1, 6);
  });

  it("is the weakest best match over both sides and names that word", () => {
    const a = [w("ferry", axis(0)), w("leaves", axis(1))];
    // "departs" is half-way to "leaves"; "harbour" has no counterpart at all in the first text.
    const b = [w("ferry", axis(0)), w("departs", between(1, 2)), w("harbour", axis(3))];
    expect(wordAlignment(a, b)).toEqual({ weakest: 0, word: "harbour" });
    expect(wordAlignment(a, b.slice(0, 2)).weakest).toBeCloseTo(Math.SQRT1_2, 6);
    expect(wordAlignment(a, b.slice(0, 2)).word).toBe("leaves");
  });

  it("gives 0 and no word when a side has no content word", () => {
    expect(wordAlignment([w("the", axis(0))], [w("ferry", axis(0))])).toEqual({ weakest: 0, word: null });
    expect(wordAlignment([], [w("ferry", axis(0))])).toEqual({ weakest: 0, word: null });
  });

  it("is symmetric, within [-1, 1], and 1 for a text aligned with itself (property)", () => {
    const unit = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }).filter((v) => v.some((x) => Math.abs(x) > 1e-3)).map((v) => {
      const n = Math.hypot(...v);
      return Float32Array.from(v, (x) => x / n);
    });
    const words = fc.array(fc.record({ word: fc.constantFrom("ferry", "harbour", "leaves", "departs", "crossing", "island"), vector: unit }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(words, words, (a, b) => {
        const ab = wordAlignment(a, b);
        expect(ab.weakest).toBeCloseTo(wordAlignment(b, a).weakest, 6);
        expect(ab.weakest).toBeGreaterThanOrEqual(-1 - 1e-6);
        expect(ab.weakest).toBeLessThanOrEqual(1 + 1e-6);
        // Aligning a text with itself is perfect.
        expect(wordAlignment(a, a).weakest).toBeCloseTo(1, 5);
      }),
    );
  });
});
