import { beforeAll, describe, expect, it } from "vitest";
import { fetchModel } from "@/lib/embed/fetch-model";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { createHeuristicAssessor } from "./reader";

/** Readings a new user met on the demo, pinned with the real local model (sentences of our own). */
describe("the offline reader with the local model", () => {
  const assessor = createHeuristicAssessor({ embedder: new LocalEmbedder() });
  const read = (evidence: string, belief: string) => assessor.assessRelation(evidence, { id: "b", text: belief });
  beforeAll(async () => {
    await fetchModel();
  }, 120_000);

  it("does not read a different schedule of another job as a rebuttal", async () => {
    const r = await read("Security scans run every Tuesday.", "Database snapshots are taken hourly.");
    expect(["UNRELATED", "UNDECIDED", "CONTEXTUALIZES"]).toContain(r.relation);
    const again = await read("The lint job runs on every pull request.", "Nightly builds publish the docs site.");
    expect(again.relation).not.toBe("REBUTS");
    expect(again.relation).not.toBe("SUPPORTS");
  });

  it("does not read an unrelated sentence of a paragraph as support", async () => {
    const belief = "The test cluster has the same configuration as the live cluster.";
    for (const sentence of ["Snapshots of the billing database are copied to a second region every night.", "The team lunch moved to Thursdays.", "Our on-call rota changes every Monday morning."]) {
      expect((await read(sentence, belief)).relation).not.toBe("SUPPORTS");
    }
  });

  it("does not store a paragraph backing another branch as support of the main-branch belief", async () => {
    const belief = "Releases are shipped from the trunk branch.";
    const paragraph = "Releases are cut from the stabilisation branch. Merging into trunk does not ship anything; only the stabilisation branch is deployed.";
    const r = await read(paragraph, belief);
    expect(["REBUTS", "UNDECIDED"]).toContain(r.relation);
    expect(r.relation).not.toBe("SUPPORTS");
  });

  it("commits to support only when sure, and every reading carries a confidence in [0, 1]", async () => {
    const belief = "A woman is slicing an onion in the kitchen.";
    const close = await read("In the kitchen a woman is slicing an onion.", belief);
    expect(close.relation).toBe("SUPPORTS");
    expect(close.confidence).toBeGreaterThanOrEqual(0.4);
    const loose = await read("Someone is cooking a meal.", belief);
    expect(loose.relation).not.toBe("SUPPORTS");
    for (const r of [close, loose]) {
      expect(r.confidence).toBeGreaterThanOrEqual(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
    }
    const denied = await read("A woman is not slicing an onion in the kitchen.", belief);
    expect(denied.relation).toBe("REBUTS");
  });

  it("commits a restatement in other words, where every word has a counterpart, and not a swap or an added detail", async () => {
    const belief = "A chef is chopping carrots on a wooden board.";
    // Cosine 0.88 (below the 0.9 the confidence model needs), every word aligned ("cook"/"chef", "cutting"/"chopping").
    const reworded = await read("A cook is cutting carrots on a wooden board.", belief);
    expect(reworded.relation).toBe("SUPPORTS");
    expect(reworded.reasoning).toMatch(/counterpart/);
    // As close by cosine, but one thing swapped ("onions") or added ("tired", "restaurant"): not the same claim.
    for (const other of ["A chef is chopping onions on a wooden board.", "A tired chef is chopping carrots on a wooden board in a restaurant."]) {
      expect((await read(other, belief)).relation).toBe("UNDECIDED");
    }
    expect((await read("Deploys go from the release branch.", "Deploys go from the main branch.")).relation).not.toBe("SUPPORTS");
  });
});
