/**
 * Rate limits shared by every app server through Redis (`REDIS_URL`), with rate-limiter-flexible: `perMinute`
 * points per key per 60-second window. When Redis does not answer (stopped, unreachable, slow past 500 ms) the limiter
 * FAILS OVER, neither open nor closed: each process falls back to its own in-process bucket with the same limit (the
 * library's insurance limiter), so a fleet of n servers allows at most n × the limit until Redis is back, and no
 * request waits on a dead Redis. The in-process buckets start full, so the failover itself never refuses anyone.
 */
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { z } from "zod";
import type { RateDecision, RateLimiter } from "./rate-limit-port";

export interface RedisRateLimiter extends RateLimiter {
  /** Whether Redis is connected now (false: the in-process failover answers). */
  connected(): boolean;
  close(): Promise<void>;
}

export function createRedisRateLimiter(perMinute: number, redisUrl: string, options: { keyPrefix?: string } = {}): RedisRateLimiter {
  const limit = z.number().int().positive().parse(perMinute);
  const client = new Redis(redisUrl, {
    // Fail fast while Redis is away instead of queueing commands: the insurance limiter answers meanwhile.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
    commandTimeout: 500,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(1_000, 50 * attempt),
  });
  client.on("error", () => {}); // reported through the limiter's failover, not as an unhandled event
  const insurance = new RateLimiterMemory({ points: limit, duration: 60 });
  const limiter = new RateLimiterRedis({
    storeClient: client,
    useRedisPackage: false,
    keyPrefix: options.keyPrefix ?? "credence:rate",
    points: limit,
    duration: 60,
    insuranceLimiter: insurance,
  });
  return {
    perMinute: limit,
    async take(key): Promise<RateDecision> {
      try {
        const res = await limiter.consume(key, 1);
        return { allowed: true, limit, remaining: Math.max(0, res.remainingPoints) };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        }
        throw rejection;
      }
    },
    connected: () => client.status === "ready",
    async close() {
      client.disconnect();
    },
  };
}
