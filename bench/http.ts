/**
 * `npm run bench:http`: the write and read paths as clients see them, per backend (SQL on embedded PGlite, SQL on the
 * Postgres server, Neo4j), in two parts. Reports only; asserts nothing.
 *
 * 1. **Stages of one assimilation** (in process, the REST route handler called as Next calls it, sequentially): where
 *    the time of `POST …/assimilate` goes (`--stage-op cite`: the claim cites a registered document, so the related
 *    beliefs receive entries too; `--stage-op ingest`: `POST …/ingest` of a two-sentence text; `--stage-op search|recall`:
 *    a read, `GET …/beliefs?q=` or `…/recall?q=`, after the seed's assimilations) — authentication, rate limit, idempotency (a request with an
 *    `Idempotency-Key` minus one without), access and parameters (the services' own database reads), the graph
 *    store's loads, the engine with the configured assessor and embedder, the commit — with the database round trips
 *    of each stage (every `pg` query and every Cypher statement is counted).
 * 2. **Over HTTP**: a real server (`bin/serve.ts` as `npm start` runs it, compiled when built, on the production build
 *    in `--root`, default this checkout) per backend, a scope seeded with `--seed` beliefs, then 1, 4 and 16
 *    concurrent clients doing assimilate, ingest, search and recall for `--seconds` each: throughput, p50 / p95 / p99,
 *    the writes per request that lost an optimistic-concurrency race and ran again (the server's
 *    `credence_write_contention` gauge on `/api/metrics`),
 *    the server's own CPU time per request (its process group's, from /proc: what a loaded machine does not inflate;
 *    a database server's CPU is not in it, but in a column of its own: on Postgres its backends connected to the
 *    served database, on Neo4j the JVM of the test server, `neo4jServerPid`), the machine's 1-minute load average,
 *    and the server's resident memory after its runs (and the Neo4j JVM's).
 *
 * Flags: --backends pglite,postgres,neo4j  --clients 1,4,16  --ops assimilate,ingest,search,recall  --seconds 5
 *        --seed 2000  --stage-runs 60  --stage-seed 20  --stage-op assimilate|cite|ingest|search|recall  --parts stages,http  --root <checkout with .next>
 *        --trace (part 1: every statement of one assimilation, with and without a key, mean ms over the stage runs)
 *        --profile DIR (part 2: the server writes a V8 CPU profile into DIR when it stops: `node --cpu-prof`)
 *        --wire (part 2, Postgres and Neo4j: the server reaches its database through a counting relay, ./wire-counter.ts,
 *        and each cell adds the bytes the database sent and the round trips per request; off by default, because the
 *        relay runs in this process, beside the clients, and adds a loopback hop; PGlite is in the server's process: –)
 *        --port N (part 2: the servers listen on N, one at a time, instead of on a free port the system picks)
 * Kept stores (part 2: seed once, measure many builds on the same beliefs): --pglite-data DIR serves PGlite from data
 *        folder DIR (kept); --pg-database NAME serves Postgres from database NAME (created when missing, never
 *        dropped); with either, the scope is --scope SLUG (default `bench-BACKEND`) owned by --email (default
 *        `bench@example.test`), both created when missing, and the seed only tops the scope up to --seed beliefs.
 *        --seed-bulk: the top-up is written straight into the store instead of over HTTP
 *        (100 000 beliefs take minutes, not hours): one claim is assimilated over HTTP, the server stopped, and each
 *        new belief cloned from that one's rows (belief, first history entry, change-set: the credence, confidence and
 *        fold state of a fresh claim with one document entry) with its own text (./http-seed.ts), key, topic slug and
 *        search terms (postings and term counts by the tables' triggers), and its sentence vector from the local model
 *        the server embeds with, written by the store's own `writeEmbeddings`; then VACUUM (ANALYZE), as autovacuum
 *        would after such an insert: it sets the visibility map, without which every posting an index-only scan reads
 *        also fetches its table row (autovacuum is off on this project's machines, and PGlite has none; a kept store
 *        seeded without it needs one VACUUM by hand); the server started again (its vector index loads the new rows as
 *        after any restart), and one search printed as a check. On Neo4j (a new scope per run: nothing is kept;
 *        NEO4J_URI may name a server started by hand, e.g. with a larger heap through NEO4J_TEST_SERVER_JAVA_OPTS,
 *        which outlives the run) the clones of the same template, with the same vectors, are written through the
 *        store's own `apply`, a change-set of 2 000 beliefs per transaction (`bulkSeedNeo4j`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { rng, words } from "./corpus";
import { bulkClaimTexts, bulkClaimVectors } from "./http-seed";
import { startWireCounter, type WireCounter } from "./wire-counter";

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  // The flags as the module comment gives them (its "Flags:" paragraph and what follows), not a run.
  const own = readFileSync(fileURLToPath(import.meta.url), "utf8");
  const header = own.slice(own.indexOf(" * Flags:"), own.indexOf(" */"));
  console.log(`npm run bench:http -- [flags]: the write and read paths as clients see them (BENCHMARKS.md, HTTP).\n\n${header.replace(/^ \* ?/gm, "")}`);
  process.exit(0);
}
function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
}
const BACKENDS = flag("backends", "pglite,postgres,neo4j").split(",");
const CLIENTS = flag("clients", "1,4,16").split(",").map(Number);
const OPS = flag("ops", "assimilate,ingest,search,recall").split(",") as Op[];
const SECONDS = Number(flag("seconds", "5"));
const SEED = Number(flag("seed", "2000"));
const STAGE_RUNS = Number(flag("stage-runs", "60"));
/** Part 1: beliefs written before the stages are timed (the scope the candidate ranking reads). */
const STAGE_SEED = Number(flag("stage-seed", "20"));
const STAGE_OP = flag("stage-op", "assimilate") as "assimilate" | "cite" | "ingest" | "search" | "recall";
if (!["assimilate", "cite", "ingest", "search", "recall"].includes(STAGE_OP)) throw new Error(`--stage-op ${STAGE_OP}: assimilate, cite, ingest, search or recall`);
/** `--stage-op search|recall`: part 1 times a read (GET …/beliefs?q= or …/recall?q=) after the seed's assimilations. */
const STAGE_READ = STAGE_OP === "search" || STAGE_OP === "recall";
/** What part 1's rows count: one assimilation (with or without a citation), ingest, search or recall. */
const STAGE_UNIT = STAGE_OP === "cite" || STAGE_OP === "assimilate" ? "assimilation" : STAGE_OP;
const PARTS = flag("parts", "stages,http").split(",");
const ROOT = path.resolve(flag("root", process.cwd()));
/** An entry point of the checkout in `--root`: `bin/NAME`, or `scripts/NAME` in a checkout that keeps them there (a baseline). */
const entryPoint = (name: string) => (existsSync(path.join(ROOT, "bin", name)) ? path.join("bin", name) : path.join("scripts", name));
/** `--trace`: print every statement of one assimilation (after the warm-up), by stage. */
const TRACE = args.includes("--trace");
/** `--profile DIR`: each server started in part 2 runs under `--cpu-prof`, its profile written into DIR as it exits. */
const PROFILE_DIR = flag("profile", "");
/** Kept stores (module comment). */
const PGLITE_DATA = flag("pglite-data", "");
const PG_DATABASE = flag("pg-database", "");
/** `--seed-bulk`: the seed written into the tables, not over HTTP (module comment). */
const SEED_BULK = args.includes("--seed-bulk");
/** `--wire`: database bytes and round trips per request through a counting relay (module comment). */
const WIRE = args.includes("--wire");
/** `--wire-top N`: how many statements (most bytes first) the wire table lists per cell; default 5. */
const WIRE_TOP = Number(flag("wire-top", "5"));
/** `--port N`: every server of part 2 listens on N (one at a time) instead of a free port picked by the system. */
const PORT = Number(flag("port", "0"));

