/**
 * The offline Embedder: all-MiniLM-L6-v2 (quantized ONNX) run by @huggingface/transformers on onnxruntime-node's CPU
 * binary, from the cache folder that `npm run model:fetch` fills. Never touches the network
 * (`env.allowRemoteModels = false`): a missing model is an `EmbeddingError` at load, not a download.
 *
 * Vectors are mean-pooled over the attention mask and L2-normalised, as in the sentence-transformers model.
 *
 * Throughput: each inference runs on ONE intra-op thread, and concurrent `embed` calls share one queue
 * (./micro-batcher: calls made while the model is busy are coalesced into the next batch, identical texts inferred
 * once, a batch per core at once). Measured with `npm run bench:embed` (200 texts per cell, two runs at load ≈ 10 on
 * 2 cores), at 1 / 4 / 16 callers: onnxruntime's default pool with one call per caller gave 172–206 / 140–173 /
 * 72–177 texts/s at 2.8–4.3 ms CPU per text; this queue 133–239 / 187–207 / 129–288 texts/s at 2.7–4.1 ms CPU per
 * text: about the same CPU per text, more texts per second with concurrent callers. The batch still runs one text per inference: a batched inference
 * would change the vectors (below).
 */
import { availableParallelism } from "node:os";
import { EmbeddingError, type Embedder, type EmbeddingModel, type WordVector } from "@/lib/engine";
import { isModelInstalled } from "./fetch-model";
import { microBatcher, type Batched } from "./micro-batcher";
import { MINILM_MODEL, minilmModelDir } from "./minilm-model";

/** Intra-op threads of each inference (module comment): parallelism comes from the queue's batches, one per core. */
const INTRA_OP_THREADS = 1;
/** The model queue: a batch is taken at once when idle (next event-loop turn), at most this many texts. */
const MAX_BATCH = 64;

/** One inference: the token vectors of one text ([CLS] … [SEP]) and its word pieces, in order. */
export interface TokenOutput {
  tokens: number;
  dimensions: number;
  data: ArrayLike<number>;
  pieces: string[];
}
type Extractor = (text: string) => Promise<TokenOutput>;

async function loadExtractor(modelDir: string, threads: number): Promise<Extractor> {
  const transformers = await import("@huggingface/transformers");
  const { env } = transformers;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  // An absolute path is not a Hub model id, so transformers.js reads the folder as given.
  const extractor = await transformers.pipeline("feature-extraction", modelDir, {
    dtype: "q8",
    device: "cpu",
    // 0: onnxruntime's own default (a pool as wide as the machine), kept for comparison in the benchmark.
    ...(threads > 0 ? { session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 } } : {}),
  });
  const { tokenizer, model } = extractor;
  return async (text) => {
    // The pipeline's own steps with `pooling: "none", normalize: false` (its tokenizer call, truncated to the model's
    // maximum length, 256 tokens; its model; its output tensor), the text tokenized once: the ids give the pieces too.
    const inputs = tokenizer([text], { padding: true, truncation: true });
    const outputs = await model(inputs);
    const output = outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings;
    const ids = Array.from(inputs.input_ids.data as ArrayLike<bigint | number>, Number);
    const [rows, tokens, dimensions] = output.dims as [number, number, number];
    if (rows !== 1 || tokens !== ids.length) throw new Error(`the model returned ${output.dims.join("×")} for ${ids.length} tokens`);
    // The pieces only when a text's words are asked for (`pooledWords`): most texts never are.
    let pieces: string[] | undefined;
    return {
      tokens,
      dimensions,
      data: output.data as ArrayLike<number>,
      get pieces() {
        return (pieces ??= ids.map((id) => tokenizer.decode([id])));
      },
    };
  };
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i += 1) sum += (v[i] as number) * (v[i] as number);
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i += 1) v[i] = (v[i] as number) / norm;
  return v;
}

/**
 * The sentence vector: the mean of every token's vector (the attention mask is all ones for one text), L2-normalised:
 * the sentence-transformers pooling, the same vector the pipeline's own `pooling: "mean"` gives (within 1e-7).
 */
export function pooledSentence(out: TokenOutput): Float32Array {
  const { data, dimensions, tokens } = out;
  const sum = new Float64Array(dimensions);
  // Each component summed over the tokens in order; a row's offset carried, not multiplied out per component.
  for (let t = 0, base = 0; t < tokens; t += 1, base += dimensions) for (let d = 0; d < dimensions; d += 1) sum[d] = (sum[d] as number) + (data[base + d] as number);
  const mean = new Float32Array(dimensions);
  for (let d = 0; d < dimensions; d += 1) mean[d] = (sum[d] as number) / tokens;
  return normalise(mean);
}

/**
 * The words of a text with their vectors: word pieces ("##ing") joined to the word before them, a joined word's vector
 * the mean of its pieces', each unit length; [CLS] and [SEP] left out.
 */
