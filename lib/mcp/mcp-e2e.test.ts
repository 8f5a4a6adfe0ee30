/**
 * The MCP server end to end: a real Credence server (production build, fresh embedded data folder), users, scopes and
 * tokens made with the operator CLI's services in this process (`server.operator`; the CLI itself is tested in
 * bin/cli.test.ts), and the SDK's own Client over Streamable HTTP and over stdio (`bin/mcp.ts`
 * spawned as a local process, proxying to the server).
 */
import { spawn } from "node:child_process";
import { createServer, type AddressInfo, type Socket } from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "@/lib/db/spawn-script";
import { scriptCommand } from "@/lib/ops/compiled-script";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { MCP_TOOL_NAMES, callTool, type ToolAnswer } from "./testing/mcp-client-kit";

const MCP_SCRIPT = path.join(process.cwd(), "bin", "mcp.ts");
const PASSWORD = "credence-mcp-test";

let server: AppServer;
const tokens = { editor: "", outsider: "", limited: "" };
const clients: Client[] = [];
const stdioLogs: string[] = [];

beforeAll(async () => {
  server = await startAppServer();
  // What `cli user create`, `scope create` and `token create` do, in this process (8 CLI processes before).
  await server.operator(async (ops, operator) => {
    for (const who of ["editor", "outsider"]) await ops.createUser(operator, { email: `${who}@mcp.test`, password: PASSWORD });
    await ops.createScope(operator, { slug: "team", name: "Team", ownerEmail: "editor@mcp.test", isPublic: false });
    await ops.createScope(operator, { slug: "agents", name: "Agents", ownerEmail: "editor@mcp.test", isPublic: false });
    await ops.createScope(operator, { slug: "elsewhere", name: "Elsewhere", ownerEmail: "outsider@mcp.test", isPublic: false });
    tokens.editor = (await ops.createToken(operator, { email: "editor@mcp.test", name: "mcp http" })).token;
    tokens.outsider = (await ops.createToken(operator, { email: "outsider@mcp.test", name: "mcp outsider" })).token;
    tokens.limited = (await ops.createToken(operator, { email: "editor@mcp.test", name: "mcp stdio", scopeSlug: "agents" })).token;
  });
}, 180_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await server?.stop();
});

