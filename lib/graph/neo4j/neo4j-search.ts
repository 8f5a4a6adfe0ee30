/**
 * Top-k lexical retrieval on Neo4j (issue #12): the result equals `rankCandidateStats(query,
 * searchCandidateStats(view, query, options), options)` — the engine's ranking of the whole matching domain — without
 * sending that domain to the client, the same three steps as the SQL store's postings (`../sql/sql-search.ts`), read
 * from the full-text index (`credence_belief_search`, one token per content term, the scope token required):
 * 1. **statistics**: per term, how many qualifying beliefs of the home scope hold it, and how many hold any (counted
 *    in the database, nothing returned per belief);
 * 2. **candidates**: the MaxScore walk (`../top-k-walk.ts`), each term's beliefs read best credence first down to the
 *    credence that can still reach the k-th score (Lucene has no credence order, so the database still visits the
 *    term's matches, but returns only those);
 * 3. **exact re-rank**: the candidates' slim rows ranked by the engine's `rankByTerms` with the statistics of step 1.
 * First, one capped read of the matching domain's slim rows: a domain of at most SMALL_DOMAIN beliefs is then ranked
 * whole right there (one round trip, as the exhaustive path: the statistics query costs as much as reading a small
 * domain, measured at 10 000 beliefs). A `minRelevance` goes the exhaustive way (null).
 */
import neo4j from "neo4j-driver";
import { isLiveCandidate, rankByTerms, tokenize } from "@/lib/engine";
import { candidateStatsOf } from "../graph-store";
import type { CandidateStats, ScopeView, TopK, TopKOptions } from "../graph-store";
import { SMALL_DOMAIN, topKCandidates, type TopKTuning } from "../top-k-walk";
import { read } from "./neo4j-cypher";
import { ftScopeToken } from "./neo4j-records";

type Row = Record<string, unknown>;

export interface Neo4jSearchDeps {
  ns: string;
  query(cypher: string, params: Row): Promise<Row[]>;
  candidateStatsByIds(view: ScopeView, ids: readonly string[]): Promise<readonly CandidateStats[]>;
  tuning?: TopKTuning;
}

const NO_LIMIT = 1_000_000_000;

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
  const anchor = { home: view.homeScopeId, visible: [...view.visibleScopeIds], includeEnded };
  // Terms are [\p{L}\p{N}]+ and lower-case: nothing in them is Lucene syntax. The scope token is required.
  const scope = `+ftScope:${ftScopeToken(deps.ns, view.homeScopeId)}`;
  const smallDomain = deps.tuning?.smallDomain ?? SMALL_DOMAIN;
  if (smallDomain > 0) {
    const rows = await deps.query(read.topKDomain, { ...anchor, query: `${scope} +searchTerms:(${terms.join(" ")})`, limit: neo4j.int(smallDomain + 1) });
    if (rows.length <= smallDomain) {
      const domain = rows.map((row) => candidateStatsOf({ ...row, scope: view.homeScopeId, contextTags: row.contextTags ?? [] }));
      const ranked = rankByTerms(text, domain, {
        k,
        includeEnded,
        scope: view.homeScopeId,
        ...(options.minCredence !== undefined ? { minCredence: options.minCredence } : {}),
      }).map(({ item, relevance, score }) => ({ candidate: item, relevance, score }));
      return { ranked, corpus: corpusOf(text, domain, includeEnded, options.minCredence) };
    }
  }
  const stats = await deps.query(read.topKStats, {
    ...anchor,
    minCredence: options.minCredence ?? null,
    termQueries: terms.map((term) => ({ term, query: `${scope} +searchTerms:${term}` })),
    anyQuery: `${scope} +searchTerms:(${terms.join(" ")})`,
  });
  let n = 0;
  const df = new Map<string, number>();
  for (const row of stats) {
    if (row.term === null) n = num(row.n);
    else df.set(String(row.term), num(row.n));
  }
  if (n === 0) return none;
  const queryTerms = new Set(terms);
  const best = await topKCandidates({
    query: text,
    terms,
    n,
    df,
    k,
    bigList: deps.tuning?.bigList ?? 4_000,
    read: async (term, floor, limit) => {
      const rows = await deps.query(read.topKTerm, {
        ...anchor,
        query: `${scope} +searchTerms:${term}`,
        floor: Math.max(floor, options.minCredence ?? -1),
        limit: neo4j.int(limit ?? NO_LIMIT),
      });
      return rows.map((row) => {
        const own = String(row.terms ?? "").split(" ").filter(Boolean);
        return { id: String(row.id), credence: num(row.credence), nTerms: own.length, matched: own.filter((t) => queryTerms.has(t)) };
      });
    },
  });
  if (best === null) return null;
  const candidates = await deps.candidateStatsByIds(view, best);
  const ranked = rankByTerms(text, candidates, {
    k,
    includeEnded,
    scope: view.homeScopeId,
    ...(options.minCredence !== undefined ? { minCredence: options.minCredence } : {}),
    corpus: { n, df },
  }).map(({ item, relevance, score }) => ({ candidate: item, relevance, score }));
  return { ranked, corpus: { n, df } };
}

/** N and df over the qualifying part of a domain read whole (what `rankByTerms` counts itself). */
function corpusOf(text: string, domain: readonly CandidateStats[], includeEnded: boolean, minCredence: number | undefined): TopK["corpus"] {
  const terms = [...new Set(tokenize(text))];
  const df = new Map<string, number>(terms.map((t) => [t, 0]));
  let n = 0;
  for (const c of domain) {
    if (!includeEnded && !isLiveCandidate(c)) continue;
    if (minCredence !== undefined && c.credence < minCredence) continue;
    n++;
    for (const t of terms) if (c.terms.includes(t)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return { n, df };
}
