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
 *
 * With `serialise` (the scope's write gate, ./write-gate), a write that lost a race runs its remaining attempts holding
 * the gate, and a write that finds the gate busy runs all its attempts in it. Each loser re-reading and re-assessing
 * while the others do the same is what makes contended writes slow: at 4 clients, half the ingests of a scope lost at
 * least one race and its p99 was 6–8× its median. In the gate they run one after another and the ones that started
 * together no longer lose to each other. Writes that do not contend never wait. The time budget counts the attempts'
 * own time, not the wait for the gate (reported as `queuedMs`). A write whose reading is slow (an LLM) may `rehearse`
 * before it queues: its reading then overlaps the gate's queue instead of adding to it.
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
  /** Where contended attempts run one at a time (the scope's write gate); absent, every attempt runs at once. */
  serialise?: Serialiser;
  /**
   * Run before queueing for a busy gate, outside it: a read-only pass of the write whose slow parts the attempts then
   * find done (an ingest's readings by an LLM, kept by ./kept-readings), so that waiting writes do their reading side
   * by side instead of one after another in the queue. A lost race in it is ignored (the attempts run on fresh rows);
   * any other error fails the write, as it would have failed the attempt.
   */
  rehearse?: () => Promise<unknown>;
}

export interface Serialiser {
  /** True when others' attempts are queued or running there. */
  busy(): boolean;
  run<T>(fn: () => Promise<T>): Promise<T>;
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
  const serialise = options.serialise;
  let attempt = 0;
  let serialised = false;
  // Time spent waiting for the gate is not the write's own: the budget counts the attempts' time only.
  let queuedMs = 0;
  const attemptUntilWon = async (): Promise<T> => {
    for (;;) {
      attempt += 1;
      try {
        const value = await run(attempt);
        if (attempt > 1) stats.contended += 1;
        return value;
      } catch (error) {
        if (!isVersionConflict(error)) throw error;
        const elapsedMs = Math.round(now() - started - queuedMs);
        const outOfTime = elapsedMs >= maxElapsedMs && attempt >= minAttempts;
        if (attempt >= maxAttempts || outOfTime) {
          stats.exhausted += 1;
          const why = outOfTime ? `after ${elapsedMs} ms (${attempt} attempts)` : `after ${attempt} attempts`;
          throw new BeliefServiceError(
            "conflict",
            `the belief kept changing under this write (contention); gave up ${why}, nothing was written: retry later`,
            {
              attempts: attempt,
              elapsedMs,
              ...(serialised ? { queuedMs: Math.round(queuedMs) } : {}),
              reason: "contention",
              ...(error.beliefId !== null ? { beliefId: error.beliefId } : {}),
            },
            { cause: error },
          );
        }
        stats.retries += 1;
        if (serialise !== undefined && !serialised) return inGate(serialise);
        await sleep(random() * Math.min(250, 4 * 2 ** Math.min(attempt, 6)));
      }
    }
  };
  const inGate = (gate: Serialiser): Promise<T> => {
    serialised = true;
    stats.serialised += 1;
    const asked = now();
    return gate.run(() => {
      queuedMs += now() - asked;
      return attemptUntilWon();
    });
  };
  if (serialise?.busy()) {
    if (options.rehearse) {
      try {
        await options.rehearse();
      } catch (error) {
        if (!isVersionConflict(error)) throw error;
      }
    }
    return inGate(serialise);
  }
  return attemptUntilWon();
}
