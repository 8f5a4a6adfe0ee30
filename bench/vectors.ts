/**
 * `npm run bench:vectors`: the embedding model and vector search, for BENCHMARKS.md.
 *
 * * Model: load time, ms per sentence (one at a time, as the Embedder runs it), RSS after loading.
 * * Search: `vectorSearch` p50 / p95 (k = 10, exact) over one scope of N beliefs with 384-dimension vectors, on SQL
 *   with pgvector (embedded PGlite), SQL with the exact REAL[] fallback (the Postgres server here has no pgvector),
 *   and Neo4j (native vector index; `NEO4J_URI` if set, else the in-process test server) when `--backends` names it.
 * Flags: --sizes 1000,10000  --backends pglite,postgres[,neo4j]  --sentences 200
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fetchModel } from "@/lib/embed/fetch-model";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { openDatabase } from "@/lib/db/database";
import { embeddingTextHash, type NodeEmbedding } from "@/lib/graph/embeddings";
import { batch, iso, rng } from "@/bench/corpus";
import type { GraphStore, ScopeView } from "@/lib/graph/graph-store";
import { createNeo4jGraphStore } from "@/lib/graph/neo4j/neo4j-graph-store";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import { startNeo4jServer } from "@/lib/testing/neo4j-server";
import { createThrowawayDatabase } from "@/lib/db/testing/postgres";

const args = process.argv.slice(2);
function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
}
const SIZES = flag("sizes", "1000,10000").split(",").map(Number);
const BACKENDS = flag("backends", "pglite,postgres").split(",");
const SENTENCES = Number(flag("sentences", "200"));
const QUERY_RUNS = 30;
const MODEL = "bench@1";

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function unitVector(r: () => number, dims = 384): Float32Array {
  const v = Float32Array.from({ length: dims }, () => r() - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

async function benchModel(): Promise<void> {
  await fetchModel();
  const rss0 = process.memoryUsage().rss;
  const embedder = new LocalEmbedder();
  let t = performance.now();
  await embedder.load();
  const loadMs = performance.now() - t;
  const r = rng(7);
  const words = ["deploy", "branch", "release", "backup", "database", "canary", "port", "engineer", "approves", "runs", "daily", "hourly"];
  const texts = Array.from({ length: SENTENCES }, () => `${Array.from({ length: 10 }, () => words[Math.floor(r() * words.length)]).join(" ")}.`);
  await embedder.embed(texts.slice(0, 5));
  t = performance.now();
  const each: number[] = [];
  for (const text of texts) {
    const s = performance.now();
    await embedder.embed([text]);
    each.push(performance.now() - s);
  }
  const total = performance.now() - t;
  console.log(`| model load (import + session) | ${loadMs.toFixed(0)} ms |`);
  console.log(`| embed one sentence (10 words), mean | ${(total / texts.length).toFixed(1)} ms |`);
  console.log(`| embed one sentence, p50 / p95 | ${percentile(each, 50).toFixed(1)} / ${percentile(each, 95).toFixed(1)} ms |`);
  console.log(`| RSS after load (before: ${Math.round(rss0 / 1e6)} MB) | ${Math.round(process.memoryUsage().rss / 1e6)} MB |`);
}

async function seed(store: GraphStore, scope: string, n: number): Promise<void> {
  const r = rng(n);
  for (let done = 0; done < n; done += 1000) {
    const cs = batch(scope, Math.min(1000, n - done), r, iso(0));
    const embeddings: NodeEmbedding[] = cs.beliefs.map((u) => ({
      id: u.belief.id,
      kind: "belief",
      vector: unitVector(r),
      model: MODEL,
      textHash: embeddingTextHash(u.belief.text),
    }));
    await store.apply(cs, { embeddings });
  }
}

async function benchSearch(name: string, store: GraphStore, n: number): Promise<void> {
  const scope = `vbench_${n}_${Date.now().toString(36)}`;
  const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
  await seed(store, scope, n);
  const r = rng(99);
  const times: number[] = [];
  await store.vectorSearch(view, unitVector(r), { k: 10, model: MODEL });
  for (let i = 0; i < QUERY_RUNS; i++) {
    const q = unitVector(r);
    const t = performance.now();
    const hits = await store.vectorSearch(view, q, { k: 10, model: MODEL });
    times.push(performance.now() - t);
    if (hits.length !== 10) throw new Error(`${name}: ${hits.length} hits`);
  }
  console.log(`| vectorSearch k=10, ${n} beliefs, ${name} | ${percentile(times, 50).toFixed(1)} / ${percentile(times, 95).toFixed(1)} ms |`);
}

console.log("| measure | value |\n|---|---|");
await benchModel();
for (const backend of BACKENDS) {
  for (const n of SIZES) {
    if (backend === "pglite") {
      const dir = await mkdtemp(path.join(tmpdir(), "credence-vbench-"));
      const db = await openDatabase({ dataDir: dir, owner: "bench:vectors" });
      try {
        await benchSearch("SQL on PGlite (pgvector)", createSqlGraphStore({ sql: db.sql }), n);
      } finally {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      }
    } else if (backend === "postgres") {
      const throwaway = await createThrowawayDatabase("credence_vbench");
      const db = await openDatabase({ databaseUrl: throwaway.url });
      try {
        const pgvector = (await db.sql.query<{ present: boolean }>(
          "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS present",
        ))[0]?.present;
        await benchSearch(`SQL on the Postgres server (${pgvector ? "pgvector" : "exact REAL[] fallback"})`, createSqlGraphStore({ sql: db.sql }), n);
      } finally {
        await db.close();
        await throwaway.drop();
      }
    } else if (backend === "neo4j") {
      const server = process.env.NEO4J_URI ? null : await startNeo4jServer();
      const store = createNeo4jGraphStore({ uri: process.env.NEO4J_URI ?? server?.uri ?? "", namespace: `vbench_${Date.now().toString(36)}` });
      try {
        await benchSearch("Neo4j (vector index)", store, n);
      } finally {
        await store.dropNamespace();
        await store.close();
        await server?.stop();
      }
    }
  }
}
