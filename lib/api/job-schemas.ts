/**
 * The jobs endpoints' contract (`/api/v1/jobs`): the kinds and states of a job, the enqueue body's shape and a job as
 * the API shows it (never whom it runs as). The queue itself (lib/jobs) builds on these.
 */
import { z } from "zod";
import { named } from "./response-schemas";

export const JOB_KINDS = ["ingest", "harvest"] as const;
export const JOB_STATES = ["queued", "running", "succeeded", "failed"] as const;

/** `POST /api/v1/jobs`: what to run, where, and its input (the synchronous operation's body). */
export const enqueueJobRequestSchema = z
  .object({
    kind: z.enum(JOB_KINDS).describe("ingest (the body of POST …/ingest) or harvest (the body of POST …/harvest)."),
    scope: z.string().trim().min(1).max(200).describe("The scope slug the work runs in."),
    input: z.record(z.string(), z.unknown()).describe("The synchronous operation's body, checked when the job is queued."),
  })
  .strict();

export const jobResponseSchema = named(
  "Job",
  z.object({
    id: z.string(),
    kind: z.enum(JOB_KINDS),
    scope: z.string(),
    state: z.enum(JOB_STATES),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    progress: z.unknown().describe("What the job has done so far (kind-specific), or null."),
    result: z.unknown().describe("Once succeeded: the same body the synchronous operation answers (ingest or harvest); else null."),
    error: z.unknown().describe("Once failed: the API error body of the last attempt; else null."),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  "A job: long work (ingest, harvest) run by the server's worker, followed at `/api/v1/jobs/{id}`.",
);