async function httpClient(token: string): Promise<Client> {
  const client = new Client({ name: "credence-mcp-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

async function stdioClient(args: string[], env: Record<string, string> = {}, urlFlag = true): Promise<Client> {
  const { command, args: argv } = scriptCommand(MCP_SCRIPT, urlFlag ? ["--url", server.baseUrl, ...args] : args);
  const transport = new StdioClientTransport({ command, args: argv, env: { ...(process.env as Record<string, string>), ...env }, stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => stdioLogs.push(chunk.toString()));
  const client = new Client({ name: "credence-mcp-e2e-stdio", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function ok(answer: ToolAnswer): Record<string, unknown> {
  expect(answer.isError, answer.text).toBe(false);
  return answer.structured;
}

function errorOf(answer: ToolAnswer): { code: string; message: string; details: unknown } {
  expect(answer.isError, answer.text).toBe(true);
  return (answer.structured as { error: { code: string; message: string; details: unknown } }).error;
}

async function deployStory(client: Client, scope: Record<string, string>) {
  const monday = ok(await callTool(client, "remember", { ...scope, text: "The team deploys to production from the main branch.", source: { kind: "observation", uri: "chat://standup/monday" } }));
  const mondayId = (monday.changes as { created: { beliefId: string }[] }).created[0]?.beliefId ?? "";
  const thursday = ok(await callTool(client, "remember", { ...scope, text: "The team deploys to production from the protected release branch; nothing is ever deployed from the main branch." }));
  const thursdayId = (thursday.changes as { created: { beliefId: string }[] }).created[0]?.beliefId ?? "";
  expect((thursday.disagreements as { beliefId: string }[]).map((d) => d.beliefId)).toEqual([mondayId]);
  const answer = ok(await callTool(client, "recall", { ...scope, q: "Which branch does the team deploy to production from?" }));
  expect(answer.mode).toBe("contested");
  expect((answer.dominantBeliefIds as string[])[0]).toBe(thursdayId);
  expect(answer.competingBeliefIds).toContain(mondayId);
  return { mondayId, thursdayId, mondayEvidence: (monday.evidence as { id: string }).id };
}

describe("MCP over Streamable HTTP against a running server", () => {
  it("lists the tools and runs the deploy-branch story to a contested recall", async () => {
    const client = await httpClient(tokens.editor);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    await deployStory(client, { scope: "team" });
  });

  it("another user's token cannot read or cite the scope's items: the same answers as for missing ones", async () => {
    const editor = await httpClient(tokens.editor);
    const remembered = ok(await callTool(editor, "remember", { scope: "team", text: "The incident review happens every Friday afternoon." }));
    const beliefId = (remembered.changes as { created: { beliefId: string }[] }).created[0]?.beliefId ?? "";
    const evidenceId = (remembered.evidence as { id: string }).id;

    const outsider = await httpClient(tokens.outsider);
    const hidden = errorOf(await callTool(outsider, "get_belief", { scope: "team", beliefId }));
    const missing = errorOf(await callTool(outsider, "get_belief", { scope: "no-such-team", beliefId }));
    expect(hidden.code).toBe("not_found");
    expect(hidden).toEqual(JSON.parse(JSON.stringify(missing).replaceAll("no-such-team", "team")));

    const cite = (id: string) => ({ scope: "elsewhere", belief: "The incident review happens on Fridays.", strength: 0.6, reason: `see ${id}`, sourceEvent: id, mutationType: "new" });
    const citeHidden = errorOf(await callTool(outsider, "propose_mutation", cite(evidenceId)));
    const citeMissing = errorOf(await callTool(outsider, "propose_mutation", cite("ev_missing_000")));
    expect(citeHidden.code).toBe("invalid");
    expect(citeHidden).toEqual(JSON.parse(JSON.stringify(citeMissing).replaceAll("ev_missing_000", evidenceId)));

    const search = ok(await callTool(outsider, "search_beliefs", { scope: "elsewhere", q: "incident review Friday" }));
    expect(search.beliefs).toEqual([]);
  });

  it("answers 401 without a valid token or session and 405 to GET", async () => {
    const post = await fetch(`${server.baseUrl}/api/mcp`, {
      method: "POST",
      headers: { authorization: "Bearer cred_not-a-token", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(post.status).toBe(401);
    expect(((await post.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    const anonymous = await fetch(`${server.baseUrl}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    expect((await fetch(`${server.baseUrl}/api/mcp`, { headers: { authorization: `Bearer ${tokens.editor}` } })).status).toBe(405);
  });
});

describe("MCP over stdio (bin/mcp.ts proxying to the server)", () => {
  it("re-exposes every tool; a scope-limited token defaults to its scope; each tool answers", async () => {
    const client = await stdioClient(["--token", tokens.limited]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const tool of tools) expect(tool.inputSchema.required ?? []).not.toContain("scope");

    const { mondayId, mondayEvidence } = await deployStory(client, {});

    const detail = ok(await callTool(client, "get_belief", { beliefId: mondayId }));
    expect((detail.belief as { contradictCount: number; history: unknown[] }).contradictCount).toBe(1);
    const found = ok(await callTool(client, "search_beliefs", { q: "deploy branch" }));
    expect((found.beliefs as { id: string }[]).map((b) => b.id)).toContain(mondayId);

    const assimilated = ok(await callTool(client, "assimilate", { claim: "Release branches are cut every Thursday.", evidence: [{ sourceId: mondayEvidence, tier: "observation" }] }));
    expect(assimilated.created).toBe(true);
    const harvested = ok(await callTool(client, "harvest_claims", { text: "Rollbacks take five minutes. Canaries run for an hour.", producedBy: { name: "ops-agent" }, commit: true }));
    expect((harvested.assimilated as unknown[]).length).toBe((harvested.claims as unknown[]).length);
    const proposed = ok(await callTool(client, "propose_mutation", { belief: "Hotfixes are deployed from the release branch.", strength: 0.6, reason: `per ${mondayEvidence}`, sourceEvent: mondayEvidence, mutationType: "new" }));
    expect((proposed.mutation as { id: string }).id).toBeTruthy();
    const retracted = ok(await callTool(client, "retract_source", { sourceId: mondayEvidence, dryRun: true }));
    expect((retracted.touched as { id: string }[]).map((t) => t.id)).toContain(mondayId);

    const summary = JSON.parse(((await client.readResource({ uri: "credence://agents/summary" })).contents[0] as { text: string }).text) as { scope: string; live: number };
    expect(summary.scope).toBe("agents");
    expect(summary.live).toBeGreaterThanOrEqual(2);

    // The token is limited to `agents`: `team` (where its user is owner) answers like a scope that does not exist.
    const outside = errorOf(await callTool(client, "recall", { scope: "team", q: "deploy branch" }));
    const nowhere = errorOf(await callTool(client, "recall", { scope: "nowhere", q: "deploy branch" }));
    expect(outside).toEqual(JSON.parse(JSON.stringify(nowhere).replaceAll("nowhere", "team")));

    const missing = errorOf(await callTool(client, "get_belief", { beliefId: "belief_missing" }));
    expect(missing.code).toBe("not_found");
    // A wrong argument name through the production server and the stdio bridge: the REST API's invalid, never a 500.
    const misnamed = errorOf(await callTool(client, "recall", { query: "Which branch do we deploy from?" }));
    expect([misnamed.code, (misnamed.details as { fields: { field: string }[] }).fields.map((f) => f.field)]).toEqual(["invalid", ["query", "q"]]);
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("--scope sets the default scope for an unscoped token", async () => {
    const client = await stdioClient(["--token", tokens.editor, "--scope", "team"]);
    const answer = ok(await callTool(client, "recall", { q: "Which branch does the team deploy to production from?" }));
    expect(answer.mode).toBe("contested");
  });

  it("exits with a clear message on a bad token or missing configuration", async () => {
    const env = { CREDENCE_TOKEN: "", CREDENCE_URL: "", CREDENCE_SCOPE: "" };
    const bad = await runScript(MCP_SCRIPT, ["--url", server.baseUrl, "--token", "cred_wrong"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^credence-mcp: cannot connect to http:\/\/127\.0\.0\.1:\d+\/api\/mcp: .+\n$/);
    expect(bad.stdout).toBe("");
    const none = await runScript(MCP_SCRIPT, ["--url", server.baseUrl], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--token \(or CREDENCE_TOKEN\) is required/);
  });
});

describe("the stdio bridge as clients and the MCP inspector launch it", () => {
  it("is configured by the environment alone, and a lone `--` before the flags is ignored", async () => {
    const byEnv = await stdioClient([], { CREDENCE_URL: server.baseUrl, CREDENCE_TOKEN: tokens.editor, CREDENCE_SCOPE: "team" }, false);
    expect((await byEnv.listTools()).tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    expect(ok(await callTool(byEnv, "list_members", {})).members).toEqual([expect.objectContaining({ email: "editor@mcp.test", role: "owner" })]);
    const dashed = await stdioClient(["--", "--url", server.baseUrl, "--token", tokens.editor], { CREDENCE_TOKEN: "", CREDENCE_URL: "" }, false);
    expect((await dashed.listTools()).tools.length).toBe(MCP_TOOL_NAMES.length);
  });

  it("answers initialize without waiting for the server it proxies to", async () => {
    // A server that accepts connections and never answers: the handshake with the client must not depend on it.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const client = await stdioClient(["--url", `http://127.0.0.1:${port}`, "--token", tokens.editor], {}, false);
      expect(client.getServerVersion()?.name).toBe("credence");
      expect(client.getInstructions()).toMatch(/keeps contradictions visible/);
      await client.close();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("a client that goes away (stdout closed: EPIPE) ends the bridge quietly, without a stack trace", async () => {
    const { command, args } = scriptCommand(MCP_SCRIPT, ["--url", server.baseUrl, "--token", tokens.editor]);
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.stdout.destroy();
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "gone", version: "1" } } };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toMatch(/EPIPE/);
  });
});
