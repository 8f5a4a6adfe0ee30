/**
 * The engine's retrieval ranking (`retrieve` of `lib/engine/retrieval`) over slim `CandidateStats` rows whose content
 * terms were computed at write time, so a query costs no tokenising of candidate texts. Same filters, same formula,
 * same order of floating-point operations and the same tie-breaks: for candidates whose `terms` are `termSet(text)`
 * the result equals `retrieve(query, beliefs, options)` id for id and score for score (the property test beside this
 * file checks it against the engine on random corpora). Filters apply to the whole domain before the top k is cut.
 *
 *   idf(t)    = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))   over the N qualifying candidates
 *   relevance = min(1, coverage · (0.8 + 0.2 · min(1, focus)))
 *   coverage  = Σ_{t ∈ q ∩ d} idf(t) / Σ_{t ∈ q} idf(t),   focus = |q ∩ d| / |d|
 *   score     = relevance × credence;   order: score ↓, credence ↓, id ↑ (code-unit order)
 */
import { isLiveCandidate, termSet, type RetrieveOptions } from "@/lib/engine";
import type { CandidateStats } from "./graph-store";

export interface RankedCandidate {
  candidate: CandidateStats;
  relevance: number;
  /** relevance × credence */
  score: number;
}

function qualifies(c: CandidateStats, o: RetrieveOptions): boolean {
  if (!o.includeEnded && !isLiveCandidate(c, o.asOf)) return false;
  if (o.scope !== undefined && c.scope !== o.scope) return false;
  if (o.minCredence !== undefined && c.credence < o.minCredence) return false;
  if (o.statuses && !o.statuses.includes(c.status)) return false;
  if (o.topic !== undefined && c.topic !== o.topic) return false;
  if (o.contextTags && !o.contextTags.every((t) => c.contextTags.includes(t))) return false;
  return true;
}

/** True when `a` ranks before `b`. */
function before(a: RankedCandidate, b: RankedCandidate): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.candidate.credence !== b.candidate.credence) return a.candidate.credence > b.candidate.credence;
  return a.candidate.id < b.candidate.id;
}

/** The best `k` of the qualifying candidates for `query`, best first (see the header). */
export function rankCandidateStats(query: string, candidates: readonly CandidateStats[], options: RetrieveOptions = {}): RankedCandidate[] {
  const k = Math.max(0, Math.floor(options.k ?? 10));
  const minRelevance = options.minRelevance ?? 0;
  const queryTerms = [...termSet(query)];
  if (k === 0) return [];

  // One pass for document frequencies; each matching candidate keeps the indices of the query terms it contains.
  const df = new Array<number>(queryTerms.length).fill(0);
  const matching: { candidate: CandidateStats; matched: number[] }[] = [];
  let n = 0;
  for (const c of candidates) {
    if (!qualifies(c, options)) continue;
    n++;
    let matched: number[] | null = null;
    for (let j = 0; j < queryTerms.length; j++) {
      if (c.terms.includes(queryTerms[j] as string)) {
        df[j] = (df[j] as number) + 1;
        (matched ??= []).push(j);
      }
    }
    // Non-matching candidates have relevance 0: they rank only under a negative minRelevance.
    if (matched !== null || minRelevance < 0) matching.push({ candidate: c, matched: matched ?? [] });
  }
  const idf = df.map((d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const total = idf.reduce((s, x) => s + x, 0);

  // Bounded insertion keeps the best k without sorting the whole domain (k ≤ a few hundred in every caller).
  const top: RankedCandidate[] = [];
  for (const { candidate, matched } of matching) {
    let relevance = 0;
    if (total > 0 && candidate.terms.length > 0) {
      let covered = 0;
      for (const j of matched) covered += idf[j] as number;
      const coverage = covered / total;
      const focus = matched.length / candidate.terms.length;
      relevance = Math.min(1, coverage * (0.8 + 0.2 * Math.min(1, focus)));
    }
    if (relevance <= minRelevance) continue;
    const ranked: RankedCandidate = { candidate, relevance, score: relevance * candidate.credence };
    const last = top[top.length - 1];
    if (top.length === k && last !== undefined && !before(ranked, last)) continue;
    let i = top.length;
    while (i > 0 && before(ranked, top[i - 1] as RankedCandidate)) i--;
    top.splice(i, 0, ranked);
    if (top.length > k) top.pop();
  }
  return top;
}
