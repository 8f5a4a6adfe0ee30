/**
 * `npm run bench:retrieval`: the read paths the services run (`lib/retrieval/hybrid-search` → the store's top k, its
 * vector search, the top k loaded; recall adds the engine's recall with the offline heuristic assessor) at growing
 * sizes on every store, each beside its **exhaustive baseline measured in the same run**, with the machine's load
 * average beside the figures and a p50 / p95 against size table at the end (the growth curve).
 *
 * Per size and backend, over `--queries` three-word questions from the store benchmark's corpus:
 * * search, lexical: `rankHybrid` without an embedder (k = 10: the store's top k when it has postings) → `loadBeliefs`;
 *   baseline: the whole matching domain to the client (`searchCandidateStats`) → `rankCandidateStats` → `loadBeliefs`.
 *   Every result (ids and scores) is compared with the baseline's;
 * * recall, lexical: the same ranking with ended beliefs, k = 50 (read-services' MAX_RECALL_CANDIDATES), the 50 loaded,
 *   then the engine's `recall` (k = 10); baseline: the exhaustive ranking in its place;
 * * search and recall, hybrid: `rankHybrid` with an embedder (lexical top candidates ∪ the store's nearest by cosine,
 *   exact cosines) → as above; baseline: every belief's cosine and lexical relevance, ranked whole in memory by the
 *   engine (`rankByTerms` with `semantic` and `corpus`); "overlap@10" = the share of its top 10 the store path returns;
 * * vector search alone (k = 200, what hybrid asks for): p50 / p95 and its recall against the exact 200 nearest.
 * The corpus is **bulk-loaded** straight into the store's tables (SQL: `unnest` INSERTs, the postings written by their
 * triggers; Neo4j: `UNWIND … CREATE`, then the indexes awaited), not through the engine, so a million beliefs take
 * minutes. Corpus vectors are bag-of-words random projections (each word a fixed random unit vector, a text the
 * normalised sum): they cost nothing to make and their cosines follow word overlap, as a sentence model's do on this
 * nonsense vocabulary. The real model's cost per claim is its own row (`embed` of one claim, one core).
 * Flags: --sizes 10000,100000,1000000  --backends pglite,postgres,neo4j  --queries 40  --pglite-max 100000
 *        --neo4j-max 1000000  --vectors-max 100000 (no vectors, hence no hybrid rows, above this size: a million vectors
 *        take longer to load than the session this benchmark was written in had)
 * Kept corpora (load once, measure many times): --pglite-data DIR keeps the PGlite corpus in data folder DIR;
 *        --pg-database NAME keeps the Postgres corpus in database NAME (created
 *        when missing, never dropped); --neo4j-data DIR starts the Neo4j test server on data folder DIR (kept) with
 *        --neo4j-port N (default: any free port). A kept store holds one corpus (scope `s_bench_retrieval`, Neo4j
 *        namespace `bench_retrieval`); a run loads only the beliefs it lacks up to each size (the same seeded
 *        sentences and credences as a fresh load) and skips sizes below what it already holds. --reuse: load nothing,
 *        fail when the kept corpus is smaller than a size. A kept corpus loaded in an earlier run has no in-memory
 *        copy, so its hybrid rows (which need every vector in memory for their baseline) are skipped.
 * --record FILE appends each store × size's percentiles to FILE as JSON lines (several runs, one file), from which
 *        `npx tsx bench/plot.ts --in FILE --out SVG` draws the growth curves.
 */
import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import neo4j, { type Driver } from "neo4j-driver";
import pg from "pg";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { openDatabase, type Database } from "@/lib/db/database";
import { defaultParams, rankByTerms, recall, termSet, words, type ChangeSet, type Embedder, type EmbeddingModel, type TermCandidate } from "@/lib/engine";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { batch, iso, nid, rng, run as runId, sentence } from "@/bench/corpus";
import { percentile } from "@/bench/read-paths";
import type { GraphStore, ScopeView } from "@/lib/graph/graph-store";
import { bulkInsert, createSearchIndexes, dropSearchIndexes, rawInsert as neo4jRawInsert } from "@/bench/neo4j-store";
import { createNeo4jGraphStore } from "@/lib/graph/neo4j/neo4j-graph-store";
import { rankCandidateStats } from "@/lib/graph/rank-candidate-stats";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import { detectPgvector, packedHexOf, sketchOf } from "@/lib/graph/sql/sql-vectors";
import { rawInsertRows } from "@/bench/sql-store";
import { rankHybrid, VECTOR_CANDIDATES, type VectorCapabilities } from "@/lib/retrieval/hybrid-search";
import { SemanticMatcher } from "@/lib/retrieval/semantic-matcher";
import { startNeo4jServer } from "@/lib/testing/neo4j-server";
import { createThrowawayDatabase, DEFAULT_TEST_POSTGRES_URL } from "@/lib/db/testing/postgres";

