/**
 * Idempotency in the same transaction as the write: a request under an `Idempotency-Key` whose write
 * committed but whose answer did not get recorded (the process died between the two: the fault hook below stands for
 * that crash, deterministically) must not write again when a retry takes the key over after the lease. Before the
 * fix the retry ran the write a second time (two evidence rows). Runs on embedded PGlite, on the Postgres server and
 * with the Neo4j graph store.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { serverBackend } from "@/lib/db/testing/test-backends";
import { getGraphStore } from "@/lib/graph/select-graph-store";
import { fingerprintRequest, setIdempotencyFault } from "./idempotency";
import { BASE, json, openApiHarness, type ApiHarness, type ApiHarnessOptions } from "./testing/api-harness";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as harvestRoute from "@/app/api/v1/scopes/[scope]/harvest/route";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

class SimulatedCrash extends Error {}

const BACKENDS: [string, () => ApiHarnessOptions][] = [
  ["embedded PGlite", () => ({})],
  ["Postgres server", () => ({ backend: serverBackend })],
  ["Neo4j graph store", () => ({ neo4jUri: inject("neo4jUri") })],
];

describe.each(BACKENDS)("idempotent write survives a crash between commit and completion (%s)", (_name, options) => {
  let h: ApiHarness;
  let home: string;
  const suffix = randomBytes(3).toString("hex");

  beforeAll(async () => {
    h = await openApiHarness(`idc${suffix}`, options());
    home = h.scopes.home;
  });
  afterAll(async () => {
    setIdempotencyFault(undefined);
    await h?.close();
  });
  afterEach(() => setIdempotencyFault(undefined));

  const post = (handler: typeof evidenceRoute.POST, path: string, body: unknown, key: string) =>
    h.call(handler, "POST", `/scopes/${home}${path}`, { scope: home }, { token: h.tokens.editor, body, headers: { "idempotency-key": key } });
  const evidenceCount = async (text: string): Promise<number> => {
    const store = await getGraphStore();
    const exported = await store.exportScope({ homeScopeId: await scopeId(), visibleScopeIds: [await scopeId()] });
    return exported.evidence.filter((e) => e.text === text).length;
  };
  const scopeId = async () => (await h.db.prisma.scope.findUniqueOrThrow({ where: { slug: home }, select: { id: true } })).id;
  /** What a lease running out looks like to the next request: the pending key's claim is older than the lease. */
  const expireLease = (key: string) => h.db.sql.query(`UPDATE "api_idempotency_keys" SET "claimed_at" = now() - interval '1 hour' WHERE "key" = $1`, [key]);

  it("a retry after the lease does not write again, and answers that the write happened", async () => {
    const key = `crash-${randomBytes(6).toString("hex")}`;
    const text = `Crash-safe memo ${key}.`;
    setIdempotencyFault(() => {
      throw new SimulatedCrash("the process died after the commit");
    });
    const crashed = await post(evidenceRoute.POST, "/evidence", { kind: "document", text }, key);
    expect(crashed.status).toBe(500);
    setIdempotencyFault(undefined);
    expect(await evidenceCount(text)).toBe(1);

    await expireLease(key);
    const retry = await post(evidenceRoute.POST, "/evidence", { kind: "document", text }, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const body = await json(retry);
    expect(body.idempotency).toMatchObject({ key, recovered: true });
    expect((body.idempotency as { changeSetIds: string[] }).changeSetIds).toHaveLength(1);
    expect(await evidenceCount(text)).toBe(1);

    // Later retries replay the recovered answer byte for byte.
    const again = await post(evidenceRoute.POST, "/evidence", { kind: "document", text }, key);
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(body);
    expect(await evidenceCount(text)).toBe(1);
  });

  it("a request that died before its commit runs normally when retried after the lease", async () => {
    const key = `early-${randomBytes(6).toString("hex")}`;
    const text = `Never committed memo ${key}.`;
    const body = { kind: "document", text };
    // The first attempt claimed the key and died before its commit: a pending key past its lease, and no mark.
    await h.db.sql.query(
      `INSERT INTO "api_idempotency_keys" ("principal", "key", "fingerprint", "state", "claimed_at", "expires_at")
       VALUES ($1, $2, $3, 'pending', now() - interval '1 hour', now() + interval '1 hour')`,
      [`${h.userIds.editor}|*`, key, fingerprintRequest("POST", new URL(`${BASE}/scopes/${home}/evidence`), JSON.stringify(body))],
    );
    const first = await post(evidenceRoute.POST, "/evidence", body, key);
    expect(first.status).toBe(201);
    expect(await evidenceCount(text)).toBe(1);
  });

  it("a crash after a multi-write request (harvest with commit) is not written again either", async () => {
    const key = `harvest-${randomBytes(6).toString("hex")}`;
    const text = `Release trains leave every Tuesday ${key}. Hotfixes bypass the train ${key}.`;
    setIdempotencyFault(() => {
      throw new SimulatedCrash("the process died after the commit");
    });
    const crashed = await post(harvestRoute.POST, "/harvest", { text, commit: true, producedBy: { name: "agent" } }, key);
    expect(crashed.status).toBe(500);
    setIdempotencyFault(undefined);
    const before = await h.counts();
    const evidenceBefore = await evidenceCount(text);
    await expireLease(key);
    const retry = await post(harvestRoute.POST, "/harvest", { text, commit: true, producedBy: { name: "agent" } }, key);
    expect(retry.status).toBe(200);
    expect((await json(retry)).idempotency).toMatchObject({ key, recovered: true });
    expect(await evidenceCount(text)).toBe(evidenceBefore);
    expect(await h.counts()).toEqual(before);
  });
});
