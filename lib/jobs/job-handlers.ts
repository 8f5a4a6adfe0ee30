/**
 * What each job kind does: the same service calls and presenters as the REST endpoints, so a job's result is the body
 * the synchronous endpoint would have answered.
 */
import { z } from "zod";
import { presentHarvest, presentIngest } from "@/lib/api/present";
import { ingestBodySchema } from "@/lib/api/request-schemas";
import type { BeliefServices } from "@/lib/beliefs/belief-services";
import type { Job, JobKind } from "./job-queue";

/** A job's input, checked when it is enqueued (and again when it runs). */
export const jobInputSchemas = {
  ingest: ingestBodySchema,
  harvest: z.record(z.string(), z.unknown()),
} satisfies Record<JobKind, z.ZodType>;

export async function runJobHandler(services: BeliefServices, job: Job): Promise<unknown> {
  switch (job.kind) {
    case "ingest": {
      const request = jobInputSchemas.ingest.parse(job.input);
      return presentIngest(
        await services.ingest(job.principal, job.scope, { text: request.text, kind: request.source?.kind, uri: request.source?.uri, topic: request.topic, observedAt: request.observedAt, ...(request.edits ? { edits: request.edits } : {}) }),
      );
    }
    case "harvest":
      return presentHarvest(await services.harvest(job.principal, job.scope, { ...jobInputSchemas.harvest.parse(job.input), commit: true }));
  }
}
