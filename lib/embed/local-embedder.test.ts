import { beforeAll, describe, expect, it } from "vitest";
import { EmbeddingError, cosine } from "@/lib/engine";
import { fetchModel } from "./fetch-model";
import { LocalEmbedder } from "./local-embedder";
import { MINILM_FP32_REFERENCE } from "./testing/minilm-fp32-reference";

// The real model (CI fetches it before the suite; fetching is instant when cached).
const embedder = new LocalEmbedder();
beforeAll(async () => {
  await fetchModel();
  await embedder.load();
});

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("missing value");
  return value;
}

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
}

describe("LocalEmbedder (all-MiniLM-L6-v2, quantized)", () => {
  it("stays close to the full-precision model's reference vectors", async () => {
    // Quantization costs a little: cosine 0.980 and 0.992 to the fp32 vectors measured for these two sentences.
    const [a, b] = await embedder.embed(MINILM_FP32_REFERENCE.map((r) => r.text));
    const [first, second] = MINILM_FP32_REFERENCE.map((r) => Float32Array.from(r.vector));
    expect(cosine(need(a), need(first))).toBeGreaterThan(0.975);
    expect(cosine(need(b), need(second))).toBeGreaterThan(0.975);
    // …and closer to its own sentence's reference than to the other sentence's.
    expect(cosine(need(a), need(first))).toBeGreaterThan(cosine(need(a), need(second)) + 0.3);
  });

  it("returns one unit-length 384-dimension vector per text, in order, the same whatever else is embedded with it", async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `Service ${i} listens on port ${8000 + i}.`);
    const batch = await embedder.embed(texts);
    expect(batch).toHaveLength(40);
    for (const vector of batch) {
      expect(vector).toHaveLength(384);
      expect(norm(vector)).toBeCloseTo(1, 4);
    }
    const [alone] = await embedder.embed([need(texts[37])]);
    expect(Array.from(need(alone))).toEqual(Array.from(need(batch[37])));
    expect(await embedder.embed([])).toEqual([]);
  });

  it("gives concurrent callers (coalesced into one model queue) the vectors each text gets alone", async () => {
    const texts = Array.from({ length: 12 }, (_, i) => `Release ${i} ships on day ${i % 5}.`);
    const alone: Float32Array[] = [];
    for (const t of texts) alone.push(need((await embedder.embed([t]))[0]));
    const together = await Promise.all(texts.map((t, i) => embedder.embed(i % 3 === 0 ? [t, t] : [t])));
    together.forEach((vectors, i) => {
      for (const v of vectors) expect(Array.from(v)).toEqual(Array.from(need(alone[i])));
    });
  });

  it("puts a paraphrase with no shared content words far closer than an unrelated sentence", async () => {
    const [belief, paraphrase, unrelated] = await embedder.embed([
      "Database migrations are approved by the platform on-call engineer.",
      "Who signs off schema changes?",
      "The office coffee machine is descaled every Friday.",
    ]);
    expect(cosine(need(belief), need(paraphrase))).toBeGreaterThan(cosine(need(belief), need(unrelated)) + 0.2);
  });

  it("gives each word of a text (word pieces joined) a unit contextual vector, the same whether kept from its embedding or inferred anew", async () => {
    const text = "Kubernetes rollouts pause at 42 pods.";
    const [cold] = await new LocalEmbedder().words([text]);
    await embedder.embed([text]);
    // Kept from the sentence's inference, unchanged by the inferences after it.
    await embedder.embed(["Another text entirely, embedded in between."]);
    const [warm] = await embedder.words([text]);
    expect(need(cold).map((w) => w.word)).toEqual(["kubernetes", "rollouts", "pause", "at", "42", "pods", "."]);
    for (const w of need(warm)) expect(norm(w.vector)).toBeCloseTo(1, 4);
    need(warm).forEach((w, i) => expect(cosine(w.vector, need(need(cold)[i]).vector)).toBeCloseTo(1, 5));
    // A synonym in the same frame sits closer than an unrelated word.
    const [a, b] = await embedder.words(["The cook is chopping carrots.", "The chef is chopping carrots."]);
    const vectorOf = (words: typeof a, word: string) => need(need(words).find((w) => w.word === word)).vector;
    expect(cosine(vectorOf(a, "cook"), vectorOf(b, "chef"))).toBeGreaterThan(cosine(vectorOf(a, "cook"), vectorOf(b, "carrots")));
  });

  it("embeds a text longer than the model reads (256 tokens) as the model reads it: its first 256 tokens", async () => {
    const long = Array.from({ length: 60 }, (_, i) => `Service ${i} deploys from the release-${i} branch after ${i + 2} checks.`).join(" ");
    const [whole, start] = await embedder.embed([long, long.slice(0, Math.floor(long.length * 0.9))]);
    expect(norm(need(whole))).toBeCloseTo(1, 4);
    // Both are cut at the same 256 tokens: the same vector.
    expect(cosine(need(whole), need(start))).toBeCloseTo(1, 5);
    const [words] = await embedder.words([long]);
    expect(need(words).length).toBeGreaterThan(100);
    expect(need(words)[0]?.word).toBe("service");
  });

  it("gives an EmbeddingError, not a download, when the model folder is missing", async () => {
    const missing = new LocalEmbedder("/nonexistent/credence-model");
    expect(missing.available()).toBe(false);
    await expect(missing.embed(["x"])).rejects.toBeInstanceOf(EmbeddingError);
  });
});
