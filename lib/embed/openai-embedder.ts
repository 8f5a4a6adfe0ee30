/**
 * An Embedder over any OpenAI-compatible `POST {baseURL}/embeddings` (OpenAI, Azure-style proxies, llama.cpp, vLLM,
 * Ollama). Selected with `CREDENCE_EMBEDDINGS=openai` (see `select-embedder.ts`).
 *
 * The request asks for `dimensions` (text-embedding-3 models shorten their vectors on request; 384 by default, the
 * local model's size, so both share the stores' vector indexes); a server that answers with another length, a body
 * that is not one vector per input, an HTTP error or a timeout is an `EmbeddingError`. 429 and 5xx are retried with
 * exponential backoff at most `maxRetries` times. Vectors are L2-normalised here whatever the server returns.
 */
import { z } from "zod";
import { EmbeddingError, normalise, type Embedder, type EmbeddingModel } from "@/lib/engine";

export const openAiEmbedderConfigSchema = z.object({
  baseURL: z.url().default("https://api.openai.com/v1"),
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1).default("text-embedding-3-small"),
  dimensions: z.number().int().positive().max(8192).default(384),
  timeoutMs: z.number().int().positive().default(30_000),
  maxRetries: z.number().int().min(0).max(10).default(2),
  /** Texts per request. */
  batchSize: z.number().int().positive().max(2048).default(128),
});
export type OpenAiEmbedderConfig = z.input<typeof openAiEmbedderConfigSchema>;

const embeddingsResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

const RETRY_BASE_MS = 250;

export class OpenAiEmbedder implements Embedder {
  readonly model: EmbeddingModel;
  private readonly config: z.output<typeof openAiEmbedderConfigSchema>;

  constructor(config: OpenAiEmbedderConfig) {
    this.config = openAiEmbedderConfigSchema.parse(config);
    // The model's own name is its version: a provider changing weights under a name is beyond our sight.
    this.model = { name: `openai:${this.config.model}`, version: this.config.model, dimensions: this.config.dimensions };
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.config.batchSize) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + this.config.batchSize))));
    }
    return vectors;
  }

  private async embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    const body = await this.post({
      model: this.config.model,
      input: texts,
      dimensions: this.config.dimensions,
      encoding_format: "float",
    });
    const parsed = embeddingsResponseSchema.safeParse(body);
    if (!parsed.success) throw new EmbeddingError("embeddings: the server's answer is not a list of vectors");
    const vectors = new Array<Float32Array | undefined>(texts.length);
    for (const item of parsed.data.data) {
      if (item.index >= texts.length || vectors[item.index] !== undefined) {
        throw new EmbeddingError(`embeddings: answer index ${item.index} is out of range or repeated`);
      }
      if (item.embedding.length !== this.config.dimensions) {
        throw new EmbeddingError(
          `embeddings: the server returned ${item.embedding.length} dimensions, expected ${this.config.dimensions} ` +
            "(set OPENAI_EMBEDDING_DIMENSIONS to the model's size)",
        );
      }
      vectors[item.index] = normalise(item.embedding);
    }
    return Array.from(vectors, (vector, index) => {
      if (vector === undefined) throw new EmbeddingError(`embeddings: no vector for input ${index}`);
      return vector;
    });
  }

  private async post(payload: unknown): Promise<unknown> {
    const url = `${this.config.baseURL.replace(/\/+$/, "")}/embeddings`;
    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
          },
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(this.config.timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === "TimeoutError";
        throw new EmbeddingError(
          timedOut ? `embeddings: no answer within ${this.config.timeoutMs} ms` : `embeddings: cannot reach ${url}`,
          { cause: error },
        );
      }
      const retryable = response.status === 429 || response.status >= 500;
      if (retryable && attempt < this.config.maxRetries) {
        await response.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, RETRY_BASE_MS * 2 ** attempt));
        continue;
      }
      const text = await response.text();
      if (!response.ok) throw new EmbeddingError(`embeddings: HTTP ${response.status} from ${url}: ${text.slice(0, 200)}`);
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new EmbeddingError("embeddings: the server's answer is not JSON", { cause: error });
      }
    }
  }
}
