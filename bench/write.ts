/**
 * `npm run bench:write`: a write to a belief with a long history (≤ 20 ms at 100 000 entries), per backend
 * (`--backends pglite,postgres,neo4j`, `--entries 100000`, `--writes 15`).
 *
 * One belief is seeded with a history of the engine benchmark's mix (10 entries per change-set, 7 actors, 4 000
 * sources — Evidence items of the scope —, all six tiers, 15 % rebuttals, 5 % contextualising, 1 % retracted, 1 %
 * revised, one contraction); the last seeding write stores its fold checkpoint. Then writes of one verified entry
 * alternate between the two paths, in the same run:
 * * **checkpoint** (what the services do): `loadBeliefHead` (belief, last seq, the checkpoint's head and the rows
 *   of the sources the write cites — all of them on Neo4j, which keeps the checkpoint as one property; no history) →
 *   `assimilateOnCheckpoint` (fold the new entry onto that slice) → `apply` (the belief row with the next head, the
 *   touched source rows, one history row, the outvoted entries' outputs);
 * * **full replay** (the baseline, the path before): `loadBelief` (the whole history) → `assimilate` (replay of the
 *   whole history) → `apply`.
 * Each row: median and p95 wall ms of the whole write and of its stages, the process's CPU per write (user + system:
 * engine, driver, and on PGlite the database itself; a loaded machine inflates wall time, not this), the 1-minute load
 * average beside it.
 * After the writes the stored belief is checked against a full replay (`checkReplay`).
 *
 * **weigh** (after the writes, on the same belief): recall weighing it as an answer (`benchWeigh`): its standing from the
 * stored checkpoint against the baseline, from its whole history.
 *
 * `--parts write,weigh,cascade` (default all three): **cascade** = `citationClosure` from the root of a 10 000-long citation chain
 * (≤ 0.5 s on Neo4j), 5 runs per backend after one warm-up; on Neo4j a baseline path (the root's citers by
 * the `sourceId` index, the reachable set by one expand, then every reached id's citers by the `sourceId` index: three
 * round trips) runs in the same loop as the baseline.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@/lib/db/database";
import {
  assimilate,
  assimilateOnCheckpoint,
  checkReplay,
  defaultParams,
  emptyChangeSet,
  newBelief,
  replayWithStanding,
  standingData,
  standingOfHead,
  writeBelief,
  type Standing,
  type BeliefRecord,
  type Evidence,
} from "@/lib/engine";
import type { GraphStore, ScopeView } from "@/lib/graph/graph-store";
import { createNeo4jGraphStore } from "@/lib/graph/neo4j/neo4j-graph-store";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import { startNeo4jServer } from "@/lib/testing/neo4j-server";
import { createThrowawayDatabase } from "@/lib/db/testing/postgres";
import { CHAIN, belief as chainBelief, entry as chainEntry, history, iso, run } from "./corpus";
import { citations } from "@/lib/graph/neo4j/neo4j-cypher";
import neo4j from "neo4j-driver";

const args = process.argv.slice(2);
function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
}
const BACKENDS = flag("backends", "pglite,postgres,neo4j").split(",");
const PARTS = flag("parts", "write,weigh,cascade").split(",");
const ENTRIES = Number(flag("entries", "100000"));
const WRITES = Number(flag("writes", "15"));
const SOURCES = 4000;
const P = defaultParams;

const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

interface Sample {
  load: number;
  engine: number;
  apply: number;
  total: number;
  /** This process's CPU (user + system) for the whole write: engine, driver and, on PGlite, the database itself. */
  cpu: number;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
};

/**
 * Recall weighing the long-history belief as an answer (its standing: rivals, dominance, tension), alternating the two
 * paths: from the stored checkpoint (`beliefStandings` → `standingOfHead`, what recall does) and
 * from the history (`loadBeliefs` → `replayWithStanding`, the path before). Each row: wall p50 / p95 and the
 * process's CPU p50; the two standings are compared on every run.
 */