type Op = "assimilate" | "ingest" | "search" | "recall";
type Backend = "pglite" | "postgres" | "neo4j";

const load1 = () => loadavg()[0]?.toFixed(1) ?? "?";

// ---------------------------------------------------------------------------------------------------------------
// Words for claims and queries (deterministic)
// ---------------------------------------------------------------------------------------------------------------

/** The claims' and queries' words: 600 words, skewed to the common ones. */
const wordRng = rng(12345);
const queryWords = () => words(wordRng, 3, { vocabulary: 600, skew: 3 });
let claimCounter = 0;
function claimText(): string {
  claimCounter++;
  return `${words(wordRng, 5, { vocabulary: 600, skew: 3 })} measure ${claimCounter} ${process.pid}`;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : "–");

// ---------------------------------------------------------------------------------------------------------------
// Part 1: stages of one assimilation, in process
// ---------------------------------------------------------------------------------------------------------------

type Stage = "route" | "services" | "load" | "commit";
interface StageCounters {
  time: Record<string, number>;
  trips: Record<string, number>;
}
const stageContext = new AsyncLocalStorage<Stage>();
let counters: StageCounters = { time: {}, trips: {} };
/** While set (`--trace`), every statement's stage and text is appended. */
let traced: string[] | null = null;
function trace(stage: string, statement: unknown): (elapsed: number) => void {
  if (traced === null) return () => {};
  const text = typeof statement === "string" ? statement : ((statement as { text?: string } | null)?.text ?? String(statement));
  const lines = traced;
  const line = (elapsed: string) => `${stage.padEnd(8)} ${elapsed.padStart(6)} ms  ${text.replace(/\s+/g, " ").slice(0, 150)}`;
  const at = lines.push(line("?")) - 1;
  return (elapsed) => {
    lines[at] = line(elapsed.toFixed(1));
  };
}
function count(stage: string, elapsed: number): void {
  counters.trips[stage] = (counters.trips[stage] ?? 0) + 1;
  counters.time[`db:${stage}`] = (counters.time[`db:${stage}`] ?? 0) + elapsed;
}

/** Counts every pg round trip: Prisma's adapter, and the SQL store on a Postgres server (on PGlite: `countedExecutor`). */
function instrumentPg(): void {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...a: unknown[]) {
    const stage = stageContext.getStore() ?? "route";
    const traceDone = trace(stage, a[0]);
    const started = performance.now();
    const last = a.length - 1;
    if (typeof a[last] === "function") {
      // The pool's own queries come with a callback: time them there.
      const callback = a[last] as (...r: unknown[]) => unknown;
      a[last] = (...r: unknown[]) => {
        traceDone(performance.now() - started);
        return callback(...r);
      };
    }
    const result = original.apply(this, a);
    if (result instanceof Promise)
      return result.finally(() => {
        count(stage, performance.now() - started);
        traceDone(performance.now() - started);
      });
    count(stage, 0);
    return result;
  };
}

/**
 * Counts the statements of an executor that does not go through pg.Client (the embedded database's raw SQL), as
 * `instrumentPg` counts pg's: a transaction's BEGIN and COMMIT (or ROLLBACK) are two more round trips.
 */
function countedExecutor(inner: SqlExecutor): SqlExecutor {
  return {
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      const stage = stageContext.getStore() ?? "route";
      const traceDone = trace(stage, text);
      const started = performance.now();
      try {
        return await inner.query<T>(text, params);
      } finally {
        count(stage, performance.now() - started);
        traceDone(performance.now() - started);
      }
    },
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const stage = stageContext.getStore() ?? "route";
      count(stage, 0);
      return inner.transaction((tx) => fn(countedExecutor(tx))).finally(() => count(stage, 0));
    },
  };
}

async function timed<T>(stage: Stage, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await stageContext.run(stage, fn);
  } finally {
    counters.time[stage] = (counters.time[stage] ?? 0) + (performance.now() - started);
  }
}

/** Every method of `target` runs inside `stage` (functions returning promises are timed). */
function wrapAll<T extends object>(target: T, stageOf: (name: string) => Stage | null): T {
  // The proxy's own target is an empty object: frozen services would forbid a proxy returning wrapped methods.
  const obj = target;
  return new Proxy({} as T, {
    get(_empty, prop) {
      const value = Reflect.get(obj, prop) as unknown;
      if (typeof value !== "function" || typeof prop !== "string") return value;
      const stage = stageOf(prop);
      if (stage === null) return (value as (...a: unknown[]) => unknown).bind(obj);
      return (...a: unknown[]) => {
        // Called inside the stage, so every query it issues is counted there.
        let sync: unknown;
        const started = performance.now();
        const out = stageContext.run(stage, () => {
          sync = (value as (...a: unknown[]) => unknown).apply(obj, a);
          return sync;
        });
        if (out instanceof Promise) {
          return out.finally(() => {
            counters.time[stage] = (counters.time[stage] ?? 0) + (performance.now() - started);
          });
        }
        return sync;
      };
    },
  });
}

