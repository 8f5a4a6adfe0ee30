/**
 * Process-wide counters of optimistic-concurrency contention: the belief services' retry loop counts into them and
 * the metrics endpoint reads them.
 */
import { processValue } from "@/lib/process-singleton";

export interface ContentionStats {
  /** Attempts that lost a race and were retried. */
  retries: number;
  /** Writes that gave up (attempts or time budget spent). */
  exhausted: number;
  /** Writes that won after at least one retry. */
  contended: number;
  /** Writes that ran in their scope's write gate (lost a race, or found others queued there). */
  serialised: number;
}

const contention = processValue<ContentionStats>("__credenceContention", () => ({ retries: 0, exhausted: 0, contended: 0, serialised: 0 }));

export function contentionStats(): ContentionStats {
  return contention.get();
}
