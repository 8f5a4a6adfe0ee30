import { describe, expect, it } from "vitest";
import type { EmbeddingModel } from "@/lib/engine";
import { OTHER_PREDICATE_CEILING, restatementScore, structuralMismatch } from "@/lib/reading/restatement";
import { SemanticMatcher } from "./semantic-matcher";

const MODEL: EmbeddingModel = { name: "table", version: "1", dimensions: 3 };
const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};

/** An embedder reading vectors from a table (texts not in it embed orthogonally to everything listed), recording calls. */
function tableEmbedder(table: Record<string, Float32Array>) {
  const calls: string[][] = [];
  return { calls, embedder: { model: MODEL, embed: async (texts: readonly string[]) => (calls.push([...texts]), texts.map((t) => table[t] ?? unit(0, 0, 1))) } };
}

const A = "The ferry carries bicycles free of charge.";
const B = "The ferry was built in a Norwegian yard.";

describe("SemanticMatcher.similarity reads subject and predicate apart", () => {
  it("keeps two claims about one subject with unrelated predicates at 'same subject', not 'restates'", async () => {
    expect(structuralMismatch(A, B)).toBeNull();
    const { embedder } = tableEmbedder({
      [A]: unit(1, 0, 0),
      [B]: unit(0.9, Math.sqrt(1 - 0.81), 0),
      "The ferry": unit(1, 0, 0),
      "carries bicycles free of charge": unit(1, 0, 0),
      "was built in a Norwegian yard": unit(0, 1, 0),
    });
    expect(await new SemanticMatcher(embedder).similarity(A, B)).toBe(OTHER_PREDICATE_CEILING);
  });

  it("leaves the whole-sentence reading when the predicates are alike", async () => {
    const { embedder } = tableEmbedder({
      [A]: unit(1, 0, 0),
      [B]: unit(0.9, Math.sqrt(1 - 0.81), 0),
      "The ferry": unit(1, 0, 0),
      "carries bicycles free of charge": unit(1, 0, 0),
      "was built in a Norwegian yard": unit(1, 0.1, 0),
    });
    expect(await new SemanticMatcher(embedder).similarity(A, B)).toBeGreaterThanOrEqual(0.9);
  });

  it("embeds the parts only when the answer could change (a pair already below the ceiling is left alone)", async () => {
    const { embedder, calls } = tableEmbedder({ [A]: unit(1, 0, 0), [B]: unit(0.5, Math.sqrt(0.75), 0) });
    expect(await new SemanticMatcher(embedder).similarity(A, B)).toBeLessThan(OTHER_PREDICATE_CEILING);
    expect(calls.flat()).not.toContain("The ferry");
  });
});

describe("SemanticMatcher.similarity is the score of its reading", () => {
  it("gives the same number as restatementScore over the full reading, embedding less", async () => {
    const { embedder, calls } = tableEmbedder({ [A]: unit(1, 0, 0), [B]: unit(0.5, Math.sqrt(0.75), 0) });
    const lazy = new SemanticMatcher(embedder);
    const similarity = await lazy.similarity(A, B);
    const lazyCalls = calls.flat().length;
    const full = await new SemanticMatcher(embedder).reading(A, B);
    expect(similarity).toBe(restatementScore(full));
    expect(full.parts).toBeDefined();
    expect(calls.flat().length - lazyCalls).toBeGreaterThan(lazyCalls);
  });
});