async function stageBreakdown(backend: Backend): Promise<Record<string, string>> {
  const [{ openDatabase, registerDatabase, unregisterDatabase }, { registerGraphStore, unregisterGraphStore }, identity, route, readRoute, apiContext, limiter] =
    await Promise.all([
      import("@/lib/db/database"),
      import("@/lib/graph/select-graph-store"),
      Promise.all([import("@/lib/identity/users"), import("@/lib/identity/scopes"), import("@/lib/identity/tokens")]),
      STAGE_OP === "ingest" ? import("@/app/api/v1/scopes/[scope]/ingest/route") : import("@/app/api/v1/scopes/[scope]/assimilate/route"),
      // The read's route only when a read is timed.
      !STAGE_READ ? null : STAGE_OP === "search" ? import("@/app/api/v1/scopes/[scope]/beliefs/route") : import("@/app/api/v1/scopes/[scope]/recall/route"),
      import("@/lib/api/api-context"),
      import("@/lib/api/rate-limiter"),
    ]);
  const { getBeliefServices } = await import("@/lib/beliefs/get-belief-services");
  const { createSqlGraphStore } = await import("@/lib/graph/sql/sql-graph-store");
  const { analyzeStaleTables } = await import("@/lib/db/planner-statistics");

  const cleanup: (() => Promise<void>)[] = [];
  let db;
  if (backend === "postgres") {
    const { createThrowawayDatabase } = await import("@/lib/db/testing/postgres");
    const throwaway = await createThrowawayDatabase("credence_bench_http");
    cleanup.push(() => throwaway.drop());
    db = await openDatabase({ databaseUrl: throwaway.url });
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), "credence-bench-http-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const opened = await openDatabase({ dataDir: dir, owner: "bench:http stages" });
    // Its raw SQL runs on the in-process PGlite, not through pg.Client: counted here instead.
    db = { ...opened, sql: countedExecutor(opened.sql) };
  }
  cleanup.unshift(() => db.close());
  let cypher = 0;
  let store;
  if (backend === "neo4j") {
    const uri = await neo4jUri(cleanup);
    const { createNeo4jGraphStore } = await import("@/lib/graph/neo4j/neo4j-graph-store");
    const neo = createNeo4jGraphStore({ uri, database: "neo4j", namespace: `bench_http_${process.pid}`, onQuery: (query: string) => {
      cypher++;
      const stage = stageContext.getStore() ?? "route";
      const traceDone = trace(stage, query);
      return (elapsed: number) => {
        count(stage, elapsed);
        traceDone(elapsed);
      };
    } });
    await neo.check();
    cleanup.unshift(async () => {
      await neo.dropNamespace();
      await neo.close();
    });
    store = neo;
  } else {
    store = createSqlGraphStore({ sql: db.sql, location: db.describe() });
  }
  // The app's own composition (assessor, embedder and clock as configured) over the timed store; only the store's
  // methods and the services' entry points are wrapped.
  const timedStore = wrapAll(store, (name) => (name === "apply" ? "commit" : name === "citationIndex" ? null : "load"));
  registerDatabase(db);
  registerGraphStore({ store: timedStore, description: "bench" });
  const servicesGlobal = globalThis as { __credenceBeliefServices?: unknown };
  delete servicesGlobal.__credenceBeliefServices;
  const services = await getBeliefServices();
  servicesGlobal.__credenceBeliefServices = Promise.resolve(wrapAll(services, () => "services"));
  cleanup.unshift(async () => {
    delete servicesGlobal.__credenceBeliefServices;
    unregisterGraphStore();
    unregisterDatabase();
  });

  const [users, scopes, tokens] = identity;
  const user = await users.createUser(db, { email: `bench-${process.pid}@example.test`, password: "bench-password-1" });
  const scope = await scopes.createScope(db, { slug: `bench-${process.pid}`, name: "Bench", ownerId: user.id });
  const { token } = await tokens.createToken(db, user.id, { name: "bench" });
  process.env.CREDENCE_RATE_LIMIT_PER_MINUTE = "100000000";

  const headers = (key: string | null) => ({ authorization: `Bearer ${token}`, "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) });
  // `cite`: every claim cites one registered document.
  let cited: string | null = null;
  if (STAGE_OP === "cite") {
    const evidenceRoute = await import("@/app/api/v1/scopes/[scope]/evidence/route");
    const registered = await evidenceRoute.POST(
      new Request(`http://localhost/api/v1/scopes/${scope.slug}/evidence`, { method: "POST", headers: headers(null), body: JSON.stringify({ kind: "document", text: "The bench's cited report.", assess: false }) }),
      { params: Promise.resolve({ scope: scope.slug }) },
    );
    cited = ((await registered.json()) as { evidence: { id: string } }).evidence.id;
  }
  const request = (key: string | null) =>
    STAGE_OP === "ingest"
      ? new Request(`http://localhost/api/v1/scopes/${scope.slug}/ingest`, { method: "POST", headers: headers(key), body: JSON.stringify({ text: `${claimText()}. ${claimText()}.` }) })
      : new Request(`http://localhost/api/v1/scopes/${scope.slug}/assimilate`, {
          method: "POST",
          headers: headers(key),
          body: JSON.stringify({ claim: claimText(), evidence: [{ tier: "document", weight: 0.8, sourceId: cited }] }),
        });
  const write = async (key: string | null) => {
    const started = performance.now();
    const response = await timed("route", () => route.POST(request(key), { params: Promise.resolve({ scope: scope.slug }) }));
    await response.text();
    if (response.status !== 200) throw new Error(`${STAGE_OP} answered ${response.status}`);
    return performance.now() - started;
  };
  // A read (`--stage-op search|recall`) carries no Idempotency-Key: the key runs give its spread again.
  const read = async () => {
    const started = performance.now();
    const path = STAGE_OP === "search" ? "beliefs" : "recall";
    const get = new Request(`http://localhost/api/v1/scopes/${scope.slug}/${path}?q=${encodeURIComponent(queryWords())}&k=10`, { headers: headers(null) });
    if (readRoute === null) throw new Error("unreachable: no read route without --stage-op search|recall");
    const response = await timed("route", () => readRoute.GET(get, { params: Promise.resolve({ scope: scope.slug }) }));
    await response.text();
    if (response.status !== 200) throw new Error(`${STAGE_OP} answered ${response.status}`);
    return performance.now() - started;
  };
  const call = (key: string | null) => (STAGE_READ ? read() : write(key));
  // Warm up (module loads, first statements), with a seed of beliefs so searches have something to rank.
  for (let i = 0; i < STAGE_SEED; i++) await write(null);
  if (STAGE_READ) for (let i = 0; i < 5; i++) await read();
  // The seeded tables analysed, as the server's statistics keeper would have done by now (bin/serve.ts,
  // lib/db/planner-statistics.ts: PGlite and a Postgres without autovacuum). Without statistics the planner probes a
  // term's postings for the other query terms by a scan: the top-k walk's probes took ~100 ms each at 2 000 seeded
  // beliefs (an ingest 368 ms in process), against 2–3 ms analysed (68 ms).
  if (backend !== "neo4j") await analyzeStaleTables(db.sql);
  if (TRACE && STAGE_READ) {
    // A read's statements depend on its question (how many terms, how far the walk goes): each statement's runs and
    // time per request, summed over the stage runs, most time first.
    const byText = new Map<string, { runs: number; ms: number }>();
    for (let i = 0; i < STAGE_RUNS; i++) {
      traced = [];
      await call(null);
      for (const line of traced) {
        const text = `${line.slice(0, 9)}${line.slice(20)}`;
        const entry = byText.get(text) ?? { runs: 0, ms: 0 };
        entry.runs += 1;
        entry.ms += Number.parseFloat(line.slice(9, 15)) || 0;
        byText.set(text, entry);
      }
      traced = null;
    }
    const lines = [...byText].sort((a, b) => b[1].ms - a[1].ms).map(([text, e]) => `${text.slice(0, 9)}${(e.ms / STAGE_RUNS).toFixed(2).padStart(6)} ms ${(e.runs / STAGE_RUNS).toFixed(2).padStart(5)}×  ${text.slice(9)}`);
    console.log(`\nStatements of one ${STAGE_OP} on ${backend} (ms and runs per request, mean of ${STAGE_RUNS}):\n${lines.join("\n")}`);
  }
  if (TRACE && !STAGE_READ) {
    for (const key of [null, `bench-trace-${process.pid}`]) {
      // The statements of one request, each with its mean time over the stage runs (same sequence every time).
      const runs: string[][] = [];
      for (let i = 0; i < STAGE_RUNS; i++) {
        traced = [];
        await call(key === null ? null : `${key}-${i}`);
        runs.push(traced);
        traced = null;
      }
      const last = runs.at(-1) ?? [];
      const lines = last.map((line, j) => {
        const times = runs.map((r) => Number.parseFloat((r[j] ?? "").slice(9, 15))).filter(Number.isFinite);
        const mean = times.reduce((a, b) => a + b, 0) / Math.max(1, times.length);
        return `${line.slice(0, 9)}${mean.toFixed(1).padStart(6)}${line.slice(15)}`;
      });
      console.log(`\nStatements of one ${STAGE_UNIT} on ${backend}${key ? " with an Idempotency-Key" : ""} (${last.length}; mean ms of ${STAGE_RUNS} runs):\n${lines.join("\n")}`);
    }
  }

  counters = { time: {}, trips: {} };
  const plain: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < STAGE_RUNS; i++) plain.push(await call(null));
  const cpu = process.cpuUsage(cpuBefore);
  const c = counters;
  counters = { time: {}, trips: {} };
  const keyed: number[] = [];
  for (let i = 0; i < STAGE_RUNS; i++) keyed.push(await call(`bench-${process.pid}-${i}`));
  const k = counters;
  counters = { time: {}, trips: {} };
  const auth: number[] = [];
  for (let i = 0; i < STAGE_RUNS; i++) {
    const started = performance.now();
    await stageContext.run("route", () => apiContext.authenticateCaller(request(null)));
    auth.push(performance.now() - started);
  }
  const authTrips = (counters.trips.route ?? 0) / STAGE_RUNS;
  const rateStarted = performance.now();
  for (let i = 0; i < 10_000; i++) limiter.getRateLimiter().take(`bench:${i % 4}`);
  const rateMs = (performance.now() - rateStarted) / 10_000;

  for (const fn of cleanup) await fn().catch(() => {});
  const n = STAGE_RUNS;
  const per = (x: number | undefined) => (x ?? 0) / n;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const total = mean(plain);
  const servicesMs = per(c.time.services);
  const loadMs = per(c.time.load);
  const commitMs = per(c.time.commit);
  const accessMs = per(c.time["db:services"]);
  const engineMs = servicesMs - loadMs - commitMs - accessMs;
  const authMs = mean(auth);
  const trips = (stage: string) => per(c.trips[stage]).toFixed(1);
  const sorted = [...plain].sort((a, b) => a - b);
  return {
    [`one ${STAGE_UNIT}, route handler in process (mean ms; p50 / p95)`]: `${ms(total)} (${ms(percentile(sorted, 50))} / ${ms(percentile(sorted, 95))})`,
    "authentication (ms; round trips)": `${ms(authMs)}; ${authTrips.toFixed(1)}`,
    "rate limit (ms)": ms(rateMs),
    "idempotency: with key − without (ms; extra round trips)": `${ms(mean(keyed) - total)}; ${(per(k.trips.route) + per(k.trips.services) + per(k.trips.load) + per(k.trips.commit) - (per(c.trips.route) + per(c.trips.services) + per(c.trips.load) + per(c.trips.commit))).toFixed(1)}`,
    "access + parameters: services' own reads (ms; round trips)": `${ms(accessMs)}; ${trips("services")}`,
    "graph store loads (ms; round trips)": `${ms(loadMs)}; ${trips("load")}`,
    "engine, assessor and embedder: services − loads − commit − services' reads (ms)": ms(engineMs),
    "commit: apply (ms; round trips)": `${ms(commitMs)}; ${trips("commit")}`,
    "route outside the services (auth, rate, parse, present) (ms; round trips)": `${ms(total - servicesMs)}; ${trips("route")}`,
    [`round trips per ${STAGE_UNIT} (total)`]: (per(c.trips.route) + per(c.trips.services) + per(c.trips.load) + per(c.trips.commit)).toFixed(1),
    // This process's CPU (the embedded PGlite's included; a Postgres server's or Neo4j's not): what load inflates least.
    [`process CPU per ${STAGE_UNIT} (ms)`]: ms((cpu.user + cpu.system) / 1000 / n),
    ...(backend === "neo4j" ? { "of which Cypher statements": (cypher / (STAGE_SEED + 2 * n)).toFixed(1) } : {}),
    "load average (1 min)": load1(),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Part 2: over HTTP, a real server per backend
// ---------------------------------------------------------------------------------------------------------------

let neo4jServer: { uri: string; stop(): Promise<void> } | null = null;
async function neo4jUri(cleanup: (() => Promise<void>)[]): Promise<string> {
  if (process.env.NEO4J_URI) return process.env.NEO4J_URI;
  if (neo4jServer === null) {
    const { startNeo4jServer } = await import("@/lib/testing/neo4j-server");
    neo4jServer = await startNeo4jServer();
  }
  void cleanup;
  return neo4jServer.uri;
}

function runTsxIn(root: string, script: string, scriptArgs: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, script), ...scriptArgs], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.once("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`${script} ${scriptArgs.join(" ")}: ${err.trim()}`))));
  });
}

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * CPU seconds (user + system) used so far by every process of the server's process group (the server is started
 * detached, so its group is its own): tsx, Node, and on PGlite the embedded database in the same process. Linux only
 * (`/proc`); null elsewhere.
 */
