/**
 * One MCP server per request (the endpoint is stateless): tools and resources over `BeliefServices`, acting as the
 * authenticated principal. The low-level `Server` is used rather than `McpServer` so that argument errors come back
 * exactly as the REST API words them (McpServer answers its own "Input validation error" before our code runs).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Principal } from "@/lib/access/principal";
import { ApiError } from "@/lib/api/api-error";
import type { BeliefServices } from "@/lib/beliefs/belief-services";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { mcpErrorAnswer, toolErrorFromAnswer, toolErrorResult, type McpErrorAnswer } from "./mcp-error";
import { MCP_TOOLS, presentBeliefDetail, type McpTool } from "./mcp-tools";
import { parseIdempotencyKey, runIdempotentTool } from "./run-idempotent-tool";
import { unstorableText } from "@/lib/api/nul-path";
import { MCP_INSTRUCTIONS, MCP_SERVER_NAME, MCP_SERVER_TITLE, MCP_SERVER_VERSION } from "./server-identity";

export { MCP_SERVER_NAME, MCP_SERVER_VERSION };

/** MCP's "resource not found" code (spec, resources/read). */
const RESOURCE_NOT_FOUND = -32002;

export interface McpServerOptions {
  services: BeliefServices;
  principal: Principal;
  /** The scope a call without `scope` acts in: the token's own scope, or the endpoint's `?scope=`; null → required. */
  defaultScope: string | null;
  /** Where idempotency keys are kept (the database's `api_idempotency_keys`, shared with the REST API). */
  sql: SqlExecutor;
  /** The scopes the caller is a member of, for `resources/list` (none for a token limited to one scope). */
  memberScopes: () => Promise<readonly { slug: string; name: string }[]>;
}



function scopeProperty(defaultScope: string | null) {
  return {
    type: "string",
    description: defaultScope
      ? `Slug of the scope (the memory) to act in. Default: "${defaultScope}".`
      : "Slug of the scope (the memory) to act in, e.g. \"platform\". Required: this connection has no default scope (resources/list names your scopes).",
  };
}

const IDEMPOTENCY_KEY_PROPERTY = {
  type: "string",
  pattern: "^[\\x21-\\x7e]{1,255}$",
  description:
    "Optional: a unique string (e.g. a UUID) for this write. Retrying with the same key and the same arguments returns the first answer without writing twice (kept 24 h); different arguments under a used key are refused.",
};

/** Write tools accept `idempotencyKey` (the REST API's Idempotency-Key). */
export function isWriteTool(tool: Pick<McpTool, "annotations">): boolean {
  return !tool.annotations.readOnlyHint;
}

/**
 * The tool's JSON Schema as published: its own arguments plus `scope` (required unless there is a default; none for a
 * tool that acts on no one scope) and, for writes, `idempotencyKey`.
 */
export function toolInputJsonSchema(input: z.ZodObject, defaultScope: string | null, writes = false, scoped = true): { type: "object"; [key: string]: unknown } {
  const schema = z.toJSONSchema(input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const properties = {
    ...(scoped ? { scope: scopeProperty(defaultScope) } : {}),
    ...((schema.properties as Record<string, unknown> | undefined) ?? {}),
    ...(writes ? { idempotencyKey: IDEMPOTENCY_KEY_PROPERTY } : {}),
  };
  const required = [...(defaultScope || !scoped ? [] : ["scope"]), ...((schema.required as string[] | undefined) ?? [])];
  const { $schema: _ignored, ...rest } = schema;
  return { ...rest, type: "object", properties, required };
}

function missingScope(): ApiError {
  return new ApiError(422, "invalid", "The request has invalid fields.", { fields: [{ field: "scope", message: "required: name the scope slug" }] });
}

/**
 * Splits `scope` off the arguments; a non-string or missing scope (with no default) is an `invalid` field, and so is
 * any U+0000 anywhere in the arguments (the REST API refuses it the same way, rather than failing in the database).
 */
function splitScope(args: Record<string, unknown> | undefined, defaultScope: string | null): { scope: string; rest: Record<string, unknown> } {
  const unstorable = unstorableText(args ?? {});
  if (unstorable !== null) throw new ApiError(422, "invalid", "The request has invalid fields.", { fields: [unstorable] });
  const { scope, ...rest } = args ?? {};
  if (scope === undefined || scope === null || scope === "") {
    if (defaultScope === null) throw missingScope();
    return { scope: defaultScope, rest };
  }
  if (typeof scope !== "string") throw new ApiError(422, "invalid", "The request has invalid fields.", { fields: [{ field: "scope", message: "must be a string" }] });
  return { scope, rest };
}

/**
 * A tool called with an argument it does not take (a wrong name, e.g. `query` for recall's `q`) is refused as the REST
 * API refuses a bad field: `invalid` (422) naming each unknown argument and each required one that is missing, with
 * the names the tool does take. Checked before any service runs.
 */
export function checkArgumentNames(tool: Pick<McpTool, "name" | "input" | "scoped">, args: Record<string, unknown>): void {
  const schema = toolInputJsonSchema(tool.input, "default");
  const known = Object.keys(schema.properties as Record<string, unknown>).filter((name) => name !== "scope");
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const takes = `${tool.name} takes ${known.length > 0 ? known.join(", ") : "no arguments"}${tool.scoped === false ? "" : " (and scope)"}`;
  const missing = (schema.required as string[]).filter((name) => args[name] === undefined);
  throw new ApiError(422, "invalid", "The request has invalid fields.", {
    fields: [
      ...unknown.map((field) => ({ field, message: `unknown argument; ${takes}` })),
      ...missing.map((field) => ({ field, message: "required" })),
    ],
  });
}

/** The arguments of a tool that acts on no one scope: `scope` is not one of them (named as unknown if sent). */
function unscopedArguments(args: Record<string, unknown> | undefined): Record<string, unknown> {
  const unstorable = unstorableText(args ?? {});
  if (unstorable !== null) throw new ApiError(422, "invalid", "The request has invalid fields.", { fields: [unstorable] });
  return args ?? {};
}

const BELIEF_URI = /^credence:\/\/([^/]+)\/beliefs\/([^/]+)$/;
const SUMMARY_URI = /^credence:\/\/([^/]+)\/summary$/;

function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

async function resourceError(error: unknown): Promise<McpError> {
  const { status, body } = await mcpErrorAnswer(error);
  const code = status === 404 ? RESOURCE_NOT_FOUND : status === 422 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, body.error.message, { ...body, status });
}

