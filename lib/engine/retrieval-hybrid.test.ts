import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { closestWords, fuseRelevance, relevanceScorer, retrieve, semanticRelevance, SEMANTIC_WEIGHT, type RetrievalCandidate } from "./retrieval";

const TEXTS = ["deploy main", "deploy release branch", "branch policy", "cafe opens at noon", "backups run hourly", "schema changes need approval"];

const candidate = fc.record({
  id: fc.uuid(),
  text: fc.constantFrom(...TEXTS),
  credence: fc.double({ min: 0, max: 1, noNaN: true }),
  cos: fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
});

describe("hybrid relevance", () => {
  it("calibrates cosines monotonically into [0, 1] and fuses within [0, 1] (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b, lex) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(semanticRelevance(lo)).toBeLessThanOrEqual(semanticRelevance(hi));
        const f = fuseRelevance(lex, a);
        expect(f).toBeGreaterThanOrEqual(0);
        expect(f).toBeLessThanOrEqual(1);
        expect(fuseRelevance(lex, undefined)).toBe(lex);
      }),
    );
    expect(semanticRelevance(-1)).toBe(0);
    expect(semanticRelevance(1)).toBe(1);
  });

  it("a paraphrase with no shared word is found by meaning, and ranks by relevance × credence", () => {
    const beliefs: RetrievalCandidate[] = [
      { id: "m", scope: "s", text: "Database migrations are approved by the platform on-call engineer.", credence: 0.8, status: "supported" },
      { id: "b", scope: "s", text: "Production database backups run hourly.", credence: 0.9, status: "supported" },
    ];
    const q = "Who signs off schema changes?";
    expect(retrieve(q, beliefs)).toEqual([]);
    const out = retrieve(q, beliefs, { semantic: new Map([["m", 0.5], ["b", 0.1]]) });
    expect(out.map((r) => r.belief.id)).toEqual(["m"]);
    expect(out[0]?.relevance).toBeCloseTo(SEMANTIC_WEIGHT * semanticRelevance(0.5), 12);
    expect(out[0]?.score).toBeCloseTo((out[0]?.relevance ?? 0) * 0.8, 12);
  });

  it("equals the exhaustive ranking (every qualifying candidate scored, sorted, cut to k) on random corpora (property)", () => {
    fc.assert(
      fc.property(fc.array(candidate, { maxLength: 40 }), fc.constantFrom("deploy branch", "who approves schema changes", "when do backups run", "lunch"), fc.integer({ min: 1, max: 12 }), (cands, q, k) => {
        const beliefs = cands.map((c) => ({ id: c.id, scope: "s", text: c.text, credence: c.credence, status: "supported" }));
        const semantic = new Map(cands.flatMap((c) => (c.cos === undefined ? [] : [[c.id, c.cos] as const])));
        const got = retrieve(q, beliefs, { k, semantic });
        // Exhaustive: every candidate's fused relevance from the reference scorer, no pruning.
        const scorer = relevanceScorer(q, beliefs.map((b) => b.text));
        const all = beliefs
          .map((b) => {
            const relevance = fuseRelevance(scorer.score(b.text), semantic.get(b.id) ?? 0);
            return { id: b.id, relevance, score: relevance * b.credence, credence: b.credence };
          })
          .filter((x) => x.relevance > 0)
          .sort((x, y) => y.score - x.score || y.credence - x.credence || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
          .slice(0, k);
        expect(got.map((r) => r.belief.id)).toEqual(all.map((x) => x.id));
        got.forEach((r, i) => expect(r.score).toBeCloseTo(all[i]?.score ?? -1, 12));
      }),
      { numRuns: 300 },
    );
  });
});

describe("closestWords", () => {
  const w = (word: string, ...v: number[]) => ({ word, vector: Float32Array.from(v) });
  it("is the best cosine between a content word of the question and one of the text, stop words and numbers aside", () => {
    const question = [w("who", 1, 0, 0), w("books", 0.6, 0.8, 0), w("minibus", 0, 1, 0)];
    const text = [w("the", 0, 1, 0), w("coach", 0, 0.8, 0.6), w("2026", 0, 1, 0), w("rental", 0, 0, 1)];
    expect(closestWords(question, text)).toBeCloseTo(0.8, 6);
    expect(closestWords(question, [w("the", 0, 1, 0), w("of", 1, 0, 0)])).toBe(-1);
  });

  it("leaves out the word right after a leading how / what / which / whose: it names the kind of answer, not the topic", () => {
    // "often" is close to the text's "nightly"; the question's topic words ("gardeners", "visit") are not.
    const text = [w("backups", 0, 0, 1), w("run", 0, 0.6, 0.8), w("nightly", 1, 0, 0)];
    const topic = [w("gardeners", 0, 1, 0), w("visit", 0, 0.8, -0.6)];
    expect(closestWords([w("how", 0, 0, 1), w("often", 1, 0, 0), ...topic], text)).toBeCloseTo(0.6, 6);
    expect(closestWords([w("do", 0, 0, 1), w("often", 1, 0, 0), ...topic], text)).toBeCloseTo(1, 6);
  });

  it("leaves out the question's words whose terms are skipped (those the text contains)", () => {
    // "run" meets the text's own "run"; "load" and "tests" meet none of its words closely.
    const question = [w("when", 0, 0, 1), w("load", 0.6, 0, 0.8), w("tests", 0.8, 0, 0.6), w("run", 0, 1, 0)];
    const text = [w("backups", 0, 0.6, 0.8), w("run", 0, 1, 0), w("nightly", 0, 0.8, 0.6)];
    expect(closestWords(question, text)).toBeCloseTo(1, 6);
    expect(closestWords(question, text, new Set(["run"]))).toBeCloseTo(0.64, 6);
    expect(closestWords(question, text, new Set(["load", "test", "run"]))).toBe(-1);
  });
});
