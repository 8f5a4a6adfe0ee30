/**
 * Top-k lexical retrieval on the SQL store from postings (issue #12; table and triggers:
 * prisma/migrations/20261201155229_graph_postings): the result equals `rankCandidateStats(query,
 * searchCandidateStats(view, query, options), options)` — the engine's ranking of the whole matching domain — without
 * shipping that domain to the client.
 *
 * 1. **Statistics** (one index-only read of the query terms' postings, aggregated in the database): N = how many
 *    distinct qualifying beliefs match any query term, df per term.
 * 2. **Best candidates**: the same postings, grouped per belief, scored in SQL by the engine's formula with the idf
 *    values of step 1 (relevance = min(1, coverage · (0.8 + 0.2 · min(1, matched / n_terms))) × credence); every
 *    belief whose score reaches the k-th best score less SLACK is returned (the database's float sums may differ from
 *    JavaScript's in the last bits, so near-ties at the boundary all come along; a credence below 1e-300 counts as 0
 *    there, as Postgres refuses to underflow). Only those beliefs' rows are read.
 * 3. **Exact re-rank**: the engine's `rankByTerms` over those rows with the statistics of step 1 (`corpus`), so the
 *    order, ties included (credence, then id), and every score are those of the exhaustive ranking.
 * A `minRelevance` (the SQL window does not apply it) and more than MAX_WINDOW near-ties go the exhaustive way
 * (`null`: the caller ranks `searchCandidateStats`).
 */
import { idfOf, rankByTerms, termSet, type CorpusStats, type RetrieveOptions } from "@/lib/engine";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import type { CandidateStats, ScopeView } from "../graph-store";
import { candidateStatsOf } from "../graph-store";
import type { RankedCandidate } from "../rank-candidate-stats";

/** Score difference within which the database's and the engine's arithmetic are treated as possibly equal. */
export const SLACK = 1e-9;
/** Near-ties of the k-th score beyond this many: the exhaustive path answers (a corpus of identical texts). */
export const MAX_WINDOW = 2_000;

export interface TopKOptions extends Pick<RetrieveOptions, "k" | "minCredence" | "minRelevance"> {
  includeEnded?: boolean;
}

export interface TopK {
  ranked: RankedCandidate[];
  /** The whole qualifying domain's idf inputs (for ranking a wider candidate set alike: `RetrieveOptions.corpus`). */
  corpus: CorpusStats;
}

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

export function createSqlSearch(sql: SqlExecutor): SqlSearch {
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
      const queryTerms = [...termSet(query)];
      const idf = terms.map((t) => idfOf(n, df.get(t) ?? 0));
      const total = queryTerms.reduce((sum, t) => sum + idfOf(n, df.get(t) ?? 0), 0);
      // Step 2: every belief whose SQL score reaches the k-th best SQL score (less SLACK): the exact top k is among them.
      const best = await sql.query<{ belief_id: string }>(
        `WITH s AS (
           SELECT p.belief_id,
                  least(1, sum(q.idf) / $6::float8 * (0.8 + 0.2 * least(1, count(*)::float8 / max(p.n_terms))))
                    * CASE WHEN max(p.credence) < 1e-300 THEN 0 ELSE max(p.credence) END AS score
           FROM graph_postings p JOIN unnest($2::text[], $5::float8[]) AS q(term, idf) ON q.term = p.term
           WHERE p.scope = $1 AND p.term = ANY($2::text[]) AND ($3::boolean OR p.current) AND ($4::float8 IS NULL OR p.credence >= $4)
           GROUP BY p.belief_id),
         kth AS (SELECT score FROM s ORDER BY score DESC LIMIT 1 OFFSET $7)
         SELECT belief_id FROM s WHERE score >= COALESCE((SELECT score FROM kth), -1) - $8 ORDER BY score DESC LIMIT $9`,
        [home, terms, includeEnded, minCredence, idf, total, k - 1, SLACK, MAX_WINDOW + 1],
      );
      if (best.length > MAX_WINDOW) return null;
      // Step 3: their slim rows, ranked exactly with the whole domain's statistics.
      const rows = await sql.query<Record<string, unknown>>(
        `SELECT id, credence, status, topic,
                CASE WHEN data->'contextTags' <> '[]'::jsonb THEN data->'contextTags' END AS "contextTags",
                CASE WHEN valid_until IS NOT NULL THEN data->>'validUntil' END AS "validUntil", search_terms AS terms
         FROM graph_beliefs WHERE id = ANY($1::text[]) AND scope = $2`,
        [best.map((b) => b.belief_id), home],
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