function groupCpuSeconds(pgid: number | undefined): number | null {
  if (pgid === undefined || !existsSync("/proc/self/stat")) return null;
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the command (which may hold spaces): state ppid pgrp … utime(14) stime(15).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== pgid) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/**
 * CPU seconds used so far by the Postgres server's backends connected to database `name` (their titles read
 * `postgres: [CLUSTER: ]USER NAME HOST(PORT) STATE`): the database's own work for this bench, not another database's on the same
 * server. A backend that exits takes its time with it, so only a run whose connections stay open (the server's
 * pool) is counted whole. Linux only; null elsewhere.
 */
function databaseCpuSeconds(name: string): number | null {
  if (!existsSync("/proc/self/stat")) return null;
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (/^postgres: (?:\S+: )?\S+ (\S+) /.exec(title)?.[1] !== name) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      continue;
    }
  }
  return ticks / 100;
}

/**
 * The JVM of the Neo4j test server at `uri` (tools/neo4j-test-server, in a process group of its own): the one this
 * bench started (`neo4jUri`; start.sh `exec`s it, so it is a child of this process), or one started on this machine
 * with `--port` and the URI's port (NEO4J_URI set). Undefined for any other server (its CPU is not reported).
 */
function neo4jServerPid(uri: string): number | undefined {
  if (!existsSync("/proc/self/stat")) return undefined;
  const port = new URL(uri).port;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes("neo4j-test-server.jar")) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const child = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid;
      if ((neo4jServer !== null && child) || (neo4jServer === null && cmdline.includes(`\0--port\0${port}\0`))) return Number(entry);
    } catch {
      continue;
    }
  }
  return undefined;
}

