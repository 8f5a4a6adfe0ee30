/**
 * `npm run bench:store`: the graph store on every backend — SQL on embedded PGlite, SQL on the Postgres server, and
 * Neo4j (`NEO4J_URI` if set, else the in-process test server from `lib/testing/neo4j-server.ts`).
 *
 * Measures, per backend: assimilations per second (single: load → engine assimilate → apply, one at a time; batched:
 * one change-set of many new beliefs, each with one verified entry), the raw insert rate of the same rows through the
 * bare driver in the same run (baseline; ratio = batched / raw), retrieval and recall p50/p95 at 10 000 and 100 000
 * beliefs (the services' read paths, `bench/read-paths.ts`: slim candidate rows → engine-equal ranking of the
 * whole domain → the top k loaded; recall adds the engine's recall with the offline heuristic assessor, no LLM; the
 * previous full-belief path beside it), and the cascade traversal over a 10 000-long chain.
 * Prints one markdown table, a column per backend, then the ratios between backends.
 * Flags: --sizes 10000,100000  --backends pglite,postgres,neo4j
 * The Neo4j rows come from `bench/neo4j-store.ts` (same corpus, same metric names).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { openDatabase, type Database } from "@/lib/db/database";
import {
  assimilate,
  defaultParams,
  emptyChangeSet,
  type Belief,
  type ChangeSet,
} from "@/lib/engine";
import { BATCH, SINGLE, QUERIES, CHAIN, iso, rng, sentence, nid, belief, entry, batch } from "@/bench/corpus";
import { measureReadPaths, readPathRows } from "@/bench/read-paths";
import type { GraphStore, ScopeView } from "@/lib/graph/graph-store";
import { benchNeo4jStore } from "@/bench/neo4j-store";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import { rawInsertRows } from "@/bench/sql-store";
import { startNeo4jServer } from "@/lib/testing/neo4j-server";
import { createThrowawayDatabase } from "@/lib/db/testing/postgres";

const args = process.argv.slice(2);
function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
}
const SIZES = flag("sizes", "10000,100000").split(",").map(Number);
const BACKENDS = flag("backends", "pglite,postgres,neo4j").split(",");
/** The same rows as `batch`, written with bare parameterised INSERTs (no engine, no checks): the baseline. */
async function rawInsert(db: Database, cs: ChangeSet): Promise<void> {
  await db.sql.transaction((tx) => rawInsertRows(tx, cs));
}

interface Row {
  backend: string;
  metric: string;
  value: string;
}

