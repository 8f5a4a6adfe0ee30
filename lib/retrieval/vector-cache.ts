/**
 * The sentence vectors already computed in this process, least recently used dropped first. Keyed by the model
 * (`modelKey`: name and version) and the text's hash (`embeddingTextHash`, the one stored beside every vector), so
 * identical text under one model gives the identical vector, a vector of another model (or version) is never
 * returned, and the keys stay small whatever the texts' length.
 */
import { type Embedder, EmbeddingError, modelKey, type EmbeddingModel, type WordVector } from "@/lib/engine";
import { embeddingTextHash } from "@/lib/graph/embeddings";

export class VectorCache {
  private readonly entries = new Map<string, Float32Array>();

  /** `limit`: vectors kept (~1.6 KB each at 384 dimensions). */
  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  static key(model: EmbeddingModel, text: string): string {
    return `${modelKey(model)}\u0000${embeddingTextHash(text)}`;
  }

  /** The vector, refreshed as most recently used; undefined when not kept. */
  get(model: EmbeddingModel, text: string): Float32Array | undefined {
    const key = VectorCache.key(model, text);
    const vector = this.entries.get(key);
    if (vector !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, vector);
    }
    return vector;
  }

  set(model: EmbeddingModel, text: string, vector: Float32Array): void {
    const key = VectorCache.key(model, text);
    this.entries.delete(key);
    this.entries.set(key, vector);
    while (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

/**
 * An embedder with a VectorCache in front: a text already embedded under the same model is not embedded again, and the
 * texts still missing go to the wrapped embedder in one call (each once). A text another caller is embedding right now
 * is awaited, not embedded a second time. The assessor embeds a piece of evidence for its ESS and again for every
 * belief it is weighed against; behind this, once.
 */
export class CachedEmbedder implements Embedder {
  readonly cache: VectorCache;
  /** Vectors being computed, by cache key: concurrent misses for one text share the one call. */
  private readonly inFlight = new Map<string, Promise<Float32Array>>();

  /** The wrapped embedder's word vectors, when it has them (not cached here: the local embedder keeps its own). */
  readonly words?: (texts: readonly string[]) => Promise<WordVector[][]>;

  constructor(
    readonly inner: Embedder,
    limit: number,
  ) {
    this.cache = new VectorCache(limit);
    if (inner.words) this.words = inner.words.bind(inner);
  }

  get model(): EmbeddingModel {
    return this.inner.model;
  }

  async load(): Promise<void> {
    await this.inner.load?.();
  }

  /** Texts currently being embedded (for tests and diagnostics). */
  get pending(): number {
    return this.inFlight.size;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const model = this.inner.model;
    const found = new Map<string, Float32Array | Promise<Float32Array>>();
    for (const t of texts) {
      const v = found.get(t) ?? this.cache.get(model, t) ?? this.inFlight.get(VectorCache.key(model, t));
      if (v !== undefined) found.set(t, v);
    }
    const missing = [...new Set(texts)].filter((t) => !found.has(t));
    if (missing.length > 0) {
      const batch = this.embedMissing(model, missing);
      const keys = missing.map((t) => VectorCache.key(model, t));
      const ones = missing.map((t, i) => {
        const one = batch.then((vs) => vs[i] as Float32Array);
        this.inFlight.set(keys[i] as string, one);
        found.set(t, one);
        return one;
      });
      const settle = () => keys.forEach((k, i) => this.inFlight.get(k) === ones[i] && this.inFlight.delete(k));
      // Cleans up on either outcome; the failure itself reaches every caller through `ones`.
      batch.then(settle, settle);
    }
    return Promise.all(texts.map((t) => found.get(t) as Float32Array | Promise<Float32Array>));
  }

  /** One call to the wrapped embedder; its answer checked and kept in the cache. */
  private async embedMissing(model: EmbeddingModel, missing: readonly string[]): Promise<Float32Array[]> {
    const vs = await this.inner.embed(missing);
    // A wrong answer from the wrapped embedder is its failure, not a vector to keep.
    if (vs.length !== missing.length || vs.some((v) => v?.length !== model.dimensions)) {
      throw new EmbeddingError(`${modelKey(model)} answered ${vs.length} vectors for ${missing.length} texts, or vectors of another length than ${model.dimensions}`);
    }
    missing.forEach((t, i) => this.cache.set(model, t, vs[i] as Float32Array));
    return vs;
  }
}

/** `embedder` behind a vector cache of `limit` texts, or itself when it already has one (one cache per embedder). */
export function withVectorCache(embedder: Embedder, limit: number): CachedEmbedder {
  return embedder instanceof CachedEmbedder ? embedder : new CachedEmbedder(embedder, limit);
}
