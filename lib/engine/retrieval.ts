/**
 * Retrieval (docs/design.md §4.6): one shared relevance scorer over store-provided candidates, so every store ranks alike.
 *
 * Stores return candidates from their own full-text search (or embeddings); the engine re-scores them lexically:
 *   relevance(q, d) = coverage · (0.8 + 0.2 · focus) ∈ [0,1]
 *   coverage = Σ_{t ∈ q ∩ d} idf(t) / Σ_{t ∈ q} idf(t)        (how much of the query the text answers, rare terms first)
 *   focus    = |q ∩ d| / |d|                                  (distinct terms; a short, on-point claim beats a long one)
 *   idf(t)   = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))      (BM25's idf over the candidate set, always > 0)
 *   score    = relevance × credence
 * Filters (liveness, scope, minimum credence, status, topic, tags) are applied to the WHOLE candidate domain before
 * ranking and truncation, so no number of better-matching non-qualifying items can push a qualifying one out.
 *
 * Hybrid relevance (when the services have sentence vectors, `RetrieveOptions.semantic`): calibrated score fusion,
 *   semantic(q, d) = clamp((cos(q, d) − SEMANTIC_COS_FLOOR) / (SEMANTIC_COS_FULL − SEMANTIC_COS_FLOOR), 0, 1)
 *   relevance      = SEMANTIC_WEIGHT · semantic + (1 − SEMANTIC_WEIGHT) · lexical
 * Both parts are absolute, bounded scores in [0, 1], so the product with credence keeps its meaning and a candidate's
 * best possible score is known before it is fetched (what top-k pruning needs); reciprocal-rank fusion would give
 * neither (a rank depends on the whole candidate set and says nothing about how relevant the first one is).
 * See lib/engine/README.md ("Hybrid retrieval").
 */
import { cosine, type WordVector } from "./embedder";
import { isLiveStatus } from "./model";

const STOPWORDS = new Set(
  (
    "a an the and or but if then else of to in on at by for with from into onto over under about as is are was were be been being " +
    "do does did doing have has had having it its this that these those there here we you they he she i me my our your their his her " +
    "them us what which who whom whose when where why how all any each some such than too very can could should would may might must " +
    "will shall just so also only own same both few more most other again further once out up down off not no nor"
  ).split(" "),
);

