/**
 * The offline Embedder: all-MiniLM-L6-v2 (quantized ONNX) run by @huggingface/transformers on onnxruntime-node's CPU
 * binary, from the cache folder that `npm run model:fetch` fills. Never touches the network
 * (`env.allowRemoteModels = false`): a missing model is an `EmbeddingError` at load, not a download.
 *
 * Vectors are mean-pooled over the attention mask and L2-normalised, as in the sentence-transformers model.
 *
 * Throughput: the ONNX session runs on ONE intra-op thread, and concurrent `embed` calls share one queue
 * (./micro-batcher: calls made while an inference runs are coalesced and run next, identical texts once). Measured
 * (scripts/bench-embed.ts): ONNX's default thread pool spins its workers between inferences, so one short text cost
 * 5–7 ms of CPU (16–19 ms wall on the loaded 2-core machine) against 2.6 ms CPU (2.5 ms wall) on one thread, with the
 * same vectors; and concurrent inferences competed for the cores with the database. The batch still runs one text
 * per inference: a batched inference would change the vectors (below).
 */
import { EmbeddingError, type Embedder, type EmbeddingModel } from "@/lib/engine";
import { isModelInstalled } from "./fetch-model";
import { microBatcher, type Batched } from "./micro-batcher";
import { MINILM_MODEL, minilmModelDir } from "./minilm-model";

/** Intra-op threads of the ONNX session (module comment: 1 measured fastest per text, and leaves a core to the database). */
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
    this.queue = microBatcher((texts) => this.infer(texts), { maxWaitMs: 0, maxBatch: options.maxBatch ?? MAX_BATCH });
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
