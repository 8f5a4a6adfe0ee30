/**
 * The OpenAI-compatible assessor (docs/design.md §6): every judgement is one chat completion with a strict JSON-schema
 * response format, parsed again with the prompt's zod schema; similarity is the cosine of two embeddings. A server
 * without structured outputs (it answers 400 to `json_schema`) is asked in JSON mode, then with the schema in the
 * prompt, where a malformed answer gets one repair turn naming what was wrong.
 *
 * Failure policy (each failure is an `AssessmentError`, never a partial result):
 * * 429 → retried after `retry-after-ms` / `retry-after` (else backoff); 5xx and connection errors → retried with
 *   exponential backoff base·2^attempt (capped); both at most `maxRetries` times;
 * * other 4xx, refusals and content filtering → never retried;
 * * malformed JSON, schema violations and truncated output → asked again at most twice;
 * * a request past `timeoutMs` → `timeout` (not retried: a model that is slow once is usually slow again);
 * * every call has a budget: a wall-clock deadline across all attempts and waits, and a cap on output tokens.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, RateLimitError } from "openai";
import { ContentFilterFinishReasonError, LengthFinishReasonError } from "openai/core/error";
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
import {
  AssessmentError,
  type Assessor,
  type BeliefText,
  type ExtractedClaim,
  type RelationAssessment,
} from "@/lib/engine/assessor";
import { claimsPrompt } from "./prompts/claims-prompt";
import { conflictPrompt } from "./prompts/conflict-prompt";
import { contractionPrompt } from "./prompts/contraction-prompt";
import { essPrompt } from "./prompts/ess-prompt";
import type { PromptDefinition } from "./prompts/prompt-definition";
import { recallPrompt } from "./prompts/recall-prompt";
import { relationAnswerSchema, relationPrompt } from "./prompts/relation-prompt";
import { synthesisPrompt } from "./prompts/synthesis-prompt";

export const openAiAssessorOptionsSchema = z.object({
  /** Optional for local servers that take no key; the SDK still sends a placeholder. */
  apiKey: z.string().min(1).optional(),
  /** e.g. `http://127.0.0.1:11434/v1`; the SDK's default (api.openai.com) when absent. */
  baseURL: z.url().optional(),
  model: z.string().min(1).default("gpt-4o-mini"),
  embeddingModel: z.string().min(1).default("text-embedding-3-small"),
  /** Per HTTP request. */
  timeoutMs: z.number().int().positive().default(30_000),
  /** Retries on 429 / 5xx / connection errors (not on malformed output, which has its own limit of 2). */
  maxRetries: z.number().int().min(0).max(10).default(3),
  budget: z
    .object({
      /** Wall-clock limit for one assessment across attempts and waits. */
      totalMs: z.number().int().positive().default(90_000),
      /** Cap on generated tokens per completion (`max_tokens`, the parameter most compatible servers accept). */
      maxOutputTokens: z.number().int().positive().default(1_000),
    })
    .prefault({}),
  backoff: z
    .object({ baseMs: z.number().int().min(0).default(500), maxMs: z.number().int().min(0).default(8_000) })
    .prefault({}),
  /** A committed relation whose stated confidence is below this is kept as UNDECIDED, with the relation as its guess. */
  undecidedBelow: z.number().min(0).max(1).default(0.6),
});
export type OpenAiAssessorOptions = z.input<typeof openAiAssessorOptionsSchema>;

