/**
 * The job worker every app server runs: claims one job at a time, runs it as the principal that enqueued
 * it, keeps its lease alive while it runs, records progress and the result. A job runs under its own idempotency claim
 * (principal "job", key = claim = the job id), so each change-set it applies writes a mark in its own transaction; a
 * job re-run after its worker died checks the marks first and does not write again ("recovered").
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { BeliefServices } from "@/lib/beliefs/belief-services";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { runUnderIdempotencyClaim, type IdempotencyMarks } from "@/lib/graph/idempotency-mark";
import { getLogger } from "@/lib/ops/logger";
import { runJobHandler } from "./job-handlers";
import { claimJob, completeJob, failJob, heartbeat, JOB_LEASE_SECONDS, type Job } from "./job-queue";

export const JOB_MARK_PRINCIPAL = "job";

/** Codes a retry cannot fix: the job fails at once. */
const FINAL_CODES = new Set(["invalid", "forbidden", "not_found", "unauthenticated"]);

/**
 * `CREDENCE_JOB_LEASE_SECONDS` (an integer 2–3600), default 30: how long a job stays its worker's without a heartbeat
 * (every third of it), so how soon a dead server's job is taken over. Anything else is a configuration error.
 */
export function jobLeaseSeconds(raw: string | undefined): number {
  const text = raw?.trim();
  if (!text) return JOB_LEASE_SECONDS;
  const parsed = z.coerce.number().int().min(2).max(3600).safeParse(text);
  if (!parsed.success) throw new Error(`Invalid configuration: CREDENCE_JOB_LEASE_SECONDS must be an integer from 2 to 3600, got "${text}"`);
  return parsed.data;
}

export interface JobWorkerDeps {
  sql: () => Promise<SqlExecutor>;
  services: () => Promise<BeliefServices>;
  marks: () => Promise<IdempotencyMarks>;
  /** Worker id (lease holder); default a fresh UUID. */
  id?: string;
  pollMs?: number;
  leaseSeconds?: number;
  /** Tests: runs after a job's writes committed and before its result is recorded (a throw stands for a crash). */
  afterCommit?: (job: Job) => void | Promise<void>;
}

export interface JobWorker {
  readonly id: string;
  /** Claims and runs one job; false when there was none. */
  runOnce(): Promise<boolean>;
  start(): void;
  /** Stops polling and waits for the job in hand to finish. */
  stop(): Promise<void>;
}

export function createJobWorker(deps: JobWorkerDeps): JobWorker {
  const id = deps.id ?? `worker_${randomUUID()}`;
  const leaseSeconds = deps.leaseSeconds ?? JOB_LEASE_SECONDS;
  let running = false;
  let current: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  async function execute(sql: SqlExecutor, job: Job): Promise<void> {
    const log = getLogger().child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
    const marks = await (await deps.marks()).list(JOB_MARK_PRINCIPAL, job.id, job.id);
    if (marks.length > 0) {
      // An earlier attempt committed its writes and died before recording the result: do not write again.
      await completeJob(sql, job.id, id, { recovered: true, changeSetIds: marks.map((m) => m.changeSetId) });
      log.info("job recovered: its writes had committed");
      return;
    }
    const beat = setInterval(() => void heartbeat(sql, job.id, id, { phase: "running" }, leaseSeconds).catch(() => {}), (leaseSeconds * 1000) / 3);
    try {
      await heartbeat(sql, job.id, id, { phase: "running" }, leaseSeconds);
      const services = await deps.services();
      const { value } = await runUnderIdempotencyClaim({ principal: JOB_MARK_PRINCIPAL, key: job.id, claimId: job.id }, () => runJobHandler(services, job));
      await deps.afterCommit?.(job);
      await completeJob(sql, job.id, id, value);
      log.info("job succeeded");
    } catch (error) {
      const code = error instanceof BeliefServiceError ? error.code : "internal";
      const message = error instanceof Error ? error.message : String(error);
      await failJob(sql, job.id, id, { code, message }, FINAL_CODES.has(code)).catch(() => {});
      log.warn({ err: error }, "job attempt failed");
    } finally {
      clearInterval(beat);
    }
  }

  const worker: JobWorker = {
    id,
    async runOnce() {
      const sql = await deps.sql();
      const job = await claimJob(sql, id, leaseSeconds);
      if (!job) return false;
      const run = execute(sql, job);
      current = run.catch(() => {});
      await run;
      return true;
    },
    start() {
      if (running) return;
      running = true;
      const tick = async () => {
        if (!running) return;
        let worked = false;
        try {
          worked = await worker.runOnce();
        } catch {
          // database away: try again later
        }
        if (running) timer = setTimeout(() => void tick(), worked ? 0 : (deps.pollMs ?? 500));
      };
      void tick();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
  return worker;
}
