import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HistoryItem } from "./model";
import { defaultParams, resolveParams } from "./params";
import { foldCheckpoint, replay, replayIncremental } from "./replay";
import { at, entryAt } from "./testing/fixtures";

/** A model assertion (harvested say-so, no verified source) from its own source, an hour apart (no cooling). */
const modelAssertion = (seq: number, ess = 1) =>
  entryAt(seq, { sourceId: `claim_${seq}`, tier: "model_assertion", effectiveTier: "model_assertion", verified: false, ess, time: at(seq * 60), actor: `agent_${seq}` });
const documentEntry = (seq: number, weight = 1) => entryAt(seq, { sourceId: `doc_${seq}`, weight, time: at(seq * 60), actor: `reader_${seq}` });

describe("MODEL_MASS_CAP: model assertions together add at most modelMassCap to the evidence mass n", () => {
  it("eight repeated model assertions do not make a confident belief", () => {
    const eight = Array.from({ length: 8 }, (_, i) => modelAssertion(i + 1));
    const state = replay(eight, defaultParams);
    expect(state.n).toBeLessThanOrEqual(defaultParams.modelMassCap);
    // confidence ≤ 1 − e^(−cap/scale) ≈ 0.15 with the defaults
    expect(state.confidence).toBeLessThanOrEqual(1 - Math.exp(-defaultParams.modelMassCap / defaultParams.confidenceMassScale) + 1e-12);
    expect(state.confidence).toBeLessThan(0.2);
    // The same eight without the cap would count double.
    const uncapped = replay(eight, resolveParams({ modelMassCap: 100 }));
    expect(uncapped.n).toBeGreaterThan(state.n);
  });

  it("n = real mass + min(cap, model mass), for any mix, cap and order (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ model: fc.boolean(), ess: fc.double({ min: 0.05, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 20 }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        (items, cap) => {
          const params = resolveParams({ modelMassCap: cap });
          const history: HistoryItem[] = items.map((it, i) => (it.model ? modelAssertion(i + 1, it.ess) : documentEntry(i + 1, it.ess)));
          const realOnly = history.filter((h) => h.type === "entry" && h.tier !== "model_assertion");
          const modelOnly = history.filter((h) => h.type === "entry" && h.tier === "model_assertion");
          const nReal = realOnly.length === 0 ? 0 : replay(realOnly, resolveParams({ modelMassCap: 1e9 })).n;
          const nModel = modelOnly.length === 0 ? 0 : replay(modelOnly, resolveParams({ modelMassCap: 1e9 })).n;
          const n = replay(history, params).n;
          expect(n).toBeCloseTo(nReal + Math.min(cap, nModel), 9);
          expect(n).toBeLessThanOrEqual(nReal + cap + 1e-9);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a source whose model say-so is later verified moves its mass out of the capped part, also incrementally", () => {
    const source = "claim_x";
    const claims = Array.from({ length: 6 }, (_, i) => modelAssertion(i + 1));
    const said = entryAt(7, { sourceId: source, tier: "model_assertion", effectiveTier: "model_assertion", verified: false, time: at(7 * 60), actor: "agent_x" });
    const verified = entryAt(8, { sourceId: source, tier: "document", effectiveTier: "document", verified: true, time: at(8 * 60), actor: "reviewer" });
    const full = replay([...claims, said, verified], defaultParams);
    expect(full.n).toBeCloseTo(defaultParams.modelMassCap + 1, 9);
    const inc = replayIncremental(foldCheckpoint([...claims, said], defaultParams), [verified], defaultParams);
    expect("fallback" in inc).toBe(false);
    if (!("fallback" in inc)) expect(inc.n).toBeCloseTo(full.n, 12);
  });
});
