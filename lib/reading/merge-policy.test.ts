import { beforeAll, describe, expect, it } from "vitest";
import { defaultParams } from "@/lib/engine/params";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { SemanticMatcher } from "@/lib/retrieval/semantic-matcher";
import { restatementPolicy, swapOf } from "./merge-policy";
import { oneWordSwap, RESTATES } from "./restatement";

const candidate = (id: string, text: string, similarity: number) => ({ id, text, similarity });

describe("one-word swaps", () => {
  it("finds the one content word each side keeps, in the same place, and nothing when more or less changes", () => {
    expect(oneWordSwap("Deploys go from the main branch.", "Deploys go from the release branch.")).toEqual(["main", "release"]);
    expect(oneWordSwap("Engineers work remote.", "Engineers work in the office.")).toEqual(["remote", "office"]);
    // Two words changed, one word added, the same words reordered, and two swapped words in different places.
    expect(oneWordSwap("Deploys go from the main branch.", "Releases go from the stable branch.")).toBeNull();
    expect(oneWordSwap("Deploys go from the main branch.", "Deploys go from the main branch daily.")).toBeNull();
    expect(oneWordSwap("The cache is warmed before a deploy.", "Before a deploy the cache is warmed.")).toBeNull();
    expect(oneWordSwap("Night shifts start early.", "Shifts start early tonight.")).toBeNull();
    // A word written as two is the same word, not a swap.
    expect(oneWordSwap("The toymaker ships in spring.", "The toy maker ships in spring.")).toBeNull();
  });

  it("reads a swap in one claim of a list, the pair a list's score can be read on", () => {
    expect(swapOf("Engineers work remote; standups are at nine each day.", "Engineers work in the office.")).toEqual(["remote", "office"]);
    expect(swapOf("Engineers work remote; standups are at nine each day.", "Standups are at nine each day.")).toBeNull();
  });
});

describe("the restatement write policy on scores", () => {
  it("merges the same normalised text whatever the score", () => {
    expect(restatementPolicy("We deploy from the MAIN branch!", [candidate("b1", "We deploy from the main branch.", 0.2)], defaultParams)).toEqual({ action: "merge", id: "b1", similarity: 0.2 });
  });

  it("links the best candidate in the band below the twin threshold, and nothing below it", () => {
    const near = [candidate("b1", "Backups run every night.", 0.83), candidate("b2", "The nightly backup copies the database.", 0.86)];
    expect(restatementPolicy("The backup job runs nightly.", near, defaultParams)).toEqual({ action: "possible_duplicate", id: "b2", similarity: 0.86, reason: "close, but below the twin threshold" });
    expect(restatementPolicy("The backup job runs nightly.", [candidate("b1", "Backups run every night.", 0.79)], defaultParams)).toBeNull();
    expect(restatementPolicy("The backup job runs nightly.", [], defaultParams)).toBeNull();
  });

  it("merges into a sure restatement even when a swap of the claim scores higher; ties go to the first candidate", () => {
    const claim = "Deploys go from the release branch.";
    const both = [candidate("b_rival", "Deploys go from the main branch.", 0.96), candidate("b_same", "We ship every deployment out of the release branch.", 0.92)];
    expect(restatementPolicy(claim, both, defaultParams)).toEqual({ action: "merge", id: "b_same", similarity: 0.92 });
    const tied = [candidate("b_a", "We ship every deployment out of the release branch.", 0.93), candidate("b_b", "Every deployment we ship leaves from the release branch.", 0.93)];
    expect(restatementPolicy(claim, tied, defaultParams)?.id).toBe("b_a");
  });

  it("follows the scope's twin threshold", () => {
    const close = [candidate("b1", "We ship every deployment out of the release branch.", 0.86)];
    expect(restatementPolicy("Deploys go from the release branch.", close, { ...defaultParams, twinSimilarity: 0.85 })).toMatchObject({ action: "merge", id: "b1" });
    expect(restatementPolicy("Deploys go from the release branch.", close, defaultParams)).toMatchObject({ action: "possible_duplicate", id: "b1" });
  });
});

describe("the restatement write policy with the local model", () => {
  let matcher: SemanticMatcher;
  beforeAll(() => {
    const embedder = new LocalEmbedder();
    expect(embedder.available()).toBe(true);
    matcher = new SemanticMatcher(embedder);
  });
  const decide = async (claim: string, existing: string) => {
    const similarity = await matcher.similarity(claim, existing);
    return { similarity, choice: restatementPolicy(claim, [candidate("b_existing", existing, similarity)], defaultParams) };
  };

  it("keeps rival claims that swap one word apart and links them, though the reader reads them as one claim", async () => {
    const rivals: [string, string, string, string][] = [
      ["Engineers on the platform team work remotely.", "Engineers on the platform team work from the office.", "remotely", "office"],
      ["Deploys go from the main branch.", "Deploys go from the release branch.", "main", "release"],
      ["Release builds are signed with the staging key.", "Release builds are signed with the production key.", "staging", "production"],
      ["The nightly export writes to the archive bucket.", "The nightly export writes to the analytics bucket.", "archive", "analytics"],
    ];
    for (const [claim, existing, mine, theirs] of rivals) {
      const { similarity, choice } = await decide(claim, existing);
      expect(similarity, claim).toBeGreaterThanOrEqual(RESTATES);
      expect(choice, claim).toEqual({ action: "possible_duplicate", id: "b_existing", similarity, reason: `one word swapped ("${mine}" / "${theirs}")` });
    }
  });

  it("links a paraphrase that swaps one word too: the policy cannot tell it from a rival, so a person decides", async () => {
    const { similarity, choice } = await decide("Backups of the billing database are kept for ninety days.", "The billing database's backups are retained for ninety days.");
    expect(similarity).toBeGreaterThanOrEqual(RESTATES);
    expect(choice).toMatchObject({ action: "possible_duplicate", reason: 'one word swapped ("kept" / "retained")' });
  });

  it("still merges a reworded paraphrase with several changes", async () => {
    const paraphrases: [string, string][] = [
      ["The on-call engineer is paged when the error rate passes five percent.", "When the error rate goes above five percent, the on-call engineer gets paged."],
      ["The payments service retries a failed webhook three times.", "A failed webhook is retried three times by the payments service."],
      ["It is safe to deploy from the release pipeline.", "The release pipeline is safe to deploy from."],
    ];
    for (const [claim, existing] of paraphrases) {
      const { similarity, choice } = await decide(claim, existing);
      expect(choice, claim).toEqual({ action: "merge", id: "b_existing", similarity });
    }
  });
});
