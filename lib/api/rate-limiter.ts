import { z } from "zod";
import { processValue } from "@/lib/process-singleton";
import { errorResponse } from "./api-error";
import type { RateDecision, RateLimiter } from "./rate-limit-port";

/** Default requests per minute per token (or per user for a browser session); docs/design.md §7 asks for at least 600. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

export type { RateDecision, RateLimiter } from "./rate-limit-port";

/** The in-process limiter: synchronous, with an injectable clock. */
export interface LocalRateLimiter extends RateLimiter {
  /** Spends one request from `key`'s bucket at `nowMs` (default Date.now()). */
  take(key: string, nowMs?: number): RateDecision;
}

type Bucket = { tokens: number; updatedMs: number };

/**
 * An in-process token bucket per key: capacity = perMinute (a full minute's burst), refilled continuously at
 * perMinute / 60 000 per ms, so tokens(t) = min(capacity, tokens(t₀) + (t − t₀)·rate). A request needs one token;
 * without one, Retry-After = ⌈(1 − tokens) / rate⌉ seconds (≥ 1), when the next token will have arrived.
 * Buckets that have refilled completely carry no information and are swept once the map grows past `maxKeys`.
 */
export function createRateLimiter(perMinute: number, options: { maxKeys?: number } = {}): LocalRateLimiter {
  const limit = z.number().int().positive().parse(perMinute);
  const ratePerMs = limit / 60_000;
  const maxKeys = options.maxKeys ?? 10_000;
  const buckets = new Map<string, Bucket>();

  const sweep = (nowMs: number) => {
    for (const [key, bucket] of buckets) if (bucket.tokens + (nowMs - bucket.updatedMs) * ratePerMs >= limit) buckets.delete(key);
  };

  return {
    perMinute: limit,
    take(key, nowMs = Date.now()) {
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= maxKeys) sweep(nowMs);
        bucket = { tokens: limit, updatedMs: nowMs };
        buckets.set(key, bucket);
      }
      // A clock stepping backwards refills nothing rather than draining the bucket.
      const elapsed = Math.max(0, nowMs - bucket.updatedMs);
      bucket.tokens = Math.min(limit, bucket.tokens + elapsed * ratePerMs);
      bucket.updatedMs = Math.max(bucket.updatedMs, nowMs);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true, limit, remaining: Math.floor(bucket.tokens) };
      }
      return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000)) };
    },
  };
}

const perMinuteSchema = z.coerce.number<string>().int().positive();

/** `CREDENCE_RATE_LIMIT_PER_MINUTE` (a positive integer), default 600; anything else is a configuration error naming it. */
export function rateLimitFromEnv(env: Record<string, string | undefined>): number {
  const raw = env.CREDENCE_RATE_LIMIT_PER_MINUTE?.trim();
  if (raw === undefined || raw === "") return DEFAULT_RATE_LIMIT_PER_MINUTE;
  const parsed = perMinuteSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`Invalid configuration: CREDENCE_RATE_LIMIT_PER_MINUTE must be a positive integer, got "${raw}"`);
  return parsed.data;
}

const processLimiter = processValue("__credenceRateLimiter", () => selectRateLimiter(process.env));

/**
 * The process-wide limiter, shared by all app servers when there are several: Redis when `REDIS_URL` is
 * set (lib/api/rate-limiter-redis.ts, failing over to in-process buckets while Redis is away), else the Postgres
 * server's buckets with `DATABASE_URL` (lib/api/rate-limiter-postgres.ts), else — the embedded default, one process —
 * the in-process bucket. Kept on globalThis because Next bundles each route separately: a module-level variable
 * would give every endpoint its own buckets.
 */
export function getRateLimiter(): RateLimiter {
  return processLimiter.get();
}

export function selectRateLimiter(env: Record<string, string | undefined>): RateLimiter {
  const perMinute = rateLimitFromEnv(env);
  const redisUrl = env.REDIS_URL?.trim();
  if (redisUrl) return lazyLimiter(perMinute, async () => (await import("./rate-limiter-redis")).createRedisRateLimiter(perMinute, redisUrl));
  if (env.DATABASE_URL?.trim()) {
    return lazyLimiter(perMinute, async () => {
      const [{ createPostgresRateLimiter }, { getDatabase }] = await Promise.all([import("./rate-limiter-postgres"), import("@/lib/db/database")]);
      return createPostgresRateLimiter(perMinute, async () => (await getDatabase()).sql);
    });
  }
  return createRateLimiter(perMinute);
}

/** A shared limiter loaded on first use (an embedded deployment never loads ioredis). */
function lazyLimiter(perMinute: number, load: () => Promise<RateLimiter>): RateLimiter {
  let loading: Promise<RateLimiter> | undefined;
  return {
    perMinute,
    async take(key) {
      loading ??= load();
      return (await loading).take(key);
    },
  };
}

/** Tests install a limiter with a small limit (or remove it to fall back to the environment's). */
export function setRateLimiter(limiter: RateLimiter | undefined): void {
  processLimiter.set(limiter);
}

/** The 429 every interface answers (REST and MCP share a token's budget). */
export function rateLimited(decision: Extract<RateDecision, { allowed: false }>): Response {
  const response = errorResponse(429, "rate_limited", `Too many requests: the limit is ${decision.limit} a minute per token; retry after ${decision.retryAfterSeconds} s.`, {
    limitPerMinute: decision.limit,
    retryAfterSeconds: decision.retryAfterSeconds,
  });
  response.headers.set("retry-after", String(decision.retryAfterSeconds));
  response.headers.set("ratelimit-limit", String(decision.limit));
  response.headers.set("ratelimit-remaining", "0");
  return response;
}
