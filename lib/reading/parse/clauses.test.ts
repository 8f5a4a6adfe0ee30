import { describe, expect, it } from "vitest";
import { alignClauses, clauses, comparePolarity } from "./clauses";

describe("clauses: negation scoped to its clause", () => {
  it("splits at semicolons and contrastive conjunctions and negates only the governed clause", () => {
    const cs = clauses("The ferry leaves from pier 3; pier 5 is never used, but the kiosk still sells tickets.");
    expect(cs.map((c) => c.negated)).toEqual([false, true, false]);
  });

  it("splits at a colon between words, never inside a clock time", () => {
    expect(clauses("Two rules apply: the gate shuts at 22:30 and opens at 6:00.").map((c) => c.text)).toEqual(["Two rules apply", "the gate shuts at 22:30 and opens at 6:00."]);
  });

  it("reads verbs of removal as an implicit negation and cancels a double negation", () => {
    expect(clauses("The night bus was discontinued.")[0]?.negated).toBe(true);
    expect(clauses("It is not true that nobody came.")[0]?.negated).toBe(false);
    expect(clauses("The fee is not only high but rising.")[0]?.negated).toBe(false);
  });

  it("aligns each evidence clause with the belief clause it talks about", () => {
    const a = alignClauses(clauses("Ferries leave from pier 3."), clauses("Ferries leave from pier 3; pier 5 is never used."));
    expect(a).toHaveLength(1);
    expect(a[0]?.belief.text).toContain("Ferries leave");
  });
});

describe("comparePolarity", () => {
  it("agrees when both aligned clauses are negated", () => {
    const p = comparePolarity("Dogs are not admitted to the reading room.", "The reading room does not admit dogs.");
    expect(p.flips).toEqual([]);
    expect(p.bothNegated).toHaveLength(1);
  });

  it("flips when the evidence negates what the belief asserts", () => {
    expect(comparePolarity("The reading room does not admit dogs.", "The reading room admits dogs.").flips).toHaveLength(1);
  });

  it("does not read the belief's own negated clause as a contradiction of evidence that restates the rest", () => {
    const belief = "Ferries leave from pier 3; pier 5 is never used for departures.";
    expect(comparePolarity("Ferries still leave from pier 3.", belief)).toMatchObject({ flips: [], crossed: [] });
  });

  it("finds a word the belief rules out put in the slot it asserts, and the mirror case", () => {
    const belief = "Ferries leave from the east pier; the west pier is never used for departures.";
    expect(comparePolarity("Ferries leave from the west pier.", belief).crossed).toContain("west");
    expect(comparePolarity("Ferries leave from the north quay; the south quay is never used.", "Ferries leave from the south quay.").crossed).toContain("south");
  });
});
