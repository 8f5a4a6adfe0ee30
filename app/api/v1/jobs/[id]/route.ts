import { ApiError } from "@/lib/api/api-error";
import { apiRoute } from "@/lib/api/api-route";
import { presentJob, readJobFor } from "@/lib/jobs/job-api";

/** A job's state, progress and result; another caller's job answers exactly like a missing one. */
export const GET = apiRoute(async ({ principal, params }) => {
  const job = await readJobFor(principal, params.id ?? "");
  if (!job) throw new ApiError(404, "not_found", "No such job.", { id: params.id ?? "" });
  return presentJob(job);
});
