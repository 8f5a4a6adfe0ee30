import { describe, expect, it } from "vitest";
import { defaultParams, resolveParams } from "@/lib/engine";
import { changedParams, diffParams, flattenParams, formValues } from "./params-fields";

describe("params fields", () => {
  it("flattens tier strengths first, then every scalar parameter", () => {
    const flat = new Map(flattenParams(defaultParams));
    expect(flat.get("tierStrength.document")).toBe(1);
    expect(flat.get("essThreshold")).toBe(0.3);
    expect(flat.get("canonicalRequiresPromotion")).toBe(false);
    expect(flat.has("tierStrength")).toBe(false);
  });

  it("keeps only changed values, tier strengths nested, booleans from strings", () => {
    const form = formValues(defaultParams);
    expect(form.coolingWindowMs).toBe("10");
    expect(form.driftWindowMs).toBe("7");
    expect(changedParams(defaultParams, form)).toEqual({ changes: {}, errors: {} });
    const { changes, errors } = changedParams(defaultParams, {
      ...form,
      essThreshold: "0.4",
      "tierStrength.observation": "0.6",
      canonicalRequiresPromotion: "true",
    });
    expect(errors).toEqual({});
    expect(changes).toEqual({ essThreshold: 0.4, tierStrength: { observation: 0.6 }, canonicalRequiresPromotion: true });
    expect(resolveParams(changes).essThreshold).toBe(0.4);
  });

  it("names a field that is not a number and changes nothing for it", () => {
    const { changes, errors } = changedParams(defaultParams, { essThreshold: "abc", driftMaxMutations: "" });
    expect(changes).toEqual({});
    expect(errors).toEqual({ essThreshold: "Enter a number.", driftMaxMutations: "Enter a number." });
  });

  it("refuses values outside their range with a message, and converts display units back", () => {
    const form = formValues(defaultParams);
    const { changes, errors } = changedParams(defaultParams, { ...form, essThreshold: "-5", relatedTopK: "2.5", "tierStrength.document": "11", coolingWindowMs: "20" });
    expect(errors).toEqual({
      essThreshold: "Must be at least 0 (valid: 0 to 1).",
      relatedTopK: "Enter a whole number.",
      "tierStrength.document": "Must be at most 10 (valid: 0 to 10).",
    });
    expect(changes).toEqual({ coolingWindowMs: 20 * 60_000 });
  });

  it("diffs two versions", () => {
    const next = resolveParams({ essThreshold: 0.4, tierStrength: { held_out_truth: 2.5 } });
    expect(diffParams(defaultParams, next)).toEqual([
      { name: "tierStrength.held_out_truth", from: 2, to: 2.5 },
      { name: "essThreshold", from: 0.3, to: 0.4 },
    ]);
  });
});
