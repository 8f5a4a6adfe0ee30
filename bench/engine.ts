/**
 * `npm run bench:engine`: throughput of the pure belief engine on one core (no store, no I/O in the measured path).
 *
 * Rows: replay of histories of 10 / 1 000 / 100 000 entries (realistic mix: 10 entries per change-set, 7 actors,
 * 4 000 sources, all six tiers, 15 % rebuttals, 5 % contextualising, 3 % laundered, 1 % retracted, 1 % revised, one
 * contraction); assimilation of one verified entry into a belief with that history (verification through an
 * in-memory resolver + replay + change-set); the laundering check through a 1 000-hop proof chain; and the retraction
 * cascade down a 10 000-long chain. Each row reports the median of several timed runs after warm-up.
 * Flags: --sizes 10,1000,100000
 */
import {
  assimilate,
  defaultParams,
  derivedFields,
  makeEntry,
  newBelief,
  replay,
  retract,
  supportRefsOf,
  type AuthorisedResolver,
  type BeliefRecord,
  type CitationIndex,
  type CitationRef,
  type HistoryItem,
  type ResolvedItem,
} from "@/lib/engine";
import { foldCheckpoint, replayIncremental, type FoldCheckpoint } from "@/lib/engine/replay";
import { history, iso } from "./corpus";

const args = process.argv.slice(2);
const i = args.indexOf("--sizes");
const SIZES = ((i >= 0 ? args[i + 1] : undefined) ?? "10,1000,100000").split(",").map(Number);
const P = defaultParams;

/**
 * Median wall time and mean CPU time (user + system, this process) per run, in ms. CPU time is reported beside wall
 * time because a shared machine's load inflates wall time; the CPU column is what one core actually spent.
 */
async function timeIt(fn: () => unknown | Promise<unknown>, minMs = 400): Promise<{ wall: number; cpu: number }> {
  for (let w = 0; w < 3; w++) await fn();
  const runs: number[] = [];
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  while (runs.length < 5 || (performance.now() - start < minMs && runs.length < 2000)) {
    const t = performance.now();
    await fn();
    runs.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  runs.sort((a, b) => a - b);
  return { wall: runs[Math.floor(runs.length / 2)] as number, cpu: (cpu.user + cpu.system) / 1000 / runs.length };
}

const resolver: AuthorisedResolver = {
  resolve: async (id: string): Promise<ResolvedItem | null> =>
    id.startsWith("ev-") ? { kind: "evidence", id, scope: "s", evidenceKind: "document", ess: 0.8, retracted: false, discarded: false } : null,
};

function record(id: string, items: HistoryItem[]): BeliefRecord {
  const belief = { ...newBelief({ id, scope: "s", topic: "t", text: id }, P, iso(0)), ...derivedFields(replay(items, P)), version: 1 };
  return { belief, history: items };
}

const rows: string[][] = [];
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(4));
const rate = (count: number, ms: number) => Math.round((count / ms) * 1000).toLocaleString("en-US");

