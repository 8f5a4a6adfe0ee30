/**
 * `npm run bench:retrieval`: the one retrieval ranking (`lib/retrieval/hybrid-search`) at 10 000 and 100 000 beliefs,
 * with the exhaustive paths as baselines in the same run, and the machine's load average beside the figures.
 *
 * Per size and backend, over QUERIES three-word questions from the store benchmark's corpus (`lib/graph/bench-corpus`):
 * * lexical, exhaustive (the baseline): `searchCandidateStats` → `rankCandidateStats` (k = 10) → `loadBeliefs` of the top k;
 * * lexical from postings (SQL): `searchTopK` (k = 10) → `loadBeliefs`; every result is compared with the exhaustive one;
 * * hybrid: `rankHybrid` (lexical matches ∪ the store's 200 nearest by cosine, each candidate's cosine from the
 *   store) → `loadBeliefs`, when the store has vector search;
 * * exhaustive hybrid (the baseline for the hybrid domain's recall): every belief's cosine and lexical relevance (idf
 *   over the lexical matches, as the store path defines it), ranked whole in memory by the engine (`retrieve` with
 *   `semantic` and `corpus`); "overlap@10" = the share of its top 10 that the hybrid path also returns.
 * Corpus vectors are bag-of-words random projections (each word a fixed random unit vector, a text the normalised
 * sum): they cost nothing to make at 100 000 beliefs and their cosines follow word overlap, as a sentence model's do
 * on this nonsense vocabulary. The real model's query cost is measured on its own (`embed` of one question).
 * Flags: --sizes 10000,100000  --backends pglite,postgres  --queries 60
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "@/lib/db/database";
import { retrieve, words, type Embedder, type EmbeddingModel } from "@/lib/engine";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { BATCH, QUERIES, batch, iso, nid, rng, sentence } from "@/lib/graph/bench-corpus";
import { percentile } from "@/lib/graph/bench-read-paths";
import type { GraphStore, ScopeView } from "@/lib/graph/graph-store";
import { rankCandidateStats } from "@/lib/graph/rank-candidate-stats";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import { rankHybrid, type VectorCapabilities } from "@/lib/retrieval/hybrid-search";
import { SemanticMatcher } from "@/lib/retrieval/semantic-matcher";
import { createThrowawayDatabase } from "@/lib/testing/postgres";

const args = process.argv.slice(2);
function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
}
const SIZES = flag("sizes", "10000,100000").split(",").map(Number);
const BACKENDS = flag("backends", "pglite,postgres").split(",");
const DIMS = 384;

/** A word's fixed random unit-ish vector (seeded by the word). */
function wordVector(word: string): Float32Array {
  let seed = 2166136261;
  for (let i = 0; i < word.length; i++) seed = Math.imul(seed ^ word.charCodeAt(i), 16777619) >>> 0;
  const r = rng(seed);
  return Float32Array.from({ length: DIMS }, () => r() * 2 - 1);
}
const wordCache = new Map<string, Float32Array>();

/** The bag-of-words embedder of the module comment. */
const bowEmbedder: Embedder = {
  model: { name: "bench-bag-of-words", version: "1", dimensions: DIMS } satisfies EmbeddingModel,
  embed(texts) {
    return Promise.resolve(
      texts.map((text) => {
        const v = new Float32Array(DIMS);
        for (const w of words(text)) {
          let wv = wordCache.get(w);
          if (!wv) wordCache.set(w, (wv = wordVector(w)));
          for (let i = 0; i < DIMS; i++) (v[i] as number) += wv[i] as number;
        }
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      }),
    );
  },
};

const p = (xs: number[]) => `${percentile(xs, 50).toFixed(1)} / ${percentile(xs, 95).toFixed(1)}`;
const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");

