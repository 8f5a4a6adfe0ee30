import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { BeliefRecord, EvidenceEntry, HistoryItem } from "./model";
import { defaultParams } from "./params";
import { ABOUT_THE_QUESTION_SHARE, decideDominance, positionsTension, recall } from "./recall";
import { foldCheckpoint, replay, sliceOfCheckpoint } from "./replay";
import { replayWithStanding, standingOfHead } from "./standing";
import {
  ANSWER_COSINE_ALONE,
  ANSWER_WORD_COSINE,
  fuseRelevance,
  HYBRID_ANSWER_FLOOR,
  needsWordCheck,
  PARTIAL_MATCH_COSINE,
  PARTIAL_MATCH_WORD_COSINE,
  relevanceScorer,
  topicTerms,
  wordCheckOf,
  wordCheckPlan,
} from "./retrieval";
import { at, makeBelief, entryAt } from "./testing/fixtures";
import { scriptedAssessor } from "./testing/scripted-assessor";

/** A belief record whose stored fields are its replay. */
function record(text: string, history: HistoryItem[], id?: string): BeliefRecord {
  const state = replay(history, defaultParams);
  const belief = makeBelief(text, { ...(id ? { id } : {}), credence: state.credence, confidence: state.confidence, tension: state.tension, status: state.status, validUntil: state.validUntil });
  return { belief, history };
}

const entry = (seq: number, over: Partial<EvidenceEntry>) => entryAt(seq, { changeSet: `cs_${over.sourceId ?? seq}_${seq}`, ...over });
const noLoad = async () => null;

const MONDAY = at(0);
const THURSDAY = at(3 * 24 * 60);

/** memnode's deploy-branch contradiction: Monday "main", Thursday "release, main never ships" (which rebuts main). */
function deployBranch() {
  const main = record("We deploy from the main branch.", [
    entry(1, { sourceId: "ev_monday", effectiveTier: "observation", tier: "observation", time: MONDAY, actor: "alice" }),
    entry(2, { sourceId: "ev_thursday", relation: "REBUTS", effectiveTier: "observation", tier: "observation", weight: 0.8, time: THURSDAY, actor: "bob" }),
  ], "b_main");
  const release = record("We deploy from the protected release branch; pushing to main never ships.", [
    entry(1, { sourceId: "ev_thursday", effectiveTier: "observation", tier: "observation", time: THURSDAY, actor: "bob" }),
  ], "b_release");
  const lunch = record("Lunch is served at noon.", [entry(1, { sourceId: "ev_menu", time: MONDAY })], "b_lunch");
  return { main, release, lunch };
}