/** Words that flip a statement's polarity; kept as tokens (they matter to similarity) but never stemmed. */
export const NEGATIONS = new Set(["not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "cannot", "without"]);

/** Lower-case, diacritics removed, split on anything that is not a letter or digit. */
export function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/n't\b/g, " not")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A light, deterministic English stemmer: enough to match `deploys`/`deployed`/`deploying` to `deploy`. */
export function stem(word: string): string {
  if (word.length <= 3 || /^\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return word.slice(0, -3) + "y";
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ing") && word.length > 5 && !word.endsWith("thing") && /[aeiouy]/.test(word.slice(0, -3))) return undouble(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith("es") && /(?:sh|ch|x|z|ss)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) return word.slice(0, -1);
  return word;
}

function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/** Content terms of a text: stemmed words without stopwords (negations dropped too: relevance ignores polarity). */
export function tokenize(text: string): string[] {
  return words(text)
    .filter((w) => !STOPWORDS.has(w) && !NEGATIONS.has(w))
    .map(stem);
}

export function termSet(text: string): Set<string> {
  return new Set(tokenize(text));
}

/** Dice coefficient of the two texts' content-term sets ∈ [0,1]; symmetric; 1 for identical term sets. */
export function lexicalSimilarity(a: string, b: string): number {
  const sa = termSet(a);
  const sb = termSet(b);
  if (sa.size === 0 && sb.size === 0) return a.trim() === b.trim() ? 1 : 0;
  let common = 0;
  for (const t of sa) if (sb.has(t)) common++;
  return (2 * common) / (sa.size + sb.size);
}

/** BM25's idf of a term in `df` of `n` qualifying candidates: ln(1 + (n − df + 0.5) / (df + 0.5)), always > 0. */
export function idfOf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** relevance = min(1, coverage · (0.8 + 0.2 · min(1, focus))), coverage = covered idf / total idf, focus = matched / |d|. */
function relevanceFrom(coveredIdf: number, totalIdf: number, matchedTerms: number, documentTerms: number): number {
  const coverage = coveredIdf / totalIdf;
  const focus = matchedTerms / documentTerms;
  return Math.min(1, coverage * (0.8 + 0.2 * Math.min(1, focus)));
}

export interface RelevanceScorer {
  /** Relevance of one candidate text to the query ∈ [0,1]. */
  score(text: string): number;
}

/** Build the scorer for `query` with idf taken over `corpus` (the candidate texts). */
export function relevanceScorer(query: string, corpus: readonly string[]): RelevanceScorer {
  const queryTerms = [...termSet(query)];
  const df = new Map<string, number>(queryTerms.map((t) => [t, 0]));
  const docTerms = corpus.map((text) => termSet(text));
  for (const terms of docTerms) for (const t of queryTerms) if (terms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = corpus.length;
  const idf = new Map(queryTerms.map((t) => [t, Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5))]));
  const total = queryTerms.reduce((s, t) => s + (idf.get(t) ?? 0), 0);
  // The corpus is usually what is scored: its texts are not tokenized twice.
  const known = new Map(corpus.map((text, i) => [text, docTerms[i] as Set<string>]));
  return {
    score(text: string): number {
      if (total <= 0) return 0;
      const terms = known.get(text) ?? termSet(text);
      if (terms.size === 0) return 0;
      let covered = 0;
      let matched = 0;
      for (const t of queryTerms) {
        if (terms.has(t)) {
          covered += idf.get(t) ?? 0;
          matched++;
        }
      }
      return relevanceFrom(covered, total, matched, terms.size);
    },
  };
}

/** The minimal shape retrieval needs; the engine's `Belief` satisfies it. */
export interface RetrievalCandidate {
  id: string;
  scope: string;
  text: string;
  credence: number;
  status: string;
  topic?: string;
  contextTags?: readonly string[];
  validUntil?: string | null;
}

/** A belief is live when its status is not terminal and (given `asOf`) its validity has not ended. */
export function isLiveCandidate(c: Pick<RetrievalCandidate, "status" | "validUntil">, asOf?: string): boolean {
  if (!isLiveStatus(c.status)) return false;
  if (c.validUntil && asOf !== undefined && Date.parse(c.validUntil) <= Date.parse(asOf)) return false;
  if (c.validUntil && asOf === undefined) return false;
  return true;
}

export interface RetrieveOptions {
  /** How many to return (after filtering and ranking); default 10. */
  k?: number;
  minCredence?: number;
  /** Only this scope's beliefs (the URL's scope). */
  scope?: string;
  statuses?: readonly string[];
  topic?: string;
  /** Every listed tag must be present. */
  contextTags?: readonly string[];
  /** Include ended beliefs (history views); default false. */
  includeEnded?: boolean;
  /** The instant liveness is judged at (a `validUntil` at or before it ends the belief). */
  asOf?: string;
  /** Candidates with relevance ≤ this are not matches; default 0. */
  minRelevance?: number;
  /**
   * Hybrid mode: the cosine of the query's sentence vector with each candidate's (by candidate id), computed by the
   * services. Present → every qualifying candidate is scored by `fuseRelevance` (a candidate missing from the map has
   * cosine 0: semantic relevance 0); absent → lexical relevance only.
   */
  semantic?: ReadonlyMap<string, number>;
  /**
   * The idf statistics of the whole qualifying domain when the caller ranks only part of it (a store's best
   * candidates by an index, `lib/graph/sql/sql-search.ts`): N qualifying candidates and df per query term. The scores
   * of the given candidates are then exactly those of the ranking of the whole domain. Absent: counted over the
   * candidates given.
   */
  corpus?: CorpusStats;
}

/** idf inputs over a qualifying domain: its size and, per content term, how many of its members contain it. */
export interface CorpusStats {
  n: number;
  df: ReadonlyMap<string, number>;
}

/** Cosine at or below which a text is not semantically relevant to a question at all (all-MiniLM-L6-v2; tuned on the dev set). */
export const SEMANTIC_COS_FLOOR = 0.15;
/** Cosine from which a text is fully relevant. */
export const SEMANTIC_COS_FULL = 0.65;
/** Share of the semantic part in hybrid relevance. */
export const SEMANTIC_WEIGHT = 0.6;
/**
 * Hybrid relevance below which a candidate does not answer a question (recall's `no_answer` floor in hybrid mode):
 * a lone shared common word ("run") is not an answer.
 */
export const HYBRID_ANSWER_FLOOR = 0.12;

/**
 * Sentence cosine from which a candidate sharing no term of the question's topic answers it by meaning alone. Below
 * it (and above `HYBRID_ANSWER_FLOOR`) the candidate answers only if a content word of the question has a close
 * counterpart in it (`closestWords` ≥ `ANSWER_WORD_COSINE`): a question about who approves a kind of change is then
 * not answered by a belief about where releases ship from (cosine 0.28, no two words close), nor one about how often
 * the office is cleaned by a belief about how often backups run (0.36: sentences about the same kind of fact sit that
 * close whatever their subject), yet still is by one naming the approver in other words. Both thresholds were chosen
 * on the public development halves (SICK, MRPC, Climate-FEVER): research/measure-relevance.ts `--band`, figures in
 * lib/engine/README.md ("Hybrid retrieval").
 */
export const ANSWER_COSINE_ALONE = 0.4;
/** Word-vector cosine a content word of the question needs in a candidate that answers by meaning alone, near the floor. */
export const ANSWER_WORD_COSINE = 0.35;
/**
 * Sentence cosine under which a candidate sharing at most half of the question's topic terms answers only if a word
 * of the question it does not contain has a close counterpart in it (≥ `PARTIAL_MATCH_WORD_COSINE`): a shared common
 * word ("run") is no evidence that "when do load tests run?" is answered by a belief about when backups run (cosine
 * 0.26, "load" and "tests" meet none of its words: 0.20). Chosen on the public development halves,
 * research/measure-relevance.ts `--partial`, figures in lib/engine/README.md ("Recall's word check").
 */
export const PARTIAL_MATCH_COSINE = 0.3;
/** Word-vector cosine an unshared word of the question needs in a candidate that shares only part of its topic. */
export const PARTIAL_MATCH_WORD_COSINE = 0.3;

/** True when `a` and `b` share a content term (`termSet`). */
export function sharesTerm(a: string, b: string): boolean {
  const sb = termSet(b);
  for (const t of termSet(a)) if (sb.has(t)) return true;
  return false;
}

/** Interrogatives whose next word names the kind of answer asked for ("how often", "what colour", "which team"). */
const SLOT_INTERROGATIVES = new Set(["how", "what", "which", "whose"]);

/**
 * Index of the word a question opens with to name the kind of answer it asks for — the word right after a leading
 * "how", "what", "which" or "whose" when it is a content word ("how often", "what colour", "which team") — or −1.
 * That word says what would answer, not what the question is about: a frequency ("daily") answers "how often", a
 * colour "what colour". So it is no evidence that a text is about the question (`topicTerms`, `closestWords`).
 */
function askedForIndex(questionWords: readonly string[]): number {
  const [first, second] = questionWords;
  return first !== undefined && second !== undefined && SLOT_INTERROGATIVES.has(first) && !STOPWORDS.has(second) && !NEGATIONS.has(second) ? 1 : -1;
}

/** The question's content terms without the word naming the kind of answer it asks for (`askedForIndex`). */
export function topicTerms(question: string): Set<string> {
  const ws = words(question);
  const slot = askedForIndex(ws);
  const terms = termSet(question);
  if (slot < 0) return terms;
  const asked = stem(ws[slot] as string);
  // The same word used again later in the question is about its topic.
  if (ws.slice(slot + 1).some((w) => stem(w) === asked)) return terms;
  terms.delete(asked);
  return terms;
}

/** True when the question and the text share a term of the question's topic (`topicTerms`). */
export function sharesTopicTerm(question: string, text: string): boolean {
  const st = termSet(text);
  for (const t of topicTerms(question)) if (st.has(t)) return true;
  return false;
}

/** Recall's word check of a candidate: the question's terms its words leave aside, and the word cosine it needs. */
export interface WordCheck {
  /** Terms of the question the candidate contains: no evidence of a close word (`closestWords`' `skip`). */
  shared: ReadonlySet<string>;
  /** `closestWords` under this: the candidate does not answer the question. */
  minCosine: number;
}

/**
 * The word check a candidate needs to answer the question, or null when its sentence cosine and shared terms are
 * evidence enough. Two cases, each only just relevant by meaning:
 * - it shares no term of the question's topic (`topicTerms`: a "how often" question is not about "often"), clears
 *   the hybrid answer floor by meaning alone and its cosine is under `ANSWER_COSINE_ALONE`: a content word of the
 *   question needs a counterpart in it at `ANSWER_WORD_COSINE`;
 * - it shares at most half of the question's topic terms and its cosine is under `PARTIAL_MATCH_COSINE`: one of the
 *   question's words it does not contain needs a counterpart in it at `PARTIAL_MATCH_WORD_COSINE` (a shared common
 *   word does not make it about the question).
 */
export function wordCheckOf(question: string, text: string, cos: number): WordCheck | null {
  return wordCheckWith(topicTerms(question), termSet(text), cos);
}

/** `wordCheckOf` from the question's `topicTerms` and the text's `termSet`, for callers that check many texts. */
function wordCheckWith(topic: ReadonlySet<string>, terms: ReadonlySet<string>, cos: number): WordCheck | null {
  const shared = new Set([...topic].filter((t) => terms.has(t)));
  if (shared.size === 0) return cos < ANSWER_COSINE_ALONE && fuseRelevance(0, cos) > HYBRID_ANSWER_FLOOR ? { shared, minCosine: ANSWER_WORD_COSINE } : null;
  return cos < PARTIAL_MATCH_COSINE && 2 * shared.size <= topic.size ? { shared, minCosine: PARTIAL_MATCH_WORD_COSINE } : null;
}

/** True when a candidate's words decide whether it answers the question (`wordCheckOf`). */
export function needsWordCheck(question: string, text: string, cos: number): boolean {
  return wordCheckOf(question, text, cos) !== null;
}

/**
 * Which candidates recall word-checks (`wordCheckOf`), closest by cosine first, at most `limit` of them (a word
 * check costs a model run per text); `unchecked`: the others that needed one, left out of the answer; `checks`: each
 * of them's check, by id.
 */
export function wordCheckPlan<T extends { id: string; text: string }>(
  question: string,
  candidates: readonly T[],
  cosineOf: (candidate: T) => number,
  limit: number,
): { check: T[]; unchecked: T[]; checks: Map<string, WordCheck> } {
  const topic = topicTerms(question);
  const checks = new Map<string, WordCheck>();
  for (const c of candidates) {
    const found = wordCheckWith(topic, termSet(c.text), cosineOf(c));
    if (found !== null) checks.set(c.id, found);
  }
  const band = candidates.filter((c) => checks.has(c.id)).sort((a, b) => cosineOf(b) - cosineOf(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { check: band.slice(0, Math.max(0, limit)), unchecked: band.slice(Math.max(0, limit)), checks };
}

/** Content words of a text as the embedding model spells them: letters only, no stop word or negation. */
const contentWords = (words: readonly WordVector[]) => words.filter((w) => /^[a-z]+$/.test(w.word) && !STOPWORDS.has(w.word) && !NEGATIONS.has(w.word));

/**
 * The closest pair of content words, one of the question and one of the text, by the cosine of their contextual
 * vectors (the Embedder port's `words`); −1 when either has no content word. `skip`: terms (`stem`) of question words
 * left out — those the text contains (`WordCheck.shared`), which meet themselves.
 */
export function closestWords(question: readonly WordVector[], text: readonly WordVector[], skip?: ReadonlySet<string>): number {
  const slot = askedForIndex(question.map((w) => w.word));
  const q = contentWords(question.filter((w, i) => i !== slot && !(skip?.has(stem(w.word)) ?? false)));
  const t = contentWords(text);
  let best = -1;
  for (const a of q) for (const b of t) best = Math.max(best, cosine(a.vector, b.vector));
  return best;
}

/** Calibrated semantic relevance of a query–text cosine ∈ [0, 1]. */
export function semanticRelevance(cos: number): number {
  return Math.max(0, Math.min(1, (cos - SEMANTIC_COS_FLOOR) / (SEMANTIC_COS_FULL - SEMANTIC_COS_FLOOR)));
}

/** Hybrid relevance ∈ [0, 1] from lexical relevance and (when known) the query–text cosine; lexical only without one. */
export function fuseRelevance(lexical: number, cos: number | undefined): number {
  if (cos === undefined) return lexical;
  return SEMANTIC_WEIGHT * semanticRelevance(cos) + (1 - SEMANTIC_WEIGHT) * lexical;
}

export interface Retrieved<T> {
  belief: T;
  relevance: number;
  /** relevance × credence */
  score: number;
}

/**
 * A candidate whose content terms are already known (`termSet(text)`, e.g. stored at write time by a store). With
 * `termCount`, `terms` may hold only the terms of the query it is ranked for that the text holds (a store ships no
 * more), and `termCount` says how many terms the text has: the ranking is the same.
 */
export type TermCandidate = Omit<RetrievalCandidate, "text"> & { terms: readonly string[]; termCount?: number };

export interface RankedByTerms<T> {
  item: T;
  relevance: number;
  /** relevance × credence */
  score: number;
}

/** True when `a` ranks before `b`: score ↓, credence ↓, id ↑ (code-unit order). */
function rankedBefore<T extends TermCandidate>(a: RankedByTerms<T>, b: RankedByTerms<T>): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.item.credence !== b.item.credence) return a.item.credence > b.item.credence;
  return a.item.id < b.item.id;
}

/**
 * The ranking itself, over candidates with known terms: filter the whole domain, then score and keep the best k.
 *
 *   idf(t)    = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))   over the N qualifying candidates
 *   relevance = min(1, coverage · (0.8 + 0.2 · min(1, focus)))
 *   coverage  = Σ_{t ∈ q ∩ d} idf(t) / Σ_{t ∈ q} idf(t),   focus = |q ∩ d| / |d|
 *   (hybrid, with `options.semantic`: relevance = fuseRelevance(relevance, cos(query, candidate)))
 *   score     = relevance × credence
 *
 * One pass over the domain for document frequencies; a bounded insertion keeps the best k without sorting it all,
 * so stores can hand over tens of thousands of slim rows.
 */
export function rankByTerms<T extends TermCandidate>(query: string, candidates: readonly T[], options: RetrieveOptions = {}): RankedByTerms<T>[] {
  const k = Math.max(0, Math.floor(options.k ?? 10));
  const minRelevance = options.minRelevance ?? 0;
  const queryTerms = [...termSet(query)];
  const semantic = options.semantic;
  if (k === 0) return [];

  const df = new Array<number>(queryTerms.length).fill(0);
  const matching: { item: T; matched: number[] }[] = [];
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
    // Non-matching candidates have lexical relevance 0: they rank only by meaning, or under a negative minRelevance.
    if (matched !== null || minRelevance < 0 || semanticRelevance(semantic?.get(c.id) ?? 0) > 0) matching.push({ item: c, matched: matched ?? [] });
  }
  const corpus = options.corpus;
  if (corpus !== undefined) {
    n = corpus.n;
    for (let j = 0; j < queryTerms.length; j++) df[j] = corpus.df.get(queryTerms[j] as string) ?? 0;
  }
  const idf = df.map((d) => idfOf(n, d));
  const total = idf.reduce((sum, x) => sum + x, 0);

  const top: RankedByTerms<T>[] = [];
  for (const { item, matched } of matching) {
    let relevance = 0;
    const own = item.termCount ?? item.terms.length;
    if (total > 0 && own > 0) {
      let covered = 0;
      for (const j of matched) covered += idf[j] as number;
      relevance = relevanceFrom(covered, total, matched.length, own);
    }
    if (semantic !== undefined) relevance = fuseRelevance(relevance, semantic.get(item.id) ?? 0);
    if (relevance <= minRelevance) continue;
    const ranked: RankedByTerms<T> = { item, relevance, score: relevance * item.credence };
    const last = top[top.length - 1];
    if (top.length === k && last !== undefined && !rankedBefore(ranked, last)) continue;
    // `top` is sorted: the entries `ranked` comes before are a suffix; binary search finds where it starts.
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (rankedBefore(ranked, top[mid] as RankedByTerms<T>)) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, ranked);
    if (top.length > k) top.pop();
  }
  return top;
}