/** Resident memory (MiB) of the server's process group. Linux only; null elsewhere. */
function groupRssMiB(pgid: number | undefined): number | null {
  if (pgid === undefined || !existsSync("/proc/self/stat")) return null;
  let kib = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== pgid) continue;
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      continue;
    }
  }
  return kib / 1024;
}

async function startServer(env: Record<string, string>): Promise<{ baseUrl: string; cpuSeconds(): number | null; rssMiB(): number | null; stop(): Promise<void> }> {
  const port = PORT || (await freePort());
  const profile = PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`] : [];
  // What `npm start` runs: `bin/run.mjs serve` (the compiled server when `npm run build` compiled it and no source
  // changed since, else the sources through tsx); a checkout without the launcher (a baseline) runs its sources with
  // tsx's loader. Node itself, no wrapper process: a profiled server writes its profile as it exits on SIGTERM.
  const launcher = path.join(ROOT, "bin", "run.mjs");
  const entry = existsSync(launcher) ? [launcher, "serve"] : ["--import", "tsx", path.join(ROOT, entryPoint("serve.ts"))];
  const child: ChildProcess = spawn(process.execPath, [...profile, ...entry, "--port", String(port)], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const tail: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not up in 180 s:\n${tail.join("\n")}`)), 180_000);
    createInterface({ input: child.stderr! }).on("line", (l) => tail.push(l));
    createInterface({ input: child.stdout! }).on("line", (l) => {
      tail.push(l);
      if (l.includes(`serving on ${baseUrl}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${tail.join("\n")}`));
    });
  });
  return {
    baseUrl,
    cpuSeconds: () => groupCpuSeconds(child.pid),
    rssMiB: () => groupRssMiB(child.pid),
    async stop() {
      if (child.pid === undefined || child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid, "SIGTERM");
      // A profiled server needs longer: it writes its profile as it exits.
      const t = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), PROFILE_DIR ? 120_000 : 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

interface HttpTarget {
  baseUrl: string;
  token: string;
  slug: string;
}

function opRequest(target: HttpTarget, op: Op): () => Promise<number> {
  const base = `${target.baseUrl}/api/v1/scopes/${target.slug}`;
  const headers = { authorization: `Bearer ${target.token}`, "content-type": "application/json" };
  return async () => {
    let response: Response;
    if (op === "assimilate") {
      response = await fetch(`${base}/assimilate`, {
        method: "POST",
        headers,
        body: JSON.stringify({ claim: claimText(), evidence: [{ tier: "document", weight: 0.8, sourceId: null }] }),
      });
    } else if (op === "ingest") {
      response = await fetch(`${base}/ingest`, { method: "POST", headers, body: JSON.stringify({ text: `${claimText()}. ${claimText()}.` }) });
    } else if (op === "search") {
      response = await fetch(`${base}/beliefs?q=${encodeURIComponent(queryWords())}&k=10`, { headers });
    } else {
      response = await fetch(`${base}/recall?q=${encodeURIComponent(queryWords())}&k=10`, { headers });
    }
    await response.arrayBuffer();
    return response.status;
  };
}

/**
 * The server's optimistic-concurrency retries so far (`credence_write_contention{kind="retries"}` on its open
 * `/api/metrics`), or null where it cannot be read (a baseline without the gauge, a metrics token set).
 */
async function writeRetries(baseUrl: string): Promise<number | null> {
  try {
    const response = await fetch(`${baseUrl}/api/metrics`);
    if (!response.ok) return null;
    const match = /^credence_write_contention\{kind="retries"\} (\d+(?:\.\d+)?)$/m.exec(await response.text());
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Beliefs in the scope, ended ones included (paged through `GET …/beliefs`). */
async function countBeliefs(target: HttpTarget): Promise<number> {
  let count = 0;
  let after = "";
  for (;;) {
    const url = `${target.baseUrl}/api/v1/scopes/${target.slug}/beliefs?liveOnly=false&limit=1000${after ? `&afterId=${encodeURIComponent(after)}` : ""}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${target.token}` } });
    if (response.status !== 200) throw new Error(`listing the kept scope answered ${response.status}`);
    const body = (await response.json()) as { beliefs: { id: string }[] };
    count += body.beliefs.length;
    if (body.beliefs.length < 1000) return count;
    after = body.beliefs.at(-1)?.id ?? "";
  }
}

/** Bulk claims `from`…`to` (./http-seed.ts), their vectors from the local model the server embeds with, and its model key. */
async function bulkClaims(from: number, to: number): Promise<{ texts: string[]; vectors: Float32Array[]; model: string }> {
  const { LocalEmbedder } = await import("@/lib/embed/local-embedder");
  const texts = bulkClaimTexts(from, to);
  const embedder = new LocalEmbedder();
  const embedStarted = performance.now();
  let shown = 0;
  const vectors = await bulkClaimVectors(embedder, from, to, (k, total) => {
    if (k - shown >= 5_000 || k === total) {
      shown = k;
      console.error(`  embedding ${k} / ${total} (${((performance.now() - embedStarted) / 1000).toFixed(0)} s, load ${load1()})`);
    }
  });
  return { texts, vectors, model: `${embedder.model.name}@${embedder.model.version}` };
}

/** Beliefs written per transaction by the bulk seed. */
const BULK_BATCH = 2_000;

/**
 * `--seed-bulk`: `n` beliefs cloned from `templateId` (module comment) into the store of `env`, whose server is stopped,
 * in transactions of BULK_BATCH. Answers how many were written.
 */
