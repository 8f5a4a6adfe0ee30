import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultParams, defaultParamsVersion, logit, paramsVersion, resolveParams, sigmoid, TIERS } from "./index";

describe("params", () => {
  it("fills every default and versions by content", () => {
    expect(resolveParams({})).toEqual(defaultParams);
    expect(paramsVersion(resolveParams({}))).toBe(defaultParamsVersion);
    expect(paramsVersion(resolveParams({ coolingWindowMs: 1 }))).not.toBe(defaultParamsVersion);
    expect(defaultParamsVersion).toMatch(/^p1-[0-9a-f]{16}$/);
  });

  it("refuses unknown keys and wrong types", () => {
    expect(() => resolveParams({ modelAssertionCapp: 0.7 })).toThrow();
    expect(() => resolveParams({ coolingFloor: "0.3" })).toThrow();
    expect(() => resolveParams({ tierStrength: { gold: 3 } })).toThrow();
  });

  it("clamps any numbers into safe ranges", () => {
    const num = fc.double({ min: -1e6, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(num, num, num, num, num, (cap, floor, enter, exit, strength) => {
        const p = resolveParams({
          modelAssertionCap: cap,
          coolingFloor: floor,
          disputedEnterTension: enter,
          disputedExitTension: exit,
          tierStrength: { document: strength },
        });
        expect(p.modelAssertionCap).toBeGreaterThanOrEqual(0.5);
        expect(p.modelAssertionCap).toBeLessThanOrEqual(0.99);
        expect(Number.isFinite(logit(p.modelAssertionCap))).toBe(true);
        expect(p.coolingFloor).toBeGreaterThanOrEqual(0);
        expect(p.coolingFloor).toBeLessThanOrEqual(1);
        expect(p.disputedExitTension).toBeLessThanOrEqual(p.disputedEnterTension);
        const strengths = TIERS.map((t) => p.tierStrength[t]);
        strengths.forEach((s, i) => {
          expect(s).toBeGreaterThanOrEqual(0);
          if (i > 0) expect(s).toBeGreaterThanOrEqual(strengths[i - 1] as number);
        });
      }),
      { numRuns: 300 },
    );
  });

  it("has logit and sigmoid as inverses", () => {
    expect(sigmoid(logit(0.65))).toBeCloseTo(0.65, 12);
    expect(sigmoid(2)).toBeCloseTo(0.8808, 4);
  });
});
