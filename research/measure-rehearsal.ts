/**
 * `npx tsx research/measure-rehearsal.ts [--delay 150] [--clients 4] [--each 6] [--rounds 2]`: what the rehearsal
 * (lib/beliefs/conflict-retry.ts, `rehearse`) changes for ingests whose reader is slow, as an LLM's is, when they
 * contend for one scope's write gate.
 *
 * The offline reader with every reading an attempt makes (evidence, relation, contraction, conflict) delayed by
 * `--delay` ms, on embedded PGlite through the services (one services instance per variant, so one write gate each).
 * The variants differ only in the reader's `heuristic` flag: flagged as the offline reader, an ingest that finds the
 * gate busy makes its readings in it (no rehearsal); flagged as another reader, it reads outside first. `--clients`
 * writers each ingest `--each` two-sentence texts about the same few seeded beliefs, so they collide; the variants
 * alternate for `--rounds`, each on a fresh scope seeded alike. Prints per variant: wall time, ingests per second,
 * p50 / p95 latency, the readings made, and the contention counters (lib/ops/contention).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sessionPrincipal } from "@/lib/access/principal";
import { createBeliefServices } from "@/lib/beliefs/create-belief-services";
import { settableClock } from "@/lib/beliefs/settable-clock";
import { openDatabase } from "@/lib/db/database";
import type { Assessor } from "@/lib/engine";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import { createScope } from "@/lib/identity/scopes";
import { createUser } from "@/lib/identity/users";
import { contentionStats } from "@/lib/ops/contention";
import { createHeuristicAssessor } from "@/lib/reading/reader";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const DELAY = Number(flag("delay", "150"));
const CLIENTS = Number(flag("clients", "4"));
const EACH = Number(flag("each", "6"));
const ROUNDS = Number(flag("rounds", "2"));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function slowReader(heuristic: boolean, counter: { calls: number }): Assessor {
  const offline = createHeuristicAssessor();
  const slow = <A extends unknown[], R>(read: (...a: A) => Promise<R>) => async (...a: A): Promise<R> => {
    counter.calls += 1;
    await sleep(DELAY);
    return read(...a);
  };
  return {
    ...offline,
    heuristic,
    assessEvidence: slow((text) => offline.assessEvidence(text)),
    assessRelation: slow((evidence, belief) => offline.assessRelation(evidence, belief)),
    assessContraction: slow((belief, rebuttals, supports) => offline.assessContraction(belief, rebuttals, supports)),
    analyseConflict: slow((proposed, existing) => offline.analyseConflict(proposed, existing)),
  };
}

const SUBJECTS = ["release train", "deploy window", "staging cluster", "build cache"];
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];

// A fresh embedded database, its graph store, one user owning one scope.
const dataDir = await mkdtemp(path.join(tmpdir(), "credence-rehearsal-"));
const db = await openDatabase({ dataDir, owner: "measure-rehearsal" });
const store = createSqlGraphStore({ sql: db.sql, location: db.describe() });
const owner = await createUser(db, { email: "owner@example.test", name: "owner" });
const scope = (await createScope(db, { slug: "rehearsal", name: "Rehearsal", ownerId: owner.id })).slug;
const editor = sessionPrincipal(owner.id);
const clock = settableClock("2026-03-02T09:00:00.000Z");
const servicesWith = (assessor: Assessor) => createBeliefServices({ db, store, assessor, clock });
const offlineServices = servicesWith(createHeuristicAssessor());
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
console.log(`delay ${DELAY} ms a reading, ${CLIENTS} clients × ${EACH} two-sentence ingests, ${ROUNDS} rounds each\n`);
console.log("| variant | wall s | ingests/s | p50 ms | p95 ms | readings | retries | serialised |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (let round = 0; round < ROUNDS; round++) {
  for (const rehearses of round % 2 === 0 ? [false, true] : [true, false]) {
    const counter = { calls: 0 };
    const services = servicesWith(slowReader(!rehearses, counter));
    // The scope keeps earlier runs' beliefs, so each run writes under topic words of its own.
    const tag = `r${round}${rehearses ? "y" : "n"}`;
    for (const subject of SUBJECTS) {
      await offlineServices.assimilate(editor, scope, { claim: `The ${subject} ${tag} runs every Tuesday.`, evidence: [{ sourceId: null, tier: "document" }] });
    }
    const before = { ...contentionStats() };
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = 0; i < EACH; i++) {
          const subject = SUBJECTS[(c + i) % SUBJECTS.length];
          const day = DAYS[(c * EACH + i) % DAYS.length];
          const t = performance.now();
          await services.ingest(editor, scope, { text: `The ${subject} ${tag} runs every ${day}. The ${subject} ${tag} is owned by team ${c}.` });
          latencies.push(performance.now() - t);
        }
      }),
    );
    const wall = (performance.now() - started) / 1000;
    const after = contentionStats();
    console.log(
      `| ${rehearses ? "rehearses" : "reads in the gate"} | ${wall.toFixed(1)} | ${(latencies.length / wall).toFixed(2)} | ${percentile(latencies, 50).toFixed(0)} | ${percentile(latencies, 95).toFixed(0)} | ${counter.calls} | ${after.retries - before.retries} | ${after.serialised - before.serialised} |`,
    );
  }
}
await store.close();
await db.close();
await rm(dataDir, { recursive: true, force: true });
