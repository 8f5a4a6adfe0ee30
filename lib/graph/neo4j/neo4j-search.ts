/**
 * Top-k lexical retrieval on Neo4j: the result equals `rankCandidateStats(query, searchCandidateStats(view, query,
 * options), options)` — the engine's ranking of the whole matching domain — in ONE round trip, without sending that
 * domain to the client (`read.topKRankedBySets` / `read.topKRankedByTerms`): the full-text index
 * (`credence_belief_search`, one token per content term, the scope token required) yields the qualifying matches with
 * the query terms each holds, never reading a belief's terms; the statement counts N and df per term over them, groups
 * them by score shape, and returns the slim rows of the candidates within SLACK of the k-th score (a group's first k
 * by credence, then id, of the groups that can reach it); the engine's `rankByTerms` then ranks those exactly with
 * the same N and df (the database's floating point only picks the candidates). Lucene keeps no credence order, so
 * the SQL store's MaxScore walk (`../top-k-walk.ts`) would still visit every match: here the work per match is a few
 * property reads where the match is. More than MAX_WINDOW near-ties of the k-th score, or a `minRelevance`: null
 * (the exhaustive path).
 */
import neo4j from "neo4j-driver";
import { rankByTerms, tokenize } from "@/lib/engine";
import { candidateStatsOf } from "../graph-store";
import type { CandidateStats, ScopeView, TopK, TopKOptions } from "../graph-store";
import { MAX_WINDOW, SLACK, type TopKTuning } from "../top-k-walk";
import { read } from "./neo4j-cypher";
import { ftScopeToken } from "./neo4j-records";

type Row = Record<string, unknown>;

/**
 * Up to this many query terms, one full-text query per non-empty subset of them (2^terms − 1: 15) meets each belief
 * once with its exact set of terms; more terms, one query per term and the sets gathered per belief in the statement.
 * Measured at 100 000 beliefs, three terms matching 57 000: the set queries cost what the term queries cost, the
 * gathering ~50 ms more.
 */
export const SET_QUERY_TERMS = 4;

export interface Neo4jSearchTuning extends TopKTuning {
  /** See SET_QUERY_TERMS (tests set 0 to take the per-term head on every query). */
  setQueryTerms?: number;
}

export interface Neo4jSearchDeps {
  ns: string;
  query(cypher: string, params: Row): Promise<Row[]>;
  candidateStatsByIds(view: ScopeView, ids: readonly string[]): Promise<readonly CandidateStats[]>;
  /** The SQL walk's knobs are accepted and unused; `setQueryTerms` picks the statement's head. */
  tuning?: Neo4jSearchTuning;
}

function num(value: unknown): number {
  return neo4j.isInt(value) ? (value as ReturnType<typeof neo4j.int>).toNumber() : Number(value);
}

export async function neo4jTopK(deps: Neo4jSearchDeps, view: ScopeView, text: string, options: TopKOptions): Promise<TopK | null> {
  const terms = [...new Set(tokenize(text))];
  const k = Math.max(0, Math.floor(options.k ?? 10));
  const none: TopK = { ranked: [], corpus: { n: 0, df: new Map() } };
  if (terms.length === 0 || k === 0 || !view.visibleScopeIds.includes(view.homeScopeId)) return none;
  if ((options.minRelevance ?? 0) !== 0) return null;
  const includeEnded = options.includeEnded ?? false;
  // Terms are [\p{L}\p{N}]+ and lower-case: nothing in them is Lucene syntax. The scope token is required.
  const scope = `+ftScope:${ftScopeToken(deps.ns, view.homeScopeId)}`;
  const bySets = terms.length <= (deps.tuning?.setQueryTerms ?? SET_QUERY_TERMS);
  const rows = await deps.query(bySets ? read.topKRankedBySets : read.topKRankedByTerms, {
    home: view.homeScopeId,
    visible: [...view.visibleScopeIds],
    includeEnded,
    minCredence: options.minCredence ?? null,
    sets: bySets ? termSets(scope, terms) : terms.map((t, i) => ({ query: `${scope} +searchTerms:${t}`, matched: [neo4j.int(i)] })),
    terms,
    k: neo4j.int(k),
    slack: SLACK,
    window: neo4j.int(MAX_WINDOW + 1),
  });
  const first = rows[0];
  if (!first) return none;
  if (rows.length > MAX_WINDOW) return null;
  const n = num(first.n);
  const counts = (first.df as unknown[]).map(num);
  const df = new Map<string, number>(terms.map((t, i) => [t, counts[i] ?? 0]));
  const candidates = rows.map((row) => candidateStatsOf({ ...row, scope: view.homeScopeId, contextTags: row.contextTags ?? [] }));
  const ranked = rankByTerms(text, candidates, {
    k,
    includeEnded,
    scope: view.homeScopeId,
    ...(options.minCredence !== undefined ? { minCredence: options.minCredence } : {}),
    corpus: { n, df },
  }).map(({ item, relevance, score }) => ({ candidate: item, relevance, score }));
  return { ranked, corpus: { n, df } };
}

/** One full-text query per non-empty subset of `terms`: its terms required, the others prohibited; `matched` = its indexes. */
function termSets(scope: string, terms: readonly string[]): { query: string; matched: ReturnType<typeof neo4j.int>[] }[] {
  const sets = [];
  for (let mask = 1; mask < 2 ** terms.length; mask++) {
    const clauses = terms.map((t, i) => `${mask & (1 << i) ? "+" : "-"}searchTerms:${t}`);
    const matched = terms.flatMap((_, i) => (mask & (1 << i) ? [neo4j.int(i)] : []));
    sets.push({ query: `${scope} ${clauses.join(" ")}`, matched });
  }
  return sets;
}
