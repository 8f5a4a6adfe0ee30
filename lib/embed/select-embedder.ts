/**
 * Configuration → Embedder, and the process-wide instance.
 *
 * | `CREDENCE_EMBEDDINGS` | embedder |
 * |---|---|
 * | unset or `local` | the offline all-MiniLM-L6-v2 model from the cache folder (`CREDENCE_MODEL_DIR`) |
 * | `openai` | `POST {OPENAI_BASE_URL}/embeddings` with `OPENAI_EMBEDDING_MODEL` (`OPENAI_API_KEY`, `OPENAI_EMBEDDING_DIMENSIONS`) |
 * | `none` | no embedder: lexical matching only |
 *
 * `null` means "no meaning-based matching here": callers fall back to lexical relevance. When the local model is
 * missing, one line says so at start (and how to fetch it); nothing is downloaded at request time.
 */
import { z } from "zod";
import type { Embedder } from "@/lib/engine";
import { processValue } from "@/lib/process-singleton";
import { LocalEmbedder } from "./local-embedder";
import { minilmModelDir } from "./minilm-model";
import { OpenAiEmbedder } from "./openai-embedder";

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(blankToUndefined, z.string().trim().min(1).optional());
const optionalInt = z.preprocess(blankToUndefined, z.coerce.number().int().positive().optional());

export const embedderEnvSchema = z.object({
  CREDENCE_EMBEDDINGS: z.preprocess(blankToUndefined, z.enum(["local", "openai", "none"]).default("local")),
  CREDENCE_MODEL_DIR: optionalString,
  XDG_CACHE_HOME: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z.preprocess(blankToUndefined, z.url().optional()),
  OPENAI_EMBEDDING_MODEL: optionalString,
  OPENAI_EMBEDDING_DIMENSIONS: optionalInt,
  OPENAI_TIMEOUT_MS: optionalInt,
});

export interface SelectEmbedderOptions {
  /** Where the one start-up line goes (default: console.warn). */
  log?: (line: string) => void;
}

/**
 * @example selectEmbedder({ CREDENCE_EMBEDDINGS: "none" }) // → null
 * @example selectEmbedder({})?.model.name // → "all-minilm-l6-v2-q" when the model is fetched, else null
 */
export function selectEmbedder(
  env: Readonly<Record<string, string | undefined>>,
  options: SelectEmbedderOptions = {},
): Embedder | null {
  const log = options.log ?? ((line: string) => console.warn(line));
  const e = embedderEnvSchema.parse(env);
  switch (e.CREDENCE_EMBEDDINGS) {
    case "none":
      log("credence: embeddings off (CREDENCE_EMBEDDINGS=none): matching by words only");
      return null;
    case "openai":
      return new OpenAiEmbedder({
        baseURL: e.OPENAI_BASE_URL,
        apiKey: e.OPENAI_API_KEY,
        model: e.OPENAI_EMBEDDING_MODEL,
        dimensions: e.OPENAI_EMBEDDING_DIMENSIONS,
        timeoutMs: e.OPENAI_TIMEOUT_MS,
      });
    case "local": {
      const dir = minilmModelDir({ CREDENCE_MODEL_DIR: e.CREDENCE_MODEL_DIR, XDG_CACHE_HOME: e.XDG_CACHE_HOME });
      const embedder = new LocalEmbedder(dir);
      if (embedder.available()) return embedder;
      log(`credence: no embedding model in ${dir} (run \`npm run model:fetch\`): matching by words only`);
      return null;
    }
  }
}

/** One per process (lib/process-singleton): the custom server and the Next.js bundles share one loaded model and one start-up line. */
const processEmbedder = processValue<Embedder | null>("__credenceEmbedder", () => selectEmbedder(process.env));

/** The process's embedder, selected from `process.env` on first use (never at import time) and kept. */
export function getEmbedder(): Embedder | null {
  return processEmbedder.get();
}

/** Replaces the process's embedder (tests, or a CLI flag); `undefined` re-reads the environment on next use. */
export function setEmbedder(embedder: Embedder | null | undefined): void {
  processEmbedder.set(embedder);
}
