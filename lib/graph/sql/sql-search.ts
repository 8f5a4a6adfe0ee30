/**
 * Top-k lexical retrieval on the SQL store from postings (table and triggers:
 * prisma/migrations/20261201155229_graph_postings, impact index: 20261201193000_graph_postings_impact): the result
 * equals `rankCandidateStats(query, searchCandidateStats(view, query, options), options)` — the engine's ranking of the
 * whole matching domain — without shipping that domain to the client, and without reading every posting of a common
 * term.
 *
 * 1. **Statistics**, exact: df per term from the per-(scope, term) counts the triggers keep (`graph_term_counts`,
 *    migration 20261201221000_graph_term_counts: a few row reads, however common the term); N = how many distinct
 *    qualifying beliefs match any query term (the ranking's idf is defined over that domain): the union of the terms'
 *    postings counted, or, when the commonest term t*'s list dwarfs the others', df(t*) + the beliefs holding another
 *    term but not t*, so that t*'s postings are never read (COUNTED_STATS). With a `minCredence` (which the counts do
 *    not carry) both are counted over the postings instead.
 * 2. **Candidates** (`topKCandidates`, ../top-k-walk.ts: MaxScore over the terms, rarest first): a term's postings
 *    are read only down to the credence that can still reach the current k-th score — a range of the
 *    `(scope, term, credence)` index, each with every query term its belief holds — and a term whose best possible
 *    contribution cannot reach it is not read at all.
 * 3. **Exact re-rank**: the engine's `rankByTerms` over the candidates within SLACK of the k-th score, with the
 *    statistics of step 1 (`corpus`): the order, ties included (credence, then id), and every score are those of the
 *    exhaustive ranking (property test: sql-search.test.ts).
 * A domain of at most SMALL_DOMAIN beliefs is cheaper to rank whole than to walk: step 1's statement then reads every
 * term's whole list (no head limit), scores the domain by the engine's formula and ships only the rows within SLACK of
 * the k-th score, which are ranked exactly from that one read. A `minRelevance` (not carried by the postings) goes the
 * exhaustive way (`null`: the caller ranks `searchCandidateStats`).
 */
import { rankByTerms, termSet } from "@/lib/engine";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import type { CandidateStats, ScopeView, TopK, TopKOptions } from "../graph-store";
import { candidateStatsOf } from "../graph-store";
import { SLACK, SMALL_DOMAIN, topKCandidates, type TopKTuning } from "../top-k-walk";
import { slimTermsSql } from "./sql-queries";

export type { TopK, TopKOptions } from "../graph-store";

export { MAX_WINDOW, SLACK } from "../top-k-walk";

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

export interface SqlSearchTuning extends TopKTuning {
  /** How many beliefs of each term's list step 1 reads (default `headSize`; tests lower it to exercise the walk). */
  prefetch?: number;
  /**
   * N is counted over the union of the query terms' postings while df(t*) ≤ this × the other terms' df summed, else
   * t*'s postings are skipped and the others probe it (COUNTED_STATS; default UNION_RATIO; tests force each way with
   * 0 and 1e12).
   */
  unionRatio?: number;
}

/**
 * Reading a posting index-only costs ~1/16 of probing one (COUNTED_STATS), so the union is cheaper until df(t*) is
 * ~15× the others' sum; 8 leaves room for the probe way's better cache locality on a very common term.
 */
export const UNION_RATIO = 8;

/** The least list head step 1 reads per term. */
export const HEAD = 20;

/**
 * Step 1 reads each term's best 2k postings, so that a sentence's ranking is most often served by that one read. A
 * query of many terms (an ingested text: 20–40) shares `HEAD_BUDGET` × k among its terms instead, never under HEAD
 * each: 2k heads of 30 terms are thousands of belief rows, and the walk reads on from the heads where the ranking
 * needs more (the result is the same either way). Measured with the real model on text written by others
 * (research/measure-candidate-pools.ts, 16 340 public sentences as beliefs, PGlite in process): ranking texts of three
 * of its questions with ingest's k = 50 from 100 lexical candidates took 169 ms of CPU a call with 2k heads (2 601
 * rows in 4.5 statements) and 110 ms with this budget (2 849 rows, most of them postings rather than belief rows, in
 * 17 statements); a sentence of up to 8 terms reads 2k heads as before.
 */
const HEAD_BUDGET = 16;

