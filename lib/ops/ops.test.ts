/**
 * Operations endpoints through their route handlers on embedded PGlite: liveness, readiness (database,
 * graph store, embedding model; degraded without a model; 503 while draining), Prometheus metrics (per-route request
 * counts and latency, errors by code, store latency; the optional bearer token), request ids echoed in headers and
 * error bodies and carried into the logs.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { setEmbedder } from "@/lib/embed/select-embedder";
import { json, openApiHarness, type ApiHarness } from "@/lib/api/testing/api-harness";
import * as beliefsRoute from "@/app/api/v1/scopes/[scope]/beliefs/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as liveRoute from "@/app/api/health/live/route";
import * as readyRoute from "@/app/api/health/ready/route";
import * as metricsRoute from "@/app/api/metrics/route";
import { markDraining } from "./lifecycle";
import { createLogger } from "./logger";
import { routePattern, runWithRequestContext } from "./request-context";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

describe("operations endpoints (embedded PGlite)", () => {
  let h: ApiHarness;
  let home: string;

  beforeAll(async () => {
    h = await openApiHarness(`ops${randomBytes(3).toString("hex")}`);
    home = h.scopes.home;
  });
  afterAll(async () => {
    markDraining(false);
    setEmbedder(undefined);
    delete process.env.CREDENCE_METRICS_TOKEN;
    await h?.close();
  });

  const metricsText = async (headers: Record<string, string> = {}) => metricsRoute.GET(new Request("http://localhost/api/metrics", { headers }));

  it("live answers 200 without touching any dependency", async () => {
    const response = liveRoute.GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "live" });
  });

  it("ready checks the database and the graph store; no embedding model is degraded (still 200)", async () => {
    setEmbedder(null);
    const response = await readyRoute.GET();
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; checks: Record<string, { status: string; detail?: string }> };
    expect(body.status).toBe("degraded");
    expect(body.checks.database?.status).toBe("ok");
    expect(body.checks.graphStore).toMatchObject({ status: "ok", detail: "sql" });
    expect(body.checks.embedder).toMatchObject({ status: "degraded", detail: expect.stringMatching(/lexical fallback/) });
  });

  it("a draining server is not ready (503), so the load balancer stops sending", async () => {
    markDraining();
    try {
      const response = await readyRoute.GET();
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: "not_ready", draining: true });
    } finally {
      markDraining(false);
    }
  });

  it("echoes the caller's X-Request-Id in the header (5xx bodies carry it too: lib/db/database-outage.test.ts); makes one when absent", async () => {
    const id = `req-${randomBytes(4).toString("hex")}`;
    const missing = await h.call(beliefsRoute.GET, "GET", `/scopes/nope-${id}/beliefs`, { scope: `nope-${id}` }, { token: h.tokens.editor, headers: { "x-request-id": id } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-request-id")).toBe(id);
    expect((await json(missing)).error).not.toHaveProperty("requestId");
    const fresh = await h.call(beliefsRoute.GET, "GET", `/scopes/${home}/beliefs`, { scope: home }, { token: h.tokens.editor, headers: { "x-request-id": "bad id with spaces" } });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("metrics: requests per route pattern and status, latency histograms, errors by code, store latency", async () => {
    await h.call(beliefsRoute.GET, "GET", `/scopes/${home}/beliefs`, { scope: home }, { token: h.tokens.editor });
    await h.call(evidenceRoute.POST, "POST", `/scopes/${home}/evidence`, { scope: home }, { token: h.tokens.editor, body: { kind: "document", text: "Metrics memo." } });
    await h.call(evidenceRoute.POST, "POST", `/scopes/${home}/evidence`, { scope: home }, { token: h.tokens.editor, body: { kind: "nonsense" } });
    const response = await metricsText();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/credence_http_requests_total\{route="\/api\/v1\/scopes\/\[scope\]\/beliefs",method="GET",status="200"\} [1-9]/);
    expect(text).toMatch(/credence_http_requests_total\{route="\/api\/v1\/scopes\/\[scope\]\/evidence",method="POST",status="201"\} [1-9]/);
    expect(text).toMatch(/credence_http_request_duration_seconds_bucket\{le="[0-9.]+",route="\/api\/v1\/scopes\/\[scope\]\/evidence",method="POST"\}/);
    expect(text).toMatch(/credence_api_errors_total\{code="invalid"\} [1-9]/);
    expect(text).toMatch(/credence_api_errors_total\{code="not_found"\} [1-9]/);
    expect(text).toMatch(/credence_store_operation_duration_seconds_count\{operation="apply",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/credence_write_contention\{kind="retries"\}/);
    expect(text).toMatch(/credence_write_contention\{kind="serialised"\} \d+/);
    expect(text).not.toContain(home);
  });

  it("metrics require the bearer token when CREDENCE_METRICS_TOKEN is set", async () => {
    process.env.CREDENCE_METRICS_TOKEN = "s3cret-metrics";
    try {
      const none = await metricsText();
      expect(none.status).toBe(401);
      expect(((await none.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
      expect((await metricsText({ authorization: "Bearer wrong" })).status).toBe(401);
      expect((await metricsText({ authorization: "Bearer s3cret-metrics" })).status).toBe(200);
    } finally {
      delete process.env.CREDENCE_METRICS_TOKEN;
    }
  });
});

describe("logs", () => {
  it("are JSON lines carrying the request id of the request they were written in", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
        done();
      },
    });
    const logger = createLogger(sink);
    await runWithRequestContext({ requestId: "log-req-1", route: "/x" }, async () => {
      await Promise.resolve();
      logger.info({ step: "inside" }, "service did a thing");
    });
    logger.info("outside any request");
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.find((l) => l.msg === "service did a thing")).toMatchObject({ requestId: "log-req-1", step: "inside", level: 30, service: "credence" });
    expect(parsed.find((l) => l.msg === "outside any request")).not.toHaveProperty("requestId");
  });

  it("label routes by pattern, never by the scope or id in the path", () => {
    expect(routePattern("/api/v1/scopes/platform/beliefs/b%201", { scope: "platform", id: "b 1" })).toBe("/api/v1/scopes/[scope]/beliefs/[id]");
  });
});
