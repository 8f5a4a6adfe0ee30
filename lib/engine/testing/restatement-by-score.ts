/**
 * A restatement policy for engine tests that script the similarity: the best candidate (ties to the first) is merged
 * at or above `twinSimilarity` and linked as a possible duplicate from POSSIBLE_DUPLICATE_SIMILARITY, on the score
 * alone, except for the pairs `unsure` names (claim and belief text patterns), which are linked at any score from
 * POSSIBLE_DUPLICATE_SIMILARITY. The services use `restatementPolicy` (lib/reading/merge-policy.ts), which reads the texts.
 */
import type { EngineParams } from "../params";
import { POSSIBLE_DUPLICATE_SIMILARITY, type RestatementChoice, type RestatementPolicy } from "../readings";

export function restatementByScore(unsure: readonly { claim: RegExp; belief: RegExp; reason: string }[] = []): RestatementPolicy {
  return (claim, candidates, params: EngineParams): RestatementChoice => {
    let best: (typeof candidates)[number] | null = null;
    for (const c of candidates) if (c.similarity >= POSSIBLE_DUPLICATE_SIMILARITY && (best === null || c.similarity > best.similarity)) best = c;
    if (best === null) return null;
    const doubt = unsure.find((u) => u.claim.test(claim) && u.belief.test(best.text));
    if (best.similarity >= params.twinSimilarity && !doubt) return { action: "merge", id: best.id, similarity: best.similarity };
    return { action: "possible_duplicate", id: best.id, similarity: best.similarity, reason: doubt?.reason ?? "close, but below the twin threshold" };
  };
}