function toolSuccess(tool: McpTool, result: object) {
  const json = JSON.stringify(result);
  return { content: [{ type: "text" as const, text: tool.headline ? `${tool.headline(result)}\n${json}` : json }], structuredContent: result as Record<string, unknown> };
}

const REPLAYED = { _meta: { "credence/idempotentReplayed": true } };

const SUMMARY_DESCRIPTION = "Belief counts by status, mean tension, review queue size and the most contested live beliefs.";

export function createMcpServer({ services, principal, defaultScope, sql, memberScopes }: McpServerOptions): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION, title: MCP_SERVER_TITLE },
    { capabilities: { tools: {}, resources: {} }, instructions: MCP_INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: MCP_TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.annotations.title,
      description: tool.description,
      inputSchema: toolInputJsonSchema(tool.input, defaultScope, isWriteTool(tool), tool.scoped !== false),
      annotations: tool.annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = MCP_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; call tools/list.`);
    try {
      const { scope, rest } = tool.scoped === false ? { scope: "", rest: unscopedArguments(request.params.arguments) } : splitScope(request.params.arguments, defaultScope);
      const { idempotencyKey, ...args } = rest;
      checkArgumentNames(tool, isWriteTool(tool) ? args : rest);
      if (!isWriteTool(tool) || idempotencyKey === undefined) return toolSuccess(tool, await tool.run({ services, principal }, scope, rest));
      const key = parseIdempotencyKey(idempotencyKey);
      const outcome = await runIdempotentTool(sql, { principal, key, tool: tool.name, scope, args }, () => tool.run({ services, principal }, scope, args));
      const answer = outcome.ok ? toolSuccess(tool, outcome.result) : toolErrorFromAnswer({ status: outcome.status, body: outcome.body as McpErrorAnswer["body"] });
      return outcome.replayed ? { ...answer, ...REPLAYED } : answer;
    } catch (error) {
      return toolErrorResult(error);
    }
  });

  // The default scope first, then the caller's other scopes: how a model finds the slugs it may pass as `scope`.
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const scopes = [...(defaultScope ? [{ slug: defaultScope, name: defaultScope }] : []), ...(await memberScopes())];
    const seen = new Set<string>();
    return {
      resources: scopes
        .filter((scope) => !seen.has(scope.slug) && seen.add(scope.slug))
        .map((scope) => ({ uri: `credence://${encodeURIComponent(scope.slug)}/summary`, name: `${scope.name} (${scope.slug}) summary`, mimeType: "application/json", description: SUMMARY_DESCRIPTION })),
    };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      { uriTemplate: "credence://{scope}/beliefs/{id}", name: "belief", title: "A belief with its history", mimeType: "application/json", description: "The same document get_belief returns." },
      { uriTemplate: "credence://{scope}/summary", name: "scope-summary", title: "Scope summary", mimeType: "application/json", description: SUMMARY_DESCRIPTION },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const belief = BELIEF_URI.exec(uri);
    const summary = SUMMARY_URI.exec(uri);
    try {
      let document: object;
      const segments = [belief?.[1], belief?.[2], summary?.[1]].filter((v): v is string => v !== undefined).map(decodeSegment);
      if (segments.some((v) => v.includes("\u0000"))) {
        throw new ApiError(422, "invalid", "The request has invalid fields.", { fields: [{ field: "uri", message: "must not contain the NUL character" }] });
      }
      if (belief?.[1] && belief[2]) {
        document = presentBeliefDetail(await services.getBelief(principal, decodeSegment(belief[1]), { beliefId: decodeSegment(belief[2]) }));
      } else if (summary?.[1]) {
        document = await scopeSummary(services, principal, decodeSegment(summary[1]));
      } else {
        throw new McpError(RESOURCE_NOT_FOUND, `Unknown resource ${uri}; expected credence://{scope}/beliefs/{id} or credence://{scope}/summary.`);
      }
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(document) }] };
    } catch (error) {
      if (error instanceof McpError) throw error;
      throw await resourceError(error);
    }
  });

  return server;
}

/** The scope at a glance: the overview counts plus the ten live beliefs with the highest tension (where memory disagrees). */
async function scopeSummary(services: BeliefServices, principal: Principal, scope: string) {
  const overview = await services.overview(principal, scope);
  const live = await services.listBeliefs(principal, scope, { liveOnly: true, limit: 1_000 });
  const mostContested = [...live]
    .sort((a, b) => b.tension - a.tension || b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, 10)
    .map((b) => ({ id: b.id, text: b.text, topic: b.topic, credence: b.credence, tension: b.tension, status: b.status }));
  return { ...overview, mostContested };
}
