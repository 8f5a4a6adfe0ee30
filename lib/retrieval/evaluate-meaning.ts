/**
 * Evaluation of reading by meaning, printed by `npm run eval:assessor`:
 *
 * * **Restatement detection**: pairs of same-meaning / different-meaning sentences; a pair is judged "same" when the
 *   similarity reaches the engine's `twinSimilarity` (the threshold at which ingest reinforces instead of creating).
 *   Accuracy, with the lexical similarity (the Assessor's own) beside the semantic one.
 * * **Retrieval**: questions → the belief they mean, over a small corpus (equal credences, so the ranking is the
 *   relevance): hit@1 and hit@3, lexical (`retrieve`) and hybrid (`retrieve` with the query cosines) side by side; and
 *   for unanswerable questions, how often the top result stays under the hybrid answer floor (abstention).
 *
 * Data (lib/assess/eval/): `restatement-{dev,dev2,dev3,holdout,holdout2,holdout3,holdout4,holdout5,holdout6,holdout7,holdout8}.jsonl`, `retrieval-{dev,holdout,holdout6,holdout7,holdout8}.json`. The held-out files were
 * written and committed before anything was tuned; only the dev files were looked at while tuning.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { defaultParams, HYBRID_ANSWER_FLOOR, retrieve, type Embedder } from "@/lib/engine";
import { SemanticMatcher } from "./semantic-matcher";

export const restatementCaseSchema = z.object({ id: z.string().min(1), a: z.string().min(1), b: z.string().min(1), same: z.boolean() });
export type RestatementCase = z.infer<typeof restatementCaseSchema>;

export const retrievalSetSchema = z.object({
  beliefs: z.array(z.object({ id: z.string().min(1), text: z.string().min(1) })).min(1),
  questions: z.array(z.object({ id: z.string().min(1), question: z.string().min(1), belief: z.string().min(1).nullable() })).min(1),
});
export type RetrievalSet = z.infer<typeof retrievalSetSchema>;

export type Similarity = (a: string, b: string) => Promise<number>;

export interface RestatementReport {
  cases: number;
  threshold: number;
  accuracy: number;
  /** Ids of the misjudged pairs. */
  errors: string[];
}

/** Accuracy of "similarity ≥ threshold ⇔ same meaning" over the pairs. */
export async function evaluateRestatement(similarity: Similarity, cases: readonly RestatementCase[], threshold = defaultParams.twinSimilarity): Promise<RestatementReport> {
  const errors: string[] = [];
  for (const c of cases) if ((await similarity(c.a, c.b)) >= threshold !== c.same) errors.push(c.id);
  return { cases: cases.length, threshold, accuracy: cases.length === 0 ? 0 : (cases.length - errors.length) / cases.length, errors };
}

export interface RetrievalScores {
  hitAt1: number;
  hitAt3: number;
  /** Unanswerable questions whose best result stays at or under the answer floor (abstains), as a share. */
  abstention: number;
  /** Ids of answerable questions whose belief is not in the top 3. */
  misses: string[];
}

export interface RetrievalReport {
  questions: number;
  unanswerable: number;
  lexical: RetrievalScores;
  /** Null without an embedder. */
  hybrid: RetrievalScores | null;
}

/** hit@1 / hit@3 (and abstention) of the engine's ranking, lexical and — with a matcher — hybrid, in one run. */
export async function evaluateRetrieval(set: RetrievalSet, matcher: SemanticMatcher | null): Promise<RetrievalReport> {
  const candidates = set.beliefs.map((b) => ({ id: b.id, scope: "eval", text: b.text, credence: 0.7, status: "supported" }));
  const score = async (hybrid: boolean): Promise<RetrievalScores> => {
    let h1 = 0;
    let h3 = 0;
    let abstained = 0;
    const misses: string[] = [];
    for (const q of set.questions) {
      const semantic = hybrid && matcher ? await matcher.cosines(q.question, set.beliefs) : undefined;
      const ranked = retrieve(q.question, candidates, { k: 3, ...(semantic ? { semantic } : {}) });
      if (q.belief === null) {
        if ((ranked[0]?.relevance ?? 0) <= (hybrid ? HYBRID_ANSWER_FLOOR : 0)) abstained++;
        continue;
      }
      if (ranked[0]?.belief.id === q.belief) h1++;
      if (ranked.some((r) => r.belief.id === q.belief)) h3++;
      else misses.push(q.id);
    }
    const answerable = set.questions.filter((q) => q.belief !== null).length;
    const unanswerable = set.questions.length - answerable;
    return { hitAt1: answerable ? h1 / answerable : 0, hitAt3: answerable ? h3 / answerable : 0, abstention: unanswerable ? abstained / unanswerable : 0, misses };
  };
  return {
    questions: set.questions.filter((q) => q.belief !== null).length,
    unanswerable: set.questions.filter((q) => q.belief === null).length,
    lexical: await score(false),
    hybrid: matcher ? await score(true) : null,
  };
}

