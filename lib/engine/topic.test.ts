import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { defaultParams } from "./params";
import { assignTopic, beliefKey, normaliseTopic, topicSlug } from "./topic";
import { scriptedSimilarity } from "./testing/scripted-assessor";

const sim = async (a: string, b: string) => scriptedSimilarity(a, b);

describe("beliefKey", () => {
  it("normalises case, whitespace, quotes and trailing punctuation only", () => {
    expect(beliefKey("  We  deploy from   MAIN. ")).toBe("we deploy from main");
    expect(beliefKey("“We deploy from main!”")).toBe("we deploy from main");
    expect(beliefKey("We deployed from main")).not.toBe(beliefKey("We deploy from main"));
  });

  it("peels quotes and trailing punctuation nested in any order", () => {
    expect(beliefKey('("We deploy from main.")')).toBe("we deploy from main");
    expect(beliefKey("'We deploy from main.'.")).toBe("we deploy from main");
    expect(beliefKey(".'.")).toBe("");
  });

  it("is idempotent (property)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(beliefKey(beliefKey(s))).toBe(beliefKey(s));
      }),
      { numRuns: 500, examples: [[".'."], ['"(.)".']] },
    );
  });
});

describe("topics", () => {
  it("slugs key terms", () => {
    expect(topicSlug("The team deploys from the protected release branch.")).toBe("team-deploys-protected-release");
    expect(topicSlug("It is what it is")).toBe("general");
    expect(normaliseTopic("Deploy Branch!")).toBe("deploy-branch");
  });

  const live = [
    { id: "b1", text: "We deploy from the main branch", topic: "deploy-branch" },
    { id: "b2", text: "Lunch is served at noon", topic: "lunch" },
  ];

  it("requested wins, then inheritance, then the most similar live belief above 0.7, else a slug", async () => {
    expect(await assignTopic({ text: "x", requested: "Ops Rules", liveBeliefs: live, similarity: sim }, defaultParams)).toMatchObject({ topic: "ops-rules", source: "requested" });
    expect(await assignTopic({ text: "x", inheritFrom: { id: "b2", topic: "lunch" }, liveBeliefs: live, similarity: sim }, defaultParams)).toMatchObject({
      topic: "lunch",
      source: "inherited",
      fromBeliefId: "b2",
    });
    const similar = await assignTopic({ text: "We deploy from the main branch on Fridays", liveBeliefs: live, similarity: sim }, defaultParams);
    expect(similar).toMatchObject({ topic: "deploy-branch", source: "similar", fromBeliefId: "b1" });
    expect(similar.similarity).toBeGreaterThan(0.7);
    const fresh = await assignTopic({ text: "Open-source software is more secure", liveBeliefs: live, similarity: sim }, defaultParams);
    expect(fresh).toMatchObject({ topic: "open-source-software-more", source: "slug" });
  });

  it("a similarity of exactly the threshold does not take the topic", async () => {
    const out = await assignTopic({ text: "anything", liveBeliefs: live, similarity: async () => 0.7 }, defaultParams);
    expect(out.source).toBe("slug");
  });
});
