import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { SemanticMatcher } from "@/lib/retrieval/semantic-matcher";
import {
  agreement,
  clausesOf,
  COSINE_SCALE,
  coverage,
  deniesStatement,
  negated,
  restatementPairs,
  valuesDiffer,
  valuesIn,
  piecewise,
  POSSIBLE_AGREEMENT,
  POSSIBLE_DUPLICATE,
  readsAsPossibleDuplicate,
  readsAsRestatement,
  RESTATES,
  type RestatementReading,
  restatementScore,
  restatementVeto,
  SAME_AGREEMENT,
  unmatchedTokens,
  valueCounts,
  vetoedSimilarity,
} from "./restatement";
import { contentTokens } from "./parse/tokenize";

const reading = (cosine: number, cover: number, veto: string | null = null): RestatementReading => ({ identical: false, cosine, coverage: cover, veto });

describe("restatement signals", () => {
  it("coverage is the smaller share of either side's content words found on the other, counting a word written as two", () => {
    expect(coverage("The ferry leaves at dawn.", "At dawn the ferry leaves.")).toBe(1);
    expect(coverage("The ferry leaves at dawn.", "The ferry leaves at dawn from pier four with cars.")).toBeLessThan(0.6);
    expect(coverage("The bookshop sells second-hand atlases.", "The book shop sells second-hand atlases.")).toBe(1);
    expect(coverage("Kettles boil water.", "Trains carry freight.")).toBe(0);
  });

  it("reads numbers in digits and in words and how often things repeat, and a difference only when each side states its own", () => {
    expect([...valuesIn("It holds 1,200 seats and two stages.")].sort()).toEqual(["1200", "2"]);
    expect([...valueCounts("Two vans and 2 trucks leave hourly.")]).toEqual([["2", 2], ["every hour", 1]]);
    expect(valuesDiffer("The hall has three exits.", "The hall has 3 exits.")).toBeNull();
    expect(valuesDiffer("The hall has three exits.", "The hall has five exits.")).toEqual(["3", "5"]);
    // A number on one side only is left to the wording: it may be a detail the other side leaves out.
    expect(valuesDiffer("The hall has three exits.", "The hall has exits on every side.")).toBeNull();
    expect(valuesDiffer("The gauge is read hourly.", "The gauge is read once every week.")).toEqual(["every hour", "every week"]);
    expect(valuesDiffer("The gauge is read nightly.", "The gauge is read each night.")).toBeNull();
  });

  it("names the content words a side has that the other lacks, after stems and compounds", () => {
    const unmatched = (a: string, b: string) => unmatchedTokens(contentTokens(a), contentTokens(b)).map((t) => t.word);
    expect(unmatched("The bookshop stocks maps.", "The book shop stocked maps and globes.")).toEqual([]);
    expect(unmatched("The book shop stocked maps and globes.", "The bookshop stocks maps.")).toEqual(["globes"]);
    expect(unmatched("Invoices are sent from the Leeds office.", "Invoices are sent from the York office.")).toEqual(["leeds"]);
  });

  it("reads negation on one side, in its usual spellings", () => {
    for (const t of ["Cats are not allowed.", "Cats aren't allowed.", "No cats are allowed.", "Nobody may bring a cat.", "Cats are never allowed."]) expect(negated(t)).toBe(true);
    expect(negated("Cats are allowed.")).toBe(false);
    expect(restatementVeto("The lift works.", "The lift doesn't work.")).toMatch(/negated/);
    expect(restatementVeto("The lift isn't working.", "The lift doesn't work.")).toBeNull();
  });
});

