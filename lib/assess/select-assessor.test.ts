import { describe, expect, it } from "vitest";
import { assessorKind, selectAssessor } from "./select-assessor";

describe("selectAssessor", () => {
  it("picks the offline heuristic without configuration (blank values count as unset)", () => {
    const a = selectAssessor({ OPENAI_API_KEY: "", OPENAI_BASE_URL: " " });
    expect(a.name).toMatch(/^heuristic@[0-9a-f]{12}$/);
    expect(a.heuristic).toBe(true);
  });

  it("hands the embedder to the heuristic: meaning relates a paraphrase that shares no word", async () => {
    const belief = { id: "b", text: "The harbour ferry leaves at dawn." };
    const paraphrase = "Boats cross the bay when the sun comes up.";
    const same = { model: { name: "same", version: "1", dimensions: 1 }, embed: async (t: readonly string[]) => t.map(() => Float32Array.of(1)) };
    expect((await selectAssessor({}, { embedder: null }).assessRelation(paraphrase, belief)).relation).toBe("UNRELATED");
    // Related by meaning once the embedder is handed over. Support or rebuttal is the fitted model's call, and a toy
    // embedder that makes every text identical (cosine 1 to the belief, its subject and its predicate) is no basis for it.
    expect((await selectAssessor({}, { embedder: same }).assessRelation(paraphrase, belief)).relation).not.toBe("UNRELATED");
  });

  it("picks the provider when a key or a base URL is set", () => {
    expect(assessorKind({ OPENAI_API_KEY: "sk-x" })).toBe("openai");
    const local = selectAssessor({ OPENAI_BASE_URL: "http://127.0.0.1:8080/v1", OPENAI_MODEL: "llama-3.1-8b" });
    expect(local.name).toBe("openai:llama-3.1-8b");
    expect(local.heuristic).toBe(false);
    expect(selectAssessor({ OPENAI_API_KEY: "sk-x" }).name).toBe("openai:gpt-4o-mini");
  });

  it("rejects malformed settings instead of guessing", () => {
    expect(() => selectAssessor({ OPENAI_BASE_URL: "not a url" })).toThrow();
    expect(() => selectAssessor({ OPENAI_API_KEY: "k", OPENAI_TIMEOUT_MS: "soon" })).toThrow();
  });
});
