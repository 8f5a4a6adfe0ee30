/**
 * Event time at the services' boundary: a write's `observedAt` (when the evidence was true or seen) is the caller's,
 * the recorded time is the server's clock. Only the services know the clock (the demo's is set back), so the "not in
 * the future" rule is checked here rather than in the input schema.
 */
import { OBSERVED_AT_MAX_SKEW_MS } from "@/lib/engine";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";

/**
 * The event time of a write recorded at `now`: the caller's `observedAt` (already an ISO-8601 UTC string, parsed by
 * the input schema), or `now` when none was given. An `invalid` error naming `observedAt` (422) when it lies more than
 * `OBSERVED_AT_MAX_SKEW_MS` in the future.
 */
export function eventTimeOfWrite(observedAt: string | undefined, now: string): string {
  if (observedAt === undefined) return now;
  if (Date.parse(observedAt) > Date.parse(now) + OBSERVED_AT_MAX_SKEW_MS) {
    const message = `in the future: at most ${OBSERVED_AT_MAX_SKEW_MS / 60_000} minutes after the server's time (${now})`;
    throw new BeliefServiceError("invalid", `observedAt ${observedAt} is ${message}`, { fields: [{ field: "observedAt", message }] });
  }
  return observedAt;
}
