import { ApiError } from "@/lib/api/api-error";
import { apiRoute } from "@/lib/api/api-route";
import { presentJob, readJobFor, TERMINAL_STATES } from "@/lib/jobs/job-api";

/**
 * Server-sent events for one job: an `event: job` with the job each time it changes, until it succeeds or fails. The
 * job lives in the database, so the stream may be opened on any server and reopened after a reconnect.
 */
export const GET = apiRoute(async ({ principal, params, request }) => {
  const id = params.id ?? "";
  const first = await readJobFor(principal, id);
  if (!first) throw new ApiError(404, "not_found", "No such job.", { id });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let last = "";
      let job = first;
      for (;;) {
        const text = JSON.stringify(presentJob(job));
        if (text !== last) {
          controller.enqueue(encoder.encode(`event: job\ndata: ${text}\n\n`));
          last = text;
        }
        if (TERMINAL_STATES.has(job.state) || request.signal.aborted) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
        const next = await readJobFor(principal, id).catch(() => job);
        if (next) job = next;
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" } });
});
