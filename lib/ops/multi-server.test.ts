/**
 * Many app servers, one truth: three real servers (`bin/serve.ts`, the production build) behind nginx
 * on one Postgres (a throwaway database), started by the same code as `npm run cluster`. Thirty writers on one belief
 * lose no entry and replay matches; the rate limit holds across the servers; one Idempotency-Key sent to all three at
 * once writes once; kill -9 of the server running a job mid-load: the others keep answering, every acknowledged write
 * is there, and the job is taken over by another server.
 *
 * Needs nginx (Debian's package), the Postgres server and `npx next build`; any of them missing fails, never skips.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes, randomUUID } from "node:crypto";
import { openDatabase, type Database } from "@/lib/db/database";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/lib/db/testing/postgres";
import { callApi, errorCode, makeFixtures, replayCheck, sqlStoreIntegrity, summaryLine, until, type Answer, type Fixtures } from "@/lib/testing/reliability";
import { findNginx, startCluster, type Cluster } from "./local-cluster";

const RATE_LIMIT = 20;
const WRITERS = 30;
// Long enough that a loaded machine's stalls (heartbeats every third of it) never hand a running job to another server.
const LEASE_SECONDS = 6;

describe("three app servers behind nginx on one Postgres", () => {
  let throwaway: ThrowawayDatabase;
  let db: Database;
  let cluster: Cluster;
  let fx: Fixtures;
  const suffix = randomBytes(3).toString("hex");
  const started = performance.now();
  const figures = { requests: 0, contention409: 0, retried: 0, failedAtKill: 0, lostWrites: 0, duplicates: 0, kills: 0, jobsTakenOver: 0 };
  const tokens = () => {
    let next = 0;
    // The writers' tokens are the first WRITERS; the ones after are kept for the other cases (a rate-limit bucket
    // spent by a writer would start the rate case below its limit).
    return () => fx.editorTokens[next++ % WRITERS] as string;
  };
  const api = async (base: string, method: string, apiPath: string, token: string | null, init?: Parameters<typeof callApi>[4]) => {
    figures.requests += 1;
    return callApi(base, method, `/api/v1${apiPath}`, token, init);
  };

  beforeAll(async () => {
    findNginx();
    throwaway = await createThrowawayDatabase("credence_cluster");
    // Migrated and populated here (fixtures in-process: dozens of tokens in a second); the servers find it ready.
    db = await openDatabase({ databaseUrl: throwaway.url });
    fx = await makeFixtures(db, suffix, WRITERS + 12);
    cluster = await startCluster({
      databaseUrl: throwaway.url,
      env: { CREDENCE_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), CREDENCE_JOB_LEASE_SECONDS: String(LEASE_SECONDS), LOG_LEVEL: "warn" },
    });
  }, 300_000);
  afterAll(async () => {
    if (figures.requests > 0) {
      summaryLine("multi-server", { ...figures, servers: 3, seconds: Math.round((performance.now() - started) / 1000) });
    }
    await cluster?.stop();
    await db?.close();
    await throwaway?.drop();
  });

  it(`${WRITERS} concurrent writers on one belief, spread across the servers: no entry lost, replay matches`, async () => {
    const token = tokens();
    const first = await api(cluster.url, "POST", `/scopes/${fx.scope}/assimilate`, token(), {
      body: { claim: `The shared belief ${suffix} holds.`, evidence: [{ tier: "observation", direction: "+", reasoning: "seed" }] },
    });
    expect(first.status, first.text).toBe(200);
    const beliefId = first.json<{ belief: { id: string } }>().belief.id;

    const upstreams = new Set<string>();
    const answers = await Promise.all(
      Array.from({ length: WRITERS }, async (_, i) => {
        const writerToken = token();
        // A writer retries a 409 contention (the documented answer when the write budget runs out), as a client would.
        for (let attempt = 0; attempt < 5; attempt++) {
          const answer = await api(cluster.url, "POST", `/scopes/${fx.scope}/assimilate`, writerToken, {
            body: { beliefId, evidence: [{ tier: "observation", direction: i % 3 === 0 ? "-" : "+", weight: 0.5, reasoning: `writer ${i}` }] },
          });
          upstreams.add(answer.headers?.get("x-upstream") ?? "?");
          if (!(answer.status === 409 && errorCode(answer) === "conflict")) return answer;
          figures.contention409 += 1;
        }
        throw new Error(`writer ${i} kept meeting contention`);
      }),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect(upstreams.size).toBe(3);

    const detail = await api(cluster.url, "GET", `/scopes/${fx.scope}/beliefs/${beliefId}`, token());
    const history = detail.json<{ belief: { history: { type: string; reasoning?: string }[] } }>().belief.history.filter((h) => h.type === "entry");
    const reasons = history.map((h) => h.reasoning).sort();
    expect(reasons).toEqual(["seed", ...Array.from({ length: WRITERS }, (_, i) => `writer ${i}`)].sort());
    const replay = await api(cluster.url, "GET", `/scopes/${fx.scope}/beliefs/${beliefId}/replay`, token());
    expect(replay.json<{ matches: boolean }>().matches).toBe(true);
    const check = await replayCheck(cluster.env, fx.scope);
    expect(check.code, check.out).toBe(0);
  }, 180_000);

  it("the rate limit holds across the servers (one bucket per token, within one refill)", async () => {
    const token = fx.editorTokens[WRITERS] as string;
    const burstStarted = performance.now();
    const answers = await Promise.all(Array.from({ length: RATE_LIMIT * 3 }, () => api(cluster.url, "GET", `/scopes/${fx.scope}/beliefs?limit=1`, token)));
    const refills = Math.floor((performance.now() - burstStarted) / ((60 / RATE_LIMIT) * 1000)) + 1;
    const allowed = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(allowed.length + refused.length).toBe(answers.length);
    // Each server alone would allow RATE_LIMIT (3 × in all); together they allow it once, plus the tokens refilled
    // (one per 60 / RATE_LIMIT s) while the burst ran: a slow machine stretches the burst, not the bucket.
    expect(allowed.length).toBeGreaterThanOrEqual(RATE_LIMIT);
    expect(allowed.length).toBeLessThanOrEqual(RATE_LIMIT + refills);
    expect(refills).toBeLessThan(RATE_LIMIT);
    expect(new Set(answers.map((a) => a.headers?.get("x-upstream"))).size).toBe(3);
    expect(Number(refused[0]?.headers?.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("one Idempotency-Key sent to all three servers at once writes once", async () => {
    const key = randomUUID();
    const token = fx.editorTokens[WRITERS + 1] as string;
    const text = `Written once across servers ${suffix}.`;
    const answers = await Promise.all(
      cluster.servers.map((server) => api(server.baseUrl, "POST", `/scopes/${fx.scope}/evidence`, token, { body: { kind: "document", text }, headers: { "idempotency-key": key } })),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    const ids = new Set(answers.map((a) => a.json<{ evidence: { id: string } }>().evidence.id));
    expect(ids.size).toBe(1);
    const rows = await db.sql.query(`SELECT id FROM graph_evidence WHERE text = $1`, [text]);
    expect(rows).toHaveLength(1);
  });

  it("kill -9 of the server running a job, mid-load: the others answer, acknowledged writes stay, the job is taken over", async () => {
    const longText = Array.from(
      { length: 24 },
      (_, i) => `Service ${i} of team ${suffix} deploys from the release-${i} branch and pages on-call after ${i + 2} failed health checks.`,
    ).join(" ");
    const jobToken = fx.editorTokens[WRITERS + 2] as string;
    const enqueued = await api(cluster.url, "POST", `/jobs`, jobToken, { body: { kind: "ingest", scope: fx.scope, input: { text: longText, source: { kind: "document" } } } });
    expect(enqueued.status, enqueued.text).toBe(202);
    const jobId = enqueued.json<{ id: string }>().id;

    const acknowledged = new Map<string, string>();
    let phase: "before" | "after" = "before";
    const failedAfterKill: Answer[] = [];
    let inFlightFailures = 0;
    let afterKillSucceeded = 0;
    let stop = false;
    const writer = async (w: number) => {
      const token = fx.editorTokens[WRITERS + 3 + w] as string;
      for (let n = 0; !stop && n < 18; n++) {
        const sentIn = phase;
        const text = `Load ${suffix} writer ${w} write ${n}.`;
        // A client of a load balancer: every write carries an Idempotency-Key, and a 502 (or a dropped connection) is
        // retried once with it — nginx never resends a write it had passed to a server that died.
        const key = randomUUID();
        const write = () => api(cluster.url, "POST", `/scopes/${fx.scope}/evidence`, token, { body: { kind: "observation", text }, headers: { "idempotency-key": key } });
        let answer = await write();
        if (answer.status === 502 || answer.status === 0) {
          figures.retried += 1;
          answer = await write();
        }
        if (answer.status === 201) {
          acknowledged.set(answer.json<{ evidence: { id: string } }>().evidence.id, text);
          if (sentIn === "after") afterKillSucceeded += 1;
        } else if (sentIn === "after") {
          failedAfterKill.push(answer);
        } else {
          inFlightFailures += 1;
        }
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, (_, w) => writer(w)));

    // The job's lease names its server (`host:port/pid/…`): kill that one while the job runs.
    const holder = await until("the job to be running", async () => {
      const row = (await db.sql.query<{ state: string; locked_by: string | null }>(`SELECT state, locked_by FROM jobs WHERE id = $1`, [jobId]))[0];
      if (row?.state === "succeeded" || row?.state === "failed") throw new Error(`the job ended (${row.state}) before the kill: make it longer`);
      return row?.state === "running" && row.locked_by ? row.locked_by : undefined;
    }, 60_000, 20);
    const victim = cluster.servers.find((s) => holder.startsWith(`127.0.0.1:${s.port}/`));
    expect(victim, holder).toBeDefined();
    await victim!.kill();
    figures.kills += 1;
    phase = "after";

    // The job comes back to the queue when its lease runs out and another server finishes it.
    const holders = new Set<string>([holder]);
    const done = await until("the job to be taken over and finish", async () => {
      const row = (await db.sql.query<{ state: string; attempts: number; locked_by: string | null }>(`SELECT state, attempts, locked_by FROM jobs WHERE id = $1`, [jobId]))[0];
      if (row?.locked_by) holders.add(row.locked_by);
      return row?.state === "succeeded" || row?.state === "failed" ? row : undefined;
    }, 120_000, 50);
    stop = true;
    await load;
    expect(done.state).toBe("succeeded");
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    figures.jobsTakenOver += 1;
    for (const h of holders) if (h !== holder) expect(h.startsWith(`127.0.0.1:${victim!.port}/`)).toBe(false);

    // The job reads the same from any server, with its result.
    const job = await api(cluster.url, "GET", `/jobs/${jobId}`, jobToken);
    expect(job.json()).toMatchObject({ state: "succeeded" });
    // Requests sent after the kill reached the living servers (nginx skips the dead one).
    expect(failedAfterKill.map((a) => `${a.status} ${a.text.slice(0, 120)}`), await cluster.nginxErrors()).toEqual([]);
    expect(afterKillSucceeded).toBeGreaterThan(0);
    for (const server of cluster.servers.filter((s) => s !== victim)) {
      expect((await callApi(server.baseUrl, "GET", "/api/health/ready", null)).status).toBe(200);
    }
    figures.failedAtKill += inFlightFailures;

    // Every acknowledged write is there, once; the job's ingest wrote its evidence once.
    const ids = [...acknowledged.keys()];
    const stored = await db.sql.query<{ id: string; text: string }>(`SELECT id, text FROM graph_evidence WHERE id = ANY($1::text[])`, [ids]);
    figures.lostWrites += ids.length - stored.length;
    expect(stored.length).toBe(ids.length);
    const copies = await db.sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM graph_evidence WHERE text LIKE $1 GROUP BY text HAVING count(*) > 1`, [`Load ${suffix} %`]);
    figures.duplicates += copies.length;
    expect(copies).toEqual([]);
    expect(await db.sql.query(`SELECT id FROM graph_evidence WHERE text = $1`, [longText])).toHaveLength(1);
    expect(await sqlStoreIntegrity(db.sql)).toEqual({ orphanHistory: 0, entriesWithoutEvidence: 0, beliefsWithoutHistory: 0 });
    const check = await replayCheck(cluster.env, fx.scope);
    expect(check.code, check.out).toBe(0);

    // The killed server comes back on its port and takes requests again, no manual step.
    await victim!.restart();
    expect((await callApi(victim!.baseUrl, "GET", "/api/health/ready", null)).status).toBe(200);
  }, 240_000);
});