/** How many postings of each term's list step 1 reads for a ranking of k over `terms` query terms. */
export function headSize(k: number, terms: number): number {
  return Math.max(HEAD, Math.min(2 * k, Math.ceil((HEAD_BUDGET * k) / Math.max(1, terms))));
}

interface PostingRow {
  belief_id: string;
  credence: number | string;
  n_terms: number | string;
  matched: string[];
}

/**
 * One term's postings (credence ≥ $4, best credence first, at most $6), each with every query term its belief holds:
 * the term itself, and those of the other query terms `$2` that its belief holds (one primary-key probe per other
 * term: the term's own posting is not probed again). [scope, the other query terms, term, minCredence, includeEnded, limit]
 */
const TERM_POSTINGS = `
  SELECT p.belief_id, p.credence, p.n_terms,
         array_prepend($3::text, ARRAY(SELECT a.term FROM graph_postings a WHERE a.scope = $1 AND a.term = ANY($2::text[]) AND a.belief_id = p.belief_id)) AS matched
  FROM graph_postings p
  WHERE p.scope = $1 AND p.term = $3 AND p.credence >= $4 AND ($5::boolean OR p.current)
  ORDER BY p.credence DESC LIMIT $6`;

/**
 * df per term from the counts; N, the distinct beliefs holding any query term, one of two exact ways chosen in the
 * statement from those counts (t* = the commonest term, ties by term; `$7` = the ratio below which the union is read):
 * - **the union**, when df(t*) ≤ $7 × the other terms' df summed: every query term's postings read index-only and
 *   their belief ids counted distinct (~0.35 µs a posting on this machine);
 * - **t* by its count**, when its list dwarfs the others: N = df(t*) + the beliefs holding another term but not t*,
 *   each of the other terms' postings probing t* by the primary key (~6 µs a posting), so t*'s postings are never
 *   read. OFFSET 0 keeps NOT EXISTS a per-row probe: as an anti join the planner hashed the whole scope's postings,
 *   12 s at 10⁶ beliefs.
 * Only the branch the CASE takes runs (each is a sub-plan evaluated on demand). Measured on a 2 418-belief scope with
 * two terms in every other belief: the probe way 22 ms, the union 2.3 ms.
 * Rows: (term, df) per term with a count, then (NULL, N). [scope, terms, includeEnded, …, $7 union ratio]
 */
const COUNTED_STATS = `
  WITH d AS (
    SELECT term, sum(CASE WHEN $3::boolean THEN n_all ELSE n_current END)::bigint AS n
    FROM graph_term_counts WHERE scope = $1 AND term = ANY($2::text[]) GROUP BY term),
  top AS (SELECT term, n FROM d WHERE n > 0 ORDER BY n DESC, term LIMIT 1),
  others AS (SELECT coalesce(sum(n), 0) AS n FROM d WHERE n > 0 AND term <> (SELECT term FROM top))
  SELECT term, n FROM d WHERE n > 0
  UNION ALL SELECT NULL, CASE
    WHEN coalesce((SELECT n FROM top), 0) <= $7::float8 * (SELECT n FROM others) THEN (
      SELECT count(*) FROM (
        SELECT DISTINCT p.belief_id FROM graph_postings p
        WHERE p.scope = $1 AND p.term = ANY(ARRAY(SELECT term FROM d WHERE n > 0)) AND ($3::boolean OR p.current)) AS u)
    ELSE coalesce((SELECT n FROM top), 0) + (
      SELECT count(DISTINCT p.belief_id) FROM graph_postings p
      WHERE p.scope = $1 AND p.term = ANY(ARRAY(SELECT term FROM d WHERE n > 0 AND term <> (SELECT term FROM top))) AND ($3::boolean OR p.current)
        AND NOT EXISTS (SELECT 1 FROM graph_postings q WHERE q.scope = $1 AND q.term = (SELECT term FROM top) AND q.belief_id = p.belief_id OFFSET 0))
    END`;

/** N and df counted over the postings (a `minCredence`, which the counts do not carry). [scope, terms, includeEnded, minCredence] */
const POSTINGS_STATS = `
  WITH p AS (
    SELECT term, belief_id FROM graph_postings
    WHERE scope = $1 AND term = ANY($2::text[]) AND ($3::boolean OR current) AND credence >= $4::float8)
  SELECT term, count(*) AS n FROM p GROUP BY term
  UNION ALL SELECT NULL, count(DISTINCT belief_id) FROM p`;

