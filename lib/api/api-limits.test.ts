/**
 * Rate limits and Idempotency-Key through the route handlers on embedded PGlite: 429 with Retry-After per token,
 * replayed writes (status and body byte for byte, no second write), 409 for a different request under a used key,
 * concurrent duplicates, expiry, and keys scoped per principal.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { createToken } from "@/lib/identity/tokens";
import { purgeExpiredIdempotencyKeys } from "./idempotency";
import { createRateLimiter, setRateLimiter } from "./rate-limiter";
import { json, openApiHarness, type ApiHarness } from "./testing/api-harness";
import * as assimilateRoute from "@/app/api/v1/scopes/[scope]/assimilate/route";
import * as beliefsRoute from "@/app/api/v1/scopes/[scope]/beliefs/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as mutationsRoute from "@/app/api/v1/scopes/[scope]/mutations/route";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

const errorOf = async (response: Response) => (await json(response)).error as { code: string; message: string; details: Record<string, unknown> };

describe("rate limits and idempotency (route handlers, embedded PGlite)", () => {
  let h: ApiHarness;
  let home: string;
  const suffix = randomBytes(3).toString("hex");

  beforeAll(async () => {
    h = await openApiHarness(`lim${suffix}`);
    home = h.scopes.home;
  });
  afterAll(async () => {
    setRateLimiter(undefined);
    await h?.close();
  });
  afterEach(() => setRateLimiter(undefined));

  const list = (token: string) => h.call(beliefsRoute.GET, "GET", `/scopes/${home}/beliefs`, { scope: home }, { token });
  const evidence = (token: string, body: unknown, key?: string) =>
    h.call(evidenceRoute.POST, "POST", `/scopes/${home}/evidence`, { scope: home }, { token, body, ...(key ? { headers: { "idempotency-key": key } } : {}) });
  const evidenceRows = async () => Number((await h.db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM "graph_evidence"`))[0]?.n);

  it("429 with Retry-After and the documented error once a token's bucket is empty; other tokens are unaffected", async () => {
    setRateLimiter(createRateLimiter(3));
    for (let i = 0; i < 3; i++) {
      const ok = await list(h.tokens.viewer);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit-limit")).toBe("3");
      expect(ok.headers.get("ratelimit-remaining")).toBe(String(2 - i));
    }
    const limited = await list(h.tokens.viewer);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20);
    const error = await errorOf(limited);
    expect(error.code).toBe("rate_limited");
    expect(error.details).toMatchObject({ limitPerMinute: 3, retryAfterSeconds: retryAfter });
    // Writes count too, and are refused before anything is read or written.
    const before = await h.counts();
    const write = await evidence(h.tokens.viewer, { kind: "document", text: "Limited." });
    expect(write.status).toBe(429);
    expect(await h.counts()).toEqual(before);
    expect((await list(h.tokens.editor)).status).toBe(200);
  });

  it("a second token of the same user has its own bucket; an unauthenticated request is a 401, not a 429", async () => {
    setRateLimiter(createRateLimiter(1));
    const second = (await createToken(h.db, h.userIds.viewer, { name: `second ${suffix}` })).token;
    expect((await list(h.tokens.viewer)).status).toBe(200);
    expect((await list(h.tokens.viewer)).status).toBe(429);
    expect((await list(second)).status).toBe(200);
    const anonymous = await h.call(beliefsRoute.GET, "GET", `/scopes/${home}/beliefs`, { scope: home });
    expect(anonymous.status).toBe(401);
  });

  it("same key + same body → the same status and body, one write; the replay is marked", async () => {
    const key = `k-${randomBytes(6).toString("hex")}`;
    const body = { kind: "document", text: `Runbook ${suffix}: deploys go out from the release branch.` };
    const rows = await evidenceRows();
    const first = await evidence(h.tokens.editor, body, key);
    const firstText = await first.text();
    expect(first.status).toBe(201);
    const again = await evidence(h.tokens.editor, body, key);
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(firstText);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(await evidenceRows()).toBe(rows + 1);
    // Without a key the same body is a new write.
    expect((await evidence(h.tokens.editor, body)).status).toBe(201);
    expect(await evidenceRows()).toBe(rows + 2);
  });

  it("same key + a different body (or another endpoint) → 409 idempotency_conflict, nothing written", async () => {
    const key = `k-${randomBytes(6).toString("hex")}`;
    expect((await evidence(h.tokens.editor, { kind: "document", text: "First memo." }, key)).status).toBe(201);
    const before = await h.counts();
    const changed = await evidence(h.tokens.editor, { kind: "document", text: "Second memo." }, key);
    expect(changed.status).toBe(409);
    const error = await errorOf(changed);
    expect(error.code).toBe("idempotency_conflict");
    expect(error.details).toEqual({ idempotencyKey: key });
    const elsewhere = await h.call(assimilateRoute.POST, "POST", `/scopes/${home}/assimilate`, { scope: home }, {
      token: h.tokens.editor,
      body: { claim: "Idempotency keys are per request.", evidence: [{ tier: "observation" }] },
      headers: { "idempotency-key": key },
    });
    expect(elsewhere.status).toBe(409);
    expect(await h.counts()).toEqual(before);
  });

  it("concurrent requests with one key: exactly one write, every caller gets the same status and body", async () => {
    const key = `k-${randomBytes(6).toString("hex")}`;
    const body = { claim: `Concurrent retries ${suffix} write once.`, evidence: [{ tier: "observation" }] };
    const before = await h.counts();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.call(assimilateRoute.POST, "POST", `/scopes/${home}/assimilate`, { scope: home }, { token: h.tokens.editor, body, headers: { "idempotency-key": key } }),
      ),
    );
    const texts = await Promise.all(responses.map((r) => r.text()));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(texts).size).toBe(1);
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(7);
    const after = await h.counts();
    expect(after.graph_beliefs).toBe((before.graph_beliefs ?? 0) + 1);
    expect(after.graph_change_sets).toBe((before.graph_change_sets ?? 0) + 1);
  });

  it("errors are replayed too (a 422 stays a 422); malformed JSON never claims the key", async () => {
    const key = `k-${randomBytes(6).toString("hex")}`;
    const malformed = await h.call(evidenceRoute.POST, "POST", `/scopes/${home}/evidence`, { scope: home }, { token: h.tokens.editor, raw: "{nope", headers: { "idempotency-key": key } });
    expect(malformed.status).toBe(400);
    const bad = await evidence(h.tokens.editor, { kind: "rumour", text: "x" }, key);
    expect(bad.status).toBe(422);
    const badText = await bad.text();
    const replay = await evidence(h.tokens.editor, { kind: "rumour", text: "x" }, key);
    expect(replay.status).toBe(422);
    expect(await replay.text()).toBe(badText);
  });

  it("keys are scoped per principal: another caller's identical key and body is its own request", async () => {
    const key = `k-${randomBytes(6).toString("hex")}`;
    const body = { kind: "observation", text: `Shared key ${suffix}.` };
    const rows = await evidenceRows();
    const a = await json(await evidence(h.tokens.editor, body, key));
    const b = await json(await evidence(h.tokens.owner, body, key));
    expect((a.evidence as { id: string }).id).not.toBe((b.evidence as { id: string }).id);
    expect(await evidenceRows()).toBe(rows + 2);
  });

  it("a key expires after 24 h: then it is free again (a new write), and purging removes expired rows", async () => {
    const key = `k-${randomBytes(6).toString("hex")}`;
    const body = { kind: "observation", text: `Expiring ${suffix}.` };
    const first = await json(await evidence(h.tokens.editor, body, key));
    const [row] = await h.db.sql.query<{ hours: number }>(
      `SELECT round(extract(epoch FROM "expires_at" - "created_at") / 3600)::int AS hours FROM "api_idempotency_keys" WHERE "key" = $1`,
      [key],
    );
    expect(row?.hours).toBe(24);
    await h.db.sql.query(`UPDATE "api_idempotency_keys" SET "expires_at" = now() - interval '1 second' WHERE "key" = $1`, [key]);
    const second = await json(await evidence(h.tokens.editor, body, key));
    expect((second.evidence as { id: string }).id).not.toBe((first.evidence as { id: string }).id);
    await h.db.sql.query(`UPDATE "api_idempotency_keys" SET "expires_at" = now() - interval '1 second' WHERE "key" = $1`, [key]);
    expect(await purgeExpiredIdempotencyKeys(h.db.sql)).toBeGreaterThanOrEqual(1);
    expect(await h.db.sql.query(`SELECT 1 FROM "api_idempotency_keys" WHERE "key" = $1`, [key])).toEqual([]);
  });

  it("a mutation under a key is journaled once; a bad key header is a 422 naming the header", async () => {
    const badKey = await evidence(h.tokens.editor, { kind: "document", text: "x" }, "has space");
    expect(badKey.status).toBe(422);
    const error = await errorOf(badKey);
    expect(error.details).toEqual({ fields: [{ field: "header.Idempotency-Key", message: expect.any(String) }] });
    const tooLong = await evidence(h.tokens.editor, { kind: "document", text: "x" }, "k".repeat(256));
    expect(tooLong.status).toBe(422);
    // A mutation with a key: the replay answers 201 with the same mutation id, and the journal holds one entry.
    const key = `k-${randomBytes(6).toString("hex")}`;
    const ev = await json(await evidence(h.tokens.editor, { kind: "observation", text: `Pager log ${suffix}.` }));
    const evId = (ev.evidence as { id: string }).id;
    const mutation = { belief: `The pager rotation ${suffix} changes every Monday.`, strength: 0.6, reason: `see ${evId}`, sourceEvent: evId, mutationType: "new" };
    const send = () => h.call(mutationsRoute.POST, "POST", `/scopes/${home}/mutations`, { scope: home }, { token: h.tokens.editor, body: mutation, headers: { "idempotency-key": key } });
    const first = await send();
    const firstText = await first.text();
    expect(first.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(firstText);
    const journal = await json(await h.call(mutationsRoute.GET, "GET", `/scopes/${home}/mutations`, { scope: home }, { token: h.tokens.editor }));
    expect((journal.mutations as { belief: string }[]).filter((m) => m.belief === mutation.belief)).toHaveLength(1);
  });
});
