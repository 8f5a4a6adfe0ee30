import { describe, expect, it } from "vitest";
import type { EmbeddingModel } from "@/lib/engine";
import { selectAssessor } from "@/lib/assess/select-assessor";
import { POSSIBLE_DUPLICATE, restatementScore } from "@/lib/reading/restatement";
import { SemanticMatcher, withSemanticSimilarity } from "./semantic-matcher";

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
const B = "Bicycles ride the ferry at no charge.";

describe("SemanticMatcher.similarity is the restatement score of its reading", () => {
  it("reads the two whole texts once and scores them with restatementScore", async () => {
    const { embedder, calls } = tableEmbedder({ [A]: unit(1, 0, 0), [B]: unit(0.9, Math.sqrt(1 - 0.81), 0) });
    const matcher = new SemanticMatcher(embedder);
    const reading = await matcher.reading(A, B);
    expect(reading.cosine).toBeCloseTo(0.9, 6);
    expect(await matcher.similarity(A, B)).toBe(restatementScore(reading));
    expect(calls.flat().sort()).toEqual([A, B].sort());
  });

  it("gives the cosines of a query to each item's whole text or best clause", async () => {
    const C = "Lunch is served at noon; the cafe closes at three.";
    const { embedder } = tableEmbedder({ q: unit(1, 0, 0), [C]: unit(0, 1, 0), "Lunch is served at noon": unit(0, 1, 0), "the cafe closes at three": unit(1, 0, 0) });
    const cosines = await new SemanticMatcher(embedder).cosines("q", [{ id: "c", text: C }]);
    expect(cosines.get("c")).toBeCloseTo(1, 6);
  });
});

describe("withSemanticSimilarity without an embedding model", () => {
  it("keeps the Assessor's own similarity, with the restatement vetoes: claims with other values or one negated are never one claim", async () => {
    const heuristic = selectAssessor({}, { embedder: null });
    const measured = withSemanticSimilarity(heuristic, null);
    const [zero, one] = ["Build agent 0 is idle.", "Build agent 1 is idle."];
    expect(await heuristic.similarity(zero, one)).toBe(1);
    const apart = await measured.similarity(zero, one);
    expect(apart).toBeLessThan(POSSIBLE_DUPLICATE);
    // Still "same subject" (0.7): the engine's conflict check compares the two.
    expect(apart).toBeGreaterThanOrEqual(0.7);
    expect(await measured.similarity(one, zero)).toBe(apart);
    expect(await measured.similarity("The staging database is encrypted.", "The staging database is not encrypted.")).toBeLessThan(POSSIBLE_DUPLICATE);
    const reordered = ["The cache is warmed before a deploy.", "Before a deploy the cache is warmed."] as const;
    expect(await measured.similarity(...reordered)).toBe(await heuristic.similarity(...reordered));
    expect(await measured.similarity(zero, zero)).toBe(1);
    expect(measured.name).toBe(heuristic.name);
  });
});
