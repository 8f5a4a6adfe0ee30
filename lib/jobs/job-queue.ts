/**
 * A durable job queue in the app's own database (decision 010): `jobs` rows claimed with
 * `FOR UPDATE SKIP LOCKED` under a lease. Delivery is at least once — a worker that dies leaves its job `running` with
 * a lease that runs out, and another worker claims it — and exactly once in effect: a job's writes carry the job's
 * idempotency marks (lib/graph/idempotency-mark.ts), so a re-run of a job whose writes committed does not write again.
 * Failures retry with exponential backoff (2^attempt s, at most 5 min) up to `max_attempts`.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Principal } from "@/lib/access/principal";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { JOB_KINDS, JOB_STATES } from "@/lib/api/job-schemas";

export { JOB_KINDS, JOB_STATES };
export type JobKind = (typeof JOB_KINDS)[number];
export type JobState = (typeof JOB_STATES)[number];

/** How long a claimed job belongs to its worker without a heartbeat. */
export const JOB_LEASE_SECONDS = 30;

const jsonValue = z.unknown();
const rowSchema = z.object({
  id: z.string(),
  kind: z.enum(JOB_KINDS),
  principal: z.object({ userId: z.string(), tokenScopeId: z.string().nullable() }),
  owner: z.string(),
  scope: z.string(),
  input: jsonValue,
  state: z.enum(JOB_STATES),
  attempts: z.coerce.number(),
  max_attempts: z.coerce.number(),
  progress: jsonValue.nullable(),
  result: jsonValue.nullable(),
  error: jsonValue.nullable(),
  created_at: z.coerce.date(),
  updated_at: z.coerce.date(),
});

export interface Job {
  id: string;
  kind: JobKind;
  principal: Principal;
  /** `principalKey` of who enqueued it: only they may read it. */
  owner: string;
  scope: string;
  input: unknown;
  state: JobState;
  attempts: number;
  maxAttempts: number;
  progress: unknown;
  result: unknown;
  error: unknown;
  createdAt: string;
  updatedAt: string;
}

function jobOf(raw: unknown): Job {
  const r = rowSchema.parse(raw);
  return {
    id: r.id,
    kind: r.kind,
    principal: r.principal,
    owner: r.owner,
    scope: r.scope,
    input: r.input,
    state: r.state,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    progress: r.progress,
    result: r.result,
    error: r.error,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

const COLUMNS = `"id", "kind", "principal", "owner", "scope", "input", "state", "attempts", "max_attempts", "progress", "result", "error", "created_at", "updated_at"`;

export async function enqueueJob(
  sql: SqlExecutor,
  job: { kind: JobKind; principal: Principal; owner: string; scope: string; input: unknown; maxAttempts?: number },
): Promise<Job> {
  const rows = await sql.query(
    `INSERT INTO "jobs" ("id", "kind", "principal", "owner", "scope", "input", "state", "max_attempts")
     VALUES ($1, $2, $3::jsonb, $4, $5, $6::jsonb, 'queued', $7) RETURNING ${COLUMNS}`,
    [`job_${randomUUID()}`, job.kind, JSON.stringify(job.principal), job.owner, job.scope, JSON.stringify(job.input), job.maxAttempts ?? 5],
  );
  return jobOf(rows[0]);
}

/** The job if `owner` enqueued it; null otherwise (someone else's job is indistinguishable from a missing one). */
export async function getJob(sql: SqlExecutor, id: string, owner: string): Promise<Job | null> {
  const rows = await sql.query(`SELECT ${COLUMNS} FROM "jobs" WHERE "id" = $1 AND "owner" = $2`, [id, owner]);
  return rows[0] ? jobOf(rows[0]) : null;
}

/**
 * Claims the oldest runnable job: queued and due, or running with a lease that ran out (its worker died). One
 * statement; concurrent workers skip each other's rows.
 */
export async function claimJob(sql: SqlExecutor, worker: string, leaseSeconds = JOB_LEASE_SECONDS): Promise<Job | null> {
  const rows = await sql.query(
    `UPDATE "jobs" SET "state" = 'running', "attempts" = "attempts" + 1, "locked_by" = $1,
            "locked_until" = now() + make_interval(secs => $2::int), "updated_at" = now()
      WHERE "id" = (
        SELECT "id" FROM "jobs"
         WHERE ("state" = 'queued' AND "run_after" <= now()) OR ("state" = 'running' AND "locked_until" < now())
         ORDER BY "created_at", "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING ${COLUMNS}`,
    [worker, leaseSeconds],
  );
  return rows[0] ? jobOf(rows[0]) : null;
}

/** Extends the lease and records progress; false when the job is no longer this worker's (taken over). */
export async function heartbeat(sql: SqlExecutor, id: string, worker: string, progress: unknown, leaseSeconds = JOB_LEASE_SECONDS): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE "jobs" SET "locked_until" = now() + make_interval(secs => $3::int), "progress" = $4::jsonb, "updated_at" = now()
      WHERE "id" = $1 AND "locked_by" = $2 AND "state" = 'running' RETURNING "id"`,
    [id, worker, leaseSeconds, JSON.stringify(progress ?? null)],
  );
  return rows.length > 0;
}

export async function completeJob(sql: SqlExecutor, id: string, worker: string, result: unknown): Promise<void> {
  await sql.query(
    `UPDATE "jobs" SET "state" = 'succeeded', "result" = $3::jsonb, "error" = NULL, "locked_by" = NULL, "locked_until" = NULL, "updated_at" = now()
      WHERE "id" = $1 AND "locked_by" = $2`,
    [id, worker, JSON.stringify(result)],
  );
}

/** A failed attempt: back to the queue after 2^attempts s (≤ 300 s), or `failed` once the attempts are spent or `final`. */
export async function failJob(sql: SqlExecutor, id: string, worker: string, error: { code: string; message: string }, final: boolean): Promise<void> {
  await sql.query(
    `UPDATE "jobs" SET
        "state" = CASE WHEN $4::boolean OR "attempts" >= "max_attempts" THEN 'failed' ELSE 'queued' END,
        "run_after" = now() + make_interval(secs => LEAST(300, power(2, "attempts"))::int),
        "error" = $3::jsonb, "locked_by" = NULL, "locked_until" = NULL, "updated_at" = now()
      WHERE "id" = $1 AND "locked_by" = $2`,
    [id, worker, JSON.stringify(error), final],
  );
}

/** Jobs per state (the metrics' queue depth). */
export async function queueDepth(sql: SqlExecutor): Promise<Record<JobState, number>> {
  const rows = await sql.query<{ state: JobState; n: string | number }>(`SELECT "state", count(*) AS n FROM "jobs" GROUP BY "state"`);
  const out: Record<JobState, number> = { queued: 0, running: 0, succeeded: 0, failed: 0 };
  for (const row of rows) out[row.state] = Number(row.n);
  return out;
}
