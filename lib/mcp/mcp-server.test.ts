/**
 * The MCP endpoint in process: the SDK's own Client over Streamable HTTP, its fetch wired to the route handler (as
 * Next would call it), against the REST API's harness (embedded PGlite, identity fixtures, Bearer tokens).
 * The server-backed suite (`mcp-e2e.test.ts`) repeats the essentials over a real socket and over stdio.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as mcpRoute from "@/app/api/mcp/route";
import * as beliefRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/route";
import * as mutationsRoute from "@/app/api/v1/scopes/[scope]/mutations/route";
import * as recallRoute from "@/app/api/v1/scopes/[scope]/recall/route";
import { json, openApiHarness, type ApiHarness } from "@/lib/api/testing/api-harness";
import { createRateLimiter, setRateLimiter } from "@/lib/api/rate-limiter";
import { createToken } from "@/lib/identity/tokens";
import { MCP_TOOL_NAMES, callTool, type ToolAnswer } from "./testing/mcp-client-kit";

// next-auth imports `next/server`, which does not resolve outside Next: the session path is "no session" here (the
// server-backed suite exercises the real one).
vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

let h: ApiHarness;
let home: string;
let secret: string;

beforeAll(async () => {
  h = await openApiHarness(`mcp${randomUUID().slice(0, 8)}`);
  home = h.scopes.home;
  secret = h.scopes.secret;
});

afterAll(async () => {
  await h?.close();
});

const open: Client[] = [];
afterAll(async () => {
  for (const client of open) await client.close().catch(() => {});
});

async function connect(token: string | null, query = ""): Promise<Client> {
  const client = new Client({ name: "credence-mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://localhost/api/mcp${query}`), {
    fetch: (input, init) => {
      const request = new Request(input, init);
      if (token !== null) request.headers.set("authorization", `Bearer ${token}`);
      if (request.method === "POST") return mcpRoute.POST(request);
      return Promise.resolve(request.method === "GET" ? mcpRoute.GET() : mcpRoute.DELETE());
    },
  });
  await client.connect(transport);
  open.push(client);
  return client;
}

function ok(answer: ToolAnswer): Record<string, unknown> {
  expect(answer.isError, answer.text).toBe(false);
  return answer.structured;
}

function errorOf(answer: ToolAnswer): { code: string; message: string; details: { fields?: { field: string; message: string }[] }; status: number } {
  expect(answer.isError, answer.text).toBe(true);
  const body = answer.structured as { error: { code: string; message: string; details: { fields?: { field: string; message: string }[] } }; status: number };
  // The text a model reads starts with the code and the message.
  expect(answer.text.startsWith(`${body.error.code}: ${body.error.message}`)).toBe(true);
  return { ...body.error, status: body.status };
}

describe("MCP endpoint (Streamable HTTP, in process)", () => {
  let mondayId = "";
  let thursdayId = "";
  let mondayEvidence = "";

  it("lists the tools with JSON schemas; scope is required unless the connection has a default or the tool acts on no one scope", async () => {
    const client = await connect(h.tokens.viewer);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    const unscoped = ["create_scope", "list_scopes"];
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
      if (unscoped.includes(tool.name)) {
        expect(tool.inputSchema.properties ?? {}, tool.name).not.toHaveProperty("scope");
        continue;
      }
      expect(tool.inputSchema.properties).toHaveProperty("scope");
      expect(tool.inputSchema.required).toContain("scope");
    }
    const assimilate = tools.find((t) => t.name === "assimilate");
    const evidence = (assimilate?.inputSchema.properties as Record<string, { items?: { properties?: Record<string, { enum?: string[] }> } }>).evidence;
    expect(evidence?.items?.properties?.tier?.enum).toContain("held_out_truth");
    expect(tools.find((t) => t.name === "recall")?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === "retract_source")?.annotations?.destructiveHint).toBe(true);

    const withDefault = await connect(h.tokens.viewer, `?scope=${home}`);
    for (const tool of (await withDefault.listTools()).tools) expect(tool.inputSchema.required ?? []).not.toContain("scope");
  });

  it("deploy-branch story: remember Monday, remember Thursday, recall is contested", async () => {
    const editor = await connect(h.tokens.editor);
    const monday = ok(await callTool(editor, "remember", { scope: home, text: "The team deploys to production from the main branch.", source: { kind: "observation", uri: "slack://standup/monday" } }));
    expect(monday.outcome).toBe("committed");
    mondayId = (monday.changes as { created: { beliefId: string }[] }).created[0]?.beliefId ?? "";
    mondayEvidence = (monday.evidence as { id: string; uri: string }).id;
    expect(mondayId).not.toBe("");
    expect((monday.evidence as { uri: string }).uri).toBe("slack://standup/monday");

    const thursdayAnswer = await callTool(editor, "remember", { scope: home, text: "The team deploys to production from the protected release branch; nothing is ever deployed from the main branch." });
    const thursday = ok(thursdayAnswer);
    expect(thursdayAnswer.text.split("\n").slice(0, 2)).toEqual([
      `committed: evidence ${(thursday.evidence as { id: string }).id}; 1 belief(s) created, 1 revised.`,
      `Contradicts existing belief ${mondayId}: "${(thursday.disagreements as { text: string }[])[0]?.text}"`,
    ]);
    thursdayId = (thursday.changes as { created: { beliefId: string }[] }).created[0]?.beliefId ?? "";
    expect((thursday.disagreements as { beliefId: string }[]).map((d) => d.beliefId)).toEqual([mondayId]);

    const viewer = await connect(h.tokens.viewer, `?scope=${home}`);
    const recalled = await callTool(viewer, "recall", { q: "Which branch does the team deploy to production from?" });
    const answer = ok(recalled);
    expect(answer.mode).toBe("contested");
    // What a model reads first: the briefing in words, then the JSON.
    const [first, second] = recalled.text.split("\n");
    expect(first).toMatch(/^contested: .*release/i);
    expect(second).toMatch(/^Competing: .*main/i);
    expect((answer.dominantBeliefIds as string[])[0]).toBe(thursdayId);
    expect(answer.dominantAnswer).toMatch(/release/i);
    expect(answer.competingBeliefIds).toContain(mondayId);
  });

  it("get_belief returns the history; search_beliefs ranks; resources serve the belief and the summary", async () => {
    const viewer = await connect(h.tokens.viewer);
    const detail = ok(await callTool(viewer, "get_belief", { scope: home, beliefId: mondayId }));
    const belief = detail.belief as { id: string; contradictCount: number; tension: number; history: { type: string; sourceId?: string }[] };
    expect(belief.id).toBe(mondayId);
    expect(belief.contradictCount).toBe(1);
    expect(belief.tension).toBeGreaterThan(0);
    expect(belief.history.some((e) => e.sourceId === mondayEvidence)).toBe(true);
    expect(Array.isArray(detail.timeline)).toBe(true);

    const found = ok(await callTool(viewer, "search_beliefs", { scope: home, q: "deploy release branch", k: 5 }));
    expect((found.beliefs as { id: string }[]).map((b) => b.id)).toContain(thursdayId);

    const { resourceTemplates } = await viewer.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(["credence://{scope}/beliefs/{id}", "credence://{scope}/summary"]);
    const read = await viewer.readResource({ uri: `credence://${home}/beliefs/${mondayId}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(detail);
    const summary = JSON.parse(((await viewer.readResource({ uri: `credence://${home}/summary` })).contents[0] as { text: string }).text) as {
      scope: string;
      live: number;
      mostContested: { id: string; tension: number }[];
    };
    expect(summary.scope).toBe(home);
    expect(summary.live).toBeGreaterThanOrEqual(2);
    expect(summary.mostContested.map((b) => b.id)).toContain(mondayId);

    expect((await viewer.listResources()).resources.map((r) => r.uri)).toEqual([`credence://${home}/summary`]);
    const owner = await connect(h.tokens.secretOwner, `?scope=${home}`);
    // The default scope is listed first (reading it is still checked), then the caller's own scopes.
    expect((await owner.listResources()).resources.map((r) => r.uri)).toEqual([`credence://${home}/summary`, `credence://${secret}/summary`]);
    const limited = (await createToken(h.db, h.userIds.owner, { name: "mcp list", scopeSlug: home })).token;
    expect((await (await connect(limited)).listResources()).resources.map((r) => r.uri)).toEqual([`credence://${home}/summary`]);
  });

  it("assimilate, harvest_claims, propose_mutation and retract_source write through the services", async () => {
    const editor = await connect(h.tokens.editor, `?scope=${home}`);
    const assimilated = ok(await callTool(editor, "assimilate", {
      claim: "The staging cluster runs three replicas.",
      evidence: [{ sourceId: mondayEvidence, tier: "observation", relation: "SUPPORTS", weight: 0.8, reasoning: "said at stand-up" }],
    }));
    expect(assimilated.created).toBe(true);
    expect((assimilated.belief as { credence: number }).credence).toBeGreaterThan(0.5);

    const harvested = ok(await callTool(editor, "harvest_claims", { text: "The cache is warmed at startup. The warm-up takes ninety seconds.", producedBy: { name: "planner-agent", kind: "agent" } }));
    expect((harvested.claims as unknown[]).length).toBeGreaterThanOrEqual(2);
    expect(harvested.assimilated).toEqual([]);

    const proposed = ok(await callTool(editor, "propose_mutation", {
      belief: "Production deploys require a passing release pipeline.",
      strength: 0.7,
      reason: `Stated at stand-up, see ${mondayEvidence}.`,
      sourceEvent: mondayEvidence,
      mutationType: "new",
    }));
    expect((proposed.mutation as { decision: string; id: string }).id).toBeTruthy();
    expect(typeof (proposed.mutation as { decision: string }).decision).toBe("string");

    const dry = ok(await callTool(editor, "retract_source", { sourceId: mondayEvidence, dryRun: true }));
    expect(dry.dryRun).toBe(true);
    expect(dry.changeSetId).toBeNull();
    const touchedIds = (dry.touched as { id: string }[]).map((t) => t.id);
    expect(touchedIds).toContain(mondayId);
    expect((ok(await callTool(editor, "get_belief", { beliefId: mondayId })).belief as { history: { type: string }[] }).history.some((e) => e.type === "retracted")).toBe(false);

    const done = ok(await callTool(editor, "retract_source", { sourceId: mondayEvidence }));
    expect(done.dryRun).toBe(false);
    expect(done.changeSetId).toBeTruthy();
    const after = ok(await callTool(editor, "get_belief", { beliefId: mondayId })).belief as { history: { type: string }[] };
    expect(after.history.some((e) => e.type === "retracted")).toBe(true);
  });

  it("errors are MCP tool errors with the REST API's codes and messages", async () => {
    const viewer = await connect(h.tokens.viewer);
    const missing = errorOf(await callTool(viewer, "get_belief", { scope: home, beliefId: "belief_nope" }));
    const rest = await h.call(beliefRoute.GET, "GET", `/scopes/${home}/beliefs/belief_nope`, { scope: home, id: "belief_nope" }, { token: h.tokens.viewer });
    expect(rest.status).toBe(404);
    expect({ error: { code: missing.code, message: missing.message, details: missing.details } }).toEqual(await json(rest));
    expect(missing.status).toBe(404);

    const forbidden = errorOf(await callTool(viewer, "remember", { scope: home, text: "Viewers cannot write this." }));
    expect([forbidden.code, forbidden.status]).toEqual(["forbidden", 403]);

    const noScope = errorOf(await callTool(viewer, "recall", { q: "anything" }));
    expect([noScope.code, noScope.details.fields?.[0]?.field]).toEqual(["invalid", "scope"]);

    const editor = await connect(h.tokens.editor);
    const bad = { belief: "Is it main?", strength: 2, reason: "because", sourceEvent: "ev_missing", mutationType: "new" };
    const invalid = errorOf(await callTool(editor, "propose_mutation", { scope: home, ...bad }));
    const restInvalid = await h.call(mutationsRoute.POST, "POST", `/scopes/${home}/mutations`, { scope: home }, { token: h.tokens.editor, body: bad });
    expect(restInvalid.status).toBe(422);
    expect({ error: { code: invalid.code, message: invalid.message, details: invalid.details } }).toEqual(await json(restInvalid));
    expect(invalid.details.fields?.map((f) => f.field)).toEqual(expect.arrayContaining(["belief", "strength"]));

    const wrongType = errorOf(await callTool(editor, "remember", { scope: home, text: 42 }));
    expect([wrongType.code, wrongType.details.fields?.[0]?.field]).toEqual(["invalid", "text"]);

    await expect(editor.callTool({ name: "forget_everything", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("no oracle: another scope's private items answer exactly like missing ones, for tools and resources", async () => {
    const outsider = await connect(h.tokens.outsider);
    const hidden = errorOf(await callTool(outsider, "get_belief", { scope: home, beliefId: thursdayId }));
    const absent = errorOf(await callTool(outsider, "get_belief", { scope: `${home}-none`, beliefId: thursdayId }));
    expect(hidden).toEqual(JSON.parse(JSON.stringify(absent).replaceAll(`${home}-none`, home)));
    expect(hidden.code).toBe("not_found");

    // Inside a scope the caller may read, a hidden belief id is answered like a missing one.
    const owner = await connect(h.tokens.secretOwner);
    const hiddenInOwn = errorOf(await callTool(owner, "get_belief", { scope: secret, beliefId: thursdayId }));
    const missingInOwn = errorOf(await callTool(owner, "get_belief", { scope: secret, beliefId: "belief_missing" }));
    expect(hiddenInOwn).toEqual(JSON.parse(JSON.stringify(missingInOwn).replaceAll("belief_missing", thursdayId)));

    // Citing a private evidence id resolves no better than citing a missing one.
    const ev = (ok(await callTool(await connect(h.tokens.editor), "remember", { scope: home, text: "The on-call rota changes every Monday." })).evidence as { id: string }).id;
    const cite = (id: string) => ({ scope: secret, belief: "The on-call rota changes weekly on Mondays.", strength: 0.6, reason: `see ${id}`, sourceEvent: id, mutationType: "new" });
    const citeHidden = errorOf(await callTool(owner, "propose_mutation", cite(ev)));
    const citeMissing = errorOf(await callTool(owner, "propose_mutation", cite("ev_missing_000")));
    expect(citeHidden).toEqual(JSON.parse(JSON.stringify(citeMissing).replaceAll("ev_missing_000", ev)));
    expect(citeHidden.code).toBe("invalid");

    const readHidden = await outsider.readResource({ uri: `credence://${home}/beliefs/${thursdayId}` }).catch((e: unknown) => e);
    const readAbsent = await outsider.readResource({ uri: `credence://${home}-none/beliefs/${thursdayId}` }).catch((e: unknown) => e);
    expect(readHidden).toBeInstanceOf(McpError);
    expect((readHidden as McpError).code).toBe(-32002);
    expect((readHidden as McpError).message).toBe((readAbsent as McpError).message.replaceAll(`${home}-none`, home));
  });

  it("a token limited to one scope defaults to it and cannot reach another", async () => {
    const limited = (await createToken(h.db, h.userIds.viewer, { name: "mcp limited", scopeSlug: home })).token;
    const client = await connect(limited, `?scope=${secret}`);
    for (const tool of (await client.listTools()).tools) expect(tool.inputSchema.required ?? []).not.toContain("scope");
    const answer = ok(await callTool(client, "search_beliefs", { q: "deploy" }));
    expect((answer.beliefs as unknown[]).length).toBeGreaterThan(0);

    const other = errorOf(await callTool(client, "search_beliefs", { scope: h.scopes.other, q: "deploy" }));
    const nowhere = errorOf(await callTool(client, "search_beliefs", { scope: "no-such-scope", q: "deploy" }));
    expect(other).toEqual(JSON.parse(JSON.stringify(nowhere).replaceAll("no-such-scope", h.scopes.other)));
  });

  it("idempotencyKey on a write tool: a retry replays the first answer without writing twice; other arguments conflict", async () => {
    const editor = await connect(h.tokens.editor, `?scope=${home}`);
    const { tools } = await editor.listTools();
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {}).includes("idempotencyKey")).toBe(tool.annotations?.readOnlyHint !== true);

    const key = `mcp-${randomUUID()}`;
    const args = { text: "The build cache is purged every night at 02:00.", idempotencyKey: key };
    const first = await callTool(editor, "remember", args);
    const before = await h.counts();
    const again = await callTool(editor, "remember", args);
    expect(again.structured).toEqual(ok(first));
    expect(again.meta).toEqual({ "credence/idempotentReplayed": true });
    expect(first.meta).toEqual({});
    expect(await h.counts()).toEqual(before);

    const conflict = errorOf(await callTool(editor, "remember", { ...args, text: "Something else entirely, said later." }));
    expect([conflict.code, conflict.status]).toEqual(["idempotency_conflict", 409]);
    const badKey = errorOf(await callTool(editor, "remember", { ...args, idempotencyKey: "has spaces" }));
    expect(badKey.details.fields?.[0]?.field).toBe("idempotencyKey");

    // A refused write is remembered too: the retry gets the same refusal.
    const viewer = await connect(h.tokens.viewer, `?scope=${home}`);
    const refusal = errorOf(await callTool(viewer, "retract_source", { sourceId: "ev_x", idempotencyKey: key }));
    const replayedRefusal = await callTool(viewer, "retract_source", { sourceId: "ev_x", idempotencyKey: key });
    expect(errorOf(replayedRefusal)).toEqual(refusal);
    expect(replayedRefusal.meta).toEqual({ "credence/idempotentReplayed": true });
  });

  it("correct_relation: credence moves, a retry under its key replays without a second revision, the undo restores it; errors as REST", async () => {
    const editor = await connect(h.tokens.editor, `?scope=${home}`);
    const evidence = (ok(await callTool(editor, "remember", { text: "The incident review found the pager rota had gaps every weekend." })).evidence as { id: string }).id;
    const assimilated = ok(await callTool(editor, "assimilate", { claim: "The pager rota covers every weekend.", match: "exact", evidence: [{ sourceId: evidence, tier: "observation" }] }));
    const belief = assimilated.belief as { id: string; credence: number; tension: number };
    expect(belief.credence).toBeGreaterThan(0.5);

    const args = { evidenceId: evidence, beliefId: belief.id, relation: "REBUTS", reason: "The review says the rota has gaps.", idempotencyKey: `mcp-${randomUUID()}` };
    const first = await callTool(editor, "correct_relation", args);
    const fixed = ok(first) as { correction: { from: string; to: string; revisionSeqs: number[] }; after: { credence: number }; belief: { history: { type: string }[] } };
    expect(fixed.correction).toMatchObject({ from: "SUPPORTS", to: "REBUTS" });
    expect(fixed.after.credence).toBeLessThan(0.5);
    expect(first.text.split("\n").slice(0, 2)).toEqual([
      expect.stringMatching(new RegExp(`^corrected: evidence ${evidence} on belief ${belief.id} is now REBUTS \\(was SUPPORTS\\); credence 0\\.\\d\\d → 0\\.\\d\\d`)),
      "To undo: correct_relation with relation SUPPORTS.",
    ]);
    const replayed = await callTool(editor, "correct_relation", args);
    expect(replayed.structured).toEqual(fixed);
    expect(replayed.meta).toEqual({ "credence/idempotentReplayed": true });
    const stored = ok(await callTool(editor, "get_belief", { beliefId: belief.id })).belief as { credence: number; history: { type: string }[] };
    expect(stored.history.filter((i) => i.type === "revised")).toHaveLength(1);
    expect(stored.credence).toBe(fixed.after.credence);

    const undone = ok(await callTool(editor, "correct_relation", { evidenceId: evidence, beliefId: belief.id, relation: fixed.correction.from, reason: "Undo: wrong review." })) as { after: { credence: number; tension: number } };
    expect(undone.after.credence).toBeCloseTo(belief.credence, 12);

    const invalid = errorOf(await callTool(editor, "correct_relation", { evidenceId: evidence, beliefId: belief.id, relation: "SUPPORTS", reason: "already" }));
    expect([invalid.code, invalid.status, invalid.details.fields?.map((f) => f.field)]).toEqual(["invalid", 422, ["relation"]]);
    const outsider = await connect(h.tokens.outsider);
    const hidden = errorOf(await callTool(outsider, "correct_relation", { scope: home, evidenceId: evidence, beliefId: belief.id, relation: "REBUTS", reason: "probe" }));
    const absent = errorOf(await callTool(outsider, "correct_relation", { scope: `${home}-none`, evidenceId: evidence, beliefId: belief.id, relation: "REBUTS", reason: "probe" }));
    expect([hidden.code, hidden.status]).toEqual(["not_found", 404]);
    expect(hidden.message.replace(home, "S")).toBe(absent.message.replace(`${home}-none`, "S"));
    const viewer = errorOf(await callTool(await connect(h.tokens.viewer, `?scope=${home}`), "correct_relation", { evidenceId: evidence, beliefId: belief.id, relation: "REBUTS", reason: "probe" }));
    expect([viewer.code, viewer.status]).toEqual(["forbidden", 403]);
  });

  it("a wrong argument name is a tool error with the REST API's code (invalid, 422) naming it and the names the tool takes, never a 500", async () => {
    const viewer = await connect(h.tokens.viewer);
    const recall = errorOf(await callTool(viewer, "recall", { scope: home, query: "Which branch do we deploy from?" }));
    expect([recall.code, recall.status]).toEqual(["invalid", 422]);
    expect(recall.details.fields).toEqual([
      { field: "query", message: "unknown argument; recall takes q, k, asOf (and scope)" },
      { field: "q", message: "required" },
    ]);
    // The same code and status the REST API answers for a bad field of the same operation.
    const rest = await h.call(recallRoute.GET, "GET", `/scopes/${home}/recall`, { scope: home }, { token: h.tokens.viewer, query: { query: "Which branch?" } });
    expect(rest.status).toBe(422);
    expect(((await json(rest)) as { error: { code: string } }).error.code).toBe(recall.code);

    const editor = await connect(h.tokens.editor);
    for (const [tool, args, wrong] of [
      ["search_beliefs", { query: "deploy" }, "query"],
      ["get_belief", { id: "b_x" }, "id"],
      ["remember", { text: "Deploys are fast.", kind: "observation" }, "kind"],
      ["retract_source", { evidenceId: "ev_x" }, "evidenceId"],
      ["recall", { q: "deploys", idempotencyKey: "k-1" }, "idempotencyKey"],
    ] as const) {
      const answer = errorOf(await callTool(editor, tool, { scope: home, ...args }));
      expect([tool, answer.code, answer.status, answer.details.fields?.[0]?.field]).toEqual([tool, "invalid", 422, wrong]);
    }
  });

  it("refuses U+0000 anywhere in the arguments as an invalid field, like the REST API", async () => {
    const editor = await connect(h.tokens.editor, `?scope=${home}`);
    const top = errorOf(await callTool(editor, "remember", { text: "nul\u0000here" }));
    expect([top.code, top.status, top.details.fields]).toEqual(["invalid", 422, [{ field: "text", message: "must not contain the NUL character" }]]);
    const nested = errorOf(await callTool(editor, "assimilate", { claim: "Caches are warm.", evidence: [{ tier: "observation", reasoning: "a\u0000b" }] }));
    expect(nested.details.fields?.[0]?.field).toBe("evidence.0.reasoning");
    const read = await editor.readResource({ uri: `credence://${home}/beliefs/x%00y` }).catch((e: unknown) => e);
    expect(read).toBeInstanceOf(McpError);
    expect((read as McpError).code).toBe(-32602);
  });

  it("spends the caller's REST rate bucket: past the limit, 429 with Retry-After and the REST body", async () => {
    setRateLimiter(createRateLimiter(2));
    try {
      const post = () =>
        mcpRoute.POST(
          new Request("http://localhost/api/mcp", {
            method: "POST",
            headers: { authorization: `Bearer ${h.tokens.viewer}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
          }),
        );
      const first = await post();
      expect(first.status).toBe(200);
      expect(((await first.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(MCP_TOOL_NAMES.length);
      expect((await post()).status).toBe(200);
      const limited = await post();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    } finally {
      setRateLimiter(undefined);
    }
  });

  it("refuses a cross-origin browser request before authenticating (DNS rebinding), accepts its own origin", async () => {
    const post = (origin: string) =>
      mcpRoute.POST(
        new Request("http://localhost/api/mcp", {
          method: "POST",
          headers: { origin, host: "localhost", authorization: `Bearer ${h.tokens.viewer}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
      );
    const evil = await post("http://evil.example");
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    expect((await post("http://localhost")).status).toBe(200);
  });

  it("refuses a request without a valid token with the REST API's 401 body", async () => {
    await expect(connect(null)).rejects.toThrow(/401|unauthenticated/);
    const response = await mcpRoute.POST(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: { authorization: "Bearer cred_nope", "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/Bearer/);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
  });
});