export interface OpenAiAssessorDeps {
  /** Waits between retries; injectable so tests record waits instead of sleeping. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const MAX_FORMAT_RETRIES = 2;
const EMBEDDING_CACHE_SIZE = 512;

const embeddingResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()).min(1) })).min(1),
});

/** The SDK validates with `zod/v4`; recognise its errors by shape rather than by class identity. */
function isZodError(error: unknown): boolean {
  return error instanceof z.ZodError || (error instanceof Error && error.name === "ZodError" && "issues" in error);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds a 429 asks us to wait: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** cos(u, v) mapped to [0,1] by clamping negatives to 0 (opposite embeddings are simply dissimilar). */
export function cosineSimilarity(u: readonly number[], v: readonly number[]): number {
  if (u.length !== v.length || u.length === 0) throw new AssessmentError("malformed", "Embeddings differ in dimension.");
  let dot = 0;
  let nu = 0;
  let nv = 0;
  for (let i = 0; i < u.length; i++) {
    const a = u[i] ?? 0;
    const b = v[i] ?? 0;
    dot += a * b;
    nu += a * a;
    nv += b * b;
  }
  if (nu === 0 || nv === 0) return 0;
  return Math.round(Math.min(1, Math.max(0, dot / Math.sqrt(nu * nv))) * 1e6) / 1e6;
}

function isCompletion(value: unknown): value is { choices: unknown[] } {
  return value !== null && typeof value === "object" && Array.isArray((value as { choices?: unknown }).choices);
}

/**
 * The model's relation answer as the port's reading: UNDECIDED when the model says so or commits below
 * `undecidedBelow` (the committed relation becomes the guess); strength 0 for UNRELATED and UNDECIDED; `guess` only on
 * UNDECIDED (an UNDECIDED without one guesses UNRELATED, the reading with no effect).
 */
export function readRelationAnswer(a: z.infer<typeof relationAnswerSchema>, undecidedBelow: number, assessor: string): RelationAssessment {
  const reasoning = a.reasoning;
  if (a.relation === "UNDECIDED" || a.confidence < undecidedBelow) {
    const guess = a.relation === "UNDECIDED" ? (a.guess ?? "UNRELATED") : a.relation;
    return { relation: "UNDECIDED", strength: 0, confidence: a.confidence, guess, reasoning, assessor };
  }
  return { relation: a.relation, strength: a.relation === "UNRELATED" ? 0 : a.strength, confidence: a.confidence, reasoning, assessor };
}

export function createOpenAiAssessor(options: OpenAiAssessorOptions, deps: OpenAiAssessorDeps = {}): Assessor {
  const config = openAiAssessorOptionsSchema.parse(options);
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.now ?? (() => Date.now());
  const client = new OpenAI({
    apiKey: config.apiKey ?? "not-needed",
    baseURL: config.baseURL,
    timeout: config.timeoutMs,
    // Retries are ours: they honour retry-after, the budget, and never repeat refusals.
    maxRetries: 0,
  });
  const stampOf = (version: string) => `openai:${config.model}@${version}`;
  const embeddingCache = new Map<string, number[]>();

  /** Run `request` with the transport retry policy, inside one budget. */
  async function withRetries<T>(what: string, deadline: number, request: (timeout: number) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const remaining = deadline - now();
      if (remaining <= 0) throw new AssessmentError("budget_exhausted", `${what}: the assessment budget ran out.`);
      try {
        return await request(Math.min(config.timeoutMs, remaining));
      } catch (error) {
        // Only transport errors are decided here; parse errors go back to `judge`.
        if (!(error instanceof APIError)) throw error;
        if (error instanceof APIConnectionTimeoutError) {
          throw new AssessmentError("timeout", `${what}: the model did not answer within ${config.timeoutMs} ms.`, { cause: error });
        }
        const retryable =
          error instanceof RateLimitError ||
          (error instanceof APIError && typeof error.status === "number" && error.status >= 500) ||
          error instanceof APIConnectionError;
        if (!retryable) {
          const status = error instanceof APIError && error.status !== undefined ? ` (HTTP ${error.status})` : "";
          throw new AssessmentError("unavailable", `${what}: the model server rejected the request${status}.`, { cause: error });
        }
        if (attempt >= config.maxRetries) {
          const code = error instanceof RateLimitError ? "rate_limited" : "unavailable";
          throw new AssessmentError(code, `${what}: ${code === "rate_limited" ? "rate limited" : "server error"} after ${attempt + 1} attempt(s).`, {
            cause: error,
          });
        }
        const backoff = Math.min(config.backoff.maxMs, config.backoff.baseMs * 2 ** attempt);
        const wait = error instanceof RateLimitError ? (retryAfterMs(error.headers, now()) ?? backoff) : backoff;
        if (now() + wait >= deadline) {
          throw new AssessmentError("budget_exhausted", `${what}: waiting ${wait} ms to retry would exceed the budget.`, { cause: error });
        }
        await sleep(wait);
      }
    }
  }

  /**
   * How this server takes the answer's shape: strict `json_schema` first; a server that refuses it (HTTP 400/422/501)
   * is asked in JSON mode (`json_object`), and one that refuses that too gets the schema in the prompt. Learnt once per
   * assessor; every mode's answer is validated with the prompt's zod schema.
   */
  let mode: "json_schema" | "json_object" | "prompt" = "json_schema";

  const refusesFormat = (error: unknown): boolean => {
    const cause = error instanceof AssessmentError && error.code === "unavailable" ? error.cause : error;
    return cause instanceof APIError && (cause.status === 400 || cause.status === 422 || cause.status === 501);
  };

  /** The answer in JSON or prompt mode: the message's JSON (a code fence around it is tolerated), or a SyntaxError. */
  function jsonOf(content: string | null | undefined, what: string): unknown {
    const text = (content ?? "").trim().replace(/^```(?:json)?\s*/i, "").replace(/```$/, "").trim();
    if (!text) throw new SyntaxError(`${what}: the answer is empty.`);
    return JSON.parse(text) as unknown;
  }

  /** JSON or prompt mode: the schema goes in the system message; one repair turn names what was wrong with the last answer. */
  async function judgeLoosely<I, O>(prompt: PromptDefinition<I, O>, input: I, deadline: number, what: string): Promise<O> {
    const schema = JSON.stringify(z.toJSONSchema(prompt.schema, { io: "output", unrepresentable: "any" }));
    const base = prompt.messages(input).map((m, i) =>
      i === 0 && m.role === "system" ? { ...m, content: `${m.content}\nAnswer with one JSON object named ${prompt.name} that fits this JSON Schema, and nothing else: ${schema}` } : m,
    );
    let messages: { role: "system" | "user" | "assistant"; content: string }[] = base;
    let lastFormatError: unknown;
    for (let formatAttempt = 0; formatAttempt <= MAX_FORMAT_RETRIES; formatAttempt++) {
      const completion = await withRetries(what, deadline, (timeout) =>
        client.chat.completions.create(
          {
            model: config.model,
            messages,
            ...(mode === "json_object" ? { response_format: { type: "json_object" as const } } : {}),
            max_tokens: config.budget.maxOutputTokens,
            temperature: 0,
          },
          { timeout },
        ),
      ).catch((error: unknown) => {
        if (error instanceof TypeError || error instanceof SyntaxError) throw new SyntaxError(`${what}: the server's answer is not a chat completion.`);
        throw error;
      });
      if (!isCompletion(completion)) {
        lastFormatError = new SyntaxError(`${what}: the server's answer is not a chat completion.`);
        continue;
      }
      const choice = completion.choices[0] as { message?: { content?: string | null; refusal?: string | null }; finish_reason?: string } | undefined;
      if (choice?.message?.refusal) throw new AssessmentError("refused", `${what}: the model refused (${choice.message.refusal}).`);
      if (choice?.finish_reason === "content_filter") throw new AssessmentError("refused", `${what}: the answer was withheld by the server's content filter.`);
      const content = choice?.message?.content ?? "";
      let problem: string;
      try {
        const parsed = prompt.schema.safeParse(jsonOf(content, what));
        if (parsed.success) return parsed.data;
        lastFormatError = parsed.error;
        problem = parsed.error.issues.map((i) => `${i.path.join(".") || "answer"}: ${i.message}`).join("; ");
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        lastFormatError = error;
        problem = `it is not valid JSON (${error.message})`;
      }
      // The repair turn: the model sees its own answer and what is wrong with it.
      messages = [...base, { role: "assistant", content }, { role: "user", content: `That answer does not fit the schema: ${problem}. Answer again with only the corrected JSON object.` }];
    }
    throw new AssessmentError("malformed", `${what}: the model's answer was not valid for the schema after ${MAX_FORMAT_RETRIES + 1} attempts.`, {
      cause: lastFormatError,
    });
  }

  /** One structured judgement: transport retries inside, malformed output asked again at most twice. */
  async function judge<I, O>(prompt: PromptDefinition<I, O>, input: I): Promise<O> {
    const deadline = now() + config.budget.totalMs;
    const what = `${prompt.version} assessment`;
    for (;;) {
      if (mode === "json_schema") {
        try {
          return await judgeStrictly(prompt, input, deadline, what);
        } catch (error) {
          if (!refusesFormat(error)) throw error;
          mode = "json_object";
          continue;
        }
      }
      try {
        return await judgeLoosely(prompt, input, deadline, what);
      } catch (error) {
        if (mode === "json_object" && refusesFormat(error)) {
          mode = "prompt";
          continue;
        }
        throw error;
      }
    }
  }

  async function judgeStrictly<I, O>(prompt: PromptDefinition<I, O>, input: I, deadline: number, what: string): Promise<O> {
    const messages = prompt.messages(input);
    let lastFormatError: unknown;
    for (let formatAttempt = 0; formatAttempt <= MAX_FORMAT_RETRIES; formatAttempt++) {
      try {
        const completion = await withRetries(what, deadline, (timeout) =>
          client.chat.completions.parse(
            {
              model: config.model,
              messages,
              response_format: zodResponseFormat(prompt.schema, prompt.name),
              max_tokens: config.budget.maxOutputTokens,
              temperature: 0,
            },
            { timeout },
          ).catch((error: unknown) => {
            // The SDK reading a 200 whose body is no completion (an HTML page) fails with a TypeError: malformed.
            throw error instanceof TypeError ? new SyntaxError(`${what}: the server's answer is not a chat completion (${error.message}).`) : error;
          }),
        );
        // A 200 whose body is not a completion (an HTML error page from a proxy) is malformed, not a crash.
        if (!isCompletion(completion)) throw new SyntaxError(`${what}: the server's answer is not a chat completion.`);
        const message = completion.choices[0]?.message;
        if (message?.refusal) throw new AssessmentError("refused", `${what}: the model refused (${message.refusal}).`);
        // Parse again with the prompt's schema: the SDK's parse is the wire check, this one is ours.
        const parsed = prompt.schema.safeParse(message?.parsed);
        if (parsed.success) return parsed.data;
        lastFormatError = parsed.error;
      } catch (error) {
        if (error instanceof ContentFilterFinishReasonError) {
          throw new AssessmentError("refused", `${what}: the answer was withheld by the server's content filter.`, { cause: error });
        }
        const malformed = error instanceof SyntaxError || isZodError(error) || error instanceof LengthFinishReasonError;
        if (!malformed) throw error;
        lastFormatError = error;
      }
    }
    throw new AssessmentError("malformed", `${what}: the model's answer was not valid for the schema after ${MAX_FORMAT_RETRIES + 1} attempts.`, {
      cause: lastFormatError,
    });
  }

  async function embed(texts: readonly string[]): Promise<number[][]> {
    const missing = [...new Set(texts.filter((t) => !embeddingCache.has(t)))];
    if (missing.length > 0) {
      const deadline = now() + config.budget.totalMs;
      let response: unknown;
      try {
        response = await withRetries("embedding", deadline, (timeout) =>
          client.embeddings.create({ model: config.embeddingModel, input: missing, encoding_format: "float" }, { timeout }),
        );
      } catch (error) {
        // A body cut off mid-JSON: the answer is malformed (nothing is written), not a crash.
        if (error instanceof SyntaxError) throw new AssessmentError("malformed", "embedding: the server's answer is not valid JSON.", { cause: error });
        throw error;
      }
      const parsed = embeddingResponseSchema.safeParse(response);
      if (!parsed.success || parsed.data.data.length !== missing.length) {
        throw new AssessmentError("malformed", "embedding: the server's answer did not hold one vector per input.", {
          cause: parsed.success ? undefined : parsed.error,
        });
      }
      for (const item of parsed.data.data) {
        const text = missing[item.index];
        if (text === undefined) throw new AssessmentError("malformed", "embedding: an answer index is out of range.");
        if (embeddingCache.size >= EMBEDDING_CACHE_SIZE) {
          const oldest = embeddingCache.keys().next().value;
          if (oldest !== undefined) embeddingCache.delete(oldest);
        }
        embeddingCache.set(text, item.embedding);
      }
    }
    return texts.map((t) => {
      const v = embeddingCache.get(t);
      if (v === undefined) throw new AssessmentError("malformed", "embedding: a vector is missing from the answer.");
      return v;
    });
  }

  const plainBelief = (b: BeliefText): BeliefText => ({ id: b.id, text: b.text, contextTags: b.contextTags ?? [] });

  return {
    name: `openai:${config.model}`,
    heuristic: false,

    async assessEvidence(text) {
      const a = await judge(essPrompt, { text });
      return { ...a, assessor: stampOf(essPrompt.version) };
    },

    async assessRelation(evidence, belief) {
      const a = await judge(relationPrompt, { evidence, belief: plainBelief(belief) });
      return readRelationAnswer(a, config.undecidedBelow, stampOf(relationPrompt.version));
    },

    async assessContraction(belief, rebuttals, supports) {
      const a = await judge(contractionPrompt, { belief: plainBelief(belief), rebuttals, supports });
      return { ...a, severity: a.contract ? a.severity : 0, assessor: stampOf(contractionPrompt.version) };
    },

    async analyseConflict(proposed, existing) {
      const a = await judge(conflictPrompt, { proposed, existing: plainBelief(existing) });
      return {
        ...a,
        proposedContextTags: a.differentContext ? a.proposedContextTags : [],
        existingContextTags: a.differentContext ? a.existingContextTags : [],
        assessor: stampOf(conflictPrompt.version),
      };
    },

    async similarity(a, b) {
      if (a.trim() === b.trim()) return 1;
      // Sorted so that similarity(a, b) and similarity(b, a) send the same request and agree exactly.
      const [x, y] = [a, b].sort();
      const [u, v] = await embed([x ?? "", y ?? ""]);
      return cosineSimilarity(u ?? [], v ?? []);
    },

    async extractClaims(text): Promise<ExtractedClaim[]> {
      if (text.trim().length === 0) return [];
      const a = await judge(claimsPrompt, { text });
      return a.claims.map((c) => (c.quantity === null ? { text: c.text } : { text: c.text, quantity: c.quantity }));
    },

    async phraseRecall(question, dominant, competing) {
      const a = await judge(recallPrompt, { question, dominant: plainBelief(dominant), competing: competing && plainBelief(competing) });
      return { ...a, competingInterpretation: competing === null ? null : a.competingInterpretation, assessor: stampOf(recallPrompt.version) };
    },

    async proposeSynthesis(a, b) {
      const s = await judge(synthesisPrompt, { a: plainBelief(a), b: plainBelief(b) });
      return { ...s, assessor: stampOf(synthesisPrompt.version) };
    },
  };
}
