/**
 * The stdio MCP server for clients that launch a local process: a thin proxy to a running Credence server's
 * `/api/mcp` (the embedded database belongs to that one process). It serves stdio at once and answers `initialize` by
 * itself (a client's connect timeout never waits on the server), while it connects upstream as an MCP client over
 * Streamable HTTP with the API token; every other request waits for that connection, then passes through unchanged —
 * results, tool errors and protocol errors as the server wrote them.
 */
import type { Readable, Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { MCP_INSTRUCTIONS, MCP_SERVER_NAME, MCP_SERVER_TITLE, MCP_SERVER_VERSION } from "./server-identity";

export const DEFAULT_CREDENCE_URL = "http://127.0.0.1:3000";

/** An ingest runs the assessor on every claim; with a remote model that can take minutes. */
const UPSTREAM_TIMEOUT_MS = 300_000;

export const mcpProxyConfigSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: "--url (or CREDENCE_URL) must be an http(s) URL" }).default(DEFAULT_CREDENCE_URL),
  token: z.string({ error: "--token (or CREDENCE_TOKEN) is required: create one with `npm run cli -- token create --email E [--scope S]`" }).trim().min(1, "--token (or CREDENCE_TOKEN) must not be empty"),
  scope: z.string().trim().min(1).optional(),
});
export type McpProxyConfig = z.output<typeof mcpProxyConfigSchema>;

/** Flags win over the environment (`CREDENCE_URL`, `CREDENCE_TOKEN`, `CREDENCE_SCOPE`); blanks count as absent. */
export function parseMcpProxyConfig(flags: { url?: string; token?: string; scope?: string }, env: Record<string, string | undefined>): McpProxyConfig {
  const pick = (flag: string | undefined, name: string) => (flag?.trim() ? flag : env[name]?.trim() ? env[name] : undefined);
  return mcpProxyConfigSchema.parse({ url: pick(flags.url, "CREDENCE_URL"), token: pick(flags.token, "CREDENCE_TOKEN"), scope: pick(flags.scope, "CREDENCE_SCOPE") });
}

/** `${url}/api/mcp` (under the URL's path, so a server behind a path prefix works), with `?scope=` as the default scope. */
export function mcpEndpoint(config: McpProxyConfig): URL {
  const endpoint = new URL("api/mcp", config.url.endsWith("/") ? config.url : `${config.url}/`);
  if (config.scope) endpoint.searchParams.set("scope", config.scope);
  return endpoint;
}

export interface McpProxy {
  /** Settles once the upstream connection is made (or refused: a bad token, a server that is down). */
  upstream: Promise<Client>;
  server: Server;
  close(): Promise<void>;
}

/** Connects upstream: an MCP client of the server's `/api/mcp`, authenticated with the token. */
export async function connectUpstream(config: McpProxyConfig): Promise<Client> {
  const upstream = new Client({ name: "credence-mcp-stdio", version: MCP_SERVER_VERSION });
  await upstream.connect(new StreamableHTTPClientTransport(mcpEndpoint(config), { requestInit: { headers: { authorization: `Bearer ${config.token}` } } }));
  return upstream;
}

/**
 * Serves MCP on stdio (or the given streams) for `config`'s server. `initialize` is answered here with the server's own
 * name, version and instructions; the upstream connection starts at once and every later request waits for it.
 */
export async function startStdioProxy(config: McpProxyConfig, io: { stdin?: Readable; stdout?: Writable } = {}): Promise<McpProxy> {
  const upstream = connectUpstream(config);
  upstream.catch(() => {}); // the caller hears of a failure through `upstream`; requests answer it as an error
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION, title: MCP_SERVER_TITLE },
    { capabilities: { tools: {}, resources: {} }, instructions: MCP_INSTRUCTIONS },
  );
  const options = { timeout: UPSTREAM_TIMEOUT_MS };
  server.setRequestHandler(ListToolsRequestSchema, async (request) => (await upstream).listTools(request.params, options));
  server.setRequestHandler(CallToolRequestSchema, async (request) => (await upstream).callTool(request.params, undefined, options));
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => (await upstream).listResources(request.params, options));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request) => (await upstream).listResourceTemplates(request.params, options));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => (await upstream).readResource(request.params, options));

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.close().catch(() => {});
    await upstream.then((client) => client.close()).catch(() => {});
  };
  server.onclose = () => void close();
  await server.connect(new StdioServerTransport(io.stdin, io.stdout));
  return { upstream, server, close };
}
