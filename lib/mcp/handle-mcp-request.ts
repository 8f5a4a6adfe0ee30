/**
 * The `/api/mcp` endpoint: MCP over Streamable HTTP in stateless mode (one server and transport per request, JSON
 * answers, no session), authenticated exactly as the REST API (`authenticate`: Bearer API token, else session).
 * The default scope of tool calls is the token's own scope when it is limited to one, else the endpoint's `?scope=`.
 * Every HTTP request spends one from the caller's rate bucket, the one the REST API uses (429 with Retry-After).
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Principal } from "@/lib/access/principal";
import { authenticateCaller, getBeliefServices, type Caller } from "@/lib/api/api-context";
import { errorResponse } from "@/lib/api/api-error";
import { crossOrigin } from "@/lib/api/same-origin";
import { getRateLimiter, rateLimited } from "@/lib/api/rate-limiter";
import type { BeliefServices } from "@/lib/beliefs/belief-services";
import { getDatabase } from "@/lib/db/database";
import { mcpErrorAnswer } from "./mcp-error";
import { createMcpServer } from "./create-mcp-server";

/** Same bound as the REST API's bodies (docs/design.md §7). */
const MAX_BODY_BYTES = 1024 * 1024;

/** The slug of the scope a limited token acts in (a scope its user is a member of), or null. */
async function tokenScopeSlug(services: BeliefServices, principal: Principal): Promise<string | null> {
  if (principal.tokenScopeId === null) return null;
  const scopes = await services.listMyScopes(principal);
  return scopes.find((s) => s.id === principal.tokenScopeId)?.slug ?? null;
}

// MCP's transport rules ask servers to validate `Origin` against DNS rebinding: agents send none, and a browser page
// may only call from the app's own origin.
export async function handleMcpRequest(request: Request): Promise<Response> {
  if (crossOrigin(request)) {
    return errorResponse(403, "forbidden", "Cross-origin requests to the MCP endpoint are refused; MCP clients send no Origin header.");
  }
  let caller: Caller;
  try {
    caller = await authenticateCaller(request);
  } catch (error) {
    const { status, body } = await mcpErrorAnswer(error);
    const headers: Record<string, string> = { "cache-control": "no-store" };
    if (status === 401) headers["www-authenticate"] = 'Bearer realm="credence"';
    return Response.json(body, { status, headers });
  }
  const decision = await getRateLimiter().take(caller.rateKey);
  if (!decision.allowed) return rateLimited(decision);
  const { principal } = caller;
  try {
    const requested = new URL(request.url).searchParams.get("scope")?.trim() || null;
    const services = await getBeliefServices();
    const defaultScope = (await tokenScopeSlug(services, principal)) ?? requested;
    const db = await getDatabase();
    const server = createMcpServer({
      services,
      principal,
      defaultScope,
      sql: db.sql,
      memberScopes: async () => (principal.tokenScopeId === null ? services.listMyScopes(principal) : []),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  } catch (error) {
    const { status, body } = await mcpErrorAnswer(error);
    return Response.json(body, { status, headers: { "cache-control": "no-store" } });
  }
}