describe("recall (deploy-branch contradiction)", () => {
  it("is contested, the newer release rule dominates through the standing rebuttal, and both ids are named", async () => {
    const { main, release, lunch } = deployBranch();
    const answer = await recall({ question: "Which branch do we deploy from?", candidates: [main, release, lunch], load: noLoad, assessor: scriptedAssessor() }, defaultParams);
    expect(answer.mode).toBe("contested");
    expect(answer.dominantBeliefIds).toEqual(["b_release"]);
    expect(answer.competingBeliefIds).toEqual(["b_main"]);
    expect(answer.dominantAnswer).toBe(release.belief.text);
    expect(answer.competingInterpretation).toBe(main.belief.text);
    expect(answer.reasons[0]).toBe("standing_rebuttal");
    expect(answer.reasons).toContain("recency");
    expect(answer.whyDominantWins).toMatch(/^It is preferred over "We deploy from [^"]*" because the newer evidence behind it contradicts the other answer/);
    expect(answer.whyDominantWins).not.toMatch(/standing|rebuttal|real support|credence|tension/);
    expect(answer.beliefIds).toEqual(expect.arrayContaining(["b_main", "b_release"]));
    expect(answer.beliefIds).not.toContain("b_lunch");
    expect(answer.tension).toBeGreaterThan(0);
    expect(answer.tension).toBeLessThanOrEqual(1);
    expect(answer.confidence).toBeCloseTo(replay(release.history, defaultParams).confidence, 12);
  });

  it("main wins again once it is reconfirmed after the rebuttal (and has more support)", async () => {
    const { main, release } = deployBranch();
    const reconfirmed = record(main.belief.text, [
      ...main.history,
      entry(3, { sourceId: "ev_ci_log", effectiveTier: "document", tier: "document", time: at(4 * 24 * 60), actor: "carol" }),
      entry(4, { sourceId: "ev_runbook", effectiveTier: "document", tier: "document", time: at(4 * 24 * 60 + 30), actor: "dave" }),
    ], "b_main");
    const answer = await recall({ question: "Which branch do we deploy from?", candidates: [reconfirmed, release], load: noLoad, assessor: scriptedAssessor() }, defaultParams);
    expect(answer.mode).toBe("contested");
    expect(answer.dominantBeliefIds).toEqual(["b_main"]);
    expect(answer.reasons).toEqual(expect.arrayContaining(["credence", "recency", "real_support", "reconfirmation"]));
  });

  it("is settled when no relevant belief is rebutted", async () => {
    const { lunch } = deployBranch();
    const answer = await recall({ question: "When is lunch served?", candidates: [lunch], load: noLoad, assessor: scriptedAssessor() }, defaultParams);
    expect(answer).toMatchObject({ mode: "settled", dominantBeliefIds: ["b_lunch"], competingBeliefIds: [], competingInterpretation: null, reasons: ["only_position"] });
  });

  it("answers with the best match: a dispute between two other matches neither replaces it nor marks it contested", async () => {
    const { main, release } = deployBranch();
    const staging = record("Our staging environment mirrors production.", [entry(1, { sourceId: "ev_staging", time: MONDAY }), entry(2, { sourceId: "ev_staging2", time: THURSDAY, changeSet: "c2" })], "b_staging");
    const answer = await recall(
      { question: "Does our staging environment mirror production?", candidates: [main, release, staging], load: noLoad, assessor: scriptedAssessor(), minRelevance: 0 },
      defaultParams,
    );
    expect(answer.dominantBeliefIds).toEqual(["b_staging"]);
    expect(answer.mode).not.toBe("contested");
    expect(answer.competingBeliefIds).toEqual([]);
  });

  it("a rival must be about the question: a rebutting belief far less relevant than the best match does not contest it", async () => {
    const backups = record("Database backups run every night at 02:00.", [entry(1, { sourceId: "ev_cron", time: MONDAY }), entry(2, { sourceId: "ev_log", time: THURSDAY, changeSet: "c2" })], "b_backups");
    const loadTests = record("Load tests run every Friday.", [entry(1, { sourceId: "b_backups", sourceKind: "belief", relation: "REBUTS", time: THURSDAY })], "b_load");
    const answer = await recall({ question: "How often do database backups run?", candidates: [backups, loadTests], load: noLoad, assessor: scriptedAssessor() }, defaultParams);
    expect(answer.dominantBeliefIds).toEqual(["b_backups"]);
    expect(answer.mode).not.toBe("contested");
  });

  it("a side topic held firmly never answers in place of a doubted belief about the question", async () => {
    const doubted = record("The ferry leaves the harbour at seven each morning.", [
      entry(1, { sourceId: "ev_timetable", tier: "observation", effectiveTier: "observation", weight: 0.2, time: MONDAY }),
      entry(2, { sourceId: "ev_watch", relation: "REBUTS", tier: "measurement", effectiveTier: "measurement", weight: 0.9, time: THURSDAY }),
      entry(3, { sourceId: "ev_gate", relation: "REBUTS", tier: "measurement", effectiveTier: "measurement", weight: 0.9, time: THURSDAY, changeSet: "c3" }),
    ], "b_ferry");
    const firm = [1, 2, 3, 4].map((i) => entry(i, { sourceId: `ev_sign_${i}`, tier: "measurement", effectiveTier: "measurement", weight: 0.8, time: THURSDAY, changeSet: `c${i}` }));
    const side = record("The ferry café in the harbour opens at seven.", firm, "b_cafe");
    const question = "When does the ferry leave the harbour?";
    const semantic = new Map([["b_ferry", 0.8], ["b_cafe", 0.35]]);
    // The side topic scores higher on relevance × credence, though it is under half as relevant.
    const scorer = relevanceScorer(question, [doubted.belief.text, side.belief.text]);
    const relevanceOf = (r: BeliefRecord) => fuseRelevance(scorer.score(r.belief.text), semantic.get(r.belief.id));
    const [best, sideRelevance] = [relevanceOf(doubted), relevanceOf(side)];
    expect(sideRelevance * side.belief.credence).toBeGreaterThan(best * doubted.belief.credence);
    expect(sideRelevance).toBeLessThan(ABOUT_THE_QUESTION_SHARE * best);
    const ask = (candidates: BeliefRecord[]) => recall({ question, candidates, load: noLoad, assessor: scriptedAssessor(), semantic }, defaultParams);
    const answer = await ask([side, doubted]);
    expect(answer.dominantBeliefIds).toEqual(["b_ferry"]);
    expect(answer.mode).not.toBe("settled");
    // Without the doubted belief, the side topic is the most relevant thing held, and answers.
    expect((await ask([side])).dominantBeliefIds).toEqual(["b_cafe"]);
  });

  it("is contested by a strong evidence rebuttal alone, naming the evidence as the competing interpretation", async () => {
    const b = record("The cache is always warm.", [
      entry(1, { sourceId: "ev_a", time: MONDAY }),
      entry(2, { sourceId: "ev_cold", relation: "REBUTS", tier: "measurement", effectiveTier: "measurement", weight: 0.4, time: THURSDAY }),
    ]);
    const answer = await recall(
      { question: "Is the cache warm?", candidates: [b], load: noLoad, assessor: scriptedAssessor(), evidenceText: async (id) => (id === "ev_cold" ? "Cold-start traces show misses." : null) },
      defaultParams,
    );
    expect(answer.mode).toBe("contested");
    expect(answer.contestedBeliefIds).toEqual([b.belief.id]);
    expect(answer.competingInterpretation).toBe("Cold-start traces show misses.");
    const weak = record(b.belief.text, [entry(1, { sourceId: "ev_a" }), entry(2, { sourceId: "ev_cold", relation: "REBUTS", weight: 0.29 })]);
    expect((await recall({ question: "Is the cache warm?", candidates: [weak], load: noLoad, assessor: scriptedAssessor() }, defaultParams)).mode).toBe("settled");
  });

  it("says insufficient, not settled, when the best answer leans false or rests on too little evidence", async () => {
    const leansFalse = record("The ferry runs on Sundays.", [
      entry(1, { sourceId: "ev_a", tier: "observation", effectiveTier: "observation", weight: 0.2, time: MONDAY }),
      entry(2, { sourceId: "ev_b", relation: "REBUTS", tier: "observation", effectiveTier: "observation", weight: 0.25, time: THURSDAY }),
    ]);
    expect(leansFalse.belief.credence).toBeLessThan(0.5);
    const a = await recall({ question: "Does the ferry run on Sundays?", candidates: [leansFalse], load: noLoad, assessor: scriptedAssessor() }, defaultParams);
    expect(a.mode).toBe("insufficient");
    expect(a.reasons).toContain("low_credence");
    expect(a.whyDominantWins).toMatch(/^No answer is well enough supported: the best candidate is weak because the evidence leans against it/);

    const thin = record("The ferry runs on Sundays.", [entry(1, { sourceId: "ev_a", weight: 0.3, time: MONDAY })]);
    const b = await recall({ question: "Does the ferry run on Sundays?", candidates: [thin], load: noLoad, assessor: scriptedAssessor() }, defaultParams);
    expect(b.mode).toBe("insufficient");
    expect(b.reasons).toEqual(["low_confidence"]);
    expect(b.whyDominantWins).toContain("too little evidence backs it");
  });

  it("never presents a belief with credence below one half as settled (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ rebuts: fc.boolean(), weight: fc.double({ min: 0.05, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 6 }),
        async (items) => {
          const b = record(
            "The ferry runs on Sundays.",
            items.map((it, i) => entry(i + 1, { sourceId: `ev_${i}`, relation: it.rebuts ? "REBUTS" : "SUPPORTS", weight: it.weight, time: at(i * 60) })),
          );
          const a = await recall({ question: "Does the ferry run on Sundays?", candidates: [b], load: noLoad, assessor: scriptedAssessor() }, defaultParams);
          if (a.mode === "settled") expect(b.belief.credence).toBeGreaterThanOrEqual(0.5);
          if (b.belief.credence < 0.5 && a.mode !== "contested") expect(a.mode).toBe("insufficient");
        },
      ),
      { numRuns: 60 },
    );
  });

  it("makes two live beliefs that give different values for the same quantity compete", async () => {
    const p8080 = { ...record("The canary service listens on port 8080.", [entry(1, { sourceId: "ev_cfg", time: MONDAY })], "b_8080") };
    p8080.belief = { ...p8080.belief, quantity: { value: 8080, unit: "" } };
    const p9090 = { ...record("The canary service listens on port 9090.", [entry(1, { sourceId: "ev_chart", time: THURSDAY })], "b_9090") };
    p9090.belief = { ...p9090.belief, quantity: { value: 9090, unit: "" } };
    const a = await recall({ question: "Which port does the canary service listen on?", candidates: [p8080, p9090], load: noLoad, assessor: scriptedAssessor() }, defaultParams);
    expect(a.mode).toBe("contested");
    expect([...a.dominantBeliefIds, ...a.competingBeliefIds].sort()).toEqual(["b_8080", "b_9090"]);
    expect(a.dominantBeliefIds).toEqual(["b_9090"]);
    expect(a.whyDominantWins).toBe('It is preferred over "The canary service listens on port 8080." because it was confirmed more recently.');
  });

  it("follows SUPERSEDES to the live end, loading beliefs outside the candidates, and stops on cycles", async () => {
    const release = record("Deploys ship from the release branch.", [entry(1, { sourceId: "ev_r", time: THURSDAY })], "b_new");
    const old = record("We deploy from the main branch.", [
      entry(1, { sourceId: "ev_m", time: MONDAY }),
      { type: "superseded", seq: 2, time: THURSDAY, actor: "judge", changeSet: "cs_s", byBeliefId: "b_new" },
    ], "b_old");
    const answer = await recall(
      { question: "Which branch do we deploy from main?", candidates: [old], load: async (id) => (id === "b_new" ? release : null), assessor: scriptedAssessor() },
      defaultParams,
    );
    expect(answer.dominantBeliefIds).toEqual(["b_new", "b_old"]);
    const loop = record("We deploy from the main branch.", [entry(1, { sourceId: "ev_m" }), { type: "superseded", seq: 2, time: THURSDAY, actor: "j", changeSet: "c", byBeliefId: "b_loop" }], "b_loop");
    expect((await recall({ question: "deploy main", candidates: [loop], load: noLoad, assessor: scriptedAssessor() }, defaultParams)).mode).toBe("no_answer");
  });

  it("answers the same from gists alone (text, status, credence), loading only the answering beliefs (whole, or their standings from their checkpoints) and the superseded ones' histories (property)", async () => {
    const texts = ["The nightly backup runs at two.", "The nightly backup runs at four.", "Backups are kept for a week.", "The backup job writes to the east bucket.", "Lunch is served at noon."];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            text: fc.integer({ min: 0, max: texts.length - 1 }),
            entries: fc.array(fc.record({ rebutsFrom: fc.option(fc.integer({ min: 0, max: 7 }), { nil: null }), weight: fc.double({ min: 0.05, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 4 }),
            supersededBy: fc.option(fc.integer({ min: 0, max: 7 }), { nil: null }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.integer({ min: 1, max: 4 }),
        async (specs, k) => {
          const records = specs.map((spec, i) => {
            const history: HistoryItem[] = spec.entries.map((e, j) =>
              entry(j + 1, { sourceId: e.rebutsFrom === null ? `ev_${i}_${j}` : `b_${e.rebutsFrom}`, relation: e.rebutsFrom === null ? "SUPPORTS" : "REBUTS", weight: e.weight, time: at(i * 60 + j) }),
            );
            if (spec.supersededBy !== null && spec.supersededBy !== i)
              history.push({ type: "superseded", seq: history.length + 1, time: at(600), actor: "judge", changeSet: `cs_s${i}`, byBeliefId: `b_${spec.supersededBy}` });
            return record(texts[spec.text] ?? "", history, `b_${i}`);
          });
          const byId = new Map(records.map((r) => [r.belief.id, r]));
          const load = async (id: string) => byId.get(id) ?? null;
          const question = "When does the nightly backup run?";
          const whole = await recall({ question, candidates: records, load, assessor: scriptedAssessor(), k }, defaultParams);
          const requested: string[] = [];
          let reads = 0;
          const slim = await recall(
            {
              question,
              // Gists only: a candidate without its history is read for nothing more than its text and standing.
              candidates: records.map(({ belief: { id, text, status, credence } }) => ({ belief: { id, text, status, credence } })),
              load,
              loadRecords: async (ids) => {
                reads += 1;
                requested.push(...ids);
                return ids.flatMap((id) => (byId.has(id) ? [byId.get(id) as BeliefRecord] : []));
              },
              assessor: scriptedAssessor(),
              k,
            },
            defaultParams,
          );
          expect(slim).toEqual(whole);
          // The answering beliefs' histories, and the superseded candidates' (read in one call, to follow their chains).
          expect(requested.length).toBeLessThanOrEqual(k + records.filter((r) => r.belief.status === "superseded").length);
          expect(reads).toBeLessThanOrEqual(2);
          // Standings from the stored checkpoints: the same answer, and no history read beyond the superseded candidates'.
          const histories: string[] = [];
          const fromCheckpoints = await recall(
            {
              question,
              candidates: records.map(({ belief: { id, text, status, credence } }) => ({ belief: { id, text, status, credence } })),
              load,
              loadRecords: async (ids) => {
                histories.push(...ids);
                return ids.flatMap((id) => (byId.has(id) ? [byId.get(id) as BeliefRecord] : []));
              },
              loadStandings: async (ids) =>
                ids.flatMap((id) => {
                  const r = byId.get(id);
                  const head = r && { belief: r.belief, lastSeq: r.history.length, checkpoint: sliceOfCheckpoint(foldCheckpoint(r.history, defaultParams)) };
                  const standing = head && standingOfHead(head, defaultParams);
                  return r && standing ? [{ belief: r.belief, standing }] : [];
                }),
              assessor: scriptedAssessor(),
              k,
            },
            defaultParams,
          );
          expect(fromCheckpoints).toEqual(whole);
          expect(histories.every((id) => byId.get(id)?.belief.status === "superseded")).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("returns no_answer when nothing is relevant", async () => {
    const { lunch } = deployBranch();
    expect((await recall({ question: "quantum chromodynamics", candidates: [lunch], load: noLoad, assessor: scriptedAssessor() }, defaultParams)).mode).toBe("no_answer");
  });
});

describe("dominance and two-position tension (properties)", () => {
  const position = (id: string, history: HistoryItem[], rank: number) => ({ belief: record(id, history, id).belief, standing: replayWithStanding(history, defaultParams).standing, rank, predecessors: [] });

  it("a fresh rebuttal from the rival always wins over credence; tension ∈ [0,1] and symmetric in the pair", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3 }), fc.double({ min: 0.3, max: 1, noNaN: true }), (aSupports, bSupports, w) => {
        const aHist = Array.from({ length: aSupports }, (_, i) => entry(i + 1, { sourceId: `ev_a${i}`, time: at(i) }));
        aHist.push(entry(aSupports + 1, { sourceId: "ev_b0", relation: "REBUTS", weight: w, time: at(1000) }));
        const bHist = Array.from({ length: bSupports }, (_, i) => entry(i + 1, { sourceId: `ev_b${i}`, time: at(500 + i) }));
        const a = position("A", aHist, 0);
        const b = position("B", bHist, 1);
        const v = decideDominance(a, b, defaultParams);
        expect(v.dominant.belief.id).toBe("B");
        expect(v.reasons[0]).toBe("standing_rebuttal");
        const t = positionsTension(v.dominant, v.competing, defaultParams);
        expect(t).toBeGreaterThan(0);
        expect(t).toBeLessThanOrEqual(1);
        expect(positionsTension(v.competing, v.dominant, defaultParams)).toBeCloseTo(t, 12);
      }),
      { numRuns: 200 },
    );
  });

  it("near-ties go to the newer real support; clear credence gaps to the higher credence", () => {
    const a = position("A", [entry(1, { sourceId: "ev_1", time: at(0) })], 0);
    const b = position("B", [entry(1, { sourceId: "ev_2", time: at(10) })], 1);
    expect(decideDominance(a, b, defaultParams).dominant.belief.id).toBe("B");
    const strong = position("A", [entry(1, { sourceId: "ev_1", tier: "held_out_truth", effectiveTier: "held_out_truth", time: at(0) })], 0);
    expect(decideDominance(strong, b, defaultParams).dominant.belief.id).toBe("A");
  });
});

