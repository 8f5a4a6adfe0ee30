/**
 * Optimistic-concurrency retry: a write that loses a race (`VersionConflict`: nothing was written) reloads, re-runs
 * the engine and applies again. Backoff before attempt i (i ≥ 2) is uniform in [0, min(250, 4·2^min(i,6))) ms:
 * full jitter spreads the losers of one round over the next ones, so with n concurrent writers on one belief every
 * writer wins within about n rounds; the default budget (32 attempts) covers the 16-writer case with room to spare.
 *
 * Bounded twice: by attempts and by elapsed time (default 10 s, `CREDENCE_CONFLICT_BUDGET_MS`). An ingest
 * re-runs its assessment on every attempt, so four overlapping ingests can take tens of seconds; past the budget the write
 * gives up, but never before its first `minAttempts` (default 4): on a loaded machine one attempt alone can outlast the
 * budget, and a write that lost a single race is not livelocked, it was slow. Then it gives up with `conflict` (409, nothing written) whose details report the contention (attempts, elapsed ms, the
 * belief that kept changing), and the process-wide counters (lib/ops/contention) feed the metrics.
 */
import { isVersionConflict } from "@/lib/graph/errors";
import { contentionStats } from "@/lib/ops/contention";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";

export const DEFAULT_MAX_ATTEMPTS = 32;
export const DEFAULT_MAX_ELAPSED_MS = 10_000;
export const DEFAULT_MIN_ATTEMPTS = 4;

export interface RetryOptions {
  maxAttempts?: number;
  /** Give up once this much time has passed since the first attempt (checked before each retry)… */
  maxElapsedMs?: number;
  /** …and at least this many attempts were made. */
  minAttempts?: number;
  /** Injected for tests; default Math.random. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds clock; default performance.now. */
  now?: () => number;
}

function budgetFromEnv(): number {
  const value = Number(process.env.CREDENCE_CONFLICT_BUDGET_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_MAX_ELAPSED_MS;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function withConflictRetry<T>(run: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const maxElapsedMs = options.maxElapsedMs ?? budgetFromEnv();
  const minAttempts = Math.min(maxAttempts, Math.max(1, options.minAttempts ?? DEFAULT_MIN_ATTEMPTS));
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? (() => performance.now());
  const stats = contentionStats();
  const started = now();
  for (let attempt = 1; ; attempt++) {
    try {
      const value = await run(attempt);
      if (attempt > 1) stats.contended += 1;
      return value;
    } catch (error) {
      if (!isVersionConflict(error)) throw error;
      const elapsedMs = Math.round(now() - started);
      const outOfTime = elapsedMs >= maxElapsedMs && attempt >= minAttempts;
      if (attempt >= maxAttempts || outOfTime) {
        stats.exhausted += 1;
        const why = outOfTime ? `after ${elapsedMs} ms (${attempt} attempts)` : `after ${attempt} attempts`;
        throw new BeliefServiceError(
          "conflict",
          `the belief kept changing under this write (contention); gave up ${why}, nothing was written: retry later`,
          { attempts: attempt, elapsedMs, reason: "contention", ...(error.beliefId !== null ? { beliefId: error.beliefId } : {}) },
          { cause: error },
        );
      }
      stats.retries += 1;
      await sleep(random() * Math.min(250, 4 * 2 ** Math.min(attempt, 6)));
    }
  }
}
