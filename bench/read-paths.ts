/**
 * The read paths of `lib/beliefs/read-services` measured on a bare store, for `npm run bench:store` (every backend runs
 * this one function, so the rows mean the same thing):
 * * retrieve: `searchCandidateStats` → `rankCandidateStats` (whole domain, k = 10) → `loadBeliefs` of the top k;
 * * recall: the same with ended beliefs, the best 50 loaded with histories → the engine's `recall` (k = 10) with the
 *   offline heuristic assessor — no LLM on the read path;
 * * the previous recall path for comparison: `searchCandidates` (full belief JSON) → the engine's `retrieve`.
 * Timings are wall-clock per query, so they include the machine's load at the time.
 */
import { recall, retrieve, type Assessor, type EngineParams } from "@/lib/engine";
import type { GraphStore, ScopeView } from "@/lib/graph/graph-store";
import { rankCandidateStats } from "@/lib/graph/rank-candidate-stats";

/** The services' recall loads this many ranked candidates (read-services' MAX_RECALL_CANDIDATES). */
const RECALL_CANDIDATES = 50;

export interface ReadPathSamples {
  retrieval: number[];
  recall: number[];
  previousRecall: number[];
  candidates: number[];
}

export async function measureReadPaths(
  store: GraphStore,
  view: ScopeView,
  questions: readonly string[],
  assessor: Assessor,
  params: EngineParams,
): Promise<ReadPathSamples> {
  const out: ReadPathSamples = { retrieval: [], recall: [], previousRecall: [], candidates: [] };
  const scope = view.homeScopeId;
  for (const question of questions) {
    let t = performance.now();
    const stats = await store.searchCandidateStats(view, question);
    const top = rankCandidateStats(question, stats, { k: 10, scope });
    const beliefs = await store.loadBeliefs(view, top.map((r) => r.candidate.id));
    out.retrieval.push(performance.now() - t);
    out.candidates.push(stats.length);
    if (beliefs.length !== top.length) throw new Error(`retrieve loaded ${beliefs.length} of ${top.length} ranked beliefs`);

    t = performance.now();
    const all = await store.searchCandidateStats(view, question, { includeEnded: true });
    const best = rankCandidateStats(question, all, { k: RECALL_CANDIDATES, includeEnded: true, scope });
    const records = await store.loadBeliefs(view, best.map((r) => r.candidate.id));
    await recall({ question, candidates: records, load: (id) => store.loadBelief(view, id), assessor, k: 10 }, params);
    out.recall.push(performance.now() - t);

    t = performance.now();
    const full = await store.searchCandidates(view, question, { includeEnded: true });
    const previous = retrieve(question, full, { k: RECALL_CANDIDATES, includeEnded: true, scope });
    const previousRecords = await store.loadBeliefs(view, previous.map((r) => r.belief.id));
    await recall({ question, candidates: previousRecords, load: (id) => store.loadBelief(view, id), assessor, k: 10 }, params);
    out.previousRecall.push(performance.now() - t);
    if (previous.map((r) => r.belief.id).join() !== best.map((r) => r.candidate.id).join()) throw new Error(`slim and full ranking differ for "${question}"`);
  }
  return out;
}

/** p-th percentile (nearest rank) of `samples`. */
export function percentile(samples: readonly number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

/** The benchmark rows of one size, named alike for every backend. */
export function readPathRows(size: number, s: ReadPathSamples): [metric: string, value: string][] {
  const p = (xs: number[]) => `${percentile(xs, 50).toFixed(1)} / ${percentile(xs, 95).toFixed(1)}`;
  return [
    [`retrieval p50 / p95 at ${size} beliefs (ms)`, p(s.retrieval)],
    [`recall p50 / p95 at ${size} beliefs (ms)`, p(s.recall)],
    [`previous recall path (full beliefs) p50 / p95 at ${size} (ms)`, p(s.previousRecall)],
    [`candidates per query at ${size} (median / p95)`, `${percentile(s.candidates, 50).toFixed(0)} / ${percentile(s.candidates, 95).toFixed(0)}`],
  ];
}
