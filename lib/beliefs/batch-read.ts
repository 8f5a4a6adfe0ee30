/**
 * The batch reader: the reader the server uses, one JSON line in, one JSON line out (`npm run cli -- read …`, and
 * `npm run eval:assessor` scores through the same functions). `composeReader()` wires it as `composeServices` does:
 * the assessor chosen by configuration (OpenAI-compatible when OPENAI_* is set, the offline reader otherwise), the
 * process embedder behind a vector cache, and the services' restatement measure (`withSemanticSimilarity`) compared
 * with the engine's twin threshold.
 *
 * - relations:    `{id, belief, evidence}` → `{id, relation, confidence, reader}`; a labelled line of `export-readings`
 *                  is read as it is, its `relation` echoed as `expected`
 * - restatements: `{id, a, b}`             → `{id, same, score, reader}`
 * - messages:     `{id, text}`             → `{id, manipulative, reasoningType, reader}`
 *
 * A line that is not valid JSON of its kind gets `{line, error}` (line numbers from 1) and the rest go on.
 */
import { z } from "zod";
import { selectAssessor } from "@/lib/assess/select-assessor";
import { getEmbedder } from "@/lib/embed/select-embedder";
import type { AssessedRelation, Assessor, DecidedRelation, ReasoningType } from "@/lib/engine/assessor";
import type { Embedder } from "@/lib/engine/embedder";
import { resolveParams } from "@/lib/engine/params";
import { SemanticMatcher, withSemanticSimilarity } from "@/lib/retrieval/semantic-matcher";
import { withVectorCache } from "@/lib/retrieval/vector-cache";
import { LABEL_FIELDS } from "./export-readings";

export const READ_KINDS = ["relations", "restatements", "messages"] as const;
export type ReadKind = (typeof READ_KINDS)[number];


export interface Reader {
  /** The stamp of the reader that answered (the assessor's name). */
  readonly name: string;
  relation(belief: string, evidence: string): Promise<{ relation: AssessedRelation; confidence: number; guess?: DecidedRelation }>;
  restatement(a: string, b: string): Promise<{ same: boolean; score: number }>;
  message(text: string): Promise<{ manipulative: boolean; reasoningType: ReasoningType }>;
}

/** Texts whose vectors a batch keeps (~1.6 KB each at 384 dimensions). */
const BATCH_VECTOR_CACHE = 50_000;

/** A reader over a given assessor and embedder (null: words only), measuring restatement as the services do. */
export function readerOf(assessor: Assessor, embedder: Embedder | null): Reader {
  const measured = withSemanticSimilarity(assessor, embedder === null ? null : new SemanticMatcher(embedder));
  const twin = resolveParams({}).twinSimilarity;
  return {
    name: assessor.name,
    async relation(belief, evidence) {
      const r = await assessor.assessRelation(evidence, { id: "belief", text: belief });
      return { relation: r.relation, confidence: r.confidence, ...(r.guess !== undefined ? { guess: r.guess } : {}) };
    },
    async restatement(a, b) {
      const score = await measured.similarity(a, b);
      return { same: score >= twin, score };
    },
    async message(text) {
      const e = await assessor.assessEvidence(text);
      return { manipulative: e.manipulative, reasoningType: e.reasoningType };
    },
  };
}

/** The reader the server uses, composed from the environment as `composeServices` composes the services. */
export function composeReader(env: Readonly<Record<string, string | undefined>> = process.env): Reader {
  const local = getEmbedder();
  const embedder = local === null ? null : withVectorCache(local, BATCH_VECTOR_CACHE);
  return readerOf(selectAssessor(env, { embedder }), embedder);
}

const text = z.string().trim().min(1, "must not be empty").max(10_000, "must be at most 10 000 characters");
const id = z.union([z.string().max(200), z.number().finite()]);
const INPUT = {
  // A labelled line of `export-readings` is read as it is: its label fields are accepted, and `relation` is echoed.
  relations: z.object({ id, belief: text, evidence: text, ...optionalFields(LABEL_FIELDS) }).strict(),
  restatements: z.object({ id, a: text, b: text }).strict(),
  messages: z.object({ id, text }).strict(),
} as const;

const round = (x: number) => Math.round(x * 1000) / 1000;

function optionalFields<T extends Record<string, z.ZodType>>(shape: T): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> };
}

/** One input line read by `reader`: the output object, or `{line, error}` when the line is not valid input. */
export async function readLine(kind: ReadKind, reader: Reader, line: string, lineNumber: number): Promise<Record<string, unknown>> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { line: lineNumber, error: "not valid JSON" };
  }
  const parsed = INPUT[kind].safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    return { line: lineNumber, error: `${where}${issue?.message ?? "invalid input"}` };
  }
  try {
    switch (kind) {
      case "relations": {
        const row = parsed.data as z.infer<typeof INPUT.relations>;
        const r = await reader.relation(row.belief, row.evidence);
        return { id: row.id, relation: r.relation, confidence: round(r.confidence), ...(r.guess ? { guess: r.guess } : {}), reader: reader.name, ...(row.relation ? { expected: row.relation } : {}) };
      }
      case "restatements": {
        const row = parsed.data as z.infer<typeof INPUT.restatements>;
        const r = await reader.restatement(row.a, row.b);
        return { id: row.id, same: r.same, score: round(r.score), reader: reader.name };
      }
      case "messages": {
        const row = parsed.data as z.infer<typeof INPUT.messages>;
        const r = await reader.message(row.text);
        return { id: row.id, manipulative: r.manipulative, reasoningType: r.reasoningType, reader: reader.name };
      }
    }
  } catch (error) {
    return { line: lineNumber, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Reads every non-blank line of `lines` in order and hands each output line to `write` in input order. Resolves to the
 * number of lines that failed. Blank lines are skipped (they count for line numbers).
 */
export async function readBatch(kind: ReadKind, reader: Reader, lines: AsyncIterable<string> | Iterable<string>, write: (json: string) => void): Promise<number> {
  let failed = 0;
  let n = 0;
  for await (const line of lines) {
    n += 1;
    if (line.trim() === "") continue;
    const out = await readLine(kind, reader, line, n);
    if ("error" in out) failed += 1;
    write(JSON.stringify(out));
  }
  return failed;
}

export const READ_HELP = `usage: npm run --silent cli -- read relations|restatements|messages < in.jsonl > out.jsonl

Reads JSON lines on stdin with the reader the server uses (the offline reader, or the OpenAI-compatible one when
OPENAI_API_KEY / OPENAI_BASE_URL is set) and writes one JSON line per input line, in input order, on stdout:
  relations     {"id", "belief", "evidence"} -> {"id", "relation", "confidence", "reader"}
                relation: SUPPORTS | REBUTS | CONTEXTUALIZES | UNRELATED | UNDECIDED (not sure enough to commit;
                "guess" then names the best guess); confidence: the probability the reading is right.
                The lines of \`export-readings --scope S\` are read as they are; their label comes back as "expected"
  restatements  {"id", "a", "b"}               -> {"id", "same", "score", "reader"}
  messages      {"id", "text"}                 -> {"id", "manipulative", "reasoningType", "reader"}
A line that is not valid input gets {"line", "error"} and the rest go on; the exit code is 1 when any line failed.`;
