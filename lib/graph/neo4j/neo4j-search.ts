/**
 * Top-k lexical retrieval on Neo4j: the result equals `rankCandidateStats(query,
 * searchCandidateStats(view, query, options), options)` — the engine's ranking of the whole matching domain — in ONE
 * round trip, without sending that domain to the client (`read.topKRanked`): the full-text index
 * (`credence_belief_search`, one token per content term, the scope token required) yields the matches of any query
 * term once; the statement counts N and df per term over the qualifying ones, scores each by the engine's formula
 * and returns the slim rows of those within SLACK of the k-th score; the engine's `rankByTerms` then ranks those
 * exactly with the same N and df (the database's floating point only picks the candidates). Lucene keeps no credence
 * order, so the SQL store's MaxScore walk (`../top-k-walk.ts`) would still visit every match: here the work per
 * match is done where the match is, and the earlier walk's 3–6 round trips (a capped domain read, per-term counts,
 * a read per term, the candidates' rows) are one. More than MAX_WINDOW near-ties of the k-th score, or a
 * `minRelevance`: null (the exhaustive path).
 */
import neo4j from "neo4j-driver";
import { rankByTerms, tokenize } from "@/lib/engine";
import { candidateStatsOf } from "../graph-store";
import type { CandidateStats, ScopeView, TopK, TopKOptions } from "../graph-store";
import { MAX_WINDOW, SLACK, type TopKTuning } from "../top-k-walk";
import { read } from "./neo4j-cypher";
import { ftScopeToken } from "./neo4j-records";

type Row = Record<string, unknown>;

export interface Neo4jSearchDeps {
  ns: string;
  query(cypher: string, params: Row): Promise<Row[]>;
  candidateStatsByIds(view: ScopeView, ids: readonly string[]): Promise<readonly CandidateStats[]>;
  /** Accepted for the SQL walk's knobs; the one-statement top k has none. */
  tuning?: TopKTuning;
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
  const rows = await deps.query(read.topKRanked, {
    home: view.homeScopeId,
    visible: [...view.visibleScopeIds],
    includeEnded,
    minCredence: options.minCredence ?? null,
    query: `${scope} +searchTerms:(${terms.join(" ")})`,
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
