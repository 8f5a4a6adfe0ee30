/**
 * Scopes, members and grants over the REST API and MCP, with the rules the browser and the CLI follow (the identity
 * services decide): a token acts as its user, so an unrestricted token of an owner manages that scope; a token limited
 * to one scope manages only that scope and creates none; members read the roster; a scope the caller cannot see
 * answers like a missing one.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as mcpRoute from "@/app/api/mcp/route";
import * as grantRoute from "@/app/api/v1/scopes/[scope]/grants/[toScope]/route";
import * as grantsRoute from "@/app/api/v1/scopes/[scope]/grants/route";
import * as memberRoute from "@/app/api/v1/scopes/[scope]/members/[userId]/route";
import * as membersRoute from "@/app/api/v1/scopes/[scope]/members/route";
import * as scopesRoute from "@/app/api/v1/scopes/route";
import { createToken } from "@/lib/identity/tokens";
import { callTool } from "@/lib/mcp/testing/mcp-client-kit";
import { json, openApiHarness, type ApiHarness } from "./testing/api-harness";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

type Member = { userId: string; email: string; role: string };
type ErrorBody = { error: { code: string; details: { reason?: string; fields?: { field: string }[] } } };

describe("scopes, members and grants over REST and MCP", () => {
  let h: ApiHarness;
  const suffix = randomBytes(3).toString("hex");
  let limited = "";
  const email = (name: string) => `${name.toLowerCase()}-sc${suffix}@example.test`;

  beforeAll(async () => {
    h = await openApiHarness(`sc${suffix}`);
    limited = (await createToken(h.db, h.userIds.owner, { name: "limited", scopeSlug: h.scopes.home })).token;
  });
  afterAll(async () => {
    await h?.close();
  });

  const call = (handler: Parameters<ApiHarness["call"]>[0], method: string, path: string, params: Record<string, string>, token: string, body?: unknown, headers?: Record<string, string>) =>
    h.call(handler, method, path, params, { token, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  const codeOf = async (response: Response) => ((await json(response)) as ErrorBody).error;

  it("an unrestricted token creates a scope and owns it; a limited token, a duplicate slug and a bad slug are refused", async () => {
    const slug = `agent-project-${suffix}`;
    const made = await call(scopesRoute.POST, "POST", "/scopes", {}, h.tokens.editor, { slug, name: "Agent project" });
    expect(made.status).toBe(201);
    expect(await json(made)).toEqual({ scope: { slug, name: "Agent project", public: false, role: "owner" } });
    const listed = (await json(await call(scopesRoute.GET, "GET", "/scopes", {}, h.tokens.editor))) as { scopes: { slug: string; role: string }[] };
    expect(listed.scopes).toContainEqual(expect.objectContaining({ slug, role: "owner" }));

    const byLimited = await call(scopesRoute.POST, "POST", "/scopes", {}, limited, { slug: `limited-${suffix}`, name: "No" });
    expect(byLimited.status).toBe(403);
    const duplicate = await call(scopesRoute.POST, "POST", "/scopes", {}, h.tokens.viewer, { slug, name: "Again" });
    expect(duplicate.status).toBe(409);
    const bad = await call(scopesRoute.POST, "POST", "/scopes", {}, h.tokens.viewer, { slug: "Not A Slug!", name: "Bad" });
    expect(bad.status).toBe(422);
    expect((await codeOf(bad)).details.fields?.map((f) => f.field)).toEqual(["slug"]);
  });

  it("an Idempotency-Key makes a scope creation safe to retry", async () => {
    const key = randomUUID();
    const body = { slug: `retried-${suffix}`, name: "Retried" };
    const first = await call(scopesRoute.POST, "POST", "/scopes", {}, h.tokens.viewer, body, { "idempotency-key": key });
    const second = await call(scopesRoute.POST, "POST", "/scopes", {}, h.tokens.viewer, body, { "idempotency-key": key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
  });

  it("members: any member reads the roster; only the owner adds, changes and removes; the last owner stays", async () => {
    const home = h.scopes.home;
    const at = { scope: home };
    const roster = await call(membersRoute.GET, "GET", `/scopes/${home}/members`, at, h.tokens.viewer);
    expect(roster.status).toBe(200);
    const members = ((await json(roster)) as { members: Member[] }).members;
    expect(members.map((m) => m.role).sort()).toEqual(["editor", "owner", "viewer"]);

    // Someone outside the scope: the same 404 as for a scope that does not exist.
    const hidden = await call(membersRoute.GET, "GET", `/scopes/${home}/members`, at, h.tokens.outsider);
    const missing = await call(membersRoute.GET, "GET", `/scopes/nothing-${suffix}/members`, { scope: `nothing-${suffix}` }, h.tokens.outsider);
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect((await codeOf(hidden)).code).toBe((await codeOf(missing)).code);

    const byEditor = await call(membersRoute.POST, "POST", `/scopes/${home}/members`, at, h.tokens.editor, { email: email("outsider"), role: "viewer" });
    expect(byEditor.status).toBe(403);
    const added = await call(membersRoute.POST, "POST", `/scopes/${home}/members`, at, h.tokens.owner, { email: email("outsider"), role: "viewer" });
    expect(added.status).toBe(201);
    const outsider = ((await json(added)) as { member: Member }).member;
    expect(outsider).toMatchObject({ email: email("outsider"), role: "viewer" });
    expect((await call(membersRoute.POST, "POST", `/scopes/${home}/members`, at, h.tokens.owner, { email: email("outsider"), role: "viewer" })).status).toBe(409);

    const memberAt = { scope: home, userId: outsider.userId };
    const promoted = await call(memberRoute.PATCH, "PATCH", `/scopes/${home}/members/${outsider.userId}`, memberAt, limited, { role: "reviewer" });
    expect(promoted.status).toBe(200);
    expect(((await json(promoted)) as { member: Member }).member.role).toBe("reviewer");
    const badRole = await call(memberRoute.PATCH, "PATCH", `/scopes/${home}/members/${outsider.userId}`, memberAt, h.tokens.owner, { role: "admin" });
    expect(badRole.status).toBe(422);

    const ownerId = members.find((m) => m.role === "owner")?.userId ?? "";
    const demote = await call(memberRoute.PATCH, "PATCH", `/scopes/${home}/members/${ownerId}`, { scope: home, userId: ownerId }, h.tokens.owner, { role: "viewer" });
    expect(demote.status).toBe(409);
    expect((await codeOf(demote)).details.reason).toBe("last_owner");

    expect((await call(memberRoute.DELETE, "DELETE", `/scopes/${home}/members/${outsider.userId}`, memberAt, h.tokens.editor)).status).toBe(403);
    const removed = await call(memberRoute.DELETE, "DELETE", `/scopes/${home}/members/${outsider.userId}`, memberAt, h.tokens.owner);
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe("");
    expect((await call(memberRoute.DELETE, "DELETE", `/scopes/${home}/members/${outsider.userId}`, memberAt, h.tokens.owner)).status).toBe(404);
  });

  it("grants: the owner grants and withdraws; both scopes' members see them", async () => {
    const home = h.scopes.home;
    const other = h.scopes.other;
    expect((await call(grantsRoute.POST, "POST", `/scopes/${home}/grants`, { scope: home }, h.tokens.editor, { toSlug: other })).status).toBe(403);
    const granted = await call(grantsRoute.POST, "POST", `/scopes/${home}/grants`, { scope: home }, h.tokens.owner, { toSlug: other });
    expect(granted.status).toBe(201);
    expect(((await json(granted)) as { grant: { from: { slug: string }; to: { slug: string } } }).grant).toMatchObject({ from: { slug: home }, to: { slug: other } });
    const outgoing = (await json(await call(grantsRoute.GET, "GET", `/scopes/${home}/grants`, { scope: home }, h.tokens.viewer))) as { grants: { to: { slug: string } }[] };
    expect(outgoing.grants.map((g) => g.to.slug)).toEqual([other]);
    const incoming = (await json(await call(grantsRoute.GET, "GET", `/scopes/${other}/grants`, { scope: other }, h.tokens.outsider))) as { incoming: { from: { slug: string } }[] };
    expect(incoming.incoming.map((g) => g.from.slug)).toEqual([home]);
    const withdrawn = await call(grantRoute.DELETE, "DELETE", `/scopes/${home}/grants/${other}`, { scope: home, toScope: other }, h.tokens.owner);
    expect(withdrawn.status).toBe(204);
    expect((await call(grantRoute.DELETE, "DELETE", `/scopes/${home}/grants/${other}`, { scope: home, toScope: other }, h.tokens.owner)).status).toBe(404);
  });

  it("the same over MCP: list_scopes and create_scope take no scope; member and grant tools follow the same rules", async () => {
    const connect = async (token: string, query = "") => {
      const client = new Client({ name: "credence-scopes-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://localhost/api/mcp${query}`), {
          fetch: (input, init) => {
            const request = new Request(input, init);
            request.headers.set("authorization", `Bearer ${token}`);
            return request.method === "POST" ? mcpRoute.POST(request) : Promise.resolve(request.method === "GET" ? mcpRoute.GET() : mcpRoute.DELETE());
          },
        }),
      );
      return client;
    };
    const owner = await connect(h.tokens.owner);
    const editor = await connect(h.tokens.editor);
    try {
      const tools = (await owner.listTools()).tools;
      const createTool = tools.find((t) => t.name === "create_scope");
      expect(Object.keys(createTool?.inputSchema.properties ?? {}).sort()).toEqual(["idempotencyKey", "isPublic", "name", "slug"]);
      expect(tools.find((t) => t.name === "add_member")?.inputSchema.required).toEqual(["scope", "email", "role"]);

      const slug = `mcp-tenant-${suffix}`;
      const made = await callTool(editor, "create_scope", { slug, name: "MCP tenant" });
      expect(made.isError, made.text).toBe(false);
      expect(made.structured).toEqual({ scope: { slug, name: "MCP tenant", public: false, role: "owner" } });
      expect(((await callTool(editor, "list_scopes", {})).structured.scopes as { slug: string }[]).map((s) => s.slug)).toContain(slug);
      const strayScope = await callTool(editor, "list_scopes", { scope: slug });
      expect(strayScope.isError).toBe(true);
      expect(strayScope.text).toMatch(/unknown argument; list_scopes takes no arguments/);

      const added = await callTool(editor, "add_member", { scope: slug, email: email("viewer"), role: "viewer" });
      expect(added.isError, added.text).toBe(false);
      const userId = (added.structured.member as Member).userId;
      const changed = await callTool(editor, "change_member_role", { scope: slug, userId, role: "editor" });
      expect((changed.structured.member as Member).role).toBe("editor");
      const notOwner = await callTool(owner, "add_member", { scope: slug, email: email("owner"), role: "viewer" });
      expect(notOwner.isError).toBe(true);
      expect((notOwner.structured as unknown as ErrorBody).error.code).toBe("not_found");
      expect(((await callTool(editor, "list_members", { scope: slug })).structured.members as Member[]).map((m) => m.role).sort()).toEqual(["editor", "owner"]);
      expect((await callTool(editor, "remove_member", { scope: slug, userId })).structured).toEqual({ removed: { userId } });

      const grant = await callTool(editor, "add_grant", { scope: slug, toSlug: h.scopes.home });
      expect(grant.isError, grant.text).toBe(false);
      expect(((await callTool(owner, "list_grants", { scope: h.scopes.home })).structured.incoming as { from: { slug: string } }[]).map((g) => g.from.slug)).toContain(slug);
      expect((await callTool(editor, "remove_grant", { scope: slug, toSlug: h.scopes.home })).structured).toEqual({ removed: { toSlug: h.scopes.home } });

      const limitedClient = await connect(limited);
      try {
        const refused = await callTool(limitedClient, "create_scope", { slug: `nope-${suffix}`, name: "Nope" });
        expect(refused.isError).toBe(true);
        expect((refused.structured as unknown as ErrorBody).error.code).toBe("forbidden");
      } finally {
        await limitedClient.close();
      }
    } finally {
      await owner.close();
      await editor.close();
    }
  });
});