/**
 * Rank `candidates` for `query`: filter the whole domain, score relevance × credence, then truncate to k
 * (`rankByTerms` over each candidate's `termSet(text)`). Ties: higher credence, then id (deterministic).
 */
export function retrieve<T extends RetrievalCandidate>(query: string, candidates: readonly T[], options: RetrieveOptions = {}): Retrieved<T>[] {
  const withTerms = candidates.map((belief) => ({ ...belief, terms: [...termSet(belief.text)], belief }));
  return rankByTerms(query, withTerms, options).map(({ item, relevance, score }) => ({ belief: item.belief, relevance, score }));
}

/**
 * Candidates whose relevance is already known, ranked with the credences and statuses they carry — an `asOf` read,
 * where the beliefs are replayed to that time and relevance (text against question) does not change: the same filters
 * (liveness judged at `asOf`) and the same order as `rankByTerms` (score = relevance × credence ↓, credence ↓, id ↑).
 */
export function rankByRelevance<T extends RetrievalCandidate>(scored: readonly { belief: T; relevance: number }[], options: RetrieveOptions = {}): Retrieved<T>[] {
  const k = Math.max(0, options.k ?? 10);
  const minRelevance = options.minRelevance ?? 0;
  return scored
    .filter((s) => s.relevance > minRelevance && qualifies(s.belief, options))
    .map((s) => ({ item: { ...s.belief, terms: [] as string[] }, relevance: s.relevance, score: s.relevance * s.belief.credence, belief: s.belief }))
    .sort((a, b) => (rankedBefore(a, b) ? -1 : rankedBefore(b, a) ? 1 : 0))
    .slice(0, k)
    .map(({ belief, relevance, score }) => ({ belief, relevance, score }));
}

function qualifies(c: Omit<RetrievalCandidate, "text">, o: RetrieveOptions): boolean {
  if (!o.includeEnded && !isLiveCandidate(c, o.asOf)) return false;
  if (o.scope !== undefined && c.scope !== o.scope) return false;
  if (o.minCredence !== undefined && c.credence < o.minCredence) return false;
  if (o.statuses && !o.statuses.includes(c.status)) return false;
  if (o.topic !== undefined && c.topic !== o.topic) return false;
  if (o.contextTags && !o.contextTags.every((t) => c.contextTags?.includes(t))) return false;
  return true;
}
