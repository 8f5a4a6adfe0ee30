/**
 * Faults and hostile input through the REST route handlers: an answer that says "not now" is never kept under an
 * Idempotency-Key; a write signed in by cookie must be same-origin JSON; every query parameter is checked against its
 * operation; a full connection pool is `busy`, not an outage; concurrent migrations wait instead of timing out.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "@/lib/db/database";
import { migrate } from "@/lib/db/migrate";
import { serverBackend, type TestBackend } from "@/lib/db/testing/test-backends";
import { createThrowawayDatabase } from "@/lib/db/testing/postgres";
import { json, openApiHarness, type ApiHarness, type Handler } from "./testing/api-harness";
import * as assimilateRoute from "@/app/api/v1/scopes/[scope]/assimilate/route";
import * as beliefsRoute from "@/app/api/v1/scopes/[scope]/beliefs/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as graphRoute from "@/app/api/v1/scopes/[scope]/graph/route";
import * as mutationsRoute from "@/app/api/v1/scopes/[scope]/mutations/route";
import * as recallRoute from "@/app/api/v1/scopes/[scope]/recall/route";
import * as scopesRoute from "@/app/api/v1/scopes/route";
import * as unfreezeRoute from "@/app/api/v1/scopes/[scope]/topics/[topic]/unfreeze/route";

// The browser session, as next-auth would resolve it from a cookie: a user id, or none.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("@/lib/auth/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));

type ErrorBody = { error: { code: string; message: string; details: { fields?: { field: string; message: string }[] } & Record<string, unknown> } };

describe("REST hardening (route handlers, embedded database)", () => {
  let h: ApiHarness;
  let home: string;
  const suffix = randomBytes(3).toString("hex");

  beforeAll(async () => {
    h = await openApiHarness(`hard${suffix}`);
    home = h.scopes.home;
  });
  afterAll(async () => {
    session.userId = null;
    await h?.close();
  });

  const post = (handler: Handler, path: string, params: Record<string, string>, token: string, body: unknown, headers: Record<string, string> = {}) =>
    h.call(handler, "POST", path, params, { token, body, headers });
  const errorOf = async (response: Response) => ((await json(response)) as ErrorBody).error;

  it("a 409 under an Idempotency-Key is not kept: once the frozen topic is lifted, the same keyed retry is written", async () => {
    const register = async (kind: string, text: string) =>
      ((await json(await post(evidenceRoute.POST, `/scopes/${home}/evidence`, { scope: home }, h.tokens.editor, { kind, text, assess: false }))).evidence as { id: string }).id;
    const docs: string[] = [];
    for (let i = 0; i < 6; i++) docs.push(await register("document", `Runbook ${suffix}, page ${i + 1}: the nightly report is mailed at six.`));
    const six = await post(assimilateRoute.POST, `/scopes/${home}/assimilate`, { scope: home }, h.tokens.editor, {
      claim: "The nightly report is mailed at six.",
      topic: "nightly report",
      evidence: docs.map((sourceId) => ({ sourceId, tier: "document" })),
    });
    const sixId = ((await json(six)).belief as { id: string }).id;
    const check = await register("executable_check", "Mail log check: the nightly report left the queue at 07:00 every day this month.");
    await post(assimilateRoute.POST, `/scopes/${home}/assimilate`, { scope: home }, h.tokens.editor, { beliefId: sixId, evidence: [{ sourceId: check, tier: "executable_check", relation: "REBUTS", weight: 0.8 }] });
    const propose = (belief: string, source: string, topic?: string, headers: Record<string, string> = {}) =>
      post(
        mutationsRoute.POST,
        `/scopes/${home}/mutations`,
        { scope: home },
        h.tokens.editor,
        { ...(topic ? { topic } : {}), belief, strength: 0.7, reason: `See ${source}.`, evidenceIds: [source], sourceEvent: source, mutationType: "superseded" },
        headers,
      );
    expect((await propose("The nightly report is mailed at seven.", check)).status).toBe(201);
    const stop = await propose("The nightly report is mailed at six.", docs[0] as string);
    expect(stop.status).toBe(409);
    const topic = ((await errorOf(stop)).details as { topic: string }).topic;

    const key = randomUUID();
    const frozen = await propose("The nightly report is mailed at half past six.", check, topic, { "idempotency-key": key });
    expect(frozen.status).toBe(409);
    expect((await errorOf(frozen)).code).toBe("topic_frozen");
    // Still frozen: the retry runs again (no replay header) and meets the same state.
    const again = await propose("The nightly report is mailed at half past six.", check, topic, { "idempotency-key": key });
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBeNull();

    const lifted = await h.call(unfreezeRoute.POST, "POST", `/scopes/${home}/topics/${encodeURIComponent(topic)}/unfreeze`, { scope: home, topic }, { token: h.tokens.owner, body: { note: "Mail log settles it." } });
    expect(lifted.status).toBe(200);
    const done = await propose("The nightly report is mailed at half past six.", check, topic, { "idempotency-key": key });
    expect(done.status).toBe(201);
    // From now on the key holds that final answer.
    const replay = await propose("The nightly report is mailed at half past six.", check, topic, { "idempotency-key": key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.text()).toBe(await done.text());
  });

  describe("writes signed in by the session cookie", () => {
    const evidence = (headers: Record<string, string>, raw?: string) => {
      const url = new URL(`http://localhost/api/v1/scopes/${home}/evidence`);
      const body = raw ?? JSON.stringify({ kind: "observation", text: `A cookie write ${randomUUID()}.`, assess: false });
      return evidenceRoute.POST(new Request(url, { method: "POST", headers: { host: "localhost", ...headers }, body }), { params: Promise.resolve({ scope: home }) });
    };
    beforeAll(() => {
      session.userId = h.userIds.editor;
    });
    afterAll(() => {
      session.userId = null;
    });

    it("are refused from another origin (another port of the same host included), or with no origin at all", async () => {
      const before = await h.counts();
      for (const origin of ["https://evil.example", "http://localhost:8080", "null"]) {
        const response = await evidence({ origin, "content-type": "application/json" });
        expect(response.status).toBe(403);
        expect((await errorOf(response)).code).toBe("forbidden");
      }
      expect((await evidence({ "content-type": "application/json" })).status).toBe(403);
      expect((await evidence({ "sec-fetch-site": "cross-site", "content-type": "application/json" })).status).toBe(403);
      expect(await h.counts()).toEqual(before);
    });

    it("are refused as form or text bodies even from the same origin", async () => {
      const before = await h.counts();
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
        const response = await evidence({ origin: "http://localhost", "content-type": type });
        expect(response.status).toBe(415);
        expect((await errorOf(response)).code).toBe("unsupported_media_type");
      }
      expect(await h.counts()).toEqual(before);
    });

    it("land from the same origin as JSON (Origin, or Sec-Fetch-Site: same-origin); reads need neither", async () => {
      expect((await evidence({ origin: "http://localhost", "content-type": "application/json" })).status).toBe(201);
      expect((await evidence({ "sec-fetch-site": "same-origin", "content-type": "application/json; charset=utf-8" })).status).toBe(201);
      const read = await scopesRoute.GET(new Request("http://localhost/api/v1/scopes", { headers: { origin: "https://evil.example" } }), { params: Promise.resolve({}) });
      expect(read.status).toBe(200);
    });

    it("a bearer token's writes are unaffected by Origin and content type", async () => {
      const url = new URL(`http://localhost/api/v1/scopes/${home}/evidence`);
      const response = await evidenceRoute.POST(
        new Request(url, {
          method: "POST",
          headers: { authorization: `Bearer ${h.tokens.editor}`, origin: "https://agent.example", "content-type": "text/plain" },
          body: JSON.stringify({ kind: "observation", text: "A token write from a tool.", assess: false }),
        }),
        { params: Promise.resolve({ scope: home }) },
      );
      expect(response.status).toBe(201);
    });
  });

  describe("every query parameter is checked (422 naming it)", () => {
    const get = (handler: Handler, path: string, query: Record<string, string>) => h.call(handler, "GET", `/scopes/${home}${path}`, { scope: home }, { token: h.tokens.viewer, query });
    const fieldsOf = async (response: Response) => {
      expect(response.status).toBe(422);
      const error = await errorOf(response);
      expect(error.code).toBe("invalid");
      return (error.details.fields ?? []).map((f) => f.field);
    };

    it("a number that is not one: k=abc, minCredence=NaN, Infinity", async () => {
      expect(await fieldsOf(await get(beliefsRoute.GET, "/beliefs", { k: "abc" }))).toEqual(["k"]);
      expect(await fieldsOf(await get(beliefsRoute.GET, "/beliefs", { q: "report", minCredence: "NaN" }))).toEqual(["minCredence"]);
      expect(await fieldsOf(await get(recallRoute.GET, "/recall", { q: "report", k: "abc" }))).toEqual(["k"]);
      expect(await fieldsOf(await get(graphRoute.GET, "/graph", { minCredence: "NaN" }))).toEqual(["minCredence"]);
      expect(await fieldsOf(await get(graphRoute.GET, "/graph", { maxTension: "Infinity" }))).toEqual(["maxTension"]);
      expect(await fieldsOf(await get(beliefsRoute.GET, "/beliefs", { limit: "-5" }))).toEqual(["limit"]);
      expect(await fieldsOf(await get(beliefsRoute.GET, "/beliefs", { liveOnly: "maybe" }))).toEqual(["liveOnly"]);
    });

    it("a parameter the operation does not take, with the names it does", async () => {
      const response = await get(recallRoute.GET, "/recall", { q: "report", query: "report" });
      expect(response.status).toBe(422);
      const field = (await errorOf(response)).details.fields?.[0];
      expect(field?.field).toBe("query");
      expect(field?.message).toMatch(/unknown query parameter; this operation takes q, k/);
      expect(await fieldsOf(await h.call(scopesRoute.GET, "GET", "/scopes", {}, { token: h.tokens.viewer, query: { page: "2" } }))).toEqual(["page"]);
    });

    it("valid parameters still answer 200", async () => {
      expect((await get(beliefsRoute.GET, "/beliefs", { limit: "5", liveOnly: "false" })).status).toBe(200);
      expect((await get(beliefsRoute.GET, "/beliefs", { q: "report", k: "3", minCredence: "0.1" })).status).toBe(200);
      expect((await get(graphRoute.GET, "/graph", { minCredence: "0.2", status: "supported,canonical" })).status).toBe(200);
    });
  });
});

describe("a full connection pool (Postgres server)", () => {
  let h: ApiHarness;
  let db: Database;
  const suffix = randomBytes(3).toString("hex");

  beforeAll(async () => {
    // One connection, a short wait for it: a held connection fills the pool.
    const backend: TestBackend = {
      name: "server",
      async create() {
        const location = await serverBackend.create();
        const config = { ...location.config, maxConnections: 1, timeouts: { connectMs: 400, statementMs: 10_000, queryMs: 15_000 } };
        return { ...location, config, open: (extra) => openDatabase({ ...config, ...extra }) };
      },
    };
    h = await openApiHarness(`pool${suffix}`, { backend });
    db = h.db;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("answers 503 busy with Retry-After while every connection is in use, and 200 once one is free", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding: () => void = () => {};
    const started = new Promise<void>((resolve) => (holding = resolve));
    const holder = db.sql.transaction(async (tx) => {
      await tx.query("SELECT 1");
      holding();
      await held;
    });
    await started;
    const list = () => h.call(beliefsRoute.GET, "GET", `/scopes/${h.scopes.home}/beliefs`, { scope: h.scopes.home }, { token: h.tokens.viewer });
    const busy = await list();
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("1");
    const body = (await json(busy)) as ErrorBody;
    expect(body.error.code).toBe("busy");
    expect(body.error.message).not.toMatch(/unreachable/);
    release();
    await holder;
    expect((await list()).status).toBe(200);
  });
});

describe("concurrent migrations wait for each other instead of timing out", () => {
  it("a migrator waiting longer than statement_timeout for the lock still migrates", async () => {
    const throwaway = await createThrowawayDatabase();
    const holder = new pg.Client({ connectionString: throwaway.url });
    const waiter = new pg.Pool({ connectionString: throwaway.url, max: 2, statement_timeout: 300, query_timeout: 600 });
    try {
      await holder.connect();
      // What a concurrent migrator holds while it applies its files.
      await holder.query("SELECT pg_advisory_lock(7262001)");
      const migrating = migrate(waiter);
      let settled = false;
      void migrating.finally(() => (settled = true)).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(settled).toBe(false);
      await holder.query("SELECT pg_advisory_unlock(7262001)");
      expect((await migrating).length).toBeGreaterThan(0);
      expect(await migrate(waiter)).toEqual([]);
    } finally {
      await holder.end().catch(() => {});
      await waiter.end().catch(() => {});
      await throwaway.drop();
    }
  }, 60_000);
});
