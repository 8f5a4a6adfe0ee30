/**
 * A database outage through the REST route handlers, on a Postgres cluster the test owns: stopped while
 * requests flow → 503 `unavailable` with Retry-After (token authentication's Prisma P1001 included, never a 500); frozen
 * (SIGSTOP) → the same 503 once the pool's timeouts run out instead of a request hanging for the whole freeze; and
 * back → answers again without a restart, with every acknowledged write present.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { openDatabase } from "@/lib/db/database";
import type { TestBackend } from "@/lib/db/testing/test-backends";
import { createThrowawayCluster, type ThrowawayCluster } from "@/lib/testing/throwaway-cluster";
import { json, openApiHarness, type ApiHarness } from "@/lib/api/testing/api-harness";
import * as beliefsRoute from "@/app/api/v1/scopes/[scope]/beliefs/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as readyRoute from "@/app/api/health/ready/route";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

const TIMEOUTS = { connectMs: 1_500, statementMs: 3_000, queryMs: 4_000 };

describe("database outage: stop, freeze, recover (own Postgres cluster)", () => {
  let cluster: ThrowawayCluster;
  let h: ApiHarness;
  let home: string;
  const suffix = randomBytes(3).toString("hex");
  const acknowledged: string[] = [];

  beforeAll(async () => {
    cluster = await createThrowawayCluster();
    const backend: TestBackend = {
      name: "server",
      async create() {
        const config = { databaseUrl: cluster.url, timeouts: TIMEOUTS };
        return { config, env: { DATABASE_URL: cluster.url }, open: (extra) => openDatabase({ ...config, ...extra }), cleanup: async () => {} };
      },
    };
    h = await openApiHarness(`out${suffix}`, { backend });
    home = h.scopes.home;
  }, 180_000);
  afterAll(async () => {
    await cluster?.thaw().catch(() => {});
    await h?.close().catch(() => {});
    await cluster?.destroy();
  });

  const list = () => h.call(beliefsRoute.GET, "GET", `/scopes/${home}/beliefs`, { scope: home }, { token: h.tokens.editor });
  const write = async (text: string) => {
    const response = await h.call(evidenceRoute.POST, "POST", `/scopes/${home}/evidence`, { scope: home }, { token: h.tokens.editor, body: { kind: "document", text } });
    if (response.status === 201) acknowledged.push(text);
    return response;
  };
  const expectUnavailable = async (response: Response, codes: string[] = ["unavailable"]) => {
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = await json(response);
    expect(codes).toContain((body.error as { code: string }).code);
    expect((body.error as { requestId: string }).requestId).toBe(response.headers.get("x-request-id"));
  };
  /** The pool reconnects on its own: a few attempts while the server finishes starting. */
  const eventually = async (request: () => Promise<Response>, status: number) => {
    let last: Response | undefined;
    for (let attempt = 0; attempt < 20; attempt++) {
      last = await request();
      if (last.status === status) return last;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return last;
  };

  it("answers normally before the outage", async () => {
    expect((await list()).status).toBe(200);
    expect((await write(`Before the outage ${suffix}.`)).status).toBe(201);
  });

  it("a stopped database: reads and writes answer 503 unavailable with Retry-After (token auth included)", async () => {
    await cluster.stop();
    await expectUnavailable(await list());
    await expectUnavailable(await write(`During the stop ${suffix}.`));
    const ready = await readyRoute.GET();
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "not_ready", checks: { database: { status: "failed" } } });
  });

  it("the database comes back: the same process answers again without a restart", async () => {
    await cluster.start();
    expect((await eventually(list, 200))?.status).toBe(200);
    expect((await eventually(() => write(`After the stop ${suffix}.`), 201))?.status).toBe(201);
    expect((await readyRoute.GET()).status).toBe(200);
  });

  it("requests in flight when the database stops each get an answer (200/201, or 503), none is cut off", async () => {
    const inFlight = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? list() : write(`In flight ${i} ${suffix}.`)));
    await cluster.stop();
    try {
      const answers = await Promise.all(inFlight);
      for (const answer of answers) expect([200, 201, 503]).toContain(answer.status);
    } finally {
      await cluster.start();
    }
    expect((await eventually(list, 200))?.status).toBe(200);
  });

  it("a frozen database (SIGSTOP): requests end with 503 after the pool's timeouts instead of hanging", async () => {
    await cluster.freeze();
    try {
      // A frozen server keeps every pooled connection hanging, so a request queued behind them cannot tell it from a
      // full pool: `busy` or `unavailable`, a 503 with Retry-After either way.
      const [read, written] = await Promise.all([list(), write(`During the freeze ${suffix}.`)]);
      await expectUnavailable(read, ["unavailable", "busy"]);
      await expectUnavailable(written, ["unavailable", "busy"]);
    } finally {
      await cluster.thaw();
    }
  });

  it("thawed: answers again, and every acknowledged write is there", async () => {
    expect((await eventually(list, 200))?.status).toBe(200);
    const rows = await h.db.sql.query<{ text: string }>(`SELECT text FROM graph_evidence`);
    const stored = new Set(rows.map((r) => r.text));
    for (const text of acknowledged) expect(stored.has(text), text).toBe(true);
    expect(acknowledged.length).toBeGreaterThanOrEqual(2);
  });
});