async function benchWeigh(name: string, store: GraphStore, v: ScopeView, id: string, out: string[]): Promise<void> {
  const fromHead: { total: number; cpu: number }[] = [];
  const fromHistory: { total: number; cpu: number }[] = [];
  let differ = 0;
  const plain = (s: Standing) => JSON.stringify(standingData(s));
  for (let i = 0; i < WRITES + 2; i++) {
    let c0 = process.cpuUsage();
    let t0 = performance.now();
    const head = (await store.beliefStandings(v, [id])).get(id);
    const a = head ? standingOfHead(head, P) : null;
    if (a === null) throw new Error("the stored checkpoint does not give the standing");
    if (i >= 2) fromHead.push({ total: performance.now() - t0, cpu: cpuMs(c0) });
    c0 = process.cpuUsage();
    t0 = performance.now();
    const [record] = await store.loadBeliefs(v, [id]);
    if (!record) throw new Error("belief missing");
    const b = replayWithStanding(record.history, P).standing;
    if (i >= 2) fromHistory.push({ total: performance.now() - t0, cpu: cpuMs(c0) });
    if (plain(a) !== plain(b)) differ++;
  }
  const load = loadavg()[0]?.toFixed(1) ?? "?";
  const row = (path: string, s: { total: number; cpu: number }[]) =>
    `| ${name} | ${path} | ${ms(quantile(s.map((x) => x.total), 0.5))} / ${ms(quantile(s.map((x) => x.total), 0.95))} | ${ms(quantile(s.map((x) => x.cpu), 0.5))} | ${differ === 0 ? "equal" : `${differ} differ`} | ${load} |`;
  out.push(row("standing from the stored checkpoint (recall)", fromHead));
  out.push(row("standing from the whole history (baseline)", fromHistory));
}

async function benchBackend(name: string, store: GraphStore, out: string[], weighed: string[]): Promise<void> {
  const scope = `s_write_${run}`;
  const v: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
  const evidence: Evidence[] = Array.from({ length: SOURCES }, (_, i) => ({
    id: `ev_${run}_${i}`,
    scope,
    kind: "document",
    text: `source ${i}`,
    uri: null,
    registeredBy: "bench",
    ess: 0.8,
    reasoningType: null,
    discarded: false,
    createdAt: iso(0),
    retractedAt: null,
  }));
  await store.apply({ ...emptyChangeSet(`cs_ev_${run}`, "bench", iso(0)), evidence });
  // Seed in chunks of 10 000 items; each chunk's write replays the whole history so far (the last stores the checkpoint).
  const items = history(ENTRIES, evidence.map((e) => e.id));
  const id = `b_write_${run}`;
  let seedMs = performance.now();
  let record: BeliefRecord = { belief: newBelief({ id, scope, topic: "long", text: "A belief with a very long history." }, P, iso(0)), history: [] };
  for (let start = 0; start < items.length; start += 10_000) {
    const chunk = items.slice(start, start + 10_000).map(({ seq: _seq, ...rest }) => rest);
    const write = writeBelief(record, chunk as Parameters<typeof writeBelief>[1], P, iso(0), start === 0);
    await store.apply({
      ...emptyChangeSet(`cs_seed_${run}_${start}`, "bench", iso(0)),
      beliefs: [write.upsert],
      history: [write.append],
      entryOutputs: write.outputs,
    });
    record = write.record;
    console.error(`  ${name}: seeded ${record.history.length} items`);
  }
  seedMs = performance.now() - seedMs;

  const folded: Sample[] = [];
  const full: Sample[] = [];
  const fallbacks: string[] = [];
  const resolver = store.resolverFor(v);
  for (let i = 0; i < WRITES + 2; i++) {
    const ev = [{ sourceId: evidence[(i * 37) % SOURCES]?.id ?? null, tier: "document" }];
    const base = { evidence: ev, resolver, params: P, time: iso((ENTRIES + i) * 60_000), actor: `writer-${i % 3}` };
    // checkpoint path
    {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const head = await store.loadBeliefHead(v, id, { historyLimit: 2000, checkpointSources: ev.flatMap((e) => (e.sourceId === null ? [] : [e.sourceId])) });
      if (!head) throw new Error("belief missing");
      const t1 = performance.now();
      const result = await assimilateOnCheckpoint({ ...base, head, changeSetId: `cs_f_${run}_${i}` });
      const t2 = performance.now();
      if ("fallback" in result) {
        fallbacks.push(result.fallback);
        continue;
      }
      await store.apply(result.changeSet);
      const t3 = performance.now();
      if (i >= 2) folded.push({ load: t1 - t0, engine: t2 - t1, apply: t3 - t2, total: t3 - t0, cpu: cpuMs(c0) });
    }
    // full replay path
    {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const rec = await store.loadBelief(v, id);
      if (!rec) throw new Error("belief missing");
      const t1 = performance.now();
      const result = await assimilate({ ...base, target: { existing: rec }, changeSetId: `cs_r_${run}_${i}` });
      const t2 = performance.now();
      await store.apply(result.changeSet);
      const t3 = performance.now();
      if (i >= 2) full.push({ load: t1 - t0, engine: t2 - t1, apply: t3 - t2, total: t3 - t0, cpu: cpuMs(c0) });
    }
  }
  const final = await store.loadBelief(v, id);
  const check = final ? checkReplay(final.belief, final.history, P) : null;
  if (PARTS.includes("weigh")) await benchWeigh(name, store, v, id, weighed);
  const load = loadavg()[0]?.toFixed(1) ?? "?";
  const row = (path: string, s: Sample[]) =>
    `| ${name} | ${path} | ${ms(quantile(s.map((x) => x.total), 0.5))} / ${ms(quantile(s.map((x) => x.total), 0.95))} | ${ms(quantile(s.map((x) => x.load), 0.5))} | ${ms(quantile(s.map((x) => x.engine), 0.5))} | ${ms(quantile(s.map((x) => x.apply), 0.5))} | ${ms(quantile(s.map((x) => x.cpu), 0.5))} | ${load} |`;
  out.push(row("checkpoint (fold the new entry)", folded));
  out.push(row("full replay (baseline)", full));
  console.error(
    `  ${name}: seeded ${ENTRIES} entries (${record.history.length} items) in ${(seedMs / 1000).toFixed(1)} s; ${folded.length} + ${full.length} writes; fallbacks ${fallbacks.length ? fallbacks.join(",") : "none"}; stored == replay: ${check?.ok ? "yes" : `NO ${JSON.stringify(check?.mismatches.slice(0, 3))}`}`,
  );
}

