import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbEntrySpec, arbHistory, arbRelation, arbTier, arbUnit, buildEntries } from "./testing/arbitraries";
import {
  EPOCH,
  makeContraction,
  makeEntry,
  makeRetracted,
  makeReview,
  makeRevised,
  makeStatusEvent,
  makeStripped,
  minutesAfter,
  renumber,
} from "./history-builder";
import { DECIDED_RELATIONS, checkReplay, defaultParams, derivedFields, logit, replay, resolveParams, supportRefsOf, withEntryOutputs, type HistoryItem } from "./index";

const P = defaultParams;
const L = logit(P.modelAssertionCap);
const RUNS = { numRuns: 300 };

/** Everything replay derives except per-entry bookkeeping. */
function core(history: readonly HistoryItem[]) {
  const s = replay(history, P);
  return { ...derivedFields(s), n: s.n, real: s.realLogOdds, model: s.modelLogOdds };
}

describe("replay: golden values", () => {
  it("is the prior 0.5 with no history", () => {
    const s = replay([], P);
    expect(s.credence).toBe(0.5);
    expect(s.confidence).toBe(0);
    expect(s.status).toBe("provisional");
  });

  it("one held-out truth reaches σ(2) ≈ 0.881 with confidence ≈ 0.154", () => {
    const s = replay([makeEntry({ seq: 1, tier: "held_out_truth" })], P);
    expect(s.credence).toBeCloseTo(0.8808, 4);
    expect(s.confidence).toBeCloseTo(1 - Math.exp(-1 / 6), 10);
    expect(s.supportCount).toBe(1);
    expect(s.supportWeight).toBeCloseTo(2, 10);
  });

  it("applies resistance from the confidence before the change-set", () => {
    const h = [
      makeEntry({ seq: 1, sourceId: "a", tier: "document", changeSet: "c1" }),
      makeEntry({ seq: 2, sourceId: "b", tier: "document", changeSet: "c2", actor: "other" }),
    ];
    const s = replay(h, P);
    const c1 = 1 - Math.exp(-1 / 6);
    expect(s.realLogOdds).toBeCloseTo(1 + 1 / (c1 + 1), 12);
    expect(s.entries[1]?.effectiveWeight).toBeCloseTo(1 / (c1 + 1), 12);
  });

  it("does not resist or cool entries of one change-set against each other", () => {
    const h = [
      makeEntry({ seq: 1, sourceId: "a", changeSet: "c1" }),
      makeEntry({ seq: 2, sourceId: "b", changeSet: "c1" }),
    ];
    expect(replay(h, P).realLogOdds).toBeCloseTo(2, 12);
  });

  it("cools the same actor's change-set inside the window by elapsed/window, floored at 0.25", () => {
    const at = (m: number, seq: number, actor = "x") =>
      makeEntry({ seq, sourceId: `s${seq}`, changeSet: `c${seq}`, actor, time: minutesAfter(m) });
    const c1 = 1 - Math.exp(-1 / 6);
    const r = 1 / (c1 + 1);
    expect(replay([at(0, 1), at(5, 2)], P).entries[1]?.effectiveWeight).toBeCloseTo(0.5 * r, 12);
    expect(replay([at(0, 1), at(1, 2)], P).entries[1]?.effectiveWeight).toBeCloseTo(0.25 * r, 12);
    expect(replay([at(0, 1), at(10, 2)], P).entries[1]?.effectiveWeight).toBeCloseTo(r, 12);
    expect(replay([at(0, 1), at(1, 2, "y")], P).entries[1]?.effectiveWeight).toBeCloseTo(r, 12);
  });

  it("counts one vote per (source, relation): the largest", () => {
    const h = [
      makeEntry({ seq: 1, sourceId: "a", weight: 0.3, changeSet: "c1" }),
      makeEntry({ seq: 2, sourceId: "a", weight: 0.9, changeSet: "c1" }),
      makeEntry({ seq: 3, sourceId: "a", weight: 0.5, changeSet: "c1" }),
    ];
    const s = replay(h, P);
    expect(s.realLogOdds).toBeCloseTo(0.9, 12);
    expect(s.supportCount).toBe(1);
    expect(s.entries.map((e) => e.zeroReason)).toEqual(["outvoted", null, "outvoted"]);
    expect(s.n).toBeCloseTo(0.9, 12);
  });

  it("lets each anonymous model assertion count on its own, clamped at logit(cap)", () => {
    const h = Array.from({ length: 10 }, (_, i) =>
      makeEntry({ seq: i + 1, sourceId: null, sourceKind: null, verified: false, tier: "model_assertion", changeSet: "c1" }),
    );
    const s = replay(h, P);
    expect(s.modelLogOdds).toBeCloseTo(2.5, 12);
    expect(s.credence).toBeCloseTo(P.modelAssertionCap, 12);
  });

  it("treats an unverified strong claim as a model assertion", () => {
    const s = replay([makeEntry({ seq: 1, tier: "held_out_truth", effectiveTier: "held_out_truth", verified: false })], P);
    expect(s.realLogOdds).toBe(0);
    expect(s.modelLogOdds).toBeCloseTo(0.25, 12);
    expect(s.realSupports).toHaveLength(0);
  });

  it("scales sums by (1 − s) at a contraction and retires at s = 1", () => {
    const h: HistoryItem[] = [
      makeEntry({ seq: 1, sourceId: "a", changeSet: "c1" }),
      makeEntry({ seq: 2, sourceId: "b", changeSet: "c1" }),
      makeContraction({ seq: 3, severity: 0.5 }),
    ];
    const s = replay(h, P);
    expect(s.realLogOdds).toBeCloseTo(1, 12);
    expect(s.n).toBeCloseTo(1, 12);
    expect(s.status).toBe("supported");
    const full = replay([...h, makeContraction({ seq: 4, severity: 1, time: minutesAfter(5) })], P);
    expect(full.status).toBe("contracted");
    expect(full.validUntil).toBe(minutesAfter(5));
    expect(full.credence).toBe(0.5);
  });

  it("applies revisions from the start and removals as if never arrived", () => {
    const base = [makeEntry({ seq: 1, sourceId: "a", weight: 1 }), makeEntry({ seq: 2, sourceId: "b", changeSet: "cs-1" })];
    const revised = replay([...base, makeRevised({ seq: 3, targetSeq: 1, weight: 0.5 })], P);
    const direct = replay([makeEntry({ seq: 1, sourceId: "a", weight: 0.5 }), base[1] as HistoryItem], P);
    expect(revised.realLogOdds).toBeCloseTo(direct.realLogOdds, 12);
    const flipped = replay([...base, makeRevised({ seq: 3, targetSeq: 1, relation: "REBUTS" })], P);
    expect(flipped.contradictCount).toBe(1);
    const gone = replay([...base, makeRetracted({ seq: 3, targetSeq: 2 })], P);
    expect(gone.realLogOdds).toBeCloseTo(1, 12);
    expect(gone.entries[1]?.zeroReason).toBe("retracted");
  });

  it("reads the history as of a time", () => {
    const h = [
      makeEntry({ seq: 1, sourceId: "a", time: minutesAfter(0) }),
      makeEntry({ seq: 2, sourceId: "b", time: minutesAfter(60), actor: "z" }),
      makeRetracted({ seq: 3, targetSeq: 1, time: minutesAfter(120) }),
    ];
    expect(replay(h, P, { asOf: minutesAfter(30) }).supportCount).toBe(1);
    expect(replay(h, P, { asOf: minutesAfter(90) }).supportCount).toBe(2);
    expect(replay(h, P, { asOf: Date.parse(minutesAfter(130)) }).supportCount).toBe(1);
  });

  it("derives status events, review state and promotion", () => {
    const h = [makeEntry({ seq: 1 }), makeReview({ seq: 2, action: "requested" })];
    expect(replay(h, P).reviewState).toBe("pending_review");
    expect(replay([...h, makeReview({ seq: 3, action: "approved" })], P).reviewState).toBe("none");
    const rejected = replay([...h, makeReview({ seq: 3, action: "rejected", time: minutesAfter(3) })], P);
    expect(rejected.status).toBe("retired");
    expect(rejected.validUntil).toBe(minutesAfter(3));
    expect(replay([...h, makeStatusEvent({ seq: 3, type: "superseded" })], P).status).toBe("superseded");
  });

  it("walks canonization: provisional → supported → canonical → disputed → supported (hysteresis)", () => {
    const sup = (seq: number, m: number) =>
      makeEntry({ seq, sourceId: `d${seq}`, tier: "held_out_truth", actor: `a${seq}`, changeSet: `c${seq}`, time: minutesAfter(m) });
    const reb = (seq: number, m: number, tier: "held_out_truth" | "observation" = "held_out_truth") =>
      makeEntry({ seq, sourceId: `r${seq}`, relation: "REBUTS", tier, weight: 0.2, actor: `a${seq}`, changeSet: `c${seq}`, time: minutesAfter(m) });
    const h1 = [sup(1, 0)];
    expect(replay(h1, P).status).toBe("provisional");
    const h2 = [...h1, sup(2, 1)];
    expect(replay(h2, P).status).toBe("supported");
    const h3 = [...h2, sup(3, 2)];
    expect(replay(h3, P).status).toBe("canonical");
    const withPromotion = resolveParams({ canonicalRequiresPromotion: true });
    expect(replay(h3, withPromotion).status).toBe("supported");
    expect(replay([...h3, makeStatusEvent({ seq: 4, type: "promoted" })], withPromotion).status).toBe("canonical");
    // Rebuttals until tension ≥ 0.5 demote to disputed.
    const h4: HistoryItem[] = [...h3];
    let seq = 4;
    while (replay(h4, P).tension < 0.5) h4.push(reb(seq, seq++));
    expect(replay(h4, P).status).toBe("disputed");
    // Supports bring tension between 0.25 and 0.5: still disputed (hysteresis)…
    const h5: HistoryItem[] = [...h4];
    while (replay(h5, P).tension >= 0.5) h5.push(sup(seq, seq++));
    const mid = replay(h5, P);
    if (mid.tension >= 0.25) expect(mid.status).toBe("disputed");
    // …until it falls below 0.25.
    while (replay(h5, P).tension >= 0.25) h5.push(sup(seq, seq++));
    expect(replay(h5, P).status).not.toBe("disputed");
  });

  it("never calls a never-supported belief disputed", () => {
    const h = [
      makeEntry({ seq: 1, sourceId: "a", changeSet: "c1" }),
      makeEntry({ seq: 2, sourceId: "b", relation: "REBUTS", changeSet: "c1" }),
    ];
    const s = replay(h, P);
    expect(s.tension).toBeGreaterThan(0.5);
    expect(s.status).toBe("provisional");
  });

  it("checkReplay accepts its own outputs and names each mismatch", () => {
    const h = [makeEntry({ seq: 1 }), makeEntry({ seq: 2, relation: "REBUTS", tier: "observation" })];
    const s = replay(h, P);
    const stored = withEntryOutputs(h, s);
    expect(checkReplay(derivedFields(s), stored, P).ok).toBe(true);
    const bad = checkReplay({ ...derivedFields(s), credence: 0.9, status: "canonical" }, h, P);
    expect(bad.ok).toBe(false);
    expect(bad.mismatches.map((m) => m.field)).toEqual(
      expect.arrayContaining(["credence", "status", "entry#1.contribution", "entry#2.effectiveWeight"]),
    );
  });

  it("records a timeline for credence-over-time charts", () => {
    const h = [makeEntry({ seq: 1, changeSet: "c1" }), makeEntry({ seq: 2, sourceId: "z", changeSet: "c2", actor: "o" })];
    const s = replay(h, P, { timeline: true });
    expect(s.timeline.map((c) => c.seq)).toEqual([1, 2]);
    expect(s.timeline[1]?.credence).toBeCloseTo(s.credence, 12);
  });
});