describe("recall by meaning: a belief near the answer floor answers only if its words meet the question's", () => {
  const HIKING = "Who books the minibus for the hiking trip?";
  const payroll = () => record("Salaries are paid on the last working day of each month.", [entry(1, { sourceId: "ev_payroll", time: MONDAY })], "b_payroll");
  const ask = (closest: Map<string, number> | undefined, cos = 0.28) =>
    recall(
      {
        question: HIKING,
        candidates: [payroll()],
        load: noLoad,
        assessor: scriptedAssessor(),
        semantic: new Map([["b_payroll", cos]]),
        minRelevance: HYBRID_ANSWER_FLOOR,
        ...(closest ? { closestWords: closest } : {}),
      },
      defaultParams,
    );

  it("a question about something memory never mentions gets no answer, though the nearest belief clears the floor", async () => {
    expect(fuseRelevance(0, 0.28)).toBeGreaterThan(HYBRID_ANSWER_FLOOR);
    expect(needsWordCheck(HIKING, payroll().belief.text, 0.28)).toBe(true);
    expect(await ask(new Map([["b_payroll", ANSWER_WORD_COSINE - 0.1]]))).toMatchObject({ mode: "no_answer", beliefIds: [] });
  });

  it("a belief about the same kind of fact, sharing no word of the question's topic, does not answer though its sentence cosine is 0.36", async () => {
    expect(needsWordCheck(HIKING, payroll().belief.text, 0.36)).toBe(true);
    expect(await ask(new Map([["b_payroll", ANSWER_WORD_COSINE - 0.1]]), 0.36)).toMatchObject({ mode: "no_answer", beliefIds: [] });
  });

  it("the same belief answers when a word of the question has a close counterpart in it", async () => {
    expect((await ask(new Map([["b_payroll", ANSWER_WORD_COSINE + 0.1]]))).dominantBeliefIds).toEqual(["b_payroll"]);
  });

  it("a sentence cosine of ANSWER_COSINE_ALONE or more answers by meaning alone, whatever the words", async () => {
    expect(needsWordCheck(HIKING, payroll().belief.text, ANSWER_COSINE_ALONE)).toBe(false);
    expect((await ask(new Map([["b_payroll", 0]]), ANSWER_COSINE_ALONE)).dominantBeliefIds).toEqual(["b_payroll"]);
  });

  it("word-checks at most the given number of candidates, the closest by cosine, and names the others it did not check", () => {
    const texts = ["Payroll runs on the last Friday.", "Invoices are filed each quarter.", "Salaries rise every spring.", "Expense claims need a receipt."];
    // Cosines: two in the band (0.25–0.3), one above it, one below the floor; a fifth in the band shares the topic.
    const candidates = [
      { id: "a", text: texts[0] as string, cos: 0.26 },
      { id: "b", text: texts[1] as string, cos: 0.29 },
      { id: "c", text: texts[2] as string, cos: 0.45 },
      { id: "d", text: texts[3] as string, cos: 0.1 },
      { id: "e", text: "The minibus for the hiking trip is booked.", cos: 0.27 },
      { id: "f", text: "Travel plans go through the portal.", cos: 0.28 },
    ];
    const plan = wordCheckPlan(HIKING, candidates, (c) => c.cos, 2);
    expect(plan.check.map((c) => c.id)).toEqual(["b", "f"]);
    expect(plan.unchecked.map((c) => c.id)).toEqual(["a"]);
    expect(wordCheckPlan(HIKING, candidates, (c) => c.cos, 8).unchecked).toEqual([]);
  });

  it("a belief sharing more than half of the question's topic terms is not word-checked", () => {
    expect(needsWordCheck("When are salaries paid?", payroll().belief.text, 0.28)).toBe(false);
  });

  it("a belief sharing only the word that names the kind of answer asked for ('how often') is word-checked", () => {
    const belief = "Backups often fail overnight.";
    expect(needsWordCheck("How often do the gardeners come by?", belief, 0.28)).toBe(true);
    // The same word further on is part of what the question is about; elsewhere in a sentence it is an ordinary term.
    expect(needsWordCheck("How often do backups fail often?", belief, 0.28)).toBe(false);
    expect(wordCheckOf("Do the gardeners come by often?", belief, 0.28)?.shared).toEqual(new Set(["often"]));
    expect([...topicTerms("Which team approves schema changes?")].sort()).toEqual(["approve", "change", "schema"]);
    expect([...topicTerms("What does the team approve?")].sort()).toEqual(["approve", "team"]);
  });

  it("without word vectors (an embedder that has none) the belief is ranked as before", async () => {
    expect((await ask(undefined)).dominantBeliefIds).toEqual(["b_payroll"]);
  });
});

