import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { confidenceOf, defaultParams, deriveLiveStatus, initialStatusMemory, isDemotion, tension } from "./index";

const P = defaultParams;
const w = fc.double({ min: 0, max: 50, noNaN: true });

describe("tension", () => {
  it("matches the formula's golden values", () => {
    expect(tension(1, 1, P)).toBeCloseTo(1 - Math.exp(-1), 12);
    expect(tension(2, 1, P)).toBeCloseTo((2 / 3) * (1 - Math.exp(-1.5)), 12);
    expect(tension(3, 0, P)).toBe(0);
  });

  it("is 0 with no live rebuttal, in [0,1], symmetric, and monotone in the minority side", () => {
    fc.assert(
      fc.property(w, w, w, (s, r1, r2) => {
        expect(tension(s, 0, P)).toBe(0);
        const t = tension(s, r1, P);
        expect(t).toBeGreaterThanOrEqual(0);
        expect(t).toBeLessThanOrEqual(1);
        expect(tension(r1, s, P)).toBeCloseTo(t, 12);
        const [lo, hi] = r1 <= r2 ? [r1, r2] : [r2, r1];
        if (hi <= s) expect(tension(s, lo, P)).toBeLessThanOrEqual(tension(s, hi, P) + 1e-12);
      }),
      { numRuns: 500 },
    );
  });

  it("rises with total mass at a fixed ratio", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 10, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), fc.double({ min: 1, max: 5, noNaN: true }), (s, ratio, k) => {
        expect(tension(s * k, s * ratio * k, P)).toBeGreaterThanOrEqual(tension(s, s * ratio, P) - 1e-12);
      }),
      { numRuns: 300 },
    );
  });
});

describe("confidence and status rules", () => {
  it("follows Sonality's table: one document < 0.4, 6–10 documents 0.6–0.82, more toward 0.9", () => {
    expect(confidenceOf(1, 0, P)).toBeLessThan(0.4);
    expect(confidenceOf(6, 0, P)).toBeGreaterThanOrEqual(0.6);
    expect(confidenceOf(10, 0, P)).toBeLessThanOrEqual(0.82);
    expect(confidenceOf(14, 0, P)).toBeGreaterThan(0.89);
    expect(confidenceOf(10, 1, P)).toBeCloseTo(confidenceOf(10, 0, P) / 2, 12);
  });

  it("applies first-match-wins with hysteresis", () => {
    const base = { credence: 0.9, tension: 0.1, independentRealSupports: 3, maxRealRebuttalStrength: 0.2, promoted: false };
    const c = deriveLiveStatus(base, initialStatusMemory, P);
    expect(c.status).toBe("canonical");
    expect(deriveLiveStatus({ ...base, maxRealRebuttalStrength: 0.5 }, initialStatusMemory, P).status).toBe("supported");
    const d = deriveLiveStatus({ ...base, tension: 0.5 }, c.memory, P);
    expect(d.status).toBe("disputed");
    expect(deriveLiveStatus({ ...base, tension: 0.3 }, d.memory, P).status).toBe("disputed");
    expect(deriveLiveStatus({ ...base, tension: 0.2 }, d.memory, P).status).toBe("canonical");
    expect(deriveLiveStatus({ ...base, tension: 0.6 }, initialStatusMemory, P).status).toBe("provisional");
    expect(isDemotion("canonical", "disputed")).toBe(true);
    expect(isDemotion("provisional", "supported")).toBe(false);
  });
});
