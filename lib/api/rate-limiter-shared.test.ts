/**
 * Rate limits shared by several app servers: two limiter instances stand for two servers. On Postgres
 * (a throwaway database) and on Redis (a redis-server of the test's own, on a free port) the limit holds across both,
 * even for concurrent requests; when Redis stops, each process fails over to its in-process bucket (documented: open
 * by at most a factor of the number of servers, never closed, never hanging) and goes back to Redis once it returns.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/database";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/lib/db/testing/postgres";
import { freePort } from "@/lib/testing/app-server";
import { createPostgresRateLimiter } from "./rate-limiter-postgres";
import { createRedisRateLimiter, type RedisRateLimiter } from "./rate-limiter-redis";
import { createRateLimiter, selectRateLimiter, type RateDecision, type RateLimiter } from "./rate-limiter";

const allowedOf = (decisions: RateDecision[]) => decisions.filter((d) => d.allowed).length;

async function burst(limiters: RateLimiter[], key: string, n: number): Promise<RateDecision[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => Promise.resolve((limiters[i % limiters.length] as RateLimiter).take(key))));
}

describe("selection", () => {
  it("Redis with REDIS_URL, Postgres with DATABASE_URL, in-process for the embedded default", () => {
    expect(selectRateLimiter({}).take("k")).toMatchObject({ allowed: true });
    expect(selectRateLimiter({ DATABASE_URL: "postgres://x", CREDENCE_RATE_LIMIT_PER_MINUTE: "9" }).perMinute).toBe(9);
    const viaRedis = selectRateLimiter({ REDIS_URL: "redis://127.0.0.1:1", CREDENCE_RATE_LIMIT_PER_MINUTE: "7" });
    expect(viaRedis.perMinute).toBe(7);
  });
});

describe("Postgres buckets shared by two servers", () => {
  let throwaway: ThrowawayDatabase;
  let db: Database;
  beforeAll(async () => {
    throwaway = await createThrowawayDatabase();
    db = await openDatabase({ databaseUrl: throwaway.url });
  });
  afterAll(async () => {
    await db?.close();
    await throwaway?.drop();
  });

  it("the limit holds across both, for concurrent requests too; the refusal says when to retry", async () => {
    const servers = [createPostgresRateLimiter(5, async () => db.sql), createPostgresRateLimiter(5, async () => db.sql)];
    const decisions = await burst(servers, `token:${randomBytes(4).toString("hex")}`, 20);
    expect(allowedOf(decisions)).toBe(5);
    const refused = decisions.find((d) => !d.allowed);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(12);
    // Another key has its own bucket.
    expect(allowedOf(await burst(servers, `token:${randomBytes(4).toString("hex")}`, 3))).toBe(3);
  });

  it("refills at limit per minute (the database's clock)", async () => {
    const key = `token:${randomBytes(4).toString("hex")}`;
    const server = createPostgresRateLimiter(60, async () => db.sql);
    expect(allowedOf(await burst([server], key, 61))).toBe(60);
    // Age the bucket by 2 s: 2 tokens come back (60 a minute).
    await db.sql.query(`UPDATE "api_rate_buckets" SET "updated_at" = "updated_at" - interval '2 seconds' WHERE "key" = $1`, [key]);
    expect(allowedOf(await burst([server], key, 3))).toBe(2);
  });
});

describe("Redis shared by two servers, and Redis stopping", () => {
  let redis: ChildProcess | undefined;
  let port: number;
  let servers: RedisRateLimiter[] = [];
  const prefix = `credence-test-${randomBytes(3).toString("hex")}`;

  const startRedis = async () => {
    if (!existsSync("/usr/bin/redis-server")) throw new Error("redis-server is missing (apt-get install redis-server): the shared limiter test needs its own Redis.");
    redis = spawn("/usr/bin/redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    await until(() => servers.every((s) => s.connected()) || servers.length === 0, 20_000);
  };
  const stopRedis = async () => {
    const child = redis;
    if (!child) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
    redis = undefined;
  };

  beforeAll(async () => {
    port = await freePort();
    await startRedis();
    servers = [createRedisRateLimiter(5, `redis://127.0.0.1:${port}`, { keyPrefix: prefix }), createRedisRateLimiter(5, `redis://127.0.0.1:${port}`, { keyPrefix: prefix })];
    await until(() => servers.every((s) => s.connected()), 20_000);
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await stopRedis();
  });

  it("the limit holds across both servers for concurrent requests", async () => {
    const decisions = await burst(servers, `token:${randomBytes(4).toString("hex")}`, 20);
    expect(allowedOf(decisions)).toBe(5);
    const refused = decisions.find((d) => !d.allowed) as { retryAfterSeconds: number };
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it("Redis stops: each server fails over to its own bucket (at most servers × limit), and nothing hangs or fails", async () => {
    await stopRedis();
    await until(() => servers.every((s) => !s.connected()), 10_000);
    const decisions = await burst(servers, `token:${randomBytes(4).toString("hex")}`, 30);
    expect(allowedOf(decisions)).toBe(10);
    const single = createRateLimiter(5);
    expect(allowedOf(Array.from({ length: 6 }, () => single.take("same")))).toBe(5);
  });

  it("Redis comes back: the servers share its buckets again without a restart", async () => {
    await startRedis();
    await until(() => servers.every((s) => s.connected()), 20_000);
    const decisions = await burst(servers, `token:${randomBytes(4).toString("hex")}`, 20);
    expect(allowedOf(decisions)).toBe(5);
  });
});

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