async function benchBackend(name: string, db: Database, rows: Row[]): Promise<void> {
  const store: GraphStore = createSqlGraphStore({ sql: db.sql, location: db.describe() });
  await store.check();
  const add = (metric: string, value: string) => {
    rows.push({ backend: name, metric, value });
    console.error(`  ${name}: ${metric} = ${value}`);
  };
  const r = rng(42);

  // Batched ingest vs the raw baseline, same number of rows, separate scopes, same run.
  const batchScope = nid("s");
  const rawScope = nid("s");
  let t = performance.now();
  for (let i = 0; i < 5; i++) await store.apply(batch(batchScope, BATCH, r, iso(0)));
  const batched = (5 * BATCH) / ((performance.now() - t) / 1000);
  t = performance.now();
  for (let i = 0; i < 5; i++) await rawInsert(db, batch(rawScope, BATCH, r, iso(0)));
  const raw = (5 * BATCH) / ((performance.now() - t) / 1000);
  add("batched ingest (beliefs+entry+evidence /s)", batched.toFixed(0));
  add("raw insert baseline, bare driver (same rows /s)", raw.toFixed(0));
  add("batched / raw", `${((100 * batched) / raw).toFixed(0)} %`);

  // Single assimilations: load → engine assimilate through the resolver → apply, one at a time.
  const singleScope = nid("s");
  const v: ScopeView = { homeScopeId: singleScope, visibleScopeIds: [singleScope] };
  const seed = batch(singleScope, SINGLE, r, iso(0));
  await store.apply(seed);
  const evs = batch(singleScope, SINGLE, r, iso(0)).evidence;
  await store.apply({ ...emptyChangeSet(nid("cs"), "bench", iso(0)), evidence: evs });
  t = performance.now();
  for (let i = 0; i < SINGLE; i++) {
    const id = seed.beliefs[i]?.belief.id ?? "";
    const rec = await store.loadBelief(v, id);
    if (!rec) throw new Error("missing belief");
    const result = await assimilate({
      target: { existing: rec },
      evidence: [{ sourceId: evs[i]?.id ?? null, tier: "document" }],
      resolver: store.resolverFor(v),
      params: defaultParams,
      time: iso(60_000 * (i + 1)),
      actor: "bench",
      changeSetId: nid("cs"),
    });
    await store.apply(result.changeSet);
  }
  add("single assimilations /s (load → assimilate → apply)", (SINGLE / ((performance.now() - t) / 1000)).toFixed(0));

  // Retrieval and recall at each size, in one scope grown in place.
  const scope = nid("s");
  const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
  const assessor = createHeuristicAssessor();
  let size = 0;
  for (const target of SIZES) {
    t = performance.now();
    while (size < target) {
      const n = Math.min(5_000, target - size);
      await store.apply(batch(scope, n, r, iso(0)));
      size += n;
    }
    console.error(`  ${name}: grew to ${size} beliefs in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const qr = rng(7);
    const questions = Array.from({ length: QUERIES }, () => sentence(qr, 3));
    const samples = await measureReadPaths(store, view, questions, assessor, defaultParams);
    for (const [metric, value] of readPathRows(size, samples)) add(metric, value);
  }

  // Cascade: citation closure over a 10 000-long chain.
  const chainScope = nid("s");
  const chain: Belief[] = Array.from({ length: CHAIN + 1 }, (_, i) => belief(chainScope, `chain link ${i}.`, iso(0)));
  const cs = emptyChangeSet(nid("cs"), "bench", iso(0));
  await store.apply({
    ...cs,
    beliefs: chain.map((b) => ({ belief: b, expectedVersion: null })),
    history: chain.slice(1).map((b, i) => ({ beliefId: b.id, items: [entry(chain[i]?.id ?? "", iso(0), "belief")] })),
  });
  t = performance.now();
  const hops = await store.citationIndex().citationClosure(chain[0]?.id ?? "");
  add(`cascade closure over a ${hops.length}-long chain (ms)`, (performance.now() - t).toFixed(0));
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const migrationsDir = path.join(process.cwd(), "prisma", "migrations");
  if (BACKENDS.includes("pglite")) {
    const dir = await mkdtemp(path.join(tmpdir(), "credence-bench-"));
    const db = await openDatabase({ dataDir: dir, migrationsDir, owner: "bench-store" });
    try {
      await benchBackend("SQL / PGlite", db, rows);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (BACKENDS.includes("postgres")) {
    const throwaway = await createThrowawayDatabase("credence_bench");
    const db = await openDatabase({ databaseUrl: throwaway.url, migrationsDir });
    try {
      await benchBackend("SQL / Postgres 15", db, rows);
    } finally {
      await db.close();
      await throwaway.drop();
    }
  }
  if (BACKENDS.includes("neo4j")) {
    const external = process.env.NEO4J_URI;
    const server = external ? null : await startNeo4jServer();
    try {
      rows.push(...(await benchNeo4jStore({ uri: external ?? server?.uri ?? "", sizes: SIZES, backend: "Neo4j 5.26" })));
    } finally {
      await server?.stop();
    }
  }
  printTable(rows);
}

/** One markdown table, a column per backend; then each backend's numeric figures as ratios to the first backend's. */
function printTable(rows: readonly Row[]): void {
  const metrics = [...new Set(rows.map((r) => r.metric))];
  const backends = [...new Set(rows.map((r) => r.backend))];
  const value = (b: string, m: string) => rows.find((r) => r.backend === b && r.metric === m)?.value;
  console.log(`| metric | ${backends.join(" | ")} |`);
  console.log(`|---|${backends.map(() => "---:").join("|")}|`);
  for (const m of metrics) console.log(`| ${m} | ${backends.map((b) => value(b, m) ?? "–").join(" | ")} |`);
  const [first, ...others] = backends;
  if (first === undefined || others.length === 0) return;
  console.log("");
  console.log(`Ratios to ${first} (a figure divided by ${first}'s; for p50 / p95 pairs, each part):`);
  console.log("");
  console.log(`| metric | ${others.map((b) => `${b} ÷ ${first}`).join(" | ")} |`);
  console.log(`|---|${others.map(() => "---:").join("|")}|`);
  for (const m of metrics) {
    if (m.includes("/ raw")) continue;
    const base = numbers(value(first, m));
    console.log(
      `| ${m} | ${others
        .map((b) => {
          const mine = numbers(value(b, m));
          if (base.length === 0 || mine.length !== base.length) return "–";
          return mine.map((x, i) => ((base[i] ?? 0) === 0 ? "–" : (x / (base[i] ?? 1)).toFixed(2))).join(" / ");
        })
        .join(" | ")} |`,
    );
  }
}

function numbers(cell: string | undefined): number[] {
  if (cell === undefined) return [];
  return cell.split(" / ").map(Number).filter((x) => Number.isFinite(x));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
