/**
 * Exact top-k candidates without reading every match, shared by the stores that answer `searchTopK`
 * (SQL from its postings, `sql/sql-search.ts`; Neo4j from its full-text index, `neo4j/neo4j-search.ts`).
 *
 * The ranking is the engine's (`rankByTerms`, see rank-candidate-stats.ts), with idf over the whole qualifying domain
 * (N, df: the store counts them first, exactly). The walk, MaxScore-style: the query terms are visited rarest first. A
 * belief first met through a term is read with every query term it holds, so its exact relevance is known. Before
 * each term, θ = the k-th best score met so far; a belief not met yet holds only unvisited terms, so its relevance is
 * at most ub = min(1, Σ idf(unvisited) / Σ idf(query)) and its score at most ub × credence. When ub < θ no unvisited
 * term can bring a belief into the top k and the walk stops; otherwise only the term's beliefs with credence ≥ θ / ub
 * are read (best credence first). A common term met before k candidates are known (more than `bigList` matches) is
 * read best credence first, `4k` of them, to set θ before the rest of its range is read. Every comparison keeps a
 * SLACK margin, so ties at the boundary are always read; the store then re-ranks the returned candidates exactly.
 */
import { idfOf, termSet } from "@/lib/engine";

/** Score difference within which the store's and the engine's arithmetic are treated as possibly equal. */
export const SLACK = 1e-9;
/** Near-ties of the k-th score beyond this many: the exhaustive path answers (a corpus of identical texts). */
export const MAX_WINDOW = 2_000;
/**
 * A matching domain of at most this many beliefs is cheaper to rank whole (one read of its slim rows) than to walk
 * (a read per term): the SQL store reads such a domain whole in its first statement, scores it there and ships only
 * the rows that can rank (sql/sql-search.ts).
 */
export const SMALL_DOMAIN = 1_000;

/** Thresholds of the walk (tests lower them to exercise every path on small corpora). */
export interface TopKTuning {
  /** A term with more matches than this, met before k candidates are known, is read best credence first. */
  bigList?: number;
  /** See SMALL_DOMAIN. */
  smallDomain?: number;
}

/** One belief met through a term: its credence, its number of distinct terms, and the query terms it holds. */
export interface TermMatch {
  id: string;
  credence: number;
  nTerms: number;
  matched: readonly string[];
}

export interface TopKWalk {
  query: string;
  /** The query's content terms the store can match. */
  terms: readonly string[];
  /** Qualifying beliefs matching any term, and per term how many hold it. */
  n: number;
  df: ReadonlyMap<string, number>;
  k: number;
  /** Common-term threshold (see the module comment). */
  bigList: number;
  /** The qualifying beliefs holding `term` with credence ≥ `floor`, best credence first, at most `limit` (null: all). */
  read(term: string, floor: number, limit: number | null): Promise<readonly TermMatch[]>;
}

/**
 * The ids of every belief that may rank in the top k (within SLACK of the k-th score), or null when near-ties exceed
 * MAX_WINDOW (the caller ranks exhaustively).
 */
export async function topKCandidates(walk: TopKWalk): Promise<string[] | null> {
  const { n, df, k } = walk;
  const queryTerms = [...termSet(walk.query)];
  const idf = new Map(walk.terms.map((t) => [t, idfOf(n, df.get(t) ?? 0)]));
  const total = queryTerms.reduce((sum, t) => sum + idfOf(n, df.get(t) ?? 0), 0);
  if (n === 0 || k <= 0 || total <= 0) return [];
  const met = new Map<string, number>();
  const scoreOf = (m: TermMatch): number => {
    let covered = 0;
    for (const t of m.matched) covered += idf.get(t) ?? 0;
    return Math.min(1, (covered / total) * (0.8 + 0.2 * Math.min(1, m.matched.length / m.nTerms))) * m.credence;
  };
  /** The k-th best score met so far, less SLACK (−∞ before k candidates). */
  const threshold = (): number => (met.size < k ? -Infinity : ([...met.values()].sort((a, b) => b - a)[k - 1] as number) - SLACK);
  const read = async (term: string, floor: number, limit: number | null) => {
    for (const m of await walk.read(term, floor, limit)) if (!met.has(m.id)) met.set(m.id, scoreOf(m));
  };
  const order = walk.terms.filter((t) => (df.get(t) ?? 0) > 0).sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0) || (a < b ? -1 : 1));
  for (let i = 0; i < order.length; i++) {
    const term = order[i] as string;
    const ub = Math.min(1, order.slice(i).reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) / total);
    if (ub < threshold()) break;
    if (threshold() === -Infinity && (df.get(term) ?? 0) > walk.bigList) await read(term, -1, 4 * k);
    const theta = threshold();
    // A belief met first here holds only unvisited terms: score ≤ ub × credence, so credence < θ / ub cannot rank.
    await read(term, theta === -Infinity ? -1 : theta / ub - SLACK, null);
  }
  const floor = threshold();
  const best = [...met.entries()].filter(([, score]) => score >= floor).map(([id]) => id);
  return best.length > MAX_WINDOW ? null : best;
}
