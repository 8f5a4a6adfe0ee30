/**
 * The token bucket of `createRateLimiter`, kept in Postgres so every app server on the database spends from one
 * bucket per key: capacity = perMinute, refilled at perMinute / 60 s, computed with the database's clock in
 * one atomic `INSERT … ON CONFLICT DO UPDATE` (the row lock serialises concurrent requests for a key).
 *   tokens' = min(cap, tokens + elapsed·rate); allowed = tokens' ≥ 1; stored = allowed ? tokens' − 1 : tokens'.
 * Retry-After = ⌈(1 − tokens') / rate⌉ s (≥ 1). A database that is down fails the request (503), as every other query would.
 */
import { z } from "zod";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import type { RateDecision, RateLimiter } from "./rate-limit-port";

const SPEND = `
INSERT INTO "api_rate_buckets" AS b ("key", "tokens", "allowed", "updated_at")
VALUES ($1, $2::float8 - 1, true, now())
ON CONFLICT ("key") DO UPDATE SET
  "allowed" = LEAST($2::float8, b."tokens" + GREATEST(0, extract(epoch FROM now() - b."updated_at")) * $2::float8 / 60.0) >= 1,
  "tokens" = CASE
    WHEN LEAST($2::float8, b."tokens" + GREATEST(0, extract(epoch FROM now() - b."updated_at")) * $2::float8 / 60.0) >= 1
    THEN LEAST($2::float8, b."tokens" + GREATEST(0, extract(epoch FROM now() - b."updated_at")) * $2::float8 / 60.0) - 1
    ELSE LEAST($2::float8, b."tokens" + GREATEST(0, extract(epoch FROM now() - b."updated_at")) * $2::float8 / 60.0)
  END,
  "updated_at" = GREATEST(b."updated_at", now())
RETURNING "tokens", "allowed"`;

const rowSchema = z.object({ tokens: z.coerce.number(), allowed: z.boolean() });

export function createPostgresRateLimiter(perMinute: number, sql: () => Promise<SqlExecutor>): RateLimiter {
  const limit = z.number().int().positive().parse(perMinute);
  const perSecond = limit / 60;
  let purgedAt = 0;
  return {
    perMinute: limit,
    async take(key): Promise<RateDecision> {
      const executor = await sql();
      const row = rowSchema.parse((await executor.query(SPEND, [key, limit]))[0]);
      if (Date.now() - purgedAt > 3_600_000) {
        purgedAt = Date.now();
        void executor.query(`DELETE FROM "api_rate_buckets" WHERE "updated_at" < now() - interval '1 day'`).catch(() => {});
      }
      if (row.allowed) return { allowed: true, limit, remaining: Math.floor(row.tokens) };
      return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((1 - row.tokens) / perSecond)) };
    },
  };
}