/**
 * The slim row columns of graph_beliefs `b` (the exhaustive path's `CANDIDATE_STATS`), with only the query's terms of
 * each belief (`termsParam`, `slimTermsSql`): the candidates are ranked by this query alone.
 */
const slimColumns = (termsParam: string) => `b.id, b.credence, b.status,
  CASE WHEN b.data->'contextTags' <> '[]'::jsonb THEN b.data->'contextTags' END AS "contextTags",
  CASE WHEN b.valid_until IS NOT NULL THEN b.data->>'validUntil' END AS "validUntil", ${slimTermsSql("b.search_terms", termsParam)}`;

/**
 * Step 1 and the head of every term's list in ONE statement: the statistics rows (`stat` = NULL for N), then per
 * query term its best `$5` qualifying beliefs by credence — every one of them when N is at most `$6` (a small domain,
 * ranked whole from this read) — as one slim row per belief with the query terms whose heads it is in (`qterms`): a
 * belief in several heads is read and shipped once. `stats` reads [$1 scope, $2 terms, $3 includeEnded] (and $4
 * minCredence); the heads take $4 as their credence floor.
 *
 * A small domain is scored here by the engine's formula (`rankByTerms`: idf over N and df, coverage of the query's
 * idf, focus on the belief's own terms, × credence), and only its rows within SLACK of the `kParam`-th best score
 * travel: the client ranks those exactly with the same N and df, so the database's floating point only picks them
 * (as the Neo4j statement does). Shipping the whole domain cost ~170 bytes a belief for rows the ranking drops.
 * Postgres raises an error where a float8 product underflows (a credence of 5e-324): a credence under 1e-200 scores 0
 * here, within SLACK of its true score, so the window still holds every row that can rank.
 */
function firstRead(stats: string, kParam: string): string {
  return `
  WITH s AS (${stats}),
  nn AS (SELECT n::float8 AS n FROM s WHERE term IS NULL),
  h AS (
    SELECT x.belief_id, array_agg(t.term) AS qterms
    FROM unnest($2::text[]) AS t(term),
    LATERAL (SELECT p.belief_id FROM graph_postings p
             WHERE p.scope = $1 AND p.term = t.term AND ($3::boolean OR p.current) AND p.credence >= $4::float8
             ORDER BY p.credence DESC LIMIT (SELECT CASE WHEN s.n <= $6::bigint THEN NULL ELSE $5::bigint END FROM s WHERE s.term IS NULL)) x
    GROUP BY x.belief_id),
  f AS (SELECT h.qterms, ${slimColumns("$2")} FROM h JOIN graph_beliefs b ON b.id = h.belief_id),
  w AS (SELECT t.term, ln(1 + ((SELECT n FROM nn) - coalesce(d.n, 0) + 0.5) / (coalesce(d.n, 0) + 0.5)) AS idf
        FROM unnest($2::text[]) AS t(term) LEFT JOIN s AS d ON d.term = t.term),
  scored AS (
    SELECT f.*, CASE WHEN (SELECT n FROM nn) <= $6::bigint THEN
      CASE WHEN f."termCount" > 0 THEN
        LEAST(1.0, (SELECT coalesce(sum(w.idf), 0) FROM w WHERE w.term = ANY(f.qterms)) / (SELECT sum(w.idf) FROM w)
                   * (0.8 + 0.2 * LEAST(1.0, cardinality(f.qterms)::float8 / f."termCount")))
          * CASE WHEN f.credence < 1e-200 THEN 0 ELSE f.credence END
      ELSE 0 END END AS score
    FROM f),
  kth AS (SELECT score FROM scored WHERE score IS NOT NULL ORDER BY score DESC OFFSET ${kParam}::int - 1 LIMIT 1)
  SELECT TRUE AS stat, term AS qterm, NULL::text[] AS qterms, n, NULL::text AS id, NULL::float8 AS credence, NULL::text AS status,
         NULL::jsonb AS "contextTags", NULL::text AS "validUntil", NULL::text AS terms, NULL::int AS "termCount" FROM s
  UNION ALL SELECT FALSE, NULL, qterms, NULL, id, credence, status, "contextTags", "validUntil", terms, "termCount" FROM scored
  WHERE score IS NULL OR NOT EXISTS (SELECT 1 FROM kth) OR score >= (SELECT score FROM kth) - ${SLACK}`;
}
const FIRST_READ_COUNTED = firstRead(COUNTED_STATS, "$8");
const FIRST_READ_POSTINGS = firstRead(POSTINGS_STATS, "$7");