describe("recall by meaning: a belief sharing only part of the question's topic answers only if the rest meets its words", () => {
  const LOAD_TESTS = "When do the nightly load tests run?";
  const backups = () => record("Production database backups run every night.", [entry(1, { sourceId: "ev_backups", time: MONDAY })], "b_backups");
  const ask = (question: string, closest: number | undefined, cos: number) =>
    recall(
      {
        question,
        candidates: [backups()],
        load: noLoad,
        assessor: scriptedAssessor(),
        semantic: new Map([["b_backups", cos]]),
        minRelevance: HYBRID_ANSWER_FLOOR,
        ...(closest === undefined ? {} : { closestWords: new Map([["b_backups", closest]]) }),
      },
      defaultParams,
    );

  it("a shared common word ('run') clears the floor, yet the belief does not answer when the question's other words meet none of its own", async () => {
    const check = wordCheckOf(LOAD_TESTS, backups().belief.text, 0.26);
    expect(check).toEqual({ shared: new Set(["run"]), minCosine: PARTIAL_MATCH_WORD_COSINE });
    expect((await ask(LOAD_TESTS, undefined, 0.26)).dominantBeliefIds).toEqual(["b_backups"]);
    expect(await ask(LOAD_TESTS, PARTIAL_MATCH_WORD_COSINE - 0.1, 0.26)).toMatchObject({ mode: "no_answer", beliefIds: [] });
  });

  it("the same belief answers when an unshared word of the question has a close counterpart in it", async () => {
    expect((await ask(LOAD_TESTS, PARTIAL_MATCH_WORD_COSINE + 0.05, 0.26)).dominantBeliefIds).toEqual(["b_backups"]);
  });

  it("a sentence cosine of PARTIAL_MATCH_COSINE or more, or more than half the topic terms shared, needs no word check", async () => {
    expect(wordCheckOf(LOAD_TESTS, backups().belief.text, PARTIAL_MATCH_COSINE)).toBeNull();
    expect((await ask(LOAD_TESTS, 0, PARTIAL_MATCH_COSINE)).dominantBeliefIds).toEqual(["b_backups"]);
    // Shares "backup" and "run" of three topic terms ("often" names the kind of answer asked for).
    expect(wordCheckOf("How often do database backups run?", backups().belief.text, 0.2)).toBeNull();
    // Shares "nightly" and "run" of four: half is not more than half.
    expect(wordCheckOf(LOAD_TESTS, "Backups run nightly.", 0.2)?.shared).toEqual(new Set(["nightly", "run"]));
  });

  it("a belief sharing no topic term keeps the stricter check over all the question's words", () => {
    expect(wordCheckOf(LOAD_TESTS, "Salaries are paid monthly.", 0.3)).toEqual({ shared: new Set(), minCosine: ANSWER_WORD_COSINE });
  });
});
