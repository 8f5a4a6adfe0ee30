/**
 * The relation confidence model: the probability that the rule order's label is right, from the label and two
 * measures of closeness (the sentence-embedding cosine, when an embedder reads the pair, and the share of the
 * belief's content stems the evidence covers). One logistic regression per label, fitted by
 * `npm run fit:relation-model` on the team's own labelled pairs (./manifest.json names them); no public set is
 * fitted on. Closeness may only raise the confidence of SUPPORTS and REBUTS (slopes ≥ 0: "closer" never means
 * "rebuttal" rather than support), and only lower that of UNRELATED (slopes ≤ 0).
 *
 * COMMIT_AT: the confidence at which a side is committed, chosen on the public development sets (docs/reading.md,
 * risk–coverage): below it the reader answers UNDECIDED.
 */
import { z } from "zod";
import type { DecidedRelation } from "@/lib/engine/assessor";
import weights from "./relation-confidence.json";

const triple = z.tuple([z.number(), z.number(), z.number()]);
const byLabel = z.object({ SUPPORTS: triple, REBUTS: triple, CONTEXTUALIZES: triple, UNRELATED: triple });
export const CONFIDENCE_MODEL = z.object({ features: z.tuple([z.literal("bias"), z.literal("cosine"), z.literal("coverage")]), semantic: byLabel, wordsOnly: byLabel }).parse(weights);

/** The confidence at or above which a side is committed (chosen on public development text). */
export const COMMIT_AT = { SUPPORTS: 0.405, REBUTS: 0.62 } as const;

/**
 * The paraphrase commit: a SUPPORTS reading below its commit threshold is still committed when the two texts are
 * close (cosine ≥ PARAPHRASE.cosine) and every content word of each has a counterpart in the other (word alignment ≥
 * PARAPHRASE.alignment, ../signals/word-alignment): the same claim in other words. Chosen on the public development
 * sets (docs/reading.md): among the SUPPORTS readings with cosine in [0.75, 0.9), the aligned pairs are support far
 * more often than the rest, on SICK and on MRPC alike.
 */
export const PARAPHRASE = { cosine: 0.75, alignment: 0.45 } as const;

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** P(the reading `relation` is right | cosine, coverage); words only when `semantic` is undefined. */
export function relationConfidence(relation: DecidedRelation, coverage: number, semantic?: number): number {
  const [bias, cos, cov] = (semantic === undefined ? CONFIDENCE_MODEL.wordsOnly : CONFIDENCE_MODEL.semantic)[relation];
  return sigmoid(bias + cos * (semantic ?? 0) + cov * coverage);
}