interface FirstRow extends Record<string, unknown> {
  stat: boolean;
  /** A statistics row's term (null: N). */
  qterm: string | null;
  /** A slim row's query terms whose heads hold it. */
  qterms: string[] | null;
  n: number | string | null;
}

/** A term's list head read in step 1, best credence first; `complete` when it is the whole list. */
interface Head {
  rows: CandidateStats[];
  complete: boolean;
}

export function createSqlSearch(sql: SqlExecutor, tuning: SqlSearchTuning = {}): SqlSearch {
  const bigList = tuning.bigList ?? 4_000;
  const smallDomain = tuning.smallDomain ?? SMALL_DOMAIN;
  const unionRatio = tuning.unionRatio ?? UNION_RATIO;
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
      const headLength = tuning.prefetch ?? headSize(k, terms.length);
      // Step 1: N and df, and every term's best `headLength` beliefs (one round trip).
      const first = await sql.query<FirstRow>(
        minCredence === null ? FIRST_READ_COUNTED : FIRST_READ_POSTINGS,
        [home, terms, includeEnded, minCredence ?? -1, headLength, smallDomain, ...(minCredence === null ? [unionRatio] : []), k],
      );
      let n = 0;
      const df = new Map<string, number>();
      const heads = new Map<string, Head>(terms.map((t) => [t, { rows: [], complete: false }]));
      const slim = new Map<string, CandidateStats>();
      for (const row of first) {
        if (row.stat) {
          if (row.qterm === null) n = Number(row.n);
          else df.set(row.qterm, Number(row.n));
          continue;
        }
        row.scope = home;
        row.contextTags ??= [];
        const c = candidateStatsOf(row);
        slim.set(c.id, c);
        for (const term of row.qterms ?? []) heads.get(term)?.rows.push(c);
      }
      for (const head of heads.values()) {
        head.rows.sort((a, b) => b.credence - a.credence);
        head.complete = head.rows.length < headLength || n <= smallDomain;
      }
      if (n === 0) return none;
      const rank = (candidates: readonly CandidateStats[]): TopK => ({
        ranked: rankByTerms(query, candidates, {
          k,
          includeEnded,
          scope: home,
          ...(options.minCredence !== undefined ? { minCredence: options.minCredence } : {}),
          corpus: { n, df },
        }).map(({ item, relevance, score }) => ({ candidate: item, relevance, score })),
        corpus: { n, df },
      });
      // Every list read whole (a small domain always is): the domain's candidates are in hand, ranked right here.
      if ([...heads.values()].every((h) => h.complete)) return rank([...slim.values()]);

      // Step 2: the MaxScore walk, served from the heads while they reach down to the asked credence.
      const termSetOfQuery = new Set(terms);
      const matchOf = (c: CandidateStats) => ({ id: c.id, credence: c.credence, nTerms: c.termCount ?? c.terms.length, matched: c.terms.filter((t) => termSetOfQuery.has(t)) });
      const best = await topKCandidates({
        query,
        terms,
        n,
        df,
        k,
        bigList,
        read: async (term, floor, limit) => {
          const head = heads.get(term);
          if (head) {
            const from = head.rows.filter((c) => c.credence >= floor);
            const last = head.rows[head.rows.length - 1];
            if (head.complete || (last !== undefined && last.credence < floor) || (limit !== null && from.length >= limit)) {
              return (limit === null ? from : from.slice(0, limit)).map(matchOf);
            }
          }
          const rows = await sql.query<PostingRow>(TERM_POSTINGS, [home, terms.filter((t) => t !== term), term, Math.max(floor, minCredence ?? -1), includeEnded, limit]);
          return rows.map((row) => ({ id: row.belief_id, credence: Number(row.credence), nTerms: Number(row.n_terms), matched: row.matched }));
        },
      });
      if (best === null) return null;

      // Step 3: the candidates within SLACK of the k-th score (slim rows not read yet: one read), ranked exactly.
      const missing = best.filter((id) => !slim.has(id));
      if (missing.length > 0) {
        const rows = await sql.query<Record<string, unknown>>(`SELECT ${slimColumns("$3")} FROM graph_beliefs b WHERE b.id = ANY($1::text[]) AND b.scope = $2`, [missing, home, terms]);
        for (const row of rows) {
          const c = candidateStatsOf({ ...row, scope: home, contextTags: row.contextTags ?? [] });
          slim.set(c.id, c);
        }
      }
      return rank(best.flatMap((id) => slim.get(id) ?? []));
    },
  };
}
