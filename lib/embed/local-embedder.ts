/**
 * The offline Embedder: all-MiniLM-L6-v2 (quantized ONNX) run by @huggingface/transformers on onnxruntime-node's CPU
 * binary, from the cache folder that `npm run model:fetch` fills. Never touches the network
 * (`env.allowRemoteModels = false`): a missing model is an `EmbeddingError` at load, not a download.
 *
 * Vectors are mean-pooled over the attention mask and L2-normalised, as in the sentence-transformers model.
 */
import { EmbeddingError, type Embedder, type EmbeddingModel } from "@/lib/engine";
import { isModelInstalled } from "./fetch-model";
import { MINILM_MODEL, minilmModelDir } from "./minilm-model";

interface FeatureOutput {
  dims: number[];
  data: ArrayLike<number>;
}
type Extractor = (texts: string[], options: { pooling: "mean"; normalize: true }) => Promise<FeatureOutput>;

async function loadExtractor(modelDir: string): Promise<Extractor> {
  const transformers = await import("@huggingface/transformers");
  const { env } = transformers;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  // An absolute path is not a Hub model id, so transformers.js reads the folder as given.
  const extractor = await transformers.pipeline("feature-extraction", modelDir, {
    dtype: "q8",
    device: "cpu",
  });
  return async (texts, options) => {
    const output = await extractor(texts, options);
    return { dims: output.dims, data: output.data as ArrayLike<number> };
  };
}

export class LocalEmbedder implements Embedder {
  readonly model: EmbeddingModel = MINILM_MODEL;
  private extractor: Promise<Extractor> | undefined;

  constructor(private readonly modelDir: string = minilmModelDir()) {}

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
        return await loadExtractor(this.modelDir);
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
    if (texts.length === 0) return [];
    const extractor = await this.getExtractor();
    const vectors: Float32Array[] = [];
    // One text per inference: the quantized graph quantizes activations with one scale per tensor, so a text's vector
    // would depend on its batch mates (cosine 0.994 instead of 1 measured). One at a time, a text always gets the
    // same vector, stored or queried. An empty string still gets a vector ([CLS][SEP]), so order is kept.
    for (const text of texts) {
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
      vectors.push(Float32Array.from(output.data));
    }
    return vectors;
  }
}
