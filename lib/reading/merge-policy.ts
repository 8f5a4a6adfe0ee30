/**
 * The write policy for restatements (the engine's `RestatementPolicy` port): whether a new claim is merged into a
 * live belief it restates, kept apart and linked to one as a possible duplicate, or neither. Every write path that
 * merges on restatement asks it: ingest (the engine's revision pipeline), assimilate with `match: "relate"` (the
 * default) and harvest.
 *
 * Merging is close to irreversible for a credence: the claim's evidence becomes an entry of the other belief, its
 * wording is gone, and two rival claims merged into one belief read as agreement where there was disagreement.
 * Keeping both costs little: the possible-duplicate link moves no credence and goes to the reviewers' "needs a
 * reader" queue, where a person decides DUPLICATE or DISTINCT. So a write merges only when sure, and the person
 * decides the rest:
 *
 *   merge                the claim has the candidate's key (the same normalised text), or its restatement score is
 *                        at least `twinSimilarity` (0.9) and the pair is no one-word swap (`oneWordSwap`);
 *   possible duplicate   otherwise, the best candidate scoring at least POSSIBLE_DUPLICATE_SIMILARITY (0.8): a
 *                        one-word swap read as the same claim, or a score in the band below the twin threshold;
 *   neither              nothing scores 0.8.
 *
 * Why a one-word swap is not sure (research/measure-public-restatement.ts --policy, public development halves): of
 * the SICK pairs the reader reads as the same claim (1 656), 641 are one-word swaps and 50 % of those are not
 * entailments; of MRPC's (1 949), 65 are swaps and 1.5 % of those are different claims ("reported" / "disclosed" is
 * how a paraphrase is written there). Read as "same", a swap is a coin toss across kinds of text. As a veto in the
 * restatement score it lowered MRPC's "same" precision (75.2 → 75.1 %), so the score still reads a swap as the same
 * claim (`cli read restatements` answers as before); only the write declines to merge on it. What that does to the
 * merges: on SICK the share that are entailments rises from 65.8 % to 75.8 %; on MRPC the share that are the same
 * claim moves from 86.0 % to 85.6 %, and 3 % of the merges (64 duplicates) wait for a person instead. The team's own
 * restatement development pairs are SICK's kind: 60 of the 66 swaps read as "same" are different claims. A claim that
 * lists several claims is checked on each of the pairs its score is read on (`restatementPairs`), so a list whose one
 * claim swaps a word of the belief is not merged either.
 */
import { beliefKey } from "@/lib/engine/topic";
import { POSSIBLE_DUPLICATE_SIMILARITY, type RestatementCandidate, type RestatementChoice, type RestatementPolicy } from "@/lib/engine/readings";
import { oneWordSwap, restatementPairs } from "./restatement";

/** The one-word swap of a claim and a belief's text, on the whole pair or on a pair its score is read on, or null. */
export function swapOf(claim: string, text: string): [string, string] | null {
  for (const [a, b] of restatementPairs(claim, text)) {
    const swap = oneWordSwap(a, b);
    if (swap !== null) return swap;
  }
  return null;
}

/** THE restatement write policy (module comment). Ties go to the first candidate. */
export const restatementPolicy: RestatementPolicy = (claim, candidates, params): RestatementChoice => {
  const key = beliefKey(claim);
  const sameKey = candidates.find((c) => beliefKey(c.text) === key);
  if (sameKey) return { action: "merge", id: sameKey.id, similarity: sameKey.similarity };
  const ranked = candidates.filter((c) => c.similarity >= POSSIBLE_DUPLICATE_SIMILARITY).sort((a, b) => b.similarity - a.similarity);
  let unsure: { candidate: RestatementCandidate; reason: string } | null = null;
  for (const c of ranked) {
    if (c.similarity < params.twinSimilarity) {
      unsure ??= { candidate: c, reason: "close, but below the twin threshold" };
      continue;
    }
    const swap = swapOf(claim, c.text);
    if (swap === null) return { action: "merge", id: c.id, similarity: c.similarity };
    unsure ??= { candidate: c, reason: `one word swapped ("${swap[0]}" / "${swap[1]}")` };
  }
  return unsure === null ? null : { action: "possible_duplicate", id: unsure.candidate.id, similarity: unsure.candidate.similarity, reason: unsure.reason };
};
