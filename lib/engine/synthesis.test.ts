import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EngineError } from "./errors";
import type { BeliefRecord, EvidenceEntry, HistoryItem } from "./model";
import { defaultParams } from "./params";
import { replay } from "./replay";
import { acceptSynthesis, detectSynthesisCandidates, dismissSynthesis } from "./synthesis";
import { at, makeBelief, entryAt } from "./testing/fixtures";

const entry = (seq: number, over: Partial<EvidenceEntry>) => entryAt(seq, { time: at(seq), ...over });
function record(id: string, text: string, history: HistoryItem[]): BeliefRecord {
  const s = replay(history, defaultParams);
  return { belief: makeBelief(text, { id, credence: s.credence, status: s.status }), history };
}

/** main vs release, each supported in two change-sets; release's evidence rebuts main. */
function dispute(extraMain: HistoryItem[] = [], mainSupportChangeSets = 2) {
  const mainHist: HistoryItem[] = [
    ...Array.from({ length: mainSupportChangeSets }, (_, i) => entry(i + 1, { sourceId: `ev_m${i}`, changeSet: `cs_m${i}` })),
    entry(mainSupportChangeSets + 1, { sourceId: "ev_r0", relation: "REBUTS", changeSet: "cs_r0" }),
    ...extraMain,
  ];
  const main = record("b_main", "We deploy from main.", mainHist);
  const release = record("b_release", "We deploy from release.", [entry(1, { sourceId: "ev_r0", changeSet: "cs_r0" }), entry(2, { sourceId: "ev_r1", changeSet: "cs_r1" })]);
  return { main, release };
}

describe("detectSynthesisCandidates", () => {
  it("proposes a pair where one rebuts the other and both keep real support across ≥ 2 change-sets", () => {
    const { main, release } = dispute();
    const out = detectSynthesisCandidates([main, release], defaultParams);
    expect(out).toEqual([
      { aId: "b_main", bId: "b_release", aRebutsB: false, bRebutsA: true, aSupportChangeSets: 2, bSupportChangeSets: 2, aSupportMark: 2, bSupportMark: 2 },
    ]);
  });

  it("needs two change-sets on each side, a live rebut relation, and live beliefs", () => {
    const { main, release } = dispute([], 1);
    expect(detectSynthesisCandidates([main, release], defaultParams)).toEqual([]);
    const retracted = dispute([{ type: "retracted", seq: 4, time: at(9), actor: "x", changeSet: "cs_x", targetSeq: 3, sourceId: "ev_r0" }]);
    expect(detectSynthesisCandidates([retracted.main, retracted.release], defaultParams)).toEqual([]);
    const ended = dispute([{ type: "retired", seq: 4, time: at(9), actor: "x", changeSet: "cs_x" }]);
    expect(detectSynthesisCandidates([ended.main, ended.release], defaultParams)).toEqual([]);
    const unrelated = record("b_lunch", "Lunch at noon.", [entry(1, { sourceId: "l1", changeSet: "a" }), entry(2, { sourceId: "l2", changeSet: "b" })]);
    expect(detectSynthesisCandidates([dispute().release, unrelated], defaultParams)).toEqual([]);
  });

  it("remembers a dismissal until either side gains new real support", () => {
    const { main, release } = dispute();
    const [candidate] = detectSynthesisCandidates([main, release], defaultParams);
    if (!candidate) throw new Error("expected a candidate");
    const dismissal = dismissSynthesis(candidate, "reviewer", at(100));
    expect(detectSynthesisCandidates([main, release], defaultParams, { dismissals: [dismissal] })).toEqual([]);
    const grown = dispute([entry(4, { sourceId: "ev_m9", changeSet: "cs_m9" })]);
    expect(detectSynthesisCandidates([grown.main, grown.release], defaultParams, { dismissals: [dismissal] })).toHaveLength(1);
    // A new rebuttal is not new support.
    const rebutted = dispute([entry(4, { sourceId: "ev_r1", relation: "REBUTS", changeSet: "cs_r1b" })]);
    expect(detectSynthesisCandidates([rebutted.main, rebutted.release], defaultParams, { dismissals: [dismissal] })).toEqual([]);
    expect(detectSynthesisCandidates([main, release], defaultParams, { synthesized: [{ aId: "b_release", bId: "b_main" }] })).toEqual([]);
  });

  it("is independent of input order (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.boolean(), (k, reverse) => {
        const { main, release } = dispute([], k);
        const input = reverse ? [release, main] : [main, release];
        expect(detectSynthesisCandidates(input, defaultParams)).toEqual(detectSynthesisCandidates([main, release], defaultParams));
        expect(detectSynthesisCandidates(input, defaultParams).length).toBe(k >= 2 ? 1 : 0);
      }),
      { numRuns: 50 },
    );
  });
});

describe("acceptSynthesis", () => {
  it("writes one fresh provisional belief with SYNTHESIZES edges to both sides", () => {
    const { main, release } = dispute();
    const cs = acceptSynthesis(
      {
        a: main.belief,
        b: release.belief,
        proposal: { text: "Deploys go from release in the production repo and from main in internal tools.", contextTags: ["production repo", "internal tools", "production repo"] },
        newBeliefId: "b_syn",
        changeSetId: "cs_syn",
        actor: "reviewer",
        now: at(200),
      },
      defaultParams,
    );
    expect(cs.beliefs).toHaveLength(1);
    const b = cs.beliefs[0];
    expect(b?.expectedVersion).toBeNull();
    expect(b?.belief).toMatchObject({ id: "b_syn", status: "provisional", credence: 0.5, topic: main.belief.topic, contextTags: ["production repo", "internal tools"], version: 1 });
    expect(cs.edges.map((e) => [e.kind, e.from, e.to])).toEqual([
      ["SYNTHESIZES", "b_syn", "b_main"],
      ["SYNTHESIZES", "b_syn", "b_release"],
    ]);
  });

  it("refuses empty text, one belief twice and ended beliefs", () => {
    const { main, release } = dispute();
    const base = { a: main.belief, b: release.belief, proposal: { text: "x", contextTags: [] }, newBeliefId: "n", changeSetId: "c", actor: "r", now: at(1) };
    expect(() => acceptSynthesis({ ...base, proposal: { text: "  ", contextTags: [] } }, defaultParams)).toThrow(EngineError);
    expect(() => acceptSynthesis({ ...base, b: main.belief }, defaultParams)).toThrow(EngineError);
    expect(() => acceptSynthesis({ ...base, b: { ...release.belief, status: "superseded" } }, defaultParams)).toThrow(EngineError);
  });
});
