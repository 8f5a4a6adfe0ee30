/** What every rate limiter offers (in-process, Postgres, Redis): `./rate-limiter` selects one per process. */
export type RateDecision =
  | { allowed: true; limit: number; remaining: number }
  | { allowed: false; limit: number; remaining: 0; retryAfterSeconds: number };

export interface RateLimiter {
  readonly perMinute: number;
  /** Spends one request from `key`'s bucket (shared limiters answer asynchronously). */
  take(key: string): RateDecision | Promise<RateDecision>;
}
