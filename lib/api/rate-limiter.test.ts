import { describe, expect, it } from "vitest";
import { createRateLimiter, DEFAULT_RATE_LIMIT_PER_MINUTE, rateLimitFromEnv } from "./rate-limiter";

describe("token-bucket rate limiter", () => {
  it("allows a full minute's burst, then refuses with the seconds until the next token", () => {
    const limiter = createRateLimiter(60); // one token a second
    const t0 = 1_000_000;
    for (let i = 0; i < 60; i++) {
      const decision = limiter.take("token:a", t0);
      expect(decision.allowed).toBe(true);
      expect(decision.remaining).toBe(59 - i);
    }
    const refused = limiter.take("token:a", t0);
    expect(refused).toEqual({ allowed: false, limit: 60, remaining: 0, retryAfterSeconds: 1 });
    // Half a second later the next token is half there: still refused, still 1 s (rounded up).
    expect(limiter.take("token:a", t0 + 500)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take("token:a", t0 + 1_000).allowed).toBe(true);
    expect(limiter.take("token:a", t0 + 1_000).allowed).toBe(false);
  });

  it("Retry-After = ⌈(1 − tokens)/rate⌉ s: 6 per minute refills one token every 10 s", () => {
    const limiter = createRateLimiter(6);
    for (let i = 0; i < 6; i++) expect(limiter.take("k", 0).allowed).toBe(true);
    expect(limiter.take("k", 0)).toMatchObject({ allowed: false, retryAfterSeconds: 10 });
    expect(limiter.take("k", 2_500)).toMatchObject({ allowed: false, retryAfterSeconds: 8 });
    expect(limiter.take("k", 10_000).allowed).toBe(true);
  });

  it("keeps one bucket per key: another token is unaffected", () => {
    const limiter = createRateLimiter(2);
    expect(limiter.take("token:a", 0).allowed).toBe(true);
    expect(limiter.take("token:a", 0).allowed).toBe(true);
    expect(limiter.take("token:a", 0).allowed).toBe(false);
    expect(limiter.take("token:b", 0).allowed).toBe(true);
    expect(limiter.take("user:c", 0).allowed).toBe(true);
  });

  it("never refills beyond capacity, and a clock stepping back refills nothing", () => {
    const limiter = createRateLimiter(3);
    for (let i = 0; i < 3; i++) limiter.take("k", 0);
    // An hour idle refills to 3, not 180.
    for (let i = 0; i < 3; i++) expect(limiter.take("k", 3_600_000).allowed).toBe(true);
    expect(limiter.take("k", 3_600_000).allowed).toBe(false);
    expect(limiter.take("k", 0).allowed).toBe(false);
  });

  it("sweeps only refilled buckets once the key map is at its bound: a drained key keeps its state", () => {
    const limiter = createRateLimiter(2, { maxKeys: 3 }); // one token every 30 s
    limiter.take("a", 0);
    limiter.take("b", 0);
    limiter.take("busy", 30_000);
    limiter.take("busy", 30_000);
    // At 40 s a and b are full again (swept when "c" arrives); busy holds 1/3 of a token and must still refuse.
    expect(limiter.take("c", 40_000).allowed).toBe(true);
    expect(limiter.take("busy", 40_000)).toMatchObject({ allowed: false, retryAfterSeconds: 20 });
  });

  it("reads CREDENCE_RATE_LIMIT_PER_MINUTE: default 600, a positive integer, else an error naming it", () => {
    expect(DEFAULT_RATE_LIMIT_PER_MINUTE).toBeGreaterThanOrEqual(600);
    expect(rateLimitFromEnv({})).toBe(600);
    expect(rateLimitFromEnv({ CREDENCE_RATE_LIMIT_PER_MINUTE: " " })).toBe(600);
    expect(rateLimitFromEnv({ CREDENCE_RATE_LIMIT_PER_MINUTE: "1200" })).toBe(1200);
    for (const bad of ["0", "-5", "1.5", "lots"]) {
      expect(() => rateLimitFromEnv({ CREDENCE_RATE_LIMIT_PER_MINUTE: bad })).toThrow(/CREDENCE_RATE_LIMIT_PER_MINUTE/);
    }
    expect(() => createRateLimiter(0)).toThrow();
  });
});