for (const n of SIZES) {
  const h = history(n);
  const { wall, cpu } = await timeIt(() => replay(h, P));
  rows.push([`replay`, n.toLocaleString("en-US"), fmt(wall), fmt(cpu), `${rate(n, cpu)} entries/s`, `${rate(1, cpu)} replays/s`]);
}
for (const n of SIZES) {
  const rec = record("b", history(n));
  let k = 0;
  const { wall, cpu } = await timeIt(() =>
    assimilate({
      target: { existing: rec },
      evidence: [{ sourceId: `ev-${k++}`, tier: "document", relation: "SUPPORTS" }],
      resolver,
      params: P,
      time: iso(n * 60_000 + 1),
      actor: "bench",
      changeSetId: "bench",
    }),
  );
  rows.push([`assimilate 1 entry`, n.toLocaleString("en-US"), fmt(wall), fmt(cpu), `${rate(n + 1, cpu)} entries replayed/s`, `${rate(1, cpu)} assimilations/s`]);
}
for (const n of SIZES) {
  // The same write folded incrementally: one verified entry onto the checkpoint of the stored history (what a store
  // keeps beside the belief), JSON-parsed per run as a store would hand it over; the full path is the row above.
  const h = history(n);
  const stored = JSON.stringify(foldCheckpoint(h, P));
  const last = h.reduce((m, it) => Math.max(m, it.seq), 0);
  let k = 0;
  const { wall, cpu } = await timeIt(() => {
    const item = makeEntry({ seq: last + 1, sourceId: `ev-${k++}`, sourceKind: "evidence", tier: "document", time: iso(n * 60_000 + 1), actor: "bench", changeSet: "bench" });
    const out = replayIncremental(JSON.parse(stored) as FoldCheckpoint, [item], P);
    if ("fallback" in out) throw new Error(out.fallback);
    return JSON.stringify(out.checkpoint);
  });
  rows.push([`incremental write: 1 entry onto the fold checkpoint (parse + fold + serialise)`, n.toLocaleString("en-US"), fmt(wall), fmt(cpu), `checkpoint ${(stored.length / 1024).toFixed(0)} KiB`, `${rate(1, cpu)} writes/s`]);
  const parsed = JSON.parse(stored) as FoldCheckpoint;
  const foldOnly = await timeIt(() => {
    const item = makeEntry({ seq: last + 1, sourceId: `ev-${k++}`, sourceKind: "evidence", tier: "document", time: iso(n * 60_000 + 1), actor: "bench", changeSet: "bench" });
    return replayIncremental(parsed, [item], P);
  });
  rows.push([`incremental write: fold only (checkpoint already parsed, next one as an object)`, n.toLocaleString("en-US"), fmt(foldOnly.wall), fmt(foldOnly.cpu), "", `${rate(1, foldOnly.cpu)} writes/s`]);
}
{
  // Laundering check through a 1 000-hop proof chain (b1 ← b2 ← … ← b1000, b1 grounded by evidence).
  const HOPS = 1000;
  const beliefs = new Map<string, ResolvedItem>();
  for (let k = 1; k <= HOPS; k++) {
    const src = k === 1 ? "ev-root" : `b${k - 1}`;
    const items = [makeEntry({ seq: 1, sourceId: src, sourceKind: k === 1 ? "evidence" : "belief", tier: "document" })];
    beliefs.set(`b${k}`, { kind: "belief", id: `b${k}`, scope: "s", live: true, supports: supportRefsOf(items) });
  }
  const chainResolver: AuthorisedResolver = { resolve: async (id) => beliefs.get(id) ?? (await resolver.resolve(id)) };
  const rec = record("citer", []);
  const { wall, cpu } = await timeIt(() =>
    assimilate({ target: { existing: rec }, evidence: [{ sourceId: `b${HOPS}`, tier: "document" }], resolver: chainResolver, params: P, time: iso(1), actor: "bench", changeSetId: "c" }),
  );
  rows.push([`laundering check, proof chain`, `${HOPS} hops`, fmt(wall), fmt(cpu), `${rate(HOPS, cpu)} hops/s`, ""]);
}
{
  const N = 10_000;
  const records = new Map<string, BeliefRecord>();
  const citers = new Map<string, CitationRef[]>();
  for (let k = 0; k < N; k++) {
    const src = k === 0 ? "root" : `b${k - 1}`;
    records.set(`b${k}`, record(`b${k}`, [makeEntry({ seq: 1, sourceId: src, sourceKind: k === 0 ? "evidence" : "belief" })]));
    citers.set(src, [{ beliefId: `b${k}`, seq: 1 }]);
  }
  const index: CitationIndex = { citersOf: async (id) => citers.get(id) ?? [], load: async (id) => records.get(id) ?? null };
  const { wall, cpu } = await timeIt(() => retract("root", { index, paramsFor: () => P, time: iso(1), actor: "bench", changeSetId: "r" }), 1000);
  rows.push([`retract → stripping cascade, chain`, `${N.toLocaleString("en-US")} beliefs`, fmt(wall), fmt(cpu), `${rate(N, cpu)} beliefs/s`, ""]);
}

const load = (await import("node:os")).loadavg()[0]?.toFixed(1);
console.log(`Engine benchmark — node ${process.version}, ${process.platform}/${process.arch}, one thread, load average ${load}\n`);
console.log("| operation | size | wall ms (median) | CPU ms (mean) | throughput (CPU) | rate (CPU) |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