async function benchBackend(name: string, store: GraphStore, rows: Map<string, Map<string, string>>): Promise<void> {
  const add = (metric: string, value: string) => {
    if (!rows.has(metric)) rows.set(metric, new Map());
    rows.get(metric)?.set(name, value);
    console.error(`${name} | ${metric} | ${value}`);
  };
  const caps = store as GraphStore & VectorCapabilities & { upsertEmbeddings?: (view: ScopeView, items: readonly { id: string; kind: "belief"; vector: Float32Array; model: string; textHash: string }[]) => Promise<number> };
  const scope = nid("s");
  const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
  const r = rng(11);
  const texts = new Map<string, string>();
  const beliefs: { id: string; scope: string; text: string; credence: number; status: string }[] = [];
  const matcher = new SemanticMatcher(bowEmbedder);
  let size = 0;
  for (const target of SIZES) {
    while (size < target) {
      const n = Math.min(BATCH, target - size);
      const cs = batch(scope, n, r, iso(0));
      await store.apply(cs);
      if (caps.upsertEmbeddings) {
        const vs = await bowEmbedder.embed(cs.beliefs.map((u) => u.belief.text));
        await caps.upsertEmbeddings(
          view,
          cs.beliefs.map((u, i) => ({ id: u.belief.id, kind: "belief" as const, vector: vs[i] as Float32Array, model: "bench-bag-of-words@1", textHash: "bench" })),
        );
      }
      for (const u of cs.beliefs) {
        texts.set(u.belief.id, u.belief.text);
        beliefs.push({ id: u.belief.id, scope, text: u.belief.text, credence: u.belief.credence, status: u.belief.status });
      }
      size += n;
    }
    const q = rng(97);
    const questions = Array.from({ length: Number(flag("queries", String(QUERIES))) }, () => sentence(q, 3).replace(/\.$/, "?"));
    const lexical: number[] = [];
    const postings: number[] = [];
    let fallbacks = 0;
    let mismatches = 0;
    const candidates: number[] = [];
    const hybrid: number[] = [];
    const overlap: number[] = [];
    const exhaustive: number[] = [];
    const loadBefore = load();
    for (const question of questions) {
      let t = performance.now();
      const stats = await store.searchCandidateStats(view, question);
      const top = rankCandidateStats(question, stats, { k: 10, scope });
      candidates.push(stats.length);
      await store.loadBeliefs(view, top.map((x) => x.candidate.id));
      lexical.push(performance.now() - t);

      if (store.searchTopK) {
        t = performance.now();
        const fast = await store.searchTopK(view, question, { k: 10 });
        const ranked = fast?.ranked ?? rankCandidateStats(question, await store.searchCandidateStats(view, question), { k: 10, scope });
        await store.loadBeliefs(view, ranked.map((x) => x.candidate.id));
        postings.push(performance.now() - t);
        if (fast === null) fallbacks++;
        if (ranked.map((x) => `${x.candidate.id}:${x.score}`).join() !== top.map((x) => `${x.candidate.id}:${x.score}`).join()) mismatches++;
      }
      if (!caps.vectorSearch) continue;

      t = performance.now();
      const { ranked } = await rankHybrid({ store, matcher }, view, question, { k: 10, scope });
      await store.loadBeliefs(view, ranked.map((x) => x.candidate.id));
      hybrid.push(performance.now() - t);

      t = performance.now();
      const all = await matcher.cosines(question, beliefs);
      // The same idf as the store path: N and df over the qualifying lexical matches (the ranking's definition).
      const df = new Map<string, number>();
      for (const c of stats) for (const term of c.terms) df.set(term, (df.get(term) ?? 0) + 1);
      const best = retrieve(question, beliefs, { k: 10, scope, semantic: all, corpus: { n: stats.length, df } });
      exhaustive.push(performance.now() - t);
      const got = new Set(ranked.map((x) => x.candidate.id));
      overlap.push(best.length === 0 ? 1 : best.filter((b) => got.has(b.belief.id)).length / best.length);
    }
    add(`lexical search, exhaustive (whole matching domain to the client) p50 / p95 at ${target} (ms)`, p(lexical));
    add(`lexical search, top k from postings p50 / p95 at ${target} (ms)`, postings.length ? p(postings) : "n/a");
    add(`  postings: results differing from the exhaustive ranking / exhaustive fallbacks at ${target}`, `${mismatches} / ${fallbacks} of ${questions.length}`);
    add(`matching beliefs per query at ${target} (median / p95)`, `${percentile(candidates, 50).toFixed(0)} / ${percentile(candidates, 95).toFixed(0)}`);
    add(`hybrid search p50 / p95 at ${target} (ms)`, hybrid.length ? p(hybrid) : "n/a (no vector search)");
    add(`exhaustive hybrid, in memory, p50 / p95 at ${target} (ms)`, exhaustive.length ? p(exhaustive) : "n/a");
    add(`hybrid overlap@10 with the exhaustive hybrid ranking at ${target}`, overlap.length ? `${((100 * overlap.reduce((s, x) => s + x, 0)) / overlap.length).toFixed(1)} %` : "n/a");
    add(`load average (1/5/15 min) before / after the ${target} queries`, `${loadBefore} / ${load()}`);
    console.error(`${name}: ${target} done`);
  }
}

async function main(): Promise<void> {
  const migrationsDir = path.resolve("prisma/migrations");
  const rows = new Map<string, Map<string, string>>();
  const names: string[] = [];

  // The real model's cost for one question (what the hybrid path adds on top of the store).
  const local = new LocalEmbedder();
  if (local.available()) {
    await local.load();
    const q = rng(5);
    const times: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const t = performance.now();
      await local.embed([`Which ${sentence(q, 4).replace(/\.$/, "")} do we use?`]);
      times.push(performance.now() - t);
    }
    rows.set("query embedding, all-MiniLM-L6-v2 q8, one question p50 / p95 (ms)", new Map([["(any)", p(times)]]));
    names.push("(any)");
  }

  for (const backend of BACKENDS) {
    let db: Database | null = null;
    let cleanup: () => Promise<void> = async () => {};
    if (backend === "pglite") {
      const dir = await mkdtemp(path.join(tmpdir(), "credence-bench-retrieval-"));
      db = await openDatabase({ dataDir: dir, migrationsDir, owner: "bench-retrieval" });
      cleanup = () => rm(dir, { recursive: true, force: true });
    } else if (backend === "postgres") {
      const throwaway = await createThrowawayDatabase("credence_bench_retrieval");
      db = await openDatabase({ databaseUrl: throwaway.url, migrationsDir });
      cleanup = () => throwaway.drop();
    } else {
      console.error(`unknown backend ${backend} (pglite, postgres)`);
      continue;
    }
    const name = backend === "pglite" ? "SQL / PGlite" : "SQL / Postgres";
    names.push(name);
    try {
      await benchBackend(name, createSqlGraphStore({ sql: db.sql, location: db.describe() }), rows);
    } finally {
      await db.close();
      await cleanup();
    }
  }

  console.log(`| metric | ${names.join(" | ")} |`);
  console.log(`|---|${names.map(() => "---").join("|")}|`);
  for (const [metric, byBackend] of rows) console.log(`| ${metric} | ${names.map((n) => byBackend.get(n) ?? "").join(" | ")} |`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