export function loadRestatementCases(file: string): RestatementCase[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      const parsed = restatementCaseSchema.safeParse(JSON.parse(l));
      if (!parsed.success) throw new Error(`${file}:${i + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

export function loadRetrievalSet(file: string): RetrievalSet {
  return retrievalSetSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/**
 * The restatement files, in print order: dev, dev2 and dev3 (64 pairs each, written before the errors they were to
 * probe were read), then the retired held-out sets v1–v8, all development data. A new held-out set is added here only
 * once it has been scored.
 */
export const RESTATEMENT_SPLITS = ["dev", "dev2", "dev3", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7", "holdout8"] as const;
export type RestatementSplit = (typeof RESTATEMENT_SPLITS)[number];

/**
 * The current held-out split: scored before and after the changes it measures, never read by a development script.
 * Null while no held-out set is wired in.
 */
export const CURRENT_HELDOUT_SPLIT: RestatementSplit | null = null;
/** Every split but the current held-out one: what development scripts (estimates, fits) may read. */
export const DEVELOPMENT_RESTATEMENT_SPLITS: readonly RestatementSplit[] = RESTATEMENT_SPLITS.filter((s) => s !== CURRENT_HELDOUT_SPLIT);

export interface MeaningReport {
  lines: string[];
  /** Semantic restatement accuracy per split (absent without an embedder). */
  restatement: Partial<Record<RestatementSplit, number>>;
}

/**
 * Both evaluations on the dev and held-out sets, as printable lines: restatement accuracy (lexical = `lexical`, the
 * Assessor's similarity; semantic = the embedder's) and retrieval hit@1 / hit@3 (lexical vs hybrid).
 */
export async function meaningReport(repoRoot: string, lexical: Similarity, embedder: Embedder | null): Promise<MeaningReport> {
  const dir = path.join(repoRoot, "lib", "assess", "eval");
  const matcher = embedder ? new SemanticMatcher(embedder) : null;
  const lines: string[] = [];
  const restatement: MeaningReport["restatement"] = {};
  for (const split of RESTATEMENT_SPLITS) {
    const pairs = loadRestatementCases(path.join(dir, `restatement-${split}.jsonl`));
    const lex = await evaluateRestatement(lexical, pairs);
    const sem = matcher ? await evaluateRestatement((a, b) => matcher.similarity(a, b), pairs) : null;
    if (sem) restatement[split] = sem.accuracy;
    lines.push(
      `Restatement (${split}, ${pairs.length} pairs, same ⇔ similarity ≥ ${lex.threshold}): accuracy ${sem ? pct(sem.accuracy) : "n/a (no embedding model)"} semantic, ${pct(lex.accuracy)} lexical` +
        (sem && sem.errors.length ? `; misjudged: ${sem.errors.join(", ")}` : ""),
    );
    // Some splits have restatement pairs only.
    if (!existsSync(path.join(dir, `retrieval-${split}.json`))) continue;
    const set = loadRetrievalSet(path.join(dir, `retrieval-${split}.json`));
    const r = await evaluateRetrieval(set, matcher);
    const h = r.hybrid;
    lines.push(
      `Retrieval (${split}, ${r.questions} questions over ${set.beliefs.length} beliefs): ` +
        `hybrid hit@1 ${h ? pct(h.hitAt1) : "n/a"}, hit@3 ${h ? pct(h.hitAt3) : "n/a"}; lexical hit@1 ${pct(r.lexical.hitAt1)}, hit@3 ${pct(r.lexical.hitAt3)}` +
        (h && r.unanswerable > 0 ? `; unanswerable abstained ${pct(h.abstention)} of ${r.unanswerable}` : "") +
        (h && h.misses.length ? `; hybrid misses: ${h.misses.join(", ")}` : ""),
    );
  }
  return { lines, restatement };
}