export function pooledWords(out: TokenOutput): WordVector[] {
  const known = pooled.get(out);
  if (known) return known;
  const words: { word: string; sum: Float32Array; pieces: number }[] = [];
  const { data, dimensions } = out;
  for (let t = 1; t < out.tokens - 1; t += 1) {
    const piece = out.pieces[t] ?? "";
    const base = t * dimensions;
    const last = words[words.length - 1];
    if (piece.startsWith("##") && last !== undefined) {
      last.word += piece.slice(2);
      const sum = last.sum;
      for (let d = 0; d < dimensions; d += 1) sum[d] = (sum[d] as number) + Math.fround(data[base + d] ?? 0);
      last.pieces += 1;
    } else {
      const vector = new Float32Array(dimensions);
      for (let d = 0; d < dimensions; d += 1) vector[d] = data[base + d] ?? 0;
      words.push({ word: piece, sum: vector, pieces: 1 });
    }
  }
  const result = words.map((w) => ({ word: w.word, vector: normalise(w.sum) }));
  pooled.set(out, result);
  return result;
}

/** Pooled words by token output: a text's words are asked for again with each text it is read against. */
const pooled = new WeakMap<TokenOutput, WordVector[]>();

/**
 * The token vectors of this many recent texts are kept (about 25 KB each): a reading asks for the words of the pair it
 * has just embedded. Words are pooled only when asked for: most texts never are.
 */
const TOKENS_KEPT = 256;

export class LocalEmbedder implements Embedder {
  readonly model: EmbeddingModel = MINILM_MODEL;
  private extractor: Promise<Extractor> | undefined;
  /** Every `embed` goes through this queue (module comment). */
  private readonly queue: Batched<string, Float32Array>;
  /** The token vectors of the texts inferred last, by text, least recently used first (`words`). */
  private readonly recentTokens = new Map<string, TokenOutput>();

  constructor(
    private readonly modelDir: string = minilmModelDir(),
    private readonly options: { /** ONNX intra-op threads; 0 = onnxruntime's default. */ threads?: number; maxBatch?: number } = {},
  ) {
    // As many model calls at once as there are cores, each on one thread (one queue alone cannot use a second core).
    this.queue = microBatcher((texts) => this.infer(texts), { maxWaitMs: 0, maxBatch: options.maxBatch ?? MAX_BATCH, concurrency: availableParallelism() });
  }

  /** True when the model's files are in place (cheap: no model load). */
  available(): boolean {
    return isModelInstalled(this.modelDir);
  }

  /** Loads the model now instead of on the first `embed` (start-up or a benchmark's warm-up). */
  async load(): Promise<void> {
    await this.getExtractor();
  }

  private getExtractor(): Promise<Extractor> {
    this.extractor ??= (async () => {
      if (!this.available()) {
        throw new EmbeddingError(`the embedding model is not in ${this.modelDir}: run \`npm run model:fetch\``);
      }
      try {
        return await loadExtractor(this.modelDir, this.options.threads ?? INTRA_OP_THREADS);
      } catch (error) {
        throw new EmbeddingError(`cannot load the embedding model from ${this.modelDir}`, { cause: error });
      }
    })();
    // A failed load may be retried later (e.g. after `model:fetch`); a successful one is kept.
    this.extractor.catch(() => {
      this.extractor = undefined;
    });
    return this.extractor;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return this.queue(texts);
  }

  /**
   * The words of each text and their contextual vectors (the Embedder port's `words`): those of a text embedded lately
   * are kept from its inference; others go through the queue like any text.
   */
  async words(texts: readonly string[]): Promise<WordVector[][]> {
    const missing = [...new Set(texts)].filter((t) => !this.recentTokens.has(t));
    if (missing.length > 0) await this.queue(missing);
    const out: WordVector[][] = [];
    for (const text of texts) {
      // Evicted by other callers' texts since its inference (a burst of over TOKENS_KEPT texts): infer it again.
      out.push(pooledWords(this.recentTokens.get(text) ?? (await this.inferOne(text)).tokens));
    }
    return out;
  }

  /** One text through the model: its sentence vector, and its token vectors kept for `words`. */
  private async inferOne(text: string): Promise<{ sentence: Float32Array; tokens: TokenOutput }> {
    const extractor = await this.getExtractor();
    let output: TokenOutput;
    try {
      output = await extractor(text);
    } catch (error) {
      throw new EmbeddingError("the embedding model failed on a text", { cause: error });
    }
    if (output.dimensions !== this.model.dimensions) {
      throw new EmbeddingError(`the model returned vectors of ${output.dimensions} dimensions, not ${this.model.dimensions}`);
    }
    this.recentTokens.delete(text);
    this.recentTokens.set(text, output);
    if (this.recentTokens.size > TOKENS_KEPT) this.recentTokens.delete(this.recentTokens.keys().next().value as string);
    return { sentence: pooledSentence(output), tokens: output };
  }

  /** One batch of the queue: each distinct text once, in order. */
  private async infer(texts: readonly string[]): Promise<Float32Array[]> {
    const byText = new Map<string, Float32Array>();
    // One text per inference: the quantized graph quantizes activations with one scale per tensor, so a text's vector
    // would depend on its batch mates (cosine 0.993 instead of 1 measured). One at a time, a text always gets the
    // same vector, stored or queried. An empty string still gets a vector ([CLS][SEP]), so order is kept.
    for (const text of texts) {
      if (!byText.has(text)) byText.set(text, (await this.inferOne(text)).sentence);
    }
    // A text asked for twice gets two arrays: a caller may keep (or change) its own.
    return texts.map((t) => Float32Array.from(byText.get(t) as Float32Array));
  }
}
