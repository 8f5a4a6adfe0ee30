/**
 * The jobs endpoints' shared parts: what a job looks like over the API (never whom it runs as), and the enqueue body.
 */
import { z } from "zod";
import type { Principal } from "@/lib/access/principal";
import { principalKey } from "@/lib/api/idempotency";
import { present } from "@/lib/api/present";
import { enqueueJobRequestSchema, jobResponseSchema } from "@/lib/api/job-schemas";
import { getDatabase } from "@/lib/db/database";
import { enqueueJob, getJob, type Job } from "./job-queue";
import { jobInputSchemas } from "./job-handlers";

/** The enqueue body, with the input checked against the kind's own schema (named `input.<field>` when it fails). */
export const enqueueJobBodySchema = enqueueJobRequestSchema.superRefine((body, ctx) => {
    const parsed = jobInputSchemas[body.kind].safeParse(body.input);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: ["input", ...issue.path.map(String)], message: issue.message });
  });

export function presentJob(job: Job) {
  return present(jobResponseSchema, {
    id: job.id,
    kind: job.kind,
    scope: job.scope,
    state: job.state,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    progress: job.progress,
    result: job.result,
    error: job.error,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  }, "Job");
}

export const TERMINAL_STATES: ReadonlySet<string> = new Set(["succeeded", "failed"]);

/** Enqueues a job for `principal` (the body already parsed) in the process's database. */
export async function enqueueJobFor(principal: Principal, body: z.infer<typeof enqueueJobBodySchema>): Promise<Job> {
  const { sql } = await getDatabase();
  return enqueueJob(sql, { kind: body.kind, principal, owner: principalKey(principal), scope: body.scope, input: body.input });
}

/** `principal`'s job, or null (missing, or someone else's). */
export async function readJobFor(principal: Principal, id: string): Promise<Job | null> {
  return getJob((await getDatabase()).sql, id, principalKey(principal));
}
