/**
 * The engine's retrieval ranking (`rankByTerms` of `lib/engine/retrieval`, which `retrieve` also uses) over slim
 * `CandidateStats` rows whose content terms were computed at write time, so a query costs no tokenising of candidate
 * texts. For candidates whose `terms` are `termSet(text)` the result equals `retrieve(query, beliefs, options)` id for
 * id and score for score (the property test beside this file checks it on random corpora).
 *
 *   idf(t)    = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))   over the N qualifying candidates
 *   relevance = min(1, coverage · (0.8 + 0.2 · min(1, focus)))
 *   coverage  = Σ_{t ∈ q ∩ d} idf(t) / Σ_{t ∈ q} idf(t),   focus = |q ∩ d| / |d|
 *   score     = relevance × credence;   order: score ↓, credence ↓, id ↑ (code-unit order)
 */
import { rankByTerms, type RetrieveOptions } from "@/lib/engine";
import type { CandidateStats, RankedCandidate } from "./graph-store";

export type { RankedCandidate } from "./graph-store";

/** The retrieval options a ranking of slim rows takes: every filter but the topic, which `CandidateStats` do not carry. */
export type RankOptions = Omit<RetrieveOptions, "topic">;

/** The best `k` of the qualifying candidates for `query`, best first: the engine's `rankByTerms` over the stored terms. */
export function rankCandidateStats(query: string, candidates: readonly CandidateStats[], options: RankOptions = {}): RankedCandidate[] {
  return rankByTerms(query, candidates, options).map(({ item, relevance, score }) => ({ candidate: item, relevance, score }));
}
