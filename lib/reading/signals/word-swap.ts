/**
 * Word swaps read by meaning: the content words each side of a relation pair has that the other lacks, and
 * how close the closest such pair of words is by the embedding of the single words. Evidence that names another value
 * for the belief's slot in a different sentence frame ("the roof is slate" / "the survey lists clay tiles",
 * "Tuesdays" / "Thursday mornings") shares no word with the belief at that place, so `substitution` (./slot-values,
 * same frame only) cannot see it, but the two words sit close together in the embedding space (co-hyponyms), while
 * evidence about another matter has no belief word with a near neighbour. The fitted relation model reads the cosine
 * as a feature (`word_swap`); the cosine alone cannot tell a co-hyponym from a synonym, so it weighs it with the other
 * signals. Pure: the caller embeds the words.
 */
import { cosine } from "@/lib/engine/embedder";
import { contentTokens } from "../parse/tokenize";

/** At most this many words a side: the longest pool sentences have about twenty content words. */
const MAX_WORDS = 24;

export interface SwapCandidates {
  /** Distinct content words of the belief whose stem the evidence does not use. */
  belief: string[];
  /** Distinct content words of the evidence whose stem the belief does not use. */
  evidence: string[];
}

/** The content words each side has and the other does not (surface forms, lower case, first occurrence order). */
export function swapCandidates(evidence: string, belief: string): SwapCandidates {
  const e = contentTokens(evidence);
  const b = contentTokens(belief);
  const eStems = new Set(e.map((t) => t.stem));
  const bStems = new Set(b.map((t) => t.stem));
  const only = (tokens: typeof e, other: ReadonlySet<string>) =>
    [...new Set(tokens.filter((t) => !other.has(t.stem) && /^[a-z]/.test(t.word)).map((t) => t.word))].slice(0, MAX_WORDS);
  return { belief: only(b, eStems), evidence: only(e, bStems) };
}

/**
 * The cosine of the closest (belief word, evidence word) pair among the candidates' vectors, in the order of
 * `swapCandidates`; 0 when either side has none.
 */
export function closestSwap(beliefWords: readonly Float32Array[], evidenceWords: readonly Float32Array[]): number {
  let best = 0;
  for (const b of beliefWords) for (const e of evidenceWords) best = Math.max(best, cosine(b, e));
  return best;
}
