/**
 * The one candidate ranking every read and write path uses (`/beliefs?q=`, `/recall`, MCP `search_beliefs` / `recall`,
 * the graph search box, ingest's and the mutation protocol's candidate matching, topic assignment): the store's
 * candidates, ranked by the engine's `rankByTerms` (through `rankCandidateStats`), hybrid when an embedder is there.
 *
 * Domain and exactness (lib/engine/README.md, "Hybrid retrieval"):
 * * without an embedder: every belief sharing a content term with the query (the store's full-text matches), ranked
 *   whole: exact. Stores with postings (SQL) return that ranking's top k from an index (`searchTopK`), the same ids
 *   and scores without fetching the domain; the others hand over the domain and the engine ranks it.
 * * with an embedder: the lexical matches (with postings: the best `lexicalPool(k)` of them by lexical score ×
 *   credence, scored with the whole domain's idf) ∪ the store's `vectorPool(k)` nearest beliefs by cosine (when
 *   the store has vector search). Each candidate's cosine comes from the vector search, else from the store's stored vectors
 *   (`similarities`), else from embedding its text (cached). Approximate in one place only: a belief that shares no
 *   term with the query and is not among the nearest `vectorPool(k)` (with postings: nor among the best
 *   `lexicalPool(k)` lexical ones) is not ranked (its semantic relevance is at
 *   most that of the last nearest one), and the nearest themselves come from an approximate pass on large scopes (SQL's
 *   sign sketches, Neo4j's HNSW index: lib/graph/graph-store.ts, `vectorSearch`); `bench/retrieval.ts` measures the recall this loses against the
 *   exhaustive hybrid ranking of every belief. When the vector search finds nothing (no vector index, or a scope
 *   not embedded yet) a scope of up to `EXHAUSTIVE_LIMIT` beliefs is ranked whole (exact), a larger one by its
 *   lexical matches only. Beyond `MAX_RESCORED` lexical matches (best lexical first) the rest
 *   are scored on words alone.
 */
import { modelKey, termSet, type Belief, type RetrieveOptions } from "@/lib/engine";
import type { CandidateStats, GraphStore, ScopeView } from "@/lib/graph/graph-store";
import { rankCandidateStats, type RankedCandidate } from "@/lib/graph/rank-candidate-stats";
import type { SemanticMatcher } from "./semantic-matcher";

/**
 * With postings (SQL): the most lexical candidates (by lexical score × credence) the hybrid domain starts from by
 * default (`lexicalPool`), unless the ranking keeps more than this.
 */
export const LEXICAL_CANDIDATES = 100;
/** The fewest: a ranking of k starts from 5 k of them (`lexicalPool`), never fewer than this. */
export const LEXICAL_CANDIDATES_MIN = 50;

/**
 * How many best lexical candidates a ranking of `k` starts from by default: 5 k, at least `LEXICAL_CANDIDATES_MIN`,
 * at most `LEXICAL_CANDIDATES` (never fewer than k). Measured with the real model on text written by others
 * (research/measure-candidate-pools.ts: 16 340 public sentences as beliefs, 300 questions) against a pool of 200:
 * - a search's top 10 from 50 is its top 10 from 200 for every question (in the same order for 299 of 300);
 * - recall's 50 from 100 are 99.6 % of its 50 from 200, its top 10 the same ids for every question (in the same order
 *   for 299 of 300), at 17 % less CPU a ranking on PGlite (52.1 → 43.0 ms); they agree with the exhaustive hybrid
 *   ranking on 98.2 % of the top 50 against 98.6 %;
 * - the mutation protocol's 50 (k = 50, live only) from 100 are 99.6 % of its 50 from 200 for single sentences and
 *   99.1 % for texts of three (its candidates are read back by id: the set is what counts), at 11–16 % less CPU.
 * The store's top-k walk stops far sooner on common query terms. An assimilation takes `LEXICAL_CANDIDATES_MIN` for its
 * 20 (lib/beliefs/assimilate-service.ts), ingest the same for each claim, and today's recall for its 50
 * (lib/beliefs/read-services.ts: its top 10 unchanged).
 */
export function lexicalPool(k: number): number {
  return Math.max(k, Math.min(LEXICAL_CANDIDATES, Math.max(LEXICAL_CANDIDATES_MIN, 5 * k)));
}

/**
 * Several rankings' ids taken rank by rank (every ranking's first, then every ranking's second, …), each once at its
 * best rank: the candidates of a text whose claims were each ranked alone.
 * @example unionByRank([["a", "b"], ["c", "a"]]) // ["a", "c", "b"]
 */