// A million-belief load ends with VACUUM ANALYZE and its exhaustive baselines read 10⁵ rows: no 30 s statement cap here.
process.env.CREDENCE_DB_STATEMENT_TIMEOUT_MS ??= "3600000";

const args = process.argv.slice(2);
function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
}
const SIZES = flag("sizes", "10000,100000,1000000").split(",").map(Number);
const BACKENDS = flag("backends", "pglite,postgres,neo4j").split(",");
const QUERY_COUNT = Number(flag("queries", "40"));
const MAX = { pglite: Number(flag("pglite-max", "100000")), postgres: Infinity, neo4j: Number(flag("neo4j-max", "1000000")) } as Record<string, number>;
const VECTORS_MAX = Number(flag("vectors-max", "100000"));
const PG_DATABASE = flag("pg-database", "");
const PGLITE_DATA = flag("pglite-data", "");
const NEO4J_DATA = flag("neo4j-data", "");
const NEO4J_PORT = flag("neo4j-port", "");
const REUSE = args.includes("--reuse");
const RECORD = flag("record", "");
/** The scope (and Neo4j namespace) of a kept corpus. */
const KEPT_SCOPE = "s_bench_retrieval";
const KEPT_NAMESPACE = "bench_retrieval";
/** From this many beliefs loaded in one go, Neo4j's search indexes are dropped before and populated after the load. */
const NEO4J_BULK_FROM = 50_000;
const DIMS = 384;
const LOAD_BATCH = 5_000;
const MODEL = "bench-bag-of-words@1";
const RECALL_K = 50;

// ---------------------------------------------------------------------------------------------------------------
// The bag-of-words embedder and its in-memory exact counterpart.

/** A word's fixed random vector (seeded by the word). */
function wordVector(word: string): Float32Array {
  let seed = 2166136261;
  for (let i = 0; i < word.length; i++) seed = Math.imul(seed ^ word.charCodeAt(i), 16777619) >>> 0;
  const r = rng(seed);
  return Float32Array.from({ length: DIMS }, () => r() * 2 - 1);
}
const wordCache = new Map<string, Float32Array>();
function cachedWordVector(w: string): Float32Array {
  let wv = wordCache.get(w);
  if (!wv) wordCache.set(w, (wv = wordVector(w)));
  return wv;
}

function bowVector(text: string): Float32Array {
  const v = new Float64Array(DIMS);
  for (const w of words(text)) {
    const wv = cachedWordVector(w);
    for (let i = 0; i < DIMS; i++) (v[i] as number) += wv[i] as number;
  }
  let norm = 0;
  for (let i = 0; i < DIMS; i++) norm += (v[i] as number) ** 2;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(v, (x) => x / norm);
}

const bowEmbedder: Embedder = {
  model: { name: "bench-bag-of-words", version: "1", dimensions: DIMS } satisfies EmbeddingModel,
  embed: (texts) => Promise.resolve(texts.map(bowVector)),
};

/** Every loaded belief, kept compactly for the in-memory baselines. */
class Corpus {
  ids: string[] = [];
  credence: number[] = [];
  terms: string[][] = [];
  /** Word indices (into `vocab`) of each text, and each text's vector norm before normalising. */
  wordIds: Uint16Array[] = [];
  norms: number[] = [];
  vocab = new Map<string, number>();
  vocabWords: string[] = [];

  add(id: string, text: string, credence: number): void {
    this.ids.push(id);
    this.credence.push(credence);
    this.terms.push([...termSet(text)]);
    const ws = words(text).map((w) => {
      let i = this.vocab.get(w);
      if (i === undefined) {
        i = this.vocabWords.length;
        this.vocab.set(w, i);
        this.vocabWords.push(w);
      }
      return i;
    });
    this.wordIds.push(Uint16Array.from(ws));
    const v = new Float64Array(DIMS);
    for (const w of words(text)) {
      const wv = cachedWordVector(w);
      for (let i = 0; i < DIMS; i++) (v[i] as number) += wv[i] as number;
    }
    let norm = 0;
    for (let i = 0; i < DIMS; i++) norm += (v[i] as number) ** 2;
    this.norms.push(Math.sqrt(norm) || 1);
  }

