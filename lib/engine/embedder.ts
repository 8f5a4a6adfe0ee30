/**
 * The Embedder port: turns text into sentence vectors so that retrieval, claim matching and the assessor can compare
 * meaning, not only shared words.
 *
 * The engine defines it; adapters implement it (`lib/embed/local-embedder.ts` runs all-MiniLM-L6-v2 offline,
 * `lib/embed/openai-embedder.ts` calls an OpenAI-compatible `/embeddings` endpoint). Every stored vector records the
 * `EmbeddingModel` that produced it (`modelKey`), so vectors from different models are never compared and a model
 * change can be detected and re-embedded.
 */

export interface EmbeddingModel {
  /** e.g. `all-minilm-l6-v2-q` */
  name: string;
  /** e.g. `1.19.0-beta29` (the artifact's version) */
  version: string;
  /** Length of every vector, e.g. 384. */
  dimensions: number;
}

/** One word of a text (word pieces joined, lower case as the model reads it) and its unit-length contextual vector. */
export interface WordVector {
  word: string;
  vector: Float32Array;
}

export interface Embedder {
  readonly model: EmbeddingModel;
  /** Unit-length vectors (L2-normalised), one per text, same order. Throws `EmbeddingError` on failure. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * The words of each text with the model's contextual vector for each (the token vectors the sentence vector is the
   * mean of), same order. Only a model run in process has them (the local one); an embedding API does not. The
   * arrays may be shared with other callers asking for the same text: read them, never change them.
   */
  words?(texts: readonly string[]): Promise<WordVector[][]>;
  /** Loads the model ahead of the first `embed` (a server calls it at start); absent when there is nothing to load. */
  load?(): Promise<void>;
}

/**
 * Cosine similarity of two unit vectors: their dot product, in [-1, 1].
 *
 * Vectors of different lengths come from different models and are not comparable: that is a programming error.
 * @example cosine(Float32Array.of(1, 0), Float32Array.of(0, 1)) // 0
 */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) {
    throw new EmbeddingError(`cannot compare vectors of ${a.length} and ${b.length} dimensions`);
  }
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return Math.max(-1, Math.min(1, dot));
}

/** The key stored beside every vector: `name@version`, e.g. `all-minilm-l6-v2-q@1.19.0-beta29`. */
export function modelKey(model: EmbeddingModel): string {
  return `${model.name}@${model.version}`;
}

/** L2-normalises a vector into a new array; the zero vector stays zero (it has no direction to compare). */
export function normalise(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i += 1) sum += (vector[i] ?? 0) ** 2;
  const norm = Math.sqrt(sum);
  const out = new Float32Array(vector.length);
  if (norm === 0) return out;
  for (let i = 0; i < vector.length; i += 1) out[i] = (vector[i] ?? 0) / norm;
  return out;
}

/** Thrown by any embedder when it cannot produce vectors (model missing, service down, malformed response). */
export class EmbeddingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EmbeddingError";
  }
}