/** The reachable set by one variable-length expand: the middle round trip of the baseline path. */
const PREVIOUS_REACHABLE = `
    UNWIND $ids AS id
    MATCH (start:Belief {ns: $ns, id: id})
    MATCH (start)(()-[r:SUPPORTS|REBUTS|CONTEXTUALIZES WHERE r.live AND r.dangling IS NULL]->()){1,}(x:Belief)
    RETURN DISTINCT x.id AS id`;

async function benchCascade(name: string, store: GraphStore, cascade: string[], previous?: { uri: string; ns: string }): Promise<void> {
  const scope = `s_chain_${run}`;
  const chain = Array.from({ length: CHAIN + 1 }, (_, i) => chainBelief(scope, `chain link ${i}.`, iso(0)));
  await store.apply({
    ...emptyChangeSet(`cs_chain_${run}`, "bench", iso(0)),
    beliefs: chain.map((b) => ({ belief: b, expectedVersion: null })),
    history: chain.slice(1).map((b, i) => ({ beliefId: b.id, items: [chainEntry(chain[i]?.id ?? "", iso(0), "belief")] })),
  });
  const root = chain[0]?.id ?? "";
  const driver = previous ? neo4j.driver(previous.uri) : null;
  const now: number[] = [];
  const cpu: number[] = [];
  const before: number[] = [];
  let hops = 0;
  try {
    for (let i = 0; i < 6; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      hops = (await store.citationIndex().citationClosure(root)).length;
      if (i > 0) {
        now.push(performance.now() - t0);
        cpu.push(cpuMs(c0));
      }
      if (driver && previous) {
        const session = driver.session();
        try {
          const t1 = performance.now();
          const first = await session.run(citations.citersOfMany, { ns: previous.ns, ids: [root] });
          const fresh = first.records.map((r) => String(r.get("beliefId")));
          const reach = await session.run(PREVIOUS_REACHABLE, { ns: previous.ns, ids: fresh });
          await session.run(citations.citersOfMany, { ns: previous.ns, ids: [...new Set([root, ...fresh, ...reach.records.map((r) => String(r.get("id")))])] });
          if (i > 0) before.push(performance.now() - t1);
        } finally {
          await session.close();
        }
      }
    }
  } finally {
    await driver?.close();
  }
  const load = loadavg()[0]?.toFixed(1) ?? "?";
  const fmt = (xs: number[]) => (xs.length === 0 ? "" : `${ms(quantile(xs, 0.5))} (${ms(Math.min(...xs))}–${ms(Math.max(...xs))})`);
  cascade.push(`| ${name} | ${hops} | ${fmt(now)} | ${ms(quantile(cpu, 0.5))} | ${fmt(before)} | ${load} |`);
}