async function bulkSeed(backend: Backend, env: Record<string, string>, slug: string, templateId: string, n: number): Promise<number> {
  if (backend === "neo4j") return bulkSeedNeo4j(env, slug, templateId, n);
  const { openDatabase } = await import("@/lib/db/database");
  const { beliefKey, topicSlug } = await import("@/lib/engine");
  const { embeddingTextHash } = await import("@/lib/graph/embeddings");
  const { searchTerms } = await import("@/lib/graph/sql/sql-writes");
  const { detectPgvector, writeEmbeddings } = await import("@/lib/graph/sql/sql-vectors");
  const db = await openDatabase(
    backend === "postgres"
      ? { databaseUrl: env.DATABASE_URL, migrationsDir: path.join(ROOT, "prisma", "migrations") }
      : { dataDir: env.CREDENCE_DATA_DIR, migrationsDir: path.join(ROOT, "prisma", "migrations"), owner: "bench:http --seed-bulk" },
  );
  try {
    const [row] = await db.sql.query<{ scope: string; time: Date }>("SELECT scope, created_at AS time FROM graph_beliefs WHERE id = $1", [templateId]);
    if (!row) throw new Error(`the template belief ${templateId} is not in the store`);
    // Bulk claims already in the scope (a kept store topped up again) are numbered on from the last.
    const [{ done } = { done: 0 }] = await db.sql.query<{ done: number }>("SELECT count(*)::int AS done FROM graph_beliefs WHERE scope = $1 AND key LIKE '% seeded'", [row.scope]);
    const { texts, vectors, model } = await bulkClaims(done + 1, done + n);
    const pgvector = await detectPgvector(db.sql);
    const base = new Date(row.time).getTime() + 1;
    for (let at = 0; at < texts.length; at += BULK_BATCH) {
      const chunk = texts.slice(at, at + BULK_BATCH);
      const ids = chunk.map(() => `b_${crypto.randomUUID()}`);
      const sets = chunk.map(() => `cs_${crypto.randomUUID()}`);
      const times = chunk.map((_, j) => new Date(base + at + j).toISOString());
      const params = [templateId, ids, sets, times, chunk, chunk.map(beliefKey), chunk.map((t) => topicSlug(t)), chunk.map(searchTerms)];
      const NEW = `unnest($2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[]) AS n(id, cs, t, text, key, topic, terms)`;
      const iso = `to_jsonb(to_char(n.t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
      const epoch = `to_jsonb((extract(epoch FROM n.t) * 1000)::bigint)`;
      await db.sql.transaction(async (tx) => {
        await tx.query(`INSERT INTO graph_change_sets (id, actor, time) SELECT n.cs, c.actor, n.t FROM ${NEW}, graph_change_sets c
                        WHERE c.id = (SELECT change_set FROM graph_history WHERE belief_id = $1 AND seq = 1)`, params);
        await tx.query(
          `INSERT INTO graph_beliefs (id, scope, topic, key, status, live, review_state, credence, confidence, tension, support_weight,
             rebuttal_weight, version, created_at, updated_at, valid_until, valid_from, search_terms, data, fold_checkpoint)
           SELECT n.id, b.scope, n.topic, n.key, b.status, b.live, b.review_state, b.credence, b.confidence, b.tension, b.support_weight,
             b.rebuttal_weight, b.version, n.t, n.t, b.valid_until, n.t, n.terms,
             b.data || jsonb_build_object('id', n.id, 'key', n.key, 'text', n.text, 'topic', n.topic, 'createdAt', ${iso}, 'updatedAt', ${iso}, 'validFrom', ${iso}),
             jsonb_set(jsonb_set(jsonb_set(jsonb_set(b.fold_checkpoint, '{group,id}', to_jsonb(n.cs)), '{group,time}', ${epoch}),
               '{group,lastTime}', ${iso}), '{foldedAt}', ${epoch})
           FROM ${NEW}, graph_beliefs b WHERE b.id = $1`,
          params,
        );
        await tx.query(
          `INSERT INTO graph_history (belief_id, seq, type, time, change_set, source_id, source_kind, relation, weight, target_seq, verified, laundered, live, data, observed_at)
           SELECT n.id, h.seq, h.type, n.t, n.cs, h.source_id, h.source_kind, h.relation, h.weight, h.target_seq, h.verified, h.laundered, h.live,
             h.data || jsonb_build_object('changeSet', n.cs, 'time', ${iso}, 'observedAt', ${iso}), n.t
           FROM ${NEW}, graph_history h WHERE h.belief_id = $1`,
          params,
        );
        const items = ids.map((id, j) => ({ id, kind: "belief" as const, model, textHash: embeddingTextHash(chunk[j] as string), vector: vectors[at + j] as Float32Array }));
        await writeEmbeddings(tx, pgvector, null, items);
      });
      console.error(`  written ${at + chunk.length} / ${texts.length} (load ${load1()})`);
    }
    await db.sql.query("VACUUM (ANALYZE)");
    return texts.length;
  } finally {
    await db.close();
  }
}

/**
 * `--seed-bulk` on Neo4j: the clones are written by the store's own `apply`, one change-set of BULK_BATCH new beliefs
 * per transaction, each belief the template's state (belief, history, fold checkpoint) with its own id, text, key,
 * topic and times, and its vector in `apply`'s embeddings: the same nodes, properties, full-text terms and vector index
 * entries an assimilation writes. Unlike the SQL seed's, the beliefs of one batch share one change-set id. The scope
 * is a new one per run (nothing kept), so the claims are numbered from 1. The scope's id is read from the identity
 * database (the server is stopped).
 */
async function bulkSeedNeo4j(env: Record<string, string>, slug: string, templateId: string, n: number): Promise<number> {
  const { openDatabase } = await import("@/lib/db/database");
  const { listAllScopes } = await import("@/lib/identity/scopes");
  const { beliefKey, emptyChangeSet, topicSlug } = await import("@/lib/engine");
  const { embeddingTextHash } = await import("@/lib/graph/embeddings");
  const { createNeo4jGraphStore } = await import("@/lib/graph/neo4j/neo4j-graph-store");
  const db = await openDatabase({ dataDir: env.CREDENCE_DATA_DIR, migrationsDir: path.join(ROOT, "prisma", "migrations"), owner: "bench:http --seed-bulk" });
  const scope = await listAllScopes(db).then((all) => all.find((s) => s.slug === slug)?.id).finally(() => db.close());
  if (scope === undefined) throw new Error(`scope ${slug} is not in the identity database`);
  // The server's own store: NEO4J_URI's default database and namespace (lib/graph/select-graph-store.ts).
  const store = createNeo4jGraphStore({ uri: env.NEO4J_URI ?? "", database: env.NEO4J_DATABASE ?? "neo4j" });
  try {
    const view = { homeScopeId: scope, visibleScopeIds: [scope] };
    const template = await store.loadBeliefHead(view, templateId, { historyLimit: 1_000, checkpointSources: "all" });
    if (!template?.history || !template.checkpoint) throw new Error(`the template belief ${templateId} (with its history and checkpoint) is not in the store`);
    const { texts, vectors, model } = await bulkClaims(1, n);
    const base = new Date(template.belief.createdAt).getTime() + 1;
    const started = performance.now();
    for (let at = 0; at < texts.length; at += BULK_BATCH) {
      const chunk = texts.slice(at, at + BULK_BATCH);
      const csId = `cs_${crypto.randomUUID()}`;
      const cs = emptyChangeSet(csId, "bench:http --seed-bulk", new Date(base + at).toISOString());
      const clones = chunk.map((text, j) => {
        const epoch = base + at + j;
        const time = new Date(epoch).toISOString();
        const id = `b_${crypto.randomUUID()}`;
        const belief = { ...template.belief, id, text, key: beliefKey(text), topic: topicSlug(text), createdAt: time, updatedAt: time, validFrom: time };
        const items = (template.history ?? []).map((item) => ({ ...item, changeSet: csId, time, ...(item.observedAt !== undefined ? { observedAt: time } : {}) }));
        const { head } = template.checkpoint!;
        const checkpoint = { ...template.checkpoint!, head: { ...head, foldedAt: epoch, group: head.group && { ...head.group, id: csId, time: epoch, lastTime: time } } };
        return { upsert: { belief, expectedVersion: null, checkpoint }, append: { beliefId: id, items }, embedding: { id, kind: "belief" as const, model, textHash: embeddingTextHash(text), vector: vectors[at + j] as Float32Array } };
      });
      await store.apply({ ...cs, beliefs: clones.map((c) => c.upsert), history: clones.map((c) => c.append) }, { embeddings: clones.map((c) => c.embedding) });
      console.error(`  written ${at + chunk.length} / ${texts.length} (${((performance.now() - started) / 1000).toFixed(0)} s, load ${load1()})`);
    }
    return texts.length;
  } finally {
    await store.close();
  }
}

/** After a bulk seed: one search over HTTP for words of a seeded claim, its best hits printed (the server serves them). */
async function checkSearch(target: HttpTarget): Promise<void> {
  const query = (bulkClaimTexts(7, 7)[0] ?? "").split(" ").slice(0, 3).join(" ");
  const response = await fetch(`${target.baseUrl}/api/v1/scopes/${target.slug}/beliefs?q=${encodeURIComponent(query)}&k=5`, { headers: { authorization: `Bearer ${target.token}` } });
  const body = (await response.json()) as { beliefs?: { text?: string; relevance?: number }[] };
  const hits = (body.beliefs ?? []).map((b) => `${b.text ?? "?"} (${(b.relevance ?? Number.NaN).toFixed(2)})`);
  console.error(`  check: search "${query}" → ${response.status}: ${hits.join("; ")}`);
}

async function drive(fn: () => Promise<number>, clients: number, seconds: number): Promise<{ n: number; errors: number; perSecond: number; lat: number[]; load: string }> {
  const lat: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const status = await fn().catch(() => 599);
        if (status !== 200) errors++;
        lat.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  lat.sort((a, b) => a - b);
  return { n: lat.length, errors, perSecond: lat.length / elapsed, lat, load: load1() };
}

/** `--wire` on Postgres: each cell's statements that sent the most bytes, printed after the table. */
const wireLines: string[] = [];

async function httpBackend(backend: Backend): Promise<string[]> {
  const cleanup: (() => Promise<void>)[] = [];
  const kept = (backend === "pglite" && PGLITE_DATA !== "") || (backend === "postgres" && PG_DATABASE !== "");
  const keptDir = backend === "pglite" && PGLITE_DATA !== "";
  const dir = keptDir ? path.resolve(PGLITE_DATA) : await mkdtemp(path.join(tmpdir(), "credence-bench-http-"));
  if (!keptDir) cleanup.push(() => rm(dir, { recursive: true, force: true }));
  // A server deployment (DATABASE_URL) needs a fixed session secret; a throwaway one is enough here.
  const env: Record<string, string> = {
    CREDENCE_DATA_DIR: dir,
    DATABASE_URL: "",
    CREDENCE_RATE_LIMIT_PER_MINUTE: "100000000",
    AUTH_SECRET: randomBytes(32).toString("base64"),
  };
  if (backend === "postgres") {
    const { createThrowawayDatabase, DEFAULT_TEST_POSTGRES_URL } = await import("@/lib/db/testing/postgres");
    if (PG_DATABASE !== "") {
      const admin = new pg.Client({ connectionString: DEFAULT_TEST_POSTGRES_URL });
      await admin.connect();
      const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [PG_DATABASE]);
      if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${PG_DATABASE.replace(/"/g, "")}"`);
      await admin.end();
      const url = new URL(DEFAULT_TEST_POSTGRES_URL);
      url.pathname = `/${PG_DATABASE}`;
      env.DATABASE_URL = url.toString();
    } else {
      const throwaway = await createThrowawayDatabase("credence_bench_http");
      cleanup.unshift(() => throwaway.drop());
      env.DATABASE_URL = throwaway.url;
    }
  }
  if (backend === "neo4j") env.NEO4J_URI = await neo4jUri(cleanup);
  /** The Postgres database served (its backends' CPU is reported per request). */
  const databaseName = backend === "postgres" ? decodeURIComponent(new URL(env.DATABASE_URL ?? "").pathname.slice(1)) : null;
  /** The database server's CPU seconds so far: the Postgres backends of the served database, or the Neo4j JVM (null on PGlite: it is in the server's own). */
  const neo4jPid = backend === "neo4j" ? neo4jServerPid(env.NEO4J_URI ?? "") : undefined;
  const databaseCpu = () => (databaseName !== null ? databaseCpuSeconds(databaseName) : neo4jPid !== undefined ? groupCpuSeconds(neo4jPid) : null);
  // `--wire`: the server (and the CLI calls) reach the database through the counting relay.
  let wire: WireCounter | null = null;
  if (WIRE && backend !== "pglite") {
    const key = backend === "postgres" ? "DATABASE_URL" : "NEO4J_URI";
    const url = new URL(env[key] ?? "");
    const relay = await startWireCounter({ host: url.hostname, port: Number(url.port || (backend === "postgres" ? 5432 : 7687)), postgres: backend === "postgres" });
    cleanup.push(() => relay.close());
    url.hostname = "127.0.0.1";
    url.port = String(relay.port);
    env[key] = url.toString();
    wire = relay;
  }
  const lines: string[] = [];
  let server = await startServer(env);
  cleanup.unshift(() => server.stop());
  try {
    const email = kept ? flag("email", "bench@example.test") : `bench-${process.pid}@example.test`;
    const slug = kept ? flag("scope", `bench-${backend}`) : `bench-${backend}-${process.pid}`;
    // A kept store may hold the user and the scope already.
    const ensure = (cliArgs: string[]) => runTsxIn(ROOT, entryPoint("cli.ts"), cliArgs, env).catch((error: unknown) => {
      if (!kept) throw error;
    });
    await ensure(["user", "create", "--email", email, "--password", "bench-password-1"]);
    await ensure(["scope", "create", "--slug", slug, "--name", "Bench", "--owner", email]);
    const token = (await runTsxIn(ROOT, entryPoint("cli.ts"), ["token", "create", "--email", email], env)).split("\n").pop() ?? "";
    const target = { baseUrl: server.baseUrl, token, slug };
    let held = kept ? await countBeliefs(target) : 0;
    if (SEED_BULK && held < SEED) {
      const started = performance.now();
      // The template: one claim as the HTTP seed makes it.
      const template = (await (await fetch(`${target.baseUrl}/api/v1/scopes/${slug}/assimilate`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ claim: claimText(), evidence: [{ tier: "document", weight: 0.8, sourceId: null }] }),
      }).then((r) => r.json())) as { belief: { id: string } }).belief.id;
      await server.stop();
      const added = await bulkSeed(backend, env, slug, template, SEED - held - 1);
      server = await startServer(env);
      target.baseUrl = server.baseUrl;
      lines.push(`| ${backend} | seed ${SEED} beliefs in bulk (${held} held) | – | ${(added / ((performance.now() - started) / 1000)).toFixed(0)} | | | | | | | |${WIRE ? " | |" : ""} ${load1()} |`);
      held = SEED;
      await checkSearch(target);
    }
    // Seed through the API (assimilate at concurrency 8) so every backend holds the same kind of scope.
    const seedFn = opRequest(target, "assimilate");
    let seeded = held;
    const seedStarted = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (seeded < SEED) {
          seeded++;
          await seedFn();
        }
      }),
    );
    const added = Math.max(0, SEED - held);
    if (!SEED_BULK || added > 0) lines.push(`| ${backend} | seed ${SEED} beliefs over HTTP (${held} held) | 8 | ${added === 0 ? "–" : (added / ((performance.now() - seedStarted) / 1000)).toFixed(0)} | | | | | | | |${WIRE ? " | |" : ""} ${load1()} |`);
    for (const op of OPS) {
      const fn = opRequest(target, op);
      for (let i = 0; i < 3; i++) await fn(); // warm the route
      for (const clients of CLIENTS) {
        // Read outside the CPU and database counters: the metrics request is not the cell's work.
        const retriesBefore = await writeRetries(target.baseUrl);
        const cpuBefore = server.cpuSeconds();
        const dbBefore = databaseCpu();
        const wireBefore = wire?.counts() ?? null;
        const statementsBefore = new Map((wire?.statements() ?? []).map((s) => [s.text, s]));
        const r = await drive(fn, clients, SECONDS);
        const cpuAfter = server.cpuSeconds();
        const dbAfter = databaseCpu();
        const wireAfter = wire?.counts() ?? null;
        const retriesAfter = await writeRetries(target.baseUrl);
        // The server's own CPU per request: what the machine's load does not inflate (waiting for a core costs none).
        const cpuPer = cpuBefore !== null && cpuAfter !== null && r.n > 0 ? ms(((cpuAfter - cpuBefore) * 1000) / r.n) : "–";
        // A backend that exited during the run took its time with it: no figure rather than a short one.
        const dbPer = dbBefore !== null && dbAfter !== null && dbAfter >= dbBefore && r.n > 0 ? ms(((dbAfter - dbBefore) * 1000) / r.n) : "–";
        // Writes that lost an optimistic-concurrency race and ran again (the server's contention gauge), per request.
        const retriesPer = retriesBefore !== null && retriesAfter !== null && r.n > 0 ? ((retriesAfter - retriesBefore) / r.n).toFixed(2) : "–";
        const wirePer =
          wireBefore !== null && wireAfter !== null && r.n > 0
            ? ` ${((wireAfter.down - wireBefore.down) / 1024 / r.n).toFixed(1)} | ${((wireAfter.roundTrips - wireBefore.roundTrips) / r.n).toFixed(1)} |`
            : WIRE ? " – | – |" : "";
        lines.push(
          `| ${backend} | ${op} | ${clients} | ${r.perSecond.toFixed(1)} | ${ms(percentile(r.lat, 50))} | ${ms(percentile(r.lat, 95))} | ${ms(percentile(r.lat, 99))} | ${cpuPer} | ${dbPer} | ${retriesPer} |${wirePer} ${r.errors} / ${r.n} | ${r.load} |`,
        );
        console.error(lines.at(-1));
        if (wire !== null && r.n > 0) {
          const top = wire
            .statements()
            .map((s) => {
              const b = statementsBefore.get(s.text);
              return { text: s.text, runs: s.runs - (b?.runs ?? 0), rows: s.rows - (b?.rows ?? 0), bytes: s.bytes - (b?.bytes ?? 0) };
            })
            .filter((s) => s.bytes > 0)
            .sort((a, b) => b.bytes - a.bytes)
            .slice(0, WIRE_TOP);
          for (const s of top)
            wireLines.push(
              `| ${backend} | ${op} | ${clients} | ${(s.bytes / 1024 / r.n).toFixed(1)} | ${(s.runs / r.n).toFixed(2)} | ${(s.rows / r.n).toFixed(1)} | \`${s.text.slice(0, 140).replace(/\|/g, "\\|")}\` |`,
            );
        }
      }
    }
    const rss = server.rssMiB();
    const neo4jRss = neo4jPid === undefined ? null : groupRssMiB(neo4jPid);
    if (rss !== null) lines.push(`| ${backend} | server resident memory after the runs: ${rss.toFixed(0)} MiB${neo4jRss === null ? "" : `; Neo4j JVM ${neo4jRss.toFixed(0)} MiB`} | | | | | | | | | |${WIRE ? " | |" : ""} ${load1()} |`);
  } finally {
    for (const fn of cleanup) await fn().catch(() => {});
  }
  return lines;
}

