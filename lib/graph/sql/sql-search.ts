/**
 * Top-k lexical retrieval on the SQL store from postings (issue #12; table and triggers:
 * prisma/migrations/20261201155229_graph_postings, impact index: 20261201193000_graph_postings_impact): the result
 * equals `rankCandidateStats(query, searchCandidateStats(view, query, options), options)` — the engine's ranking of the
 * whole matching domain — without shipping that domain to the client, and without reading every posting of a common
 * term.
 *
 * 1. **Statistics** (one index-only read of the query terms' postings, aggregated in the database): N = how many
 *    distinct qualifying beliefs match any query term, df per term. The ranking's idf is defined over that domain, so
 *    this step is exact and unpruned.
 * 2. **Candidates** (`topKCandidates`, ../top-k-walk.ts: MaxScore over the terms, rarest first): a term's postings
 *    are read only down to the credence that can still reach the current k-th score — a range of the
 *    `(scope, term, credence)` index, each with every query term its belief holds — and a term whose best possible
 *    contribution cannot reach it is not read at all.
 * 3. **Exact re-rank**: the engine's `rankByTerms` over the candidates within SLACK of the k-th score, with the
 *    statistics of step 1 (`corpus`): the order, ties included (credence, then id), and every score are those of the
 *    exhaustive ranking (property test: sql-search.test.ts).
 * A `minRelevance` (not carried by the postings) and a domain of at most SMALL_DOMAIN beliefs (cheaper to rank whole)
 * go the exhaustive way (`null`: the caller ranks `searchCandidateStats`).
 */
import { rankByTerms, termSet } from "@/lib/engine";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import type { CandidateStats, ScopeView, TopK, TopKOptions } from "../graph-store";
import { candidateStatsOf } from "../graph-store";
import { SMALL_DOMAIN, topKCandidates, type TopKTuning } from "../top-k-walk";

export type { TopK, TopKOptions } from "../graph-store";

export { MAX_WINDOW, SLACK } from "../top-k-walk";

interface StatsRow {
  term: string | null;
  n: number | string;
}

/** Terms a query can match: the engine's content terms (letters and digits only, as the store writes them). */
function queryTermsOf(query: string): string[] {
  return [...termSet(query)].filter((t) => /^[\p{L}\p{N}]+$/u.test(t));
}

export interface SqlSearch {
  /**
   * The best k candidates, ranked exactly as the engine ranks the whole domain, or null when this query must take the
   * exhaustive path (see the module comment).
   */
  topK(view: ScopeView, query: string, options: TopKOptions): Promise<TopK | null>;
}

export type SqlSearchTuning = TopKTuning;

interface PostingRow {
  belief_id: string;
  credence: number | string;
  n_terms: number | string;
  matched: string[];
}

/**
 * One term's postings (credence ≥ $4, best credence first, at most $6), each with every query term its belief holds.
 * [scope, terms, term, minCredence, includeEnded, limit]
 */
const TERM_POSTINGS = `
  SELECT p.belief_id, p.credence, p.n_terms,
         (SELECT array_agg(a.term) FROM graph_postings a WHERE a.scope = $1 AND a.term = ANY($2::text[]) AND a.belief_id = p.belief_id) AS matched
  FROM graph_postings p
  WHERE p.scope = $1 AND p.term = $3 AND p.credence >= $4 AND ($5::boolean OR p.current)
  ORDER BY p.credence DESC LIMIT $6`;

export function createSqlSearch(sql: SqlExecutor, tuning: SqlSearchTuning = {}): SqlSearch {
  const bigList = tuning.bigList ?? 4_000;
  const smallDomain = tuning.smallDomain ?? SMALL_DOMAIN;
  return {
    async topK(view, query, options) {
      const terms = queryTermsOf(query);
      const k = Math.max(0, Math.floor(options.k ?? 10));
      const none: TopK = { ranked: [], corpus: { n: 0, df: new Map() } };
      if (terms.length === 0 || k === 0) return none;
      const home = view.homeScopeId;
      const visible = [...view.visibleScopeIds];
      if (!visible.includes(home)) return none;
      if ((options.minRelevance ?? 0) !== 0) return null;
      const includeEnded = options.includeEnded ?? false;
      const minCredence = options.minCredence ?? null;
      // Step 1: N and df, from the postings alone.
      const stats = await sql.query<StatsRow>(
        `WITH p AS (
           SELECT term, belief_id FROM graph_postings
           WHERE scope = $1 AND term = ANY($2::text[]) AND ($3::boolean OR current) AND ($4::float8 IS NULL OR credence >= $4))
         SELECT term, count(*) AS n FROM p GROUP BY term
         UNION ALL SELECT NULL, count(DISTINCT belief_id) FROM p`,
        [home, terms, includeEnded, minCredence],
      );
      let n = 0;
      const df = new Map<string, number>();
      for (const row of stats) {
        if (row.term === null) n = Number(row.n);
        else df.set(row.term, Number(row.n));
      }
      if (n === 0) return none;
      if (n <= smallDomain) return null;

      // Step 2: the MaxScore walk over the postings.
      const best = await topKCandidates({
        query,
        terms,
        n,
        df,
        k,
        bigList,
        read: async (term, floor, limit) => {
          const rows = await sql.query<PostingRow>(TERM_POSTINGS, [home, terms, term, Math.max(floor, minCredence ?? -1), includeEnded, limit]);
          return rows.map((row) => ({ id: row.belief_id, credence: Number(row.credence), nTerms: Number(row.n_terms), matched: row.matched }));
        },
      });
      if (best === null) return null;

      // Step 3: the candidates within SLACK of the k-th score, their slim rows, ranked exactly.
      const rows = await sql.query<Record<string, unknown>>(
        `SELECT id, credence, status, topic,
                CASE WHEN data->'contextTags' <> '[]'::jsonb THEN data->'contextTags' END AS "contextTags",
                CASE WHEN valid_until IS NOT NULL THEN data->>'validUntil' END AS "validUntil", search_terms AS terms
         FROM graph_beliefs WHERE id = ANY($1::text[]) AND scope = $2`,
        [best, home],
      );
      const candidates: CandidateStats[] = rows.map((row) => candidateStatsOf({ ...row, scope: home, contextTags: row.contextTags ?? [] }));
      const ranked = rankByTerms(query, candidates, {
        k,
        includeEnded,
        scope: home,
        ...(options.minCredence !== undefined ? { minCredence: options.minCredence } : {}),
        corpus: { n, df },
      }).map(({ item, relevance, score }) => ({ candidate: item, relevance, score }));
      return { ranked, corpus: { n, df } };
    },
  };
}
