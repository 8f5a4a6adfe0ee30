import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BELIEF_STATUSES, retrieve, termSet, type BeliefStatus } from "@/lib/engine";
import type { CandidateStats } from "./graph-store";
import { rankCandidateStats, type RankOptions } from "./rank-candidate-stats";

/** Words that stem, stopwords, negations, capitals and diacritics: whatever the tokenizer treats specially. */
const WORDS = ["release", "releases", "deployed", "deploying", "deploys", "Friday", "café", "cafe", "the", "of", "not", "never", "server", "servers", "ran", "runs", "x1", "2026", "bodies", "body", "ours", "breeds"];

interface Doc {
  id: string;
  scope: string;
  text: string;
  credence: number;
  status: BeliefStatus;
  topic: string;
  contextTags: string[];
  validUntil: string | null;
}

const docArb: fc.Arbitrary<Omit<Doc, "id">> = fc.record({
  scope: fc.constantFrom("s1", "s2"),
  text: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 9 }).map((w) => w.join(" ")),
  // Few distinct credences so ties on score and credence happen and the id tie-break is exercised.
  credence: fc.constantFrom(0, 0.25, 0.5, 0.5, 0.9, 1),
  status: fc.constantFrom(...BELIEF_STATUSES),
  topic: fc.constantFrom("a", "b"),
  contextTags: fc.subarray(["eu", "us", "prod"]),
  validUntil: fc.constantFrom(null, null, "2026-01-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"),
});

const optionsArb: fc.Arbitrary<RankOptions> = fc.record(
  {
    k: fc.integer({ min: 0, max: 12 }),
    minCredence: fc.constantFrom(0, 0.3, 0.6),
    scope: fc.constantFrom("s1", "s2"),
    statuses: fc.subarray([...BELIEF_STATUSES], { minLength: 1 }),
    contextTags: fc.subarray(["eu", "us"]),
    includeEnded: fc.boolean(),
    asOf: fc.constantFrom("2025-06-01T00:00:00.000Z", "2026-06-01T00:00:00.000Z"),
    minRelevance: fc.constantFrom(-1, 0, 0.2, 0.5),
  },
  { requiredKeys: [] },
);

function statsOf(d: Doc): CandidateStats {
  return { id: d.id, scope: d.scope, credence: d.credence, status: d.status, contextTags: d.contextTags, validUntil: d.validUntil, terms: [...termSet(d.text)] };
}

describe("rankCandidateStats", () => {
  it("equals the engine's retrieve over the same candidates (ids, relevance and score, in order)", () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { maxLength: 40 }),
        fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 4 }).map((w) => w.join(" ")),
        optionsArb,
        (raw, query, options) => {
          // Ids in shuffled code-unit order, so input order and id order differ.
          const docs: Doc[] = raw.map((d, i) => ({ ...d, id: `b${(i * 7919) % 997}_${i}` }));
          const expected = retrieve(query, docs, options).map((r) => ({ id: r.belief.id, relevance: r.relevance, score: r.score }));
          const got = rankCandidateStats(query, docs.map(statsOf), options).map((r) => ({ id: r.candidate.id, relevance: r.relevance, score: r.score }));
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 400, seed: 20261129 },
    );
  });

  it("ranks the whole qualifying domain: better-matching non-qualifying candidates never push a qualifying one out", () => {
    const bad: CandidateStats[] = Array.from({ length: 500 }, (_, i) => ({
      id: `x${i}`,
      scope: "s",
      credence: 1,
      status: "retired",
      contextTags: [],
      validUntil: null,
      terms: [...termSet("releases deployed")],
    }));
    const good: CandidateStats = { id: "g", scope: "s", credence: 0.4, status: "supported", contextTags: [], validUntil: null, terms: [...termSet("releases on Friday servers")] };
    const ranked = rankCandidateStats("release deploys", [...bad, good], { k: 1 });
    expect(ranked.map((r) => r.candidate.id)).toEqual(["g"]);
    // N = 1 qualifying: idf(release) = ln(1 + 0.5/1.5) (df 1), idf(deploy) = ln(1 + 1.5/0.5) (df 0); focus = 1/3.
    const coverage = Math.log(4 / 3) / (Math.log(4 / 3) + Math.log(4));
    expect(ranked[0]?.relevance).toBeCloseTo(coverage * (0.8 + 0.2 / 3), 12);
    expect(ranked[0]?.score).toBeCloseTo(0.4 * coverage * (0.8 + 0.2 / 3), 12);
  });

  it("returns nothing for a query without content terms or k = 0", () => {
    const c: CandidateStats = { id: "a", scope: "s", credence: 1, status: "supported", contextTags: [], validUntil: null, terms: [...termSet("releases")] };
    expect(rankCandidateStats("the of and", [c])).toEqual([]);
    expect(rankCandidateStats("release", [c], { k: 0 })).toEqual([]);
    expect(rankCandidateStats("release", [c]).map((r) => r.candidate.id)).toEqual(["a"]);
  });
});
