import { describe, expect, it } from "vitest";
import { changedWords, intentWords, isIntentWarning, proposerWords } from "./proposal-words";

const emails = new Map([["u_ana", "ana@example.com"]]);

describe("proposal words", () => {
  it("names the proposer: a person in the browser, an agent token, the operator, or just the person when the route was not kept", () => {
    expect(proposerWords({ actor: "u_ana", via: { kind: "session" } }, emails)).toBe("ana@example.com, in the browser");
    expect(proposerWords({ actor: "u_ana", via: { kind: "token", tokenId: "t1", tokenName: "ci-bot" } }, emails)).toBe("the agent token “ci-bot” (ana@example.com’s)");
    expect(proposerWords({ actor: "operator", via: { kind: "operator" } }, emails)).toBe("the operator, from the command line");
    expect(proposerWords({ actor: "u_ana" }, emails)).toBe("ana@example.com");
    expect(proposerWords({ actor: "u_gone", via: { kind: "session" } }, emails)).toBe("a former member of this scope, in the browser");
  });

  it("finds the words two sentences differ in", () => {
    expect(changedWords("Builds cache 40 layers per image.", "Builds cache 12 layers per image.")).toEqual({ from: "40", to: "12" });
    expect(changedWords("The mirror syncs from Frankfurt.", "The mirror syncs from Dublin and Oslo.")).toEqual({ from: "Frankfurt", to: "Dublin and Oslo" });
    expect(changedWords("Same words here.", "same words here")).toBeNull();
    expect(changedWords("Nothing alike at all in this one sentence", "Completely different words are used throughout the other text")).toBeNull();
  });

  it("reads an update that changes a figure as that change, never as a reinforcement", () => {
    const update = { mutationType: "updated" as const, belief: "Builds cache 12 layers per image." };
    expect(intentWords(update, "Builds cache 40 layers per image.")).toBe("change “40” to “12” in the existing belief");
    expect(intentWords(update, "Image layers are pruned nightly by a separate job.")).toBe("rewrite the existing belief as a different statement");
    expect(intentWords({ ...update, mutationType: "superseded" }, "x")).toBe("replace the existing belief");
    expect(intentWords({ ...update, mutationType: "new" }, null)).toBe("add it as a new belief");
  });

  it("recognises the engine's intent warning, and nothing else", () => {
    expect(isIntentWarning('mutationType "updated" asked for reinforce; the protocol decided review.')).toBe(true);
    expect(isIntentWarning("drift warning: 6 mutations of this topic in 7 days")).toBe(false);
  });
});