export function unionByRank(rankings: readonly (readonly string[])[]): string[] {
  const ids = new Set<string>();
  const deepest = Math.max(0, ...rankings.map((r) => r.length));
  for (let rank = 0; rank < deepest; rank++) for (const ranking of rankings) {
    const id = ranking[rank];
    if (id !== undefined) ids.add(id);
  }
  return [...ids];
}
/** The most nearest beliefs by cosine added to the lexical matches (`vectorPool`). */
export const VECTOR_CANDIDATES = 200;
/** The fewest: a ranking of k adds its 10 k nearest (`vectorPool`), never fewer than this. */
export const VECTOR_CANDIDATES_MIN = 100;

/**
 * How many nearest beliefs by cosine a ranking of `k` adds by default: 10 k, at least `VECTOR_CANDIDATES_MIN`, at most
 * `VECTOR_CANDIDATES`. With the real model on text written by others (research/measure-candidate-pools.ts: 16 340
 * public sentences as beliefs, 300 questions, lexical pool 50) a search's top 10 from the nearest 100 is its top 10
 * from the nearest 200 for 99.9 % of the ids (in the same order for 297 of 300 questions; the same top 1 for all),
 * and agrees with the exhaustive hybrid ranking on 99.8 % against 99.9 %, for 100 fewer rows a search; 80 would keep
 * 97 % in order, 50 only 90 %. Ingest's claims of a text of five sentences (k = 10 each) keep their candidates (99.9 %
 * of the union; each sentence's partner among them 69.7 % against 69.0 %) at 8 % less CPU. An assimilation (k = 20),
 * recall and the mutation protocol (k = 50) keep 200: recall's top 50 from the nearest 100 is only 89 % of its top 50
 * from 200.
 */
export function vectorPool(k: number): number {
  return Math.min(VECTOR_CANDIDATES, Math.max(VECTOR_CANDIDATES_MIN, 10 * k));
}
/** A store without vector search: scopes up to this many beliefs are ranked whole by meaning (every text embedded once, cached). */
export const EXHAUSTIVE_LIMIT = 500;
/** Lexical matches (best lexical relevance first) whose cosine is resolved; the rest are scored on words alone. */
export const MAX_RESCORED = 500;

/** What hybrid retrieval may call on a store that keeps sentence vectors (optional capabilities). */
export interface VectorCapabilities {
  vectorSearch?(view: ScopeView, vector: Float32Array, options: { k: number; model: string; includeEnded?: boolean }): Promise<readonly { id: string; similarity: number }[]>;
  similarities?(view: ScopeView, vector: Float32Array, ids: readonly string[], options: { model: string }): Promise<ReadonlyMap<string, number>>;
}

export interface HybridDeps {
  store: GraphStore;
  matcher: SemanticMatcher | null;
}

export interface HybridOptions extends Omit<RetrieveOptions, "semantic" | "topic"> {
  /** Include superseded / retired / contracted beliefs in the domain (recall follows their chains). */
  includeEnded?: boolean;
  /**
   * With postings and an embedder: how many best lexical candidates the domain starts from (default `lexicalPool(k)`).
   * Fewer make the store's top-k walk stop sooner on a scope whose query terms are common.
   */
  lexicalCandidates?: number;
  /**
   * With an embedder and a store with vector search: how many nearest beliefs by cosine the domain adds (default
   * `vectorPool(k)`). A caller that keeps only a few of the ranked may ask for fewer.
   */
  vectorCandidates?: number;
}

export interface HybridRanking {
  ranked: RankedCandidate[];
  /** The query–belief cosines used (hybrid mode), by belief id; undefined without an embedder. */
  semantic: ReadonlyMap<string, number> | undefined;
}

/** A belief as the slim row the ranking reads. */
export function statsOfBelief(b: Belief): CandidateStats {
  return { id: b.id, scope: b.scope, credence: b.credence, status: b.status, contextTags: b.contextTags, validUntil: b.validUntil ?? null, terms: [...termSet(b.text)] };
}

