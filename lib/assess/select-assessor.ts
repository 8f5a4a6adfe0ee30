/**
 * Configuration → assessor (docs/design.md §8): the OpenAI-compatible provider when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is
 * set, the offline heuristic otherwise. Takes a plain record of environment strings (a central `lib/env.ts` may parse
 * them first and pass the same record).
 */
import { z } from "zod";
import type { Assessor } from "@/lib/engine/assessor";
import type { Embedder } from "@/lib/engine/embedder";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { createOpenAiAssessor, type OpenAiAssessorDeps } from "./openai/openai-assessor";

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(blankToUndefined, z.string().trim().min(1).optional());
const optionalInt = z.preprocess(blankToUndefined, z.coerce.number().int().positive().optional());

export const assessorEnvSchema = z.object({
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z.preprocess(blankToUndefined, z.url().optional()),
  OPENAI_MODEL: optionalString,
  OPENAI_EMBEDDING_MODEL: optionalString,
  OPENAI_TIMEOUT_MS: optionalInt,
  OPENAI_MAX_RETRIES: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(10).optional()),
  /** Wall-clock budget for one assessment, across retries. */
  OPENAI_BUDGET_MS: optionalInt,
  OPENAI_MAX_OUTPUT_TOKENS: optionalInt,
});
export type AssessorEnv = z.infer<typeof assessorEnvSchema>;

/** Which assessor `env` selects, without building it. */
export function assessorKind(env: Readonly<Record<string, string | undefined>>): "openai" | "heuristic" {
  const parsed = assessorEnvSchema.parse(env);
  return parsed.OPENAI_API_KEY !== undefined || parsed.OPENAI_BASE_URL !== undefined ? "openai" : "heuristic";
}

export interface SelectAssessorDeps extends OpenAiAssessorDeps {
  /**
   * Sentence embeddings for the offline heuristic (related vs unrelated by meaning). `undefined` uses the process's
   * embedder (`getEmbedder()`: the local model when fetched); `null` reads words only.
   */
  embedder?: Embedder | null;
}

/**
 * @example selectAssessor({}, { embedder: null }).name // → "heuristic@3f1c…" (a hash of the rules and weights)
 * @example selectAssessor({ OPENAI_BASE_URL: "http://127.0.0.1:8080/v1", OPENAI_MODEL: "llama" }).name // → "openai:llama"
 */
export function selectAssessor(env: Readonly<Record<string, string | undefined>>, deps: SelectAssessorDeps = {}): Assessor {
  const e = assessorEnvSchema.parse(env);
  const { embedder, ...openAiDeps } = deps;
  if (e.OPENAI_API_KEY === undefined && e.OPENAI_BASE_URL === undefined) {
    // The composition root (lib/beliefs/get-belief-services) hands in the process's cached embedder.
    return createHeuristicAssessor({ embedder: embedder === undefined ? getEmbedder() : embedder });
  }
  return createOpenAiAssessor(
    {
      apiKey: e.OPENAI_API_KEY,
      baseURL: e.OPENAI_BASE_URL,
      model: e.OPENAI_MODEL,
      embeddingModel: e.OPENAI_EMBEDDING_MODEL,
      timeoutMs: e.OPENAI_TIMEOUT_MS,
      maxRetries: e.OPENAI_MAX_RETRIES,
      budget: { totalMs: e.OPENAI_BUDGET_MS, maxOutputTokens: e.OPENAI_MAX_OUTPUT_TOKENS },
    },
    openAiDeps,
  );
}
