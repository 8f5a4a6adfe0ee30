/**
 * The REST API over real HTTP against the production server (`tsx bin/serve.ts`, the `.next` build), once on the
 * embedded default (PGlite, SQL graph store) and once with NEO4J_URI set (Neo4j graph store). Users, scopes and
 * tokens are made with the operator CLI's services in this process (`server.operator`; the CLI itself is tested in
 * bin/cli.test.ts); everything else goes through `fetch`.
 *
 * Needs `npx next build` first (npm test builds before Vitest runs); without a build the suite fails, never skips.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { requireProductionBuild, startAppServer, type AppServer } from "@/lib/testing/app-server";

const RATE_LIMIT = 100;

type Json = Record<string, unknown>;
type ErrorBody = { error: { code: string; message: string; details: { fields?: { field: string }[] } & Record<string, unknown> } };

const backends = [
  { name: "embedded (PGlite + SQL store)", env: (): Record<string, string> => ({}) },
  { name: "Neo4j graph store", env: (): Record<string, string> => ({ NEO4J_URI: inject("neo4jUri") }) },
];

describe("the server-backed suite needs a production build", () => {
  it("a missing .next/BUILD_ID fails with the command to run", () => {
    const root = mkdtempSync(path.join(tmpdir(), "credence-no-build-"));
    try {
      expect(() => requireProductionBuild(root)).toThrow("run `npx next build` first");
      mkdirSync(path.join(root, ".next"));
      writeFileSync(path.join(root, ".next", "BUILD_ID"), "test");
      expect(() => requireProductionBuild(root)).not.toThrow();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.each(backends)("REST API over HTTP: $name", (backend) => {
  let server: AppServer;
  const id = randomBytes(3).toString("hex");
  const home = `home-${id}`;
  const other = `other-${id}`;
  const tokens = { owner: "", editor: "", viewer: "", outsider: "", burner: "" };

  beforeAll(async () => {
    server = await startAppServer({ env: { ...backend.env(), CREDENCE_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) } });
    const email = (name: string) => `${name}-${id}@api.test`;
    // What `cli user create`, `scope create`, `member add` and `token create` do, in this process (13 CLI processes per backend before).
    const made = await server.operator(async (ops, operator) => {
      await Promise.all(["owner", "editor", "viewer", "outsider"].map((name) => ops.createUser(operator, { email: email(name), password: `pw-${id}-secret`, name })));
      await Promise.all([
        ops.createScope(operator, { slug: home, name: "Home", ownerEmail: email("owner"), isPublic: false }),
        ops.createScope(operator, { slug: other, name: "Other", ownerEmail: email("outsider"), isPublic: false }),
      ]);
      await Promise.all([
        ops.addMember(operator, home, { email: email("editor"), role: "editor" }),
        ops.addMember(operator, home, { email: email("viewer"), role: "viewer" }),
      ]);
      return Promise.all(
        (["owner", "editor", "viewer", "outsider", "burner"] as const).map(async (name) => {
          const user = name === "burner" ? "viewer" : name;
          return [name, (await ops.createToken(operator, { email: email(user), name: `${name} token` })).token] as const;
        }),
      );
    });
    for (const [name, token] of made) tokens[name] = token;
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  const call = async (method: string, path: string, token: string | null, init: { body?: unknown; raw?: string; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (token) headers.authorization = `Bearer ${token}`;
    const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Json };
  };
  const errorCode = (r: { text: string }) => (JSON.parse(r.text) as ErrorBody).error.code;

  it("serves the OpenAPI document and refuses a request without a token (401, documented shape)", async () => {
    const doc = await fetch(`${server.baseUrl}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe("3.1.0");
    const anonymous = await call("GET", `/scopes/${home}/beliefs`, null);
    expect(anonymous.status).toBe(401);
    expect(errorCode(anonymous)).toBe("unauthenticated");
  });

  it("deploy-branch story: ingest Monday and Thursday, contested recall with the release branch dominant, history and replay", async () => {
    const ingest = (text: string) => call("POST", `/scopes/${home}/ingest`, tokens.editor, { body: { text, source: { kind: "observation" } } });
    const dry = await call("POST", `/scopes/${home}/ingest?dryRun=true`, tokens.editor, { body: { text: "Deploys go from the main branch." } });
    expect(dry.status).toBe(200);
    expect((dry.json() as { outcome: string; changes: { created: unknown[] } })).toMatchObject({ outcome: "dry_run", changes: { created: [expect.anything()] } });
    expect((await call("GET", `/scopes/${home}/beliefs`, tokens.viewer)).json()).toEqual({ beliefs: [] });
    const monday = (await ingest("Deploys go from the main branch.")).json() as { outcome: string; changes: { created: { beliefId: string }[] } };
    expect(monday.outcome).toBe("committed");
    const mondayId = monday.changes.created[0]?.beliefId as string;
    const thursday = (await ingest("Deploys go out from the protected release branch; nothing is ever deployed from the main branch.")).json() as {
      evidence: { id: string };
      changes: { created: { beliefId: string }[] };
      disagreements: { beliefId: string }[];
    };
    expect(thursday.disagreements.map((d) => d.beliefId)).toContain(mondayId);
    const thursdayId = thursday.changes.created[0]?.beliefId as string;

    const recall = await call("GET", `/scopes/${home}/recall?q=${encodeURIComponent("Which branch do we deploy from?")}`, tokens.viewer);
    expect(recall.status).toBe(200);
    const answer = recall.json() as { mode: string; dominantBeliefIds: string[]; competingBeliefIds: string[]; dominantAnswer: string };
    expect(answer.mode).toBe("contested");
    expect(answer.dominantBeliefIds[0]).toBe(thursdayId);
    expect(answer.dominantAnswer).toMatch(/release/i);
    expect(answer.competingBeliefIds).toContain(mondayId);

    const detail = await call("GET", `/scopes/${home}/beliefs/${mondayId}`, tokens.viewer);
    const belief = (detail.json() as { belief: Json & { history: Json[] } }).belief;
    expect(belief.contradictCount).toBe(1);
    const rebuttal = belief.history.find((item) => item.type === "entry" && item.relation === "REBUTS");
    expect(rebuttal).toMatchObject({ sourceId: thursday.evidence.id, verified: true });
    for (const key of ["seq", "tier", "effectiveTier", "weight", "ess", "contribution", "effectiveWeight", "actor", "time", "changeSet"]) expect(rebuttal, key).toHaveProperty(key);

    const replay = await call("GET", `/scopes/${home}/beliefs/${mondayId}/replay`, tokens.viewer);
    expect((replay.json() as { matches: boolean }).matches).toBe(true);
    const graph = await call("GET", `/scopes/${home}/graph`, tokens.viewer);
    const elements = graph.json() as { nodes: { data: { id: string } }[]; edges: { data: { type: string } }[] };
    expect(elements.nodes.map((n) => n.data.id)).toEqual(expect.arrayContaining([mondayId, thursdayId]));
  }, 180_000);

  it("evidence + assimilate citing it is verified; a retraction dry run names the belief and writes nothing", async () => {
    const evidence = await call("POST", `/scopes/${home}/evidence`, tokens.editor, { body: { kind: "measurement", text: `p95 latency ${id} is 180 ms.` } });
    expect(evidence.status).toBe(201);
    const evidenceId = (evidence.json() as { evidence: { id: string } }).evidence.id;
    const assimilated = await call("POST", `/scopes/${home}/assimilate`, tokens.editor, {
      body: { claim: `The API ${id} meets its latency target.`, evidence: [{ sourceId: evidenceId, tier: "measurement", direction: "+" }] },
    });
    expect(assimilated.status).toBe(200);
    const result = assimilated.json() as { belief: { id: string; credence: number }; entries: { verified: boolean; effectiveTier: string }[] };
    expect(result.entries[0]).toMatchObject({ verified: true, effectiveTier: "measurement" });
    expect(result.belief.credence).toBeGreaterThan(0.5);

    const dry = await call("POST", `/scopes/${home}/retractions?dryRun=true`, tokens.editor, { body: { sourceId: evidenceId } });
    expect(dry.status).toBe(200);
    const touched = dry.json() as { dryRun: boolean; touched: { beliefId?: string; id?: string }[] };
    expect(touched.dryRun).toBe(true);
    expect(JSON.stringify(touched.touched)).toContain(result.belief.id);
    const after = (await call("GET", `/scopes/${home}/beliefs/${result.belief.id}`, tokens.viewer)).json() as { belief: { credence: number } };
    expect(after.belief.credence).toBe(result.belief.credence);
  });

  it("error codes: 400, 413, 422 naming fields, 403 for a viewer, 404 alike for a private and a missing scope, 409 idempotency conflict", async () => {
    const malformed = await call("POST", `/scopes/${home}/assimilate`, tokens.editor, { raw: '{"claim": ' });
    expect([malformed.status, errorCode(malformed)]).toEqual([400, "malformed_json"]);
    const huge = await call("POST", `/scopes/${home}/ingest`, tokens.editor, { raw: JSON.stringify({ text: "x".repeat(1024 * 1024) }) });
    expect([huge.status, errorCode(huge)]).toEqual([413, "payload_too_large"]);
    const invalid = await call("POST", `/scopes/${home}/assimilate`, tokens.editor, { body: { claim: "Builds are fast.", evidence: [{ tier: "hearsay", direction: "sideways" }] } });
    expect(invalid.status).toBe(422);
    expect((JSON.parse(invalid.text) as ErrorBody).error.details.fields?.map((f) => f.field)).toEqual(expect.arrayContaining(["evidence.0.tier", "evidence.0.direction"]));
    const viewerWrite = await call("POST", `/scopes/${home}/evidence`, tokens.viewer, { body: { kind: "document", text: "Viewers read." } });
    expect([viewerWrite.status, errorCode(viewerWrite)]).toEqual([403, "forbidden"]);

    const missing = `missing-${id}`;
    const probe = (scope: string) => call("GET", `/scopes/${scope}/beliefs?q=deploy`, tokens.outsider);
    const [hidden, absent] = await Promise.all([probe(home), probe(missing)]);
    expect(hidden.status).toBe(404);
    expect(hidden.text.split(home).join("<scope>")).toBe(absent.text.split(missing).join("<scope>"));

    const key = `key-${id}`;
    const first = await call("POST", `/scopes/${home}/evidence`, tokens.editor, { body: { kind: "document", text: "Once." }, headers: { "idempotency-key": key } });
    const replay = await call("POST", `/scopes/${home}/evidence`, tokens.editor, { body: { kind: "document", text: "Once." }, headers: { "idempotency-key": key } });
    expect([first.status, replay.status]).toEqual([201, 201]);
    expect(replay.text).toBe(first.text);
    const conflict = await call("POST", `/scopes/${home}/evidence`, tokens.editor, { body: { kind: "document", text: "Twice." }, headers: { "idempotency-key": key } });
    expect([conflict.status, errorCode(conflict)]).toEqual([409, "idempotency_conflict"]);
  });

  it("every endpoint: another team's private scope answers byte for byte like a missing scope", async () => {
    const secret = other; // the outsider's own scope: private to everyone else
    const missing = `nowhere-${id}`;
    const probes: [string, string, unknown?][] = [
      ["POST", "/evidence", { kind: "document", text: "Probe." }],
      ["POST", "/assimilate", { claim: "Probe claim.", evidence: [{ tier: "observation" }] }],
      ["POST", "/harvest", { text: "Cats purr.", producedBy: { name: "probe" } }],
      ["POST", "/ingest", { text: "Deploys happen on Fridays." }],
      ["POST", "/retractions", { sourceId: "ev_x" }],
      ["GET", "/beliefs"],
      ["GET", "/beliefs?q=deploy"],
      ["GET", "/beliefs/b_x"],
      ["GET", "/beliefs/b_x/replay"],
      ["POST", "/beliefs/b_x/revisions", { seq: 1, weight: 0.5, reason: "probe" }],
      ["GET", "/recall?q=deploy"],
      ["GET", "/graph"],
      ["GET", "/mutations"],
      ["POST", "/mutations", { belief: "Deploys are frozen on Fridays.", strength: 0.6, reason: "policy", sourceEvent: "probe", mutationType: "new" }],
      ["POST", "/mutations/mut_x/decision", { decision: "reject", note: "no" }],
      ["POST", "/topics/deploys/unfreeze", { note: "lift" }],
      ["GET", "/syntheses"],
      ["POST", "/syntheses", { beliefIds: ["a", "b"] }],
      ["POST", "/syntheses/dismissals", { beliefIds: ["a", "b"] }],
    ];
    for (const [method, suffix, body] of probes) {
      const send = (scope: string) => call(method, `/scopes/${scope}${suffix}`, tokens.editor, body === undefined ? {} : { body });
      const [hidden, absent] = [await send(secret), await send(missing)];
      expect(hidden.status, `${method} ${suffix}`).toBe(404);
      expect(hidden.text.split(secret).join("<scope>"), `${method} ${suffix}`).toBe(absent.text.split(missing).join("<scope>"));
    }
  });

  it("mutation + review: a numeric conflict with a grounded belief is queued; the editor gets 403, the reviewer decides", async () => {
    const docs: string[] = [];
    for (let i = 0; i < 4; i++) {
      const doc = await call("POST", `/scopes/${home}/evidence`, tokens.editor, { body: { kind: "document", text: `Gateway policy ${i + 1} (${id}): 100 requests per minute per token.` } });
      docs.push((doc.json() as { evidence: { id: string } }).evidence.id);
    }
    const grounded = await call("POST", `/scopes/${home}/assimilate`, tokens.editor, {
      body: { claim: `The gateway ${id} limit is 100 requests per minute.`, topic: `limit ${id}`, evidence: docs.map((sourceId) => ({ sourceId, tier: "document" })) },
    });
    expect(grounded.status).toBe(200);
    const sighting = (await call("POST", `/scopes/${home}/evidence`, tokens.editor, { body: { kind: "observation", text: "A test saw 429s at 50 requests per minute." } })).json() as { evidence: { id: string } };
    const proposal = await call("POST", `/scopes/${home}/mutations`, tokens.editor, {
      body: { belief: `The gateway ${id} limit is 50 requests per minute.`, strength: 0.7, reason: `Seen in ${sighting.evidence.id}.`, sourceEvent: sighting.evidence.id, mutationType: "updated" },
    });
    expect(proposal.status).toBe(201);
    const mutation = (proposal.json() as { mutation: { id: string; decision: string; status: string } }).mutation;
    // The journal says it came through an API token, and which one (a person in the browser reads differently).
    expect(mutation).toMatchObject({ decision: "review", status: "pending_review", via: { kind: "token", tokenName: expect.any(String), tokenId: expect.any(String) } });
    const queue = (await call("GET", `/scopes/${home}/mutations?status=pending_review`, tokens.viewer)).json() as { mutations: { id: string }[] };
    expect(queue.mutations.map((m) => m.id)).toContain(mutation.id);
    const byEditor = await call("POST", `/scopes/${home}/mutations/${mutation.id}/decision`, tokens.editor, { body: { decision: "approve", note: "self" } });
    expect([byEditor.status, errorCode(byEditor)]).toEqual([403, "forbidden"]);
    const byOwner = await call("POST", `/scopes/${home}/mutations/${mutation.id}/decision`, tokens.owner, { body: { decision: "reject", note: "The policy documents stand." } });
    expect(byOwner.status).toBe(200);
    expect((byOwner.json() as { mutation: { status: string } }).mutation.status).toBe("rejected");
    // Only an approved supersede or merge can be undone: a rejection says so, readably.
    const undoRejected = await call("POST", `/scopes/${home}/mutations/${mutation.id}/undo`, tokens.owner, { body: { note: "Second thoughts." } });
    expect([undoRejected.status, errorCode(undoRejected)]).toEqual([409, "conflict"]);
    expect(JSON.stringify(undoRejected.json())).toContain("only an approved supersede or merge can be undone");

    // A supersede approved by mistake is undone over REST: the grounded belief is live again, the proposal waits again.
    const again = await call("POST", `/scopes/${home}/mutations`, tokens.editor, {
      body: { belief: `The gateway ${id} limit is 50 requests per minute.`, strength: 0.7, reason: `Seen again in ${sighting.evidence.id}.`, sourceEvent: sighting.evidence.id, mutationType: "superseded" },
    });
    expect(again.status).toBe(201);
    const second = (again.json() as { mutation: { id: string } }).mutation;
    const approved = await call("POST", `/scopes/${home}/mutations/${second.id}/decision`, tokens.owner, { body: { decision: "approve", resolution: "supersede", note: "The sighting wins." } });
    expect(approved.status).toBe(200);
    const groundedId = (grounded.json() as { belief: { id: string } }).belief.id;
    const statusOf = async () => ((await call("GET", `/scopes/${home}/beliefs/${groundedId}`, tokens.viewer)).json() as { belief: { status: string } }).belief.status;
    expect(await statusOf()).toBe("superseded");
    const undoByEditor = await call("POST", `/scopes/${home}/mutations/${second.id}/undo`, tokens.editor, { body: { note: "Not mine to undo." } });
    expect([undoByEditor.status, errorCode(undoByEditor)]).toEqual([403, "forbidden"]);
    const noNote = await call("POST", `/scopes/${home}/mutations/${second.id}/undo`, tokens.owner, { body: {} });
    expect([noNote.status, errorCode(noNote)]).toEqual([422, "invalid"]);
    const undone = await call("POST", `/scopes/${home}/mutations/${second.id}/undo`, tokens.owner, { body: { note: "Approved by mistake." } });
    expect(undone.status).toBe(200);
    expect((undone.json() as { mutation: { status: string; undone: { undoNote: string }[] } }).mutation).toMatchObject({ status: "pending_review", undone: [{ undoNote: "Approved by mistake." }] });
    expect(await statusOf()).not.toBe("superseded");
  }, 180_000);

  it(`429 with Retry-After once a token spends CREDENCE_RATE_LIMIT_PER_MINUTE (${RATE_LIMIT}) requests; another token still passes`, async () => {
    // Bursts of concurrent requests, so the bucket drains faster than it refills (rate/60 a second) even on a slow machine.
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    while (!limited && statuses.length < RATE_LIMIT * 3) {
      const burst = await Promise.all(Array.from({ length: 25 }, () => call("GET", `/scopes/${home}/mutations`, tokens.burner)));
      statuses.push(...burst.map((r) => r.status));
      limited = burst.find((r) => r.status === 429);
    }
    expect(limited, `statuses: ${statuses.join(",")}`).toBeDefined();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(RATE_LIMIT);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited && errorCode(limited)).toBe("rate_limited");
    expect((await call("GET", `/scopes/${home}/mutations`, tokens.viewer)).status).toBe(200);
  });
});
