/**
 * Background jobs through the REST handlers and a real worker on embedded PGlite: enqueue → 202, progress
 * and result at /api/v1/jobs/{id}, the same answer the synchronous endpoint gives; another caller's job is a 404; a
 * job whose worker died (lease ran out) is picked up by another worker; a job whose writes committed before its worker
 * crashed is not written again (idempotency marks); server-sent events stream the job until it ends.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { getGraphStore } from "@/lib/graph/select-graph-store";
import { json, openApiHarness, type ApiHarness } from "@/lib/api/testing/api-harness";
import * as jobsRoute from "@/app/api/v1/jobs/route";
import * as jobRoute from "@/app/api/v1/jobs/[id]/route";
import * as eventsRoute from "@/app/api/v1/jobs/[id]/events/route";
import { claimJob, queueDepth } from "./job-queue";
import { createJobWorker, jobLeaseSeconds, type JobWorkerDeps } from "./job-worker";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

describe("background jobs (embedded PGlite)", () => {
  let h: ApiHarness;
  let home: string;
  const suffix = randomBytes(3).toString("hex");

  beforeAll(async () => {
    h = await openApiHarness(`job${suffix}`);
    home = h.scopes.home;
  });
  afterAll(async () => h?.close());

  const deps = (extra: Partial<JobWorkerDeps> = {}): JobWorkerDeps => ({
    sql: async () => h.db.sql,
    services: getBeliefServices,
    marks: async () => (await getGraphStore()).idempotency,
    ...extra,
  });
  const enqueue = (body: unknown, token = h.tokens.editor) => h.call(jobsRoute.POST, "POST", "/jobs", {}, { token, body });
  const read = (id: string, token = h.tokens.editor) => h.call(jobRoute.GET, "GET", `/jobs/${id}`, { id }, { token });
  const ingestJob = (text: string) => ({ kind: "ingest", scope: home, input: { text, source: { kind: "observation" } } });
  const evidenceWith = async (text: string) => Number((await h.db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM graph_evidence WHERE text = $1`, [text]))[0]?.n);

  it("enqueue → 202 queued; a worker runs it; the result is the synchronous endpoint's answer", async () => {
    const text = `Deploys go out from the release branch ${suffix}.`;
    const accepted = await enqueue(ingestJob(text));
    expect(accepted.status).toBe(202);
    const job = (await json(accepted)) as { id: string; state: string };
    expect(job.state).toBe("queued");
    expect(accepted.headers.get("location")).toBe(`/api/v1/jobs/${job.id}`);
    expect((await queueDepth(h.db.sql)).queued).toBeGreaterThanOrEqual(1);
    expect(await createJobWorker(deps()).runOnce()).toBe(true);
    const done = (await json(await read(job.id))) as { state: string; attempts: number; result: { outcome: string; claims: string[] } };
    expect(done).toMatchObject({ state: "succeeded", attempts: 1 });
    expect(done.result.outcome).toBe("committed");
    expect(await evidenceWith(text)).toBe(1);
  });

  it("another caller's job answers exactly like a missing one", async () => {
    const job = (await json(await enqueue(ingestJob(`Private job ${suffix}.`)))) as { id: string };
    const theirs = await read(job.id, h.tokens.outsider);
    const missing = await read(`job_missing_${suffix}`, h.tokens.outsider);
    expect(theirs.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(((await json(theirs)).error as { code: string }).code).toBe(((await json(missing)).error as { code: string }).code);
    await createJobWorker(deps()).runOnce();
  });

  it("refuses a malformed job (422 naming the field) before queueing it", async () => {
    const response = await enqueue({ kind: "ingest", scope: home, input: { text: 42 } });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await json(response))).toContain("input.text");
  });

  it("a job whose worker died (its lease ran out) is picked up by another worker", async () => {
    const text = `Orphaned job memo ${suffix}.`;
    const job = (await json(await enqueue(ingestJob(text)))) as { id: string };
    const dead = await claimJob(h.db.sql, "worker_dead", 30);
    expect(dead?.id).toBe(job.id);
    await h.db.sql.query(`UPDATE "jobs" SET "locked_until" = now() - interval '1 second' WHERE "id" = $1`, [job.id]);
    expect(await createJobWorker(deps({ id: "worker_alive" })).runOnce()).toBe(true);
    expect(await json(await read(job.id))).toMatchObject({ state: "succeeded", attempts: 2 });
    expect(await evidenceWith(text)).toBe(1);
  });

  it("a job whose writes committed before its worker crashed is not written again", async () => {
    const text = `Crash after commit job ${suffix}.`;
    const job = (await json(await enqueue(ingestJob(text)))) as { id: string };
    const crashing = createJobWorker(
      deps({
        afterCommit: () => {
          throw new Error("the worker died after the commit");
        },
      }),
    );
    await crashing.runOnce();
    expect(await evidenceWith(text)).toBe(1);
    expect(await json(await read(job.id))).toMatchObject({ state: "queued" });
    await h.db.sql.query(`UPDATE "jobs" SET "run_after" = now() WHERE "id" = $1`, [job.id]);
    await createJobWorker(deps()).runOnce();
    const done = (await json(await read(job.id))) as { state: string; result: { recovered: boolean; changeSetIds: string[] } };
    expect(done.state).toBe("succeeded");
    expect(done.result.recovered).toBe(true);
    expect(done.result.changeSetIds).toHaveLength(1);
    expect(await evidenceWith(text)).toBe(1);
  });

  it("streams the job as server-sent events until it ends", async () => {
    const job = (await json(await enqueue(ingestJob(`Streamed job ${suffix}.`)))) as { id: string };
    const worker = createJobWorker(deps({ pollMs: 50 }));
    worker.start();
    try {
      const response = await h.call(eventsRoute.GET, "GET", `/jobs/${job.id}/events`, { id: job.id }, { token: h.tokens.editor });
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const text = await response.text();
      const events = text.split("\n\n").filter(Boolean).map((block) => JSON.parse(block.split("\ndata: ")[1] ?? "{}") as { state: string });
      expect(text.startsWith("event: job\n")).toBe(true);
      expect(events.at(-1)?.state).toBe("succeeded");
    } finally {
      await worker.stop();
    }
  });
});

describe("CREDENCE_JOB_LEASE_SECONDS", () => {
  it("defaults to 30 s, takes an integer from 2 to 3600, and names itself when wrong", () => {
    expect(jobLeaseSeconds(undefined)).toBe(30);
    expect(jobLeaseSeconds(" ")).toBe(30);
    expect(jobLeaseSeconds("3")).toBe(3);
    for (const bad of ["1", "1.5", "ten", "3601"]) expect(() => jobLeaseSeconds(bad), bad).toThrow("CREDENCE_JOB_LEASE_SECONDS");
  });
});