/** Rank the query's candidate domain (module comment), best first, at most `options.k`. */
export async function rankHybrid(deps: HybridDeps, view: ScopeView, query: string, options: HybridOptions = {}): Promise<HybridRanking> {
  const { store, matcher } = deps;
  const includeEnded = options.includeEnded ?? false;
  // Stores with postings answer the lexical top k from an index, exactly (lib/graph/top-k-walk.ts).
  const lexicalSide = async () => {
    const indexed = store.searchTopK && indexable(view, options) ? await store.searchTopK(view, query, topKOptions(options, matcher ? (options.lexicalCandidates ?? lexicalPool(options.k ?? 10)) : undefined)) : null;
    const lexical = indexed !== null ? indexed.ranked.map((r) => r.candidate) : matcher === null ? null : await store.searchCandidateStats(view, query, { includeEnded });
    return { indexed, lexical };
  };
  if (matcher === null) {
    const { indexed } = await lexicalSide();
    if (indexed !== null) return { ranked: indexed.ranked, semantic: undefined };
    return { ranked: rankCandidateStats(query, await store.searchCandidateStats(view, query, { includeEnded }), options), semantic: undefined };
  }

  const caps = store as GraphStore & VectorCapabilities;
  const model = modelKey(matcher.embedder.model);
  // Every slim row below is ranked by this query alone: a store may ship only these of a belief's terms.
  const queryTerms = [...termSet(query)];
  // The lexical side and the query's vector (then its nearest beliefs) are independent: they run side by side (a
  // server store answers them on two connections; an embedded one queues them).
  const vectorSide = async () => {
    const [q] = await matcher.vectors([query]);
    const qv = q as Float32Array;
    const hits = caps.vectorSearch ? await caps.vectorSearch(view, qv, { k: options.vectorCandidates ?? vectorPool(options.k ?? 10), model, includeEnded, withStats: true, statsTerms: queryTerms }) : [];
    return { qv, hits };
  };
  const [{ indexed, lexical: found }, { qv, hits }] = await Promise.all([lexicalSide(), vectorSide()]);
  const lexical = found ?? [];
  const corpus = indexed?.corpus;
  if (hits.length === 0) {
    // No vector index, or no stored vectors yet: a small scope is ranked whole (exact); a large one re-scores its
    // lexical matches only.
    const all = await store.listBeliefs(view, { liveOnly: !(options.includeEnded ?? false), limit: EXHAUSTIVE_LIMIT + 1 });
    if (all.length <= EXHAUSTIVE_LIMIT) {
      const semantic = await matcher.cosines(query, all.map((b) => ({ id: b.id, text: b.text })));
      return { ranked: rankCandidateStats(query, all.map(statsOfBelief), { ...options, semantic }), semantic };
    }
  }
  const semantic = new Map<string, number>(hits.map((h) => [h.id, h.similarity]));

  const byId = new Map(lexical.map((s) => [s.id, s]));
  // The nearest beliefs' slim rows: from the vector search when the store read them with its view check, else one read.
  for (const h of hits) if (h.stats !== undefined && !byId.has(h.id)) byId.set(h.id, h.stats);
  const extra = hits.filter((h) => !byId.has(h.id)).map((h) => h.id);
  if (extra.length > 0) for (const c of await store.candidateStatsByIds(view, extra, { queryTerms })) byId.set(c.id, c);

  // Cosines of lexical matches the vector search did not return: best lexical first, at most MAX_RESCORED.
  let unresolved = lexical.filter((s) => !semantic.has(s.id));
  if (unresolved.length > MAX_RESCORED) {
    const keep = new Set(rankCandidateStats(query, unresolved, { ...options, k: MAX_RESCORED, minRelevance: undefined }).map((r) => r.candidate.id));
    unresolved = unresolved.filter((s) => keep.has(s.id));
  }
  if (unresolved.length > 0 && caps.similarities) {
    const found = await caps.similarities(view, qv, unresolved.map((s) => s.id), { model });
    for (const [id, sim] of found) semantic.set(id, sim);
    unresolved = unresolved.filter((s) => !semantic.has(s.id));
  }
  if (unresolved.length > 0) {
    const records = await store.loadBeliefs(view, unresolved.map((s) => s.id));
    const cos = await matcher.cosines(query, records.map((r) => ({ id: r.belief.id, text: r.belief.text })));
    for (const [id, sim] of cos) semantic.set(id, sim);
  }
  // Lexical matches left without a cosine (beyond MAX_RESCORED) rank on words alone: their cosine counts as 0.
  return { ranked: rankCandidateStats(query, [...byId.values()], { ...options, semantic, ...(corpus ? { corpus } : {}) }), semantic };
}

/** Options the postings carry (scope = the view's home, liveness, minimum credence): anything else is ranked exhaustively. */
function indexable(view: ScopeView, o: HybridOptions): boolean {
  return (
    (o.scope === undefined || o.scope === view.homeScopeId) &&
    o.statuses === undefined &&
    o.contextTags === undefined &&
    o.asOf === undefined &&
    (o.minRelevance ?? 0) === 0
  );
}

function topKOptions(o: HybridOptions, k: number | undefined): { k?: number; includeEnded?: boolean; minCredence?: number } {
  return {
    k: k ?? o.k ?? 10,
    includeEnded: o.includeEnded ?? false,
    ...(o.minCredence !== undefined ? { minCredence: o.minCredence } : {}),
  };
}