  /** The cosine of `query`'s vector with every belief's, from per-word dot products (exact up to float rounding). */
  cosines(query: string): Float64Array {
    const q = bowVector(query);
    const wordDot = this.vocabWords.map((w) => {
      const wv = cachedWordVector(w);
      let s = 0;
      for (let i = 0; i < DIMS; i++) s += (wv[i] as number) * (q[i] as number);
      return s;
    });
    const out = new Float64Array(this.ids.length);
    for (let b = 0; b < this.ids.length; b++) {
      let s = 0;
      for (const w of this.wordIds[b] as Uint16Array) s += wordDot[w] as number;
      out[b] = s / (this.norms[b] as number);
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Bulk loaders: straight into the store's tables.

interface Loader {
  name: string;
  store: GraphStore;
  /** Writes one change-set of new beliefs (and their vectors when given). */
  load(cs: ChangeSet, vectors: Float32Array[] | null): Promise<void>;
  /** Beliefs already in `scope` (a kept corpus). */
  count(scope: string): Promise<number>;
  /** Before loading `n` beliefs in one go (Neo4j drops its search indexes for a big load). */
  prepare(n: number): Promise<void>;
  /** After loading: statistics, index population. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

async function sqlLoader(name: string, db: Database, cleanup: () => Promise<void>): Promise<Loader> {
  const store = createSqlGraphStore({ sql: db.sql, location: db.describe() });
  await store.check();
  const pgvector = await detectPgvector(db.sql);
  return {
    name,
    store,
    async load(cs, vectors) {
      await db.sql.transaction(async (tx) => {
        await rawInsertRows(tx, cs);
        const bs = cs.beliefs.map((u) => u.belief);
        if (vectors === null) return;
        const literals = vectors.map((v) => `{${Array.from(v).join(",")}}`);
        await tx.query(
          `INSERT INTO graph_embeddings (id, scope, kind, model, dimensions, text_hash, vector, packed${pgvector ? ", embedding" : ""})
           SELECT id, scope, 'belief', $3, ${DIMS}, 'bench', r, ${pgvector ? "NULL, r::vector" : "decode(p, 'hex')"}
           FROM (SELECT id, scope, v::real[] AS r, p FROM unnest($1::text[], $2::text[], $4::text[], $5::text[]) AS t(id, scope, v, p) OFFSET 0) AS parsed`,
          [bs.map((b) => b.id), bs.map((b) => b.scope), MODEL, literals, pgvector ? bs.map(() => null) : vectors.map(packedHexOf)],
        );
        await tx.query(
          `INSERT INTO graph_vector_sketches (id, scope, kind, model, dimensions, sketch)
           SELECT id, scope, 'belief', $3, ${DIMS}, s::varbit FROM unnest($1::text[], $2::text[], $4::text[]) AS t(id, scope, s)`,
          [bs.map((b) => b.id), bs.map((b) => b.scope), MODEL, vectors.map(sketchOf)],
        );
      });
    },
    async count(scope) {
      const rows = await db.sql.query<{ n: string | number }>("SELECT count(*) AS n FROM graph_beliefs WHERE scope = $1", [scope]);
      return Number(rows[0]?.n ?? 0);
    },
    async prepare() {},
    async settle() {
      await db.sql.query("VACUUM ANALYZE");
    },
    async close() {
      await db.close();
      await cleanup();
    },
  };
}

/** `ownServer`: the bench started this Neo4j, so it may drop and recreate the search indexes around a big load. */
async function neo4jLoader(driver: Driver, uri: string, kept: boolean, ownServer: boolean): Promise<Loader> {
  const ns = kept ? KEPT_NAMESPACE : `bench_${runId}`;
  const store = createNeo4jGraphStore({ uri, namespace: ns });
  await store.check();
  let bulk = false;
  return {
    name: "Neo4j 5.26",
    store,
    async load(cs, vectors) {
      if (bulk && vectors === null) return bulkInsert(driver, "neo4j", ns, cs);
      const embeddings = vectors === null ? [] : cs.beliefs.map((u, i) => ({ id: u.belief.id, scope: u.belief.scope, model: MODEL, vector: vectors[i] as Float32Array }));
      await neo4jRawInsert(driver, "neo4j", ns, cs, embeddings);
    },
    async count(scope) {
      const session = driver.session({ database: "neo4j" });
      try {
        const result = await session.run("MATCH (b:Belief {ns: $ns, scope: $scope}) RETURN count(b) AS n", { ns, scope });
        return Number(result.records[0]?.get("n") ?? 0);
      } finally {
        await session.close();
      }
    },
    async prepare(n) {
      bulk = ownServer && n >= NEO4J_BULK_FROM;
      if (bulk) await dropSearchIndexes(driver, "neo4j");
    },
    async settle() {
      await createSearchIndexes(driver, "neo4j");
      bulk = false;
    },
    async close() {
      if (!kept) await store.dropNamespace().catch(() => {});
      await store.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement.

const p = (xs: number[]) => (xs.length ? `${percentile(xs, 50).toFixed(1)} / ${percentile(xs, 95).toFixed(1)}` : "n/a");
const load1 = () => loadavg()[0] ?? 0;
const loadText = () => loadavg().map((x) => x.toFixed(2)).join(" ");
const key = (ranked: readonly { candidate: { id: string }; score: number }[]) => ranked.map((x) => `${x.candidate.id}:${x.score}`).join();

interface Growth {
  backend: string;
  size: number;
  searchFast: number[];
  searchBase: number[];
  recallFast: number[];
  recallBase: number[];
  hybrid: number[];
  hybridBase: number[];
  hybridRecall: number[];
  load: [number, number];
}

async function benchBackend(loader: Loader, sizes: readonly number[], rows: Map<string, Map<string, string>>, growth: Growth[], kept: boolean): Promise<void> {
  const { name, store } = loader;
  const add = (metric: string, value: string) => {
    if (!rows.has(metric)) rows.set(metric, new Map());
    rows.get(metric)?.set(name, value);
    console.error(`${name} | ${metric} | ${value}`);
  };
  const caps = store as GraphStore & VectorCapabilities;
  const scope = kept ? KEPT_SCOPE : nid("s");
  const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
  const r = rng(11);
  const credenceRng = rng(23);
  const corpus = new Corpus();
  const lexical = new SemanticMatcher(bowEmbedder);
  const assessor = createHeuristicAssessor();
  const held = kept ? await loader.count(scope) : 0;
  let size = 0;
  // A kept corpus: the seeded sentences and credences it already holds are drawn again (not loaded), so what a run
  // adds continues the same sequence as one fresh load would.
  while (size < held) {
    const n = Math.min(LOAD_BATCH, held - size);
    for (const u of batch(scope, n, r, iso(0)).beliefs) u.belief.credence = 0.3 + 0.65 * credenceRng();
    size += n;
  }
  if (held > 0) console.error(`${name}: the kept corpus holds ${held} beliefs`);
  for (const target of sizes) {
    if (target < size) {
      console.error(`${name}: skipping ${target} (the kept corpus holds ${size})`);
      continue;
    }
    if (REUSE && target > size) throw new Error(`--reuse: the kept corpus holds ${size} beliefs, fewer than ${target} (run without --reuse to load the rest)`);
    const withVectors = target <= VECTORS_MAX && held === 0;
    let t = performance.now();
    if (size < target) {
      await loader.prepare(target - size);
      while (size < target) {
        const n = Math.min(LOAD_BATCH, target - size);
        const cs = batch(scope, n, r, iso(0));
        // Credences spread over (0.3, 0.95), as a real graph's are (the corpus' default is one constant).
        for (const u of cs.beliefs) u.belief.credence = 0.3 + 0.65 * credenceRng();
        const vectors = withVectors ? cs.beliefs.map((u) => bowVector(u.belief.text)) : null;
        await loader.load(cs, vectors);
        if (withVectors) for (const u of cs.beliefs) corpus.add(u.belief.id, u.belief.text, u.belief.credence);
        size += n;
        if (size % 100_000 === 0) console.error(`${name}: ${size} beliefs loaded (${((performance.now() - t) / 1000).toFixed(0)} s, load ${loadText()})`);
      }
      await loader.settle();
      add(`bulk load to ${target} beliefs${withVectors ? " with vectors" : ""} (s)`, ((performance.now() - t) / 1000).toFixed(0));
    }

    const q = rng(97);
    const questions = Array.from({ length: QUERY_COUNT }, () => sentence(q, 3).replace(/\.$/, "?"));
    const g: Growth = { backend: name, size: target, searchFast: [], searchBase: [], recallFast: [], recallBase: [], hybrid: [], hybridBase: [], hybridRecall: [], load: [load1(), 0] };
    const vectorTimes: number[] = [];
    const vectorRecall: number[] = [];
    const overlap: number[] = [];
    const candidates: number[] = [];
    let mismatches = 0;
    const loadBefore = loadText();
    // One warm-up query (connection, plan cache) outside the samples.
    await rankHybrid({ store, matcher: null }, view, questions[0] ?? "x", { k: 10, scope });
    for (const question of questions) {
      // Search, lexical: the services' path, then the exhaustive baseline.
      t = performance.now();
      const fast = await rankHybrid({ store, matcher: null }, view, question, { k: 10, scope });
      await store.loadBeliefs(view, fast.ranked.map((x) => x.candidate.id));
      g.searchFast.push(performance.now() - t);
      t = performance.now();
      const stats = await store.searchCandidateStats(view, question);
      const top = rankCandidateStats(question, stats, { k: 10, scope });
      await store.loadBeliefs(view, top.map((x) => x.candidate.id));
      g.searchBase.push(performance.now() - t);
      candidates.push(stats.length);
      if (key(fast.ranked) !== key(top)) mismatches++;

      // Recall, lexical.
      t = performance.now();
      const rf = await rankHybrid({ store, matcher: null }, view, question, { k: RECALL_K, includeEnded: true, scope });
      const fastRecords = await store.loadBeliefs(view, rf.ranked.map((x) => x.candidate.id));
      await recall({ question, candidates: fastRecords, load: (id) => store.loadBelief(view, id), assessor, k: 10 }, defaultParams);
      g.recallFast.push(performance.now() - t);
      t = performance.now();
      const all = await store.searchCandidateStats(view, question, { includeEnded: true });
      const rb = rankCandidateStats(question, all, { k: RECALL_K, includeEnded: true, scope });
      const baseRecords = await store.loadBeliefs(view, rb.map((x) => x.candidate.id));
      await recall({ question, candidates: baseRecords, load: (id) => store.loadBelief(view, id), assessor, k: 10 }, defaultParams);
      g.recallBase.push(performance.now() - t);
      if (key(rf.ranked) !== key(rb)) mismatches++;

      if (!withVectors || !caps.vectorSearch) continue;
      const qv = bowVector(question);
      // Vector search alone, and its recall against the exact nearest.
      t = performance.now();
      const hits = await caps.vectorSearch(view, qv, { k: VECTOR_CANDIDATES, model: MODEL });
      vectorTimes.push(performance.now() - t);

      // Hybrid search and recall: the services' path with an embedder.
      t = performance.now();
      const hybrid = await rankHybrid({ store, matcher: lexical }, view, question, { k: 10, scope });
      await store.loadBeliefs(view, hybrid.ranked.map((x) => x.candidate.id));
      g.hybrid.push(performance.now() - t);
      t = performance.now();
      const hr = await rankHybrid({ store, matcher: lexical }, view, question, { k: RECALL_K, includeEnded: true, scope });
      const hybridRecords = await store.loadBeliefs(view, hr.ranked.map((x) => x.candidate.id));
      await recall({ question, candidates: hybridRecords, load: (id) => store.loadBelief(view, id), assessor, k: 10, ...(hr.semantic ? { semantic: hr.semantic } : {}) }, defaultParams);
      g.hybridRecall.push(performance.now() - t);

      // The exhaustive hybrid baseline: every belief, in memory.
      t = performance.now();
      const cos = corpus.cosines(question);
      const semantic = new Map<string, number>();
      const items: (TermCandidate & { id: string })[] = [];
      for (let b = 0; b < corpus.ids.length; b++) {
        semantic.set(corpus.ids[b] as string, cos[b] as number);
        items.push({ id: corpus.ids[b] as string, scope, credence: corpus.credence[b] as number, status: "provisional", terms: corpus.terms[b] as string[] });
      }
      const df = new Map<string, number>();
      for (const c of stats) for (const term of c.terms) df.set(term, (df.get(term) ?? 0) + 1);
      const best = rankByTerms(question, items, { k: 10, scope, semantic, corpus: { n: stats.length, df } });
      g.hybridBase.push(performance.now() - t);
      const got = new Set(hybrid.ranked.map((x) => x.candidate.id));
      overlap.push(best.length === 0 ? 1 : best.filter((b) => got.has(b.item.id)).length / best.length);
      const exact = [...cos.keys()].sort((a, b) => (cos[b] as number) - (cos[a] as number)).slice(0, VECTOR_CANDIDATES).map((b) => corpus.ids[b]);
      const found = new Set(hits.map((h) => h.id));
      vectorRecall.push(exact.filter((id) => found.has(id as string)).length / Math.max(1, exact.length));
    }
    g.load[1] = load1();
    growth.push(g);
    const avg = (xs: number[]) => (xs.length ? `${((100 * xs.reduce((s, x) => s + x, 0)) / xs.length).toFixed(1)} %` : "n/a");
    add(`search p50 / p95 at ${target} (ms)`, p(g.searchFast));
    add(`  baseline: exhaustive search (whole matching domain to the client) at ${target} (ms)`, p(g.searchBase));
    add(`recall p50 / p95 at ${target} (ms)`, p(g.recallFast));
    add(`  baseline: exhaustive recall at ${target} (ms)`, p(g.recallBase));
    add(`results differing from the exhaustive ranking (search + recall) at ${target}`, `${mismatches} of ${2 * questions.length}`);
    add(`matching beliefs per query at ${target} (median / p95)`, `${percentile(candidates, 50).toFixed(0)} / ${percentile(candidates, 95).toFixed(0)}`);
    add(`vector search, k = ${VECTOR_CANDIDATES}, p50 / p95 at ${target} (ms)`, p(vectorTimes));
    add(`  vector search recall@${VECTOR_CANDIDATES} against the exact nearest at ${target}`, avg(vectorRecall));
    add(`hybrid search p50 / p95 at ${target} (ms)`, p(g.hybrid));
    add(`hybrid recall p50 / p95 at ${target} (ms)`, p(g.hybridRecall));
    add(`  baseline: exhaustive hybrid ranking of every belief, in memory, at ${target} (ms)`, p(g.hybridBase));
    add(`  hybrid overlap@10 with the exhaustive hybrid ranking at ${target}`, avg(overlap));
    add(`load average (1/5/15 min) before / after the ${target} queries`, `${loadBefore} / ${loadText()}`);
  }
}

/** The URL of database `name` on the test Postgres server, created when missing (a kept corpus; never dropped here). */
async function keptDatabase(name: string): Promise<string> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`--pg-database: ${name} is not a plain lower-case name`);
  const admin = new URL(process.env.TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL);
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  admin.pathname = `/${name}`;
  return admin.toString();
}

async function main(): Promise<void> {
  const migrationsDir = path.resolve("prisma/migrations");
  const rows = new Map<string, Map<string, string>>();
  const growth: Growth[] = [];
  const names: string[] = [];

  // The real model's cost per claim on one core (what each new claim and each question adds).
  const local = new LocalEmbedder();
  if (local.available()) {
    const t0 = performance.now();
    await local.load();
    const loadMs = performance.now() - t0;
    const q = rng(5);
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < 5; i++) await local.embed([`Warm-up ${sentence(q, 6)}`]);
    for (let i = 0; i < 60; i++) {
      const text = `Deploys of the ${sentence(q, 6).replace(/\.$/, "")} service go out from the protected release branch.`;
      const c = process.cpuUsage();
      const t = performance.now();
      await local.embed([text]);
      times.push(performance.now() - t);
      const d = process.cpuUsage(c);
      cpu.push((d.user + d.system) / 1000);
    }
    const any = "(any)";
    names.push(any);
    rows.set("embedding model load at start (ms)", new Map([[any, loadMs.toFixed(0)]]));
    rows.set("embed one claim (~14 words), all-MiniLM-L6-v2 q8: wall p50 / p95 (ms)", new Map([[any, p(times)]]));
    rows.set("embed one claim: process CPU p50 / p95 (ms; > wall means more than one core used)", new Map([[any, p(cpu)]]));
    rows.set("load average during the embedding rows", new Map([[any, loadText()]]));
  }

  for (const backend of BACKENDS) {
    const sizes = SIZES.filter((s) => s <= (MAX[backend] ?? Infinity));
    if (sizes.length === 0) continue;
    let loader: Loader;
    let stop: () => Promise<void> = async () => {};
    if (backend === "pglite" && PGLITE_DATA) {
      const db = await openDatabase({ dataDir: path.resolve(PGLITE_DATA), migrationsDir, owner: "bench-retrieval" });
      loader = await sqlLoader("SQL / PGlite", db, async () => {});
    } else if (backend === "pglite") {
      const dir = await mkdtemp(path.join(tmpdir(), "credence-bench-retrieval-"));
      const db = await openDatabase({ dataDir: dir, migrationsDir, owner: "bench-retrieval" });
      loader = await sqlLoader("SQL / PGlite", db, () => rm(dir, { recursive: true, force: true }));
    } else if (backend === "postgres") {
      if (PG_DATABASE) {
        const url = await keptDatabase(PG_DATABASE);
        const db = await openDatabase({ databaseUrl: url, migrationsDir });
        loader = await sqlLoader("SQL / Postgres 15", db, async () => {});
      } else {
        const throwaway = await createThrowawayDatabase("credence_bench_retrieval");
        const db = await openDatabase({ databaseUrl: throwaway.url, migrationsDir });
        loader = await sqlLoader("SQL / Postgres 15", db, () => throwaway.drop());
      }
    } else if (backend === "neo4j") {
      const external = process.env.NEO4J_URI;
      const server = external
        ? null
        : await startNeo4jServer({ ...(NEO4J_DATA ? { dataDir: path.resolve(NEO4J_DATA) } : {}), ...(NEO4J_PORT ? { port: Number(NEO4J_PORT) } : {}) });
      const uri = external ?? server?.uri ?? "";
      const driver = neo4j.driver(uri);
      const inner = await neo4jLoader(driver, uri, Boolean(NEO4J_DATA) || (external !== undefined && REUSE), server !== null);
      loader = inner;
      stop = async () => {
        await driver.close();
        await server?.stop();
      };
    } else {
      console.error(`unknown backend ${backend} (pglite, postgres, neo4j)`);
      continue;
    }
    names.push(loader.name);
    try {
      const kept = (backend === "pglite" && Boolean(PGLITE_DATA)) || (backend === "postgres" && Boolean(PG_DATABASE)) || (backend === "neo4j" && (Boolean(NEO4J_DATA) || (Boolean(process.env.NEO4J_URI) && REUSE)));
      await benchBackend(loader, sizes, rows, growth, kept);
    } finally {
      await loader.close();
      await stop();
    }
  }

  console.log(`| metric | ${names.join(" | ")} |`);
  console.log(`|---|${names.map(() => "---:").join("|")}|`);
  for (const [metric, byBackend] of rows) console.log(`| ${metric} | ${names.map((n) => byBackend.get(n) ?? "–").join(" | ")} |`);
  console.log("");
  console.log("Growth (p50 / p95 ms; baseline = the exhaustive path in the same run):");
  console.log("");
  console.log("| store | beliefs | search | search baseline | recall | recall baseline | hybrid search | hybrid recall | hybrid baseline (in memory) | load (1 min) before → after |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const g of growth) {
    console.log(
      `| ${g.backend} | ${g.size} | ${p(g.searchFast)} | ${p(g.searchBase)} | ${p(g.recallFast)} | ${p(g.recallBase)} | ${p(g.hybrid)} | ${p(g.hybridRecall)} | ${p(g.hybridBase)} | ${g.load[0].toFixed(1)} → ${g.load[1].toFixed(1)} |`,
    );
  }
  if (RECORD) {
    const pct = (xs: number[]) => (xs.length ? { p50: percentile(xs, 50), p95: percentile(xs, 95) } : null);
    const lines = growth.map((g) =>
      JSON.stringify({
        at: new Date().toISOString(),
        backend: g.backend,
        size: g.size,
        search: pct(g.searchFast),
        searchBaseline: pct(g.searchBase),
        recall: pct(g.recallFast),
        recallBaseline: pct(g.recallBase),
        hybrid: pct(g.hybrid),
        load: g.load,
      }),
    );
    await appendFile(RECORD, lines.map((l) => `${l}\n`).join(""));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