async function main(): Promise<void> {
  console.log(`bench:http ${new Date().toISOString()} · ${BACKENDS.join(", ")} · load ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  if (PARTS.includes("stages")) {
    instrumentPg();
    const columns: Record<string, Record<string, string>> = {};
    for (const backend of BACKENDS as Backend[]) {
      columns[backend] = await stageBreakdown(backend);
      console.error(`stages ${backend} done`);
    }
    const rows = Object.keys(Object.values(columns)[0] ?? {});
    const allRows = [...new Set([...rows, ...Object.values(columns).flatMap((c) => Object.keys(c))])];
    const what = { assimilate: "POST …/assimilate (new claim, one anonymous entry)", cite: "POST …/assimilate (new claim citing a registered document)", ingest: "POST …/ingest (two sentences)", search: "GET …/beliefs?q= (three words, k = 10; the idempotency row is a second set of runs)", recall: "GET …/recall?q= (three words, k = 10; the idempotency row is a second set of runs)" }[STAGE_OP];
    console.log(`\nStages of one ${what}, in process, ${STAGE_RUNS} sequential runs each:\n`);
    console.log(`| stage | ${BACKENDS.join(" | ")} |`);
    console.log(`|---|${BACKENDS.map(() => "---:").join("|")}|`);
    for (const row of allRows) console.log(`| ${row} | ${BACKENDS.map((b) => columns[b]?.[row] ?? "").join(" | ")} |`);
  }
  if (PARTS.includes("http")) {
    if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) throw new Error(`No production build in ${ROOT}/.next: run \`npx next build\` there first.`);
    const lines: string[] = [];
    for (const backend of BACKENDS as Backend[]) lines.push(...(await httpBackend(backend)));
    console.log(`\nOver HTTP (real server, ${SECONDS} s per cell, rate limit lifted), build in ${ROOT}:\n`);
    const wireHead = WIRE ? " KiB from the database / request | database round trips / request |" : "";
    console.log(`| backend | operation | clients | req/s | p50 ms | p95 ms | p99 ms | server CPU ms / request | database CPU ms / request | retries / request |${wireHead} errors / requests | load (1 min) |`);
    console.log(`|---|---|---:|---:|---:|---:|---:|---:|---:|---:|${WIRE ? "---:|---:|" : ""}---:|---:|`);
    for (const line of lines) console.log(line);
    if (wireLines.length > 0) {
      console.log("\nPostgres statements that sent the most bytes, per cell (--wire):\n");
      console.log("| backend | operation | clients | KiB / request | runs / request | rows / request | statement |");
      console.log("|---|---|---:|---:|---:|---:|---|");
      for (const line of wireLines) console.log(line);
    }
  }
  if (neo4jServer !== null) await (neo4jServer as { stop(): Promise<void> }).stop();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