async function main(): Promise<void> {
  const out: string[] = [];
  const cascade: string[] = [];
  const weighed: string[] = [];
  const parts = async (name: string, store: GraphStore, previous?: { uri: string; ns: string }) => {
    if (PARTS.includes("write") || PARTS.includes("weigh")) await benchBackend(name, store, out, weighed);
    if (PARTS.includes("cascade")) await benchCascade(name, store, cascade, previous);
  };
  const migrationsDir = path.join(process.cwd(), "prisma", "migrations");
  if (BACKENDS.includes("pglite")) {
    const dir = await mkdtemp(path.join(tmpdir(), "credence-bench-write-"));
    const db = await openDatabase({ dataDir: dir, migrationsDir, owner: "bench-write" });
    try {
      await parts("SQL / PGlite", createSqlGraphStore({ sql: db.sql, location: db.describe() }));
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (BACKENDS.includes("postgres")) {
    const throwaway = await createThrowawayDatabase("credence_bench_write");
    const db = await openDatabase({ databaseUrl: throwaway.url, migrationsDir });
    try {
      await parts("SQL / Postgres 15", createSqlGraphStore({ sql: db.sql, location: db.describe() }));
    } finally {
      await db.close();
      await throwaway.drop();
    }
  }
  if (BACKENDS.includes("neo4j")) {
    const external = process.env.NEO4J_URI;
    const server = external ? null : await startNeo4jServer();
    const uri = external ?? server?.uri ?? "";
    const store = createNeo4jGraphStore({ uri, namespace: `bench_write_${run}` });
    try {
      await parts("Neo4j 5.26", store, { uri, ns: `bench_write_${run}` });
    } finally {
      await store.dropNamespace().catch(() => {});
      await store.close();
      await server?.stop();
    }
  }
  if (out.length > 0) {
    console.log(`Write to a belief with a ${ENTRIES.toLocaleString("en-US")}-entry history (${SOURCES} sources), ${WRITES} writes per path, alternating:`);
    console.log("");
    console.log("| backend | path | whole write p50 / p95 (ms) | load p50 | engine p50 | apply p50 | process CPU p50 (ms) | load avg (1 min) |");
    console.log("|---|---|---:|---:|---:|---:|---:|---:|");
    for (const line of out) console.log(line);
  }
  if (weighed.length > 0) {
    console.log("");
    console.log(`Recall weighing that belief as an answer (its standing), ${WRITES} runs per path, alternating:`);
    console.log("");
    console.log("| backend | path | wall p50 / p95 (ms) | process CPU p50 (ms) | the two standings | load avg (1 min) |");
    console.log("|---|---|---:|---:|---|---:|");
    for (const line of weighed) console.log(line);
  }
  if (cascade.length > 0) {
    console.log("");
    console.log(`Cascade closure over a ${CHAIN.toLocaleString("en-US")}-long citation chain, 5 runs after a warm-up (ms: p50 (min–max)):`);
    console.log("");
    console.log("| backend | hops | closure | process CPU p50 | previous Neo4j path, same loop | load avg (1 min) |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const line of cascade) console.log(line);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
