import { apiRoute } from "@/lib/api/api-route";
import { enqueueJobBodySchema, enqueueJobFor, presentJob } from "@/lib/jobs/job-api";

/** Enqueue long work (ingest of a long text, harvest with commit): 202 with the job; follow it at /api/v1/jobs/{id}. */
export const POST = apiRoute(async ({ principal, body }) => {
  const job = await enqueueJobFor(principal, enqueueJobBodySchema.parse(await body()));
  return Response.json(presentJob(job), { status: 202, headers: { "cache-control": "no-store", location: `/api/v1/jobs/${job.id}` } });
});