describe("the restatement decision", () => {
  it("is monotone in agreement and keeps the bands' edges (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (c, x, y) => {
        const [lo, hi] = x <= y ? [x, y] : [y, x];
        expect(restatementScore(reading(c, lo))).toBeLessThanOrEqual(restatementScore(reading(c, hi)) + 1e-12);
        const s = restatementScore(reading(c, x));
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
      }),
    );
    expect(restatementScore(reading(SAME_AGREEMENT, SAME_AGREEMENT))).toBeCloseTo(RESTATES, 12);
    expect(restatementScore(reading(POSSIBLE_AGREEMENT, POSSIBLE_AGREEMENT))).toBeCloseTo(POSSIBLE_DUPLICATE, 12);
    expect(agreement(reading(0.8, 0.6))).toBeCloseTo(0.7, 12);
  });

  it("merges only above the threshold, links a possible duplicate below it, and keeps a vetoed near copy at 'same subject'", () => {
    expect(readsAsRestatement(reading(0.9, 0.8))).toBe(true);
    const maybe = reading(0.7, 0.5);
    expect(readsAsRestatement(maybe)).toBe(false);
    expect(readsAsPossibleDuplicate(maybe)).toBe(true);
    const vetoed = reading(0.97, 0.9, "negated on one side");
    expect(readsAsRestatement(vetoed)).toBe(false);
    expect(readsAsPossibleDuplicate(vetoed)).toBe(false);
    // The engine's conflict check compares statements at "same subject" (0.7) and above.
    expect(restatementScore(vetoed)).toBeGreaterThanOrEqual(0.7);
    expect(restatementScore(reading(0.2, 0))).toBeCloseTo(piecewise(0.2, COSINE_SCALE), 12);
    expect(restatementScore({ ...reading(0, 0), identical: true })).toBe(1);
  });

  it("applies the vetoes to a similarity measured without a reading, and leaves every other one as it is", () => {
    // Words only, the two pairs below are one bag of words: numbers and "not" are not content words.
    expect(vetoedSimilarity("Runner 3 is healthy.", "Runner 4 is healthy.", 1)).toBe(POSSIBLE_DUPLICATE - 0.01);
    expect(vetoedSimilarity("The nightly build is green.", "The nightly build is not green.", 0.95)).toBe(POSSIBLE_DUPLICATE - 0.01);
    expect(vetoedSimilarity("Runner 3 is healthy.", "Runner 4 is healthy.", 0.4)).toBe(0.4);
    expect(vetoedSimilarity("The cache is warmed before a deploy.", "Before a deploy the cache is warmed.", 1)).toBe(1);
    expect(vetoedSimilarity("Runner 3 is healthy.", "Runner 3 is healthy. ", 1)).toBe(1);
  });

  it("reads each claim of a list against the other statement; a claim denies it when only a veto keeps them apart", () => {
    const one = "The ferry leaves from pier four.";
    expect(restatementPairs("The ferry leaves from pier four; tickets are sold on board.", one)).toHaveLength(3);
    expect(deniesStatement(reading(0.6, 0.6, "negated on one side"))).toBe(true);
    expect(deniesStatement(reading(0.5, 0.4, "negated on one side"))).toBe(false);
    expect(deniesStatement(reading(0.9, 0.9))).toBe(false);
  });

  it("splits a two-part statement into clauses for retrieval, and leaves a one-part one whole", () => {
    expect(clausesOf("Lunch is served at noon; the cafe closes at three in the afternoon.")).toEqual(["Lunch is served at noon", "the cafe closes at three in the afternoon"]);
    expect(clausesOf("The cafe closes at three.")).toEqual([]);
  });
});

describe("restatement with the local model", () => {
  let matcher: SemanticMatcher;
  beforeAll(() => {
    const embedder = new LocalEmbedder();
    expect(embedder.available()).toBe(true);
    matcher = new SemanticMatcher(embedder);
  });

  it("reads a paraphrase with a word written as two and a synonym as the same claim", async () => {
    const r = await matcher.reading("The toymaker is cutting its prices before the holidays.", "The toy maker is lowering its prices before the holidays.");
    expect(r.veto).toBeNull();
    expect(readsAsRestatement(r)).toBe(true);
  });

  it("does not merge two claims that differ in a number", async () => {
    const s = await matcher.similarity("The bakery opens at seven on weekdays.", "The bakery opens at nine on weekdays.");
    expect(s).toBeLessThan(RESTATES);
    expect(s).toBeGreaterThanOrEqual(0.7);
  });

  it("does not merge two claims that differ in a negation", async () => {
    const s = await matcher.similarity("The night bus stops at the hospital.", "The night bus does not stop at the hospital.");
    expect(s).toBeLessThan(RESTATES);
    expect(s).toBeGreaterThanOrEqual(0.7);
  });

  it("does not merge a list into a statement one of its other claims denies", async () => {
    const s = await matcher.similarity("The night bus leaves from the north depot; nothing leaves from the south depot.", "The night bus leaves from the south depot.");
    expect(s).toBeLessThan(RESTATES);
  });

  it("keeps two claims about different things apart", async () => {
    expect(await matcher.similarity("The night bus stops at the hospital.", "The library lends out sewing machines.")).toBeLessThan(POSSIBLE_DUPLICATE);
  });
});
