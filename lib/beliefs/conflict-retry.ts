/**
 * Optimistic-concurrency retry: a write that loses a race (`VersionConflict`: nothing was written) reloads, re-runs
 * the engine and applies again. Backoff before attempt i (i ≥ 2) is uniform in [0, min(250, 4·2^min(i,6))) ms:
 * full jitter spreads the losers of one round over the next ones, so with n concurrent writers on one belief every
 * writer wins within about n rounds; the default budget (32 attempts) covers the 16-writer case with room to spare.
 */
import { isVersionConflict } from "@/lib/graph/errors";
import { BeliefServiceError } from "./belief-service-error";

export const DEFAULT_MAX_ATTEMPTS = 32;

export interface RetryOptions {
  maxAttempts?: number;
  /** Injected for tests; default Math.random. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function withConflictRetry<T>(run: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (!isVersionConflict(error)) throw error;
      if (attempt >= maxAttempts) {
        throw new BeliefServiceError("conflict", `the belief kept changing under this write; gave up after ${attempt} attempts`, { attempts: attempt }, { cause: error });
      }
      await sleep(random() * Math.min(250, 4 * 2 ** Math.min(attempt, 6)));
    }
  }
}
