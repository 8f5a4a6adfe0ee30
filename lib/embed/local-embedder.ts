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
import { EmbeddingError, type Embedder, type EmbeddingModel } from "@/lib/engine";
import { isModelInstalled } from "./fetch-model";
import { microBatcher, type Batched } from "./micro-batcher";
import { MINILM_MODEL, minilmModelDir } from "./minilm-model";

/** Intra-op threads of each inference (module comment): parallelism comes from the queue's batches, one per core. */
const INTRA_OP_THREADS = 1;
/** The model queue: a batch is taken at once when idle (next event-loop turn), at most this many texts. */
const MAX_BATCH = 64;

interface FeatureOutput {
  dims: number[];
  data: ArrayLike<number>;
}
type Extractor = (texts: string[], options: { pooling: "mean"; normalize: true }) => Promise<FeatureOutput>;

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
  return async (texts, options) => {
    const output = await extractor(texts, options);
    return { dims: output.dims, data: output.data as ArrayLike<number> };
  };
}

export class LocalEmbedder implements Embedder {
  readonly model: EmbeddingModel = MINILM_MODEL;
  private extractor: Promise<Extractor> | undefined;
  /** Every `embed` goes through this queue (module comment). */
  private readonly queue: Batched<string, Float32Array>;

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

  /** One batch of the queue: each distinct text once, in order. */
  private async infer(texts: readonly string[]): Promise<Float32Array[]> {
    const extractor = await this.getExtractor();
    const byText = new Map<string, Float32Array>();
    // One text per inference: the quantized graph quantizes activations with one scale per tensor, so a text's vector
    // would depend on its batch mates (cosine 0.993 instead of 1 measured). One at a time, a text always gets the
    // same vector, stored or queried. An empty string still gets a vector ([CLS][SEP]), so order is kept.
    for (const text of texts) {
      if (byText.has(text)) continue;
      let output: FeatureOutput;
      try {
        output = await extractor([text], { pooling: "mean", normalize: true });
      } catch (error) {
        throw new EmbeddingError("the embedding model failed on a text", { cause: error });
      }
      const [rows, dimensions] = output.dims;
      if (rows !== 1 || dimensions !== this.model.dimensions) {
        throw new EmbeddingError(`the model returned ${output.dims.join("×")} for one text`);
      }
      byText.set(text, Float32Array.from(output.data));
    }
    // A text asked for twice gets two arrays: a caller may keep (or change) its own.
    return texts.map((t) => Float32Array.from(byText.get(t) as Float32Array));
  }
}
