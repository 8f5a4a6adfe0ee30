/**
 * Crash safety: a real server (`bin/serve.ts`, the production build) is killed with SIGKILL while
 * ingests are in flight and a background job runs, again and again, on the embedded default (one PGlite data folder)
 * and on Postgres (a throwaway database). After each kill the server is started again on the same data with no manual
 * step; at the end every acknowledged ingest is there, every job finished exactly once, no change-set is partial and
 * the operator's `replay check` is clean.
 *
 * Needs `npx next build` and the Postgres server; either missing fails, never skips.
 */
import { afterAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { openDatabase, type Database } from "@/lib/db/database";
import { freshEmbeddedFolder } from "@/lib/db/testing/test-backends";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { createThrowawayDatabase } from "@/lib/db/testing/postgres";
import { callApi, makeFixtures, replayCheck, sqlStoreIntegrity, sleep, summaryLine, until, type Fixtures } from "@/lib/testing/reliability";

const KILLS = 5;
const WRITERS = 3;

type Backend = { name: string; prepare(): Promise<{ env: Record<string, string>; dataDir: string; open(): Promise<Database>; cleanup(): Promise<void> }> };

const backends: Backend[] = [
  {
    name: "embedded PGlite data folder",
    async prepare() {
      const dataDir = await freshEmbeddedFolder();
      return { env: {}, dataDir, open: () => openDatabase({ dataDir }), cleanup: () => rm(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: "Postgres",
    async prepare() {
      const throwaway = await createThrowawayDatabase("credence_crash");
      const dataDir = await freshEmbeddedFolder({ migrated: false });
      return {
        env: { DATABASE_URL: throwaway.url, AUTH_SECRET: randomBytes(24).toString("base64url") },
        dataDir,
        open: () => openDatabase({ databaseUrl: throwaway.url }),
        cleanup: async () => {
          await throwaway.drop();
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];

describe.each(backends)("kill -9 mid-ingest and mid-job, $name", (backend) => {
  let prepared: Awaited<ReturnType<Backend["prepare"]>> | undefined;
  let server: AppServer | undefined;
  afterAll(async () => {
    await server?.stop();
    await prepared?.cleanup();
  });

  it(`${KILLS} kills: every acknowledged write present, every job done once, no partial change-set, replay clean`, async () => {
    const startedAt = performance.now();
    prepared = await backend.prepare();
    const suffix = randomBytes(3).toString("hex");
    let fx: Fixtures;
    {
      const db = await prepared.open();
      try {
        fx = await makeFixtures(db, suffix, WRITERS + 1);
      } finally {
        await db.close();
      }
    }
    const env = { ...prepared.env, CREDENCE_JOB_LEASE_SECONDS: "5", CREDENCE_EMBEDDINGS: "none", LOG_LEVEL: "warn" };
    const start = () => startAppServer({ dataDir: prepared!.dataDir, env });
    const jobToken = fx.editorTokens[WRITERS] as string;
    const acknowledged = new Map<string, string>();
    const jobs: { id: string; text: string }[] = [];
    const unexpected: string[] = [];
    const figures = { requests: 0, inFlightAtKill: 0, lostWrites: 0, kills: 0, killsMidJob: 0, restarts: 0 };

    for (let round = 0; round < KILLS; round++) {
      server = await start();
      if (round > 0) figures.restarts += 1;
      const live = server;
      let stop = false;
      let kill = false;
      let acknowledgedThisRound = 0;
      const writer = async (w: number) => {
        for (let n = 0; !stop; n++) {
          const claim = `Round ${round} of ${suffix}: writer ${w} saw build ${n} pass on runner ${w}-${n}.`;
          const answer = await callApi(live.baseUrl, "POST", `/api/v1/scopes/${fx.scope}/ingest`, fx.editorTokens[w] as string, { body: { text: claim, source: { kind: "observation" } } });
          figures.requests += 1;
          if (answer.status === 200) {
            const evidenceId = answer.json<{ evidence: { id: string } | null }>().evidence?.id;
            if (!evidenceId) throw new Error(`an acknowledged ingest without evidence: ${answer.text}`);
            acknowledged.set(evidenceId, claim);
            acknowledgedThisRound += 1;
          }
          else if (kill) figures.inFlightAtKill += 1;
          else unexpected.push(`round ${round}: ingest answered ${answer.status} before the kill: ${answer.text}`);
        }
      };
      const load = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      // Every round has acknowledged writes to look for after the kills, however fast the job starts: the writers run
      // until one is acknowledged before the job is queued (on one embedded connection the job's transaction and the
      // writers' take turns, so a job queued first can hold the connection until the kill).
      await until(`a write of round ${round} to be acknowledged`, async () => (acknowledgedThisRound > 0 ? true : undefined), 120_000, 30);
      // A long ingest as a job (still running, or taken over from the killed server, when the kill comes).
      const text = Array.from({ length: 30 }, (_, i) => `In round ${round} of ${suffix}, queue ${i} drains within ${i + 3} minutes after a deploy to region ${i % 5}.`).join(" ");
      const enqueued = await callApi(live.baseUrl, "POST", "/api/v1/jobs", jobToken, { body: { kind: "ingest", scope: fx.scope, input: { text, source: { kind: "document" } } } });
      figures.requests += 1;
      expect(enqueued.status, enqueued.text).toBe(202);
      jobs.push({ id: enqueued.json<{ id: string }>().id, text });
      // Kill while this round's job runs (a job the previous server left behind may be taken over first).
      const when = await until(`round ${round}'s job to run`, async () => {
        const job = await callApi(live.baseUrl, "GET", `/api/v1/jobs/${jobs[round]!.id}`, jobToken);
        figures.requests += 1;
        const state = job.json<{ state: string }>().state;
        if (state === "succeeded" || state === "failed") return "ended";
        // Mid-ingest too: the writers' ingests are in flight from before this poll. Waiting for one of this round's
        // to be acknowledged as well is not possible on one embedded database: its single connection runs the job's
        // transaction and the writers' one after another, so on a quiet machine every round's job had ended first.
        return state === "running" ? "running" : undefined;
      }, 120_000, 30);
      if (when === "running") figures.killsMidJob += 1;
      await sleep(150 * round);
      kill = true;
      await live.kill();
      figures.kills += 1;
      stop = true;
      await load;
      expect(unexpected, live.logs()).toEqual([]);
    }

    // Restarted once more on the same data: the jobs left behind are taken over and finish.
    server = await start();
    figures.restarts += 1;
    const live = server;
    for (const job of jobs) {
      const done = await until(`job ${job.id} to finish after the restarts`, async () => {
        const answer = await callApi(live.baseUrl, "GET", `/api/v1/jobs/${job.id}`, jobToken);
        const state = answer.json<{ state: string }>().state;
        return state === "succeeded" || state === "failed" ? answer.json<{ state: string; attempts: number }>() : undefined;
      }, 120_000, 200);
      expect(done.state, job.id).toBe("succeeded");
    }
    const check = await replayCheck(server.env, fx.scope);
    expect(check.code, check.out).toBe(0);
    await server.stop();
    server = undefined;

    const db = await prepared.open();
    try {
      const ids = [...acknowledged.keys()];
      const stored = await db.sql.query<{ id: string }>(`SELECT id FROM graph_evidence WHERE id = ANY($1::text[])`, [ids]);
      figures.lostWrites = ids.length - stored.length;
      expect(stored.length).toBe(ids.length);
      expect(ids.length).toBeGreaterThanOrEqual(KILLS);
      expect(figures.killsMidJob).toBeGreaterThanOrEqual(1);
      for (const job of jobs) expect(await db.sql.query(`SELECT id FROM graph_evidence WHERE text = $1`, [job.text]), job.id).toHaveLength(1);
      expect(await sqlStoreIntegrity(db.sql)).toEqual({ orphanHistory: 0, entriesWithoutEvidence: 0, beliefsWithoutHistory: 0 });
    } finally {
      await db.close();
    }
    summaryLine(`crash-safety ${backend.name}`, { ...figures, acknowledged: acknowledged.size, jobs: jobs.length, seconds: Math.round((performance.now() - startedAt) / 1000) });
  }, 600_000);
});
