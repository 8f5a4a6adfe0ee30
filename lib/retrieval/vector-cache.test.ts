import { describe, expect, it } from "vitest";
import { EmbeddingError, type EmbeddingModel } from "@/lib/engine";
import { CachedEmbedder, VectorCache, withVectorCache } from "./vector-cache";
import { SemanticMatcher } from "./semantic-matcher";

const M1: EmbeddingModel = { name: "m", version: "1", dimensions: 2 };
const M2: EmbeddingModel = { name: "m", version: "2", dimensions: 2 };
const v = (x: number) => Float32Array.of(x, 0);

describe("VectorCache", () => {
  it("gives back the vector of the same text under the same model, and nothing under another version", () => {
    const cache = new VectorCache(10);
    cache.set(M1, "deploys on Fridays", v(1));
    expect(cache.get(M1, "deploys on Fridays")).toEqual(v(1));
    expect(cache.get(M2, "deploys on Fridays")).toBeUndefined();
    expect(cache.get(M1, "deploys on Friday")).toBeUndefined();
  });

  it("drops the least recently used vector first, a read counting as a use", () => {
    const cache = new VectorCache(2);
    cache.set(M1, "a", v(1));
    cache.set(M1, "b", v(2));
    expect(cache.get(M1, "a")).toEqual(v(1)); // a is now the most recent
    cache.set(M1, "c", v(3));
    expect(cache.size).toBe(2);
    expect(cache.get(M1, "b")).toBeUndefined();
    expect(cache.get(M1, "a")).toEqual(v(1));
    expect(cache.get(M1, "c")).toEqual(v(3));
  });
});

describe("CachedEmbedder", () => {
  it("sends each missing text to the wrapped embedder once, in one call, and answers repeats from the cache in order", async () => {
    const calls: string[][] = [];
    const inner = { model: M1, embed: async (texts: readonly string[]) => (calls.push([...texts]), texts.map((t) => v(t.length))) };
    const cached = new CachedEmbedder(inner, 10);
    expect(cached.model).toBe(M1);
    expect(await cached.embed(["ab", "abc", "ab"])).toEqual([v(2), v(3), v(2)]);
    expect(await cached.embed(["abc", "abcd"])).toEqual([v(3), v(4)]);
    expect(calls).toEqual([["ab", "abc"], ["abcd"]]);
  });

  it("passes word vectors through from a wrapped embedder that has them, and has none when it has not", async () => {
    const words = [[{ word: "ferry", vector: v(1) }]];
    const inner = { model: M1, embed: async (texts: readonly string[]) => texts.map(() => v(1)), words: async () => words };
    expect(await new CachedEmbedder(inner, 10).words?.(["the ferry"])).toBe(words);
    expect(new CachedEmbedder({ model: M1, embed: inner.embed }, 10).words).toBeUndefined();
  });

  it("lets a failure of the wrapped embedder through and caches nothing from it", async () => {
    let fail = true;
    const inner = { model: M1, embed: async (texts: readonly string[]) => { if (fail) throw new Error("model not loaded"); return texts.map(() => v(1)); } };
    const cached = new CachedEmbedder(inner, 10);
    await expect(cached.embed(["a"])).rejects.toThrow("model not loaded");
    fail = false;
    expect(await cached.embed(["a"])).toEqual([v(1)]);
    expect(cached.cache.size).toBe(1);
  });

  it("turns a short or misshapen answer of the wrapped embedder into an EmbeddingError and keeps none of it", async () => {
    const short = new CachedEmbedder({ model: M1, embed: async () => [v(1)] }, 10);
    await expect(short.embed(["a", "b"])).rejects.toBeInstanceOf(EmbeddingError);
    const wrongLength = new CachedEmbedder({ model: M1, embed: async (texts: readonly string[]) => texts.map(() => Float32Array.of(1, 0, 0)) }, 10);
    await expect(wrongLength.embed(["a"])).rejects.toBeInstanceOf(EmbeddingError);
    expect(short.cache.size + wrongLength.cache.size).toBe(0);
  });

  it("embeds a text once when two callers miss it at the same time, and both get its vector", async () => {
    const calls: string[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = { model: M1, embed: async (texts: readonly string[]) => (calls.push([...texts]), await gate, texts.map((t) => v(t.length))) };
    const cached = new CachedEmbedder(inner, 10);
    const first = cached.embed(["the ferry", "leaves"]);
    const second = cached.embed(["leaves", "at noon"]);
    expect(cached.pending).toBe(3);
    release();
    expect(await first).toEqual([v(9), v(6)]);
    expect(await second).toEqual([v(6), v(7)]);
    expect(calls).toEqual([["the ferry", "leaves"], ["at noon"]]);
    expect(cached.pending).toBe(0);
  });

  it("hands a failure to every caller waiting on the text, and lets the next call try again", async () => {
    let fail = true;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = { model: M1, embed: async (texts: readonly string[]) => { await gate; if (fail) throw new EmbeddingError("model not loaded"); return texts.map(() => v(1)); } };
    const cached = new CachedEmbedder(inner, 10);
    const first = cached.embed(["a"]);
    const second = cached.embed(["a", "b"]);
    release();
    await expect(first).rejects.toBeInstanceOf(EmbeddingError);
    await expect(second).rejects.toBeInstanceOf(EmbeddingError);
    expect(cached.pending).toBe(0);
    fail = false;
    expect(await cached.embed(["a"])).toEqual([v(1)]);
  });
});

describe("withVectorCache", () => {
  it("puts one cache in front of an embedder, never a second in front of the first", async () => {
    let calls = 0;
    const inner = { model: M1, embed: async (texts: readonly string[]) => ((calls += 1), texts.map(() => v(1))) };
    const once = withVectorCache(inner, 10);
    expect(withVectorCache(once, 10)).toBe(once);
    const matcher = new SemanticMatcher(once);
    await once.embed(["the ferry leaves at noon"]);
    await matcher.vectors(["the ferry leaves at noon"]);
    expect(calls).toBe(1);
  });
});

describe("SemanticMatcher's cache", () => {
  it("embeds each distinct text once, and the same text again from the cache with the identical vector", async () => {
    const calls: string[][] = [];
    const embedder = {
      model: M1,
      embed: async (texts: readonly string[]) => {
        calls.push([...texts]);
        return texts.map((t) => v(t.length));
      },
    };
    const matcher = new SemanticMatcher(embedder);
    const [a, b, a2] = await matcher.vectors(["one", "three", "one"]);
    expect(calls).toEqual([["one", "three"]]);
    expect(a2).toBe(a);
    expect(b).toEqual(v(5));
    const [again] = await matcher.vectors(["three"]);
    expect(again).toBe(b);
    expect(calls).toHaveLength(1);
  });
});