describe("replay: properties", () => {
  it("reports as support refs exactly the live, verified, non-laundered SUPPORTS entries the replay keeps", () => {
    // supportRefsOf is a scan (stores answer it without a replay); the replay's own outcomes are the reference.
    const arbEvents = (n: number) =>
      fc.array(fc.record({ target: fc.integer({ min: 1, max: Math.max(1, n) }), kind: fc.constantFrom("retracted", "stripped", "revised"), relation: fc.constantFrom(...DECIDED_RELATIONS) }), { maxLength: 8 });
    fc.assert(
      fc.property(
        arbHistory(25).chain((h) => fc.tuple(fc.constant(h), arbEvents(h.length))),
        ([entries, events]) => {
          let seq = entries.length;
          const history: HistoryItem[] = [...entries];
          for (const e of events) {
            const base = { seq: ++seq, targetSeq: e.target, time: entries.at(-1)?.time ?? "2026-01-01T00:00:00.000Z", actor: "alice", changeSet: `ev-${seq}` };
            if (e.kind === "retracted") history.push({ ...base, type: "retracted", sourceId: "s0" });
            else if (e.kind === "stripped") history.push({ ...base, type: "stripped", citedBeliefId: "b" });
            else history.push({ ...base, type: "revised", relation: e.relation, reason: "reread" });
          }
          const state = replay(history, P);
          const kept = new Map(state.entries.map((o) => [o.seq, o]));
          const expected = entries
            .filter((item) => {
              const o = kept.get(item.seq);
              if (!o || o.zeroReason === "retracted" || o.zeroReason === "stripped" || o.zeroReason === "laundered") return false;
              return o.relation === "SUPPORTS" && item.verified && item.sourceId !== null && item.sourceKind !== null;
            })
            .map((item) => item.sourceId);
          expect(supportRefsOf(history).map((r) => r.sourceId)).toEqual(expected);
        },
      ),
      RUNS,
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(arbHistory(40), (h) => {
        expect(replay(h, P)).toEqual(replay(h, P));
      }),
      RUNS,
    );
  });

  it("does not depend on the order of entries inside one change-set", () => {
    fc.assert(
      fc.property(
        arbHistory(25),
        fc.integer({ min: 0, max: 1000 }),
        (h, seed) => {
          // Shuffle inside each change-set deterministically.
          const groups = new Map<string, typeof h>();
          for (const e of h) groups.set(e.changeSet, [...(groups.get(e.changeSet) ?? []), e]);
          const shuffled = [...groups.values()].flatMap((g) =>
            g.map((e, i) => ({ e, k: (i * 7919 + seed) % (g.length + 3) })).sort((a, b) => a.k - b.k).map((x) => x.e),
          );
          const a = core(h);
          const b = core(renumber(shuffled));
          for (const key of Object.keys(a) as (keyof typeof a)[]) {
            const x = a[key];
            const y = b[key];
            if (typeof x === "number" && typeof y === "number") expect(Math.abs(x - y)).toBeLessThan(1e-9);
            else expect(y).toEqual(x);
          }
        },
      ),
      RUNS,
    );
  });

  it("keeps credence within [1−cap, cap] without real support, whatever tiers are claimed", () => {
    const noReal = fc.oneof(
      arbEntrySpec({ verified: fc.constant(false) }),
      arbEntrySpec({ tier: fc.constant("model_assertion") }),
      arbEntrySpec({ laundering: fc.constantFrom("self_citation", "citation_cycle", "ungrounded_belief") }),
    );
    fc.assert(
      fc.property(fc.array(noReal, { maxLength: 60 }), (specs) => {
        const s = replay(buildEntries(specs), P);
        expect(s.credence).toBeLessThanOrEqual(P.modelAssertionCap + 1e-12);
        expect(s.credence).toBeGreaterThanOrEqual(1 - P.modelAssertionCap - 1e-12);
        expect(s.realSupports).toHaveLength(0);
      }),
      RUNS,
    );
  });

  it("lets model assertions add at most logit(cap) on top of real evidence", () => {
    const modelSpec = arbEntrySpec({ verified: fc.constant(false) });
    fc.assert(
      fc.property(arbHistory(20), fc.array(modelSpec, { minLength: 1, maxLength: 40 }), (h, pile) => {
        const s = replay(h, P);
        expect(Math.abs(logit(s.credence) - s.realLogOdds)).toBeLessThanOrEqual(L + 1e-9);
        const later = buildEntries(pile, h.length + 1, minutesAfter(24 * 60));
        const withPile = replay([...h, ...later], P);
        expect(withPile.realLogOdds).toBeCloseTo(s.realLogOdds, 9);
        expect(Math.abs(logit(withPile.credence) - logit(s.credence))).toBeLessThanOrEqual(2 * L + 1e-9);
        if (s.modelLogOdds === 0) expect(Math.abs(logit(withPile.credence) - logit(s.credence))).toBeLessThanOrEqual(L + 1e-9);
      }),
      RUNS,
    );
  });

  it("is unchanged by adding a laundered, retracted or stripped entry anywhere", () => {
    fc.assert(
      fc.property(
        arbHistory(25),
        fc.nat(),
        arbEntrySpec({ laundering: fc.constant(null) }),
        fc.constantFrom("laundered", "retracted", "stripped"),
        (h, at, spec, how) => {
          const pos = h.length === 0 ? 0 : at % (h.length + 1);
          const neighbour = h[Math.min(pos, h.length - 1)];
          const extra = makeEntry({
            ...buildEntries([spec])[0],
            seq: 10_000,
            changeSet: spec.newChangeSet || !neighbour ? "intruder" : neighbour.changeSet,
            time: neighbour?.time ?? EPOCH,
            launderingReason: how === "laundered" ? "ungrounded_belief" : null,
          });
          const items: HistoryItem[] = [...h.slice(0, pos), extra, ...h.slice(pos)];
          if (how === "retracted") items.push(makeRetracted({ seq: 20_000, targetSeq: 10_000, time: minutesAfter(9999) }));
          if (how === "stripped") items.push(makeStripped({ seq: 20_000, targetSeq: 10_000, time: minutesAfter(9999) }));
          expect(core(renumber(items))).toEqual(core(h));
        },
      ),
      RUNS,
    );
  });

  it("never reaches credence ≥ 0.9 or confidence ≥ 0.4 from one piece of evidence", () => {
    fc.assert(
      fc.property(arbTier, arbRelation, arbUnit, arbUnit, fc.boolean(), (tier, relation, weight, ess, verified) => {
        const s = replay([makeEntry({ seq: 1, tier, relation, weight, ess, verified, effectiveTier: verified ? tier : "model_assertion" })], P);
        expect(s.credence).toBeLessThan(0.9);
        expect(s.credence).toBeGreaterThan(0.1);
        expect(s.confidence).toBeLessThan(0.4);
      }),
      RUNS,
    );
  });

  it("keeps every derived number in range", () => {
    fc.assert(
      fc.property(arbHistory(40), fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { maxLength: 3 }), (h, severities) => {
        const items: HistoryItem[] = [...h];
        severities.forEach((s, i) => items.splice(Math.floor((i * items.length) / 3), 0, makeContraction({ seq: 0, severity: s })));
        const s = replay(renumber(items), P);
        for (const v of [s.credence, s.confidence, s.uncertainty, s.tension]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
        }
        expect(s.valence).toBeCloseTo(2 * s.credence - 1, 12);
        expect(s.supportWeight).toBeGreaterThanOrEqual(-1e-12);
        expect(s.rebuttalWeight).toBeGreaterThanOrEqual(-1e-12);
        expect(s.evidenceCount).toBe(s.supportCount + s.contradictCount);
        expect(checkReplay(derivedFields(s), withEntryOutputs(renumber(items), s), P).ok).toBe(true);
      }),
      RUNS,
    );
  });
});
