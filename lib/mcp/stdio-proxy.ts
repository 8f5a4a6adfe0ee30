/**
 * The stdio MCP server for clients that launch a local process: a thin proxy to a running Credence server's
 * `/api/mcp` (the embedded database belongs to that one process). It connects as an MCP client over Streamable HTTP
 * with the API token, then re-exposes the upstream tools and resources unchanged over stdio — results, tool errors
 * and protocol errors pass through as the server wrote them.
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
  upstream: Client;
  server: Server;
  close(): Promise<void>;
}

/** Connects upstream first (a bad token or a server that is down fails here, before stdio is served). */
export async function startStdioProxy(config: McpProxyConfig, io: { stdin?: Readable; stdout?: Writable } = {}): Promise<McpProxy> {
  const upstream = new Client({ name: "credence-mcp-stdio", version: "0.1.0" });
  await upstream.connect(new StreamableHTTPClientTransport(mcpEndpoint(config), { requestInit: { headers: { authorization: `Bearer ${config.token}` } } }));

  const info = upstream.getServerVersion();
  const instructions = upstream.getInstructions();
  const server = new Server(
    { name: info?.name ?? "credence", version: info?.version ?? "0.0.0", ...(info?.title ? { title: info.title } : {}) },
    { capabilities: { tools: {}, resources: {} }, ...(instructions ? { instructions } : {}) },
  );
  const options = { timeout: UPSTREAM_TIMEOUT_MS };
  server.setRequestHandler(ListToolsRequestSchema, (request) => upstream.listTools(request.params, options));
  server.setRequestHandler(CallToolRequestSchema, (request) => upstream.callTool(request.params, undefined, options));
  server.setRequestHandler(ListResourcesRequestSchema, (request) => upstream.listResources(request.params, options));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => upstream.listResourceTemplates(request.params, options));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => upstream.readResource(request.params, options));

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.close().catch(() => {});
    await upstream.close().catch(() => {});
  };
  server.onclose = () => void close();
  await server.connect(new StdioServerTransport(io.stdin, io.stdout));
  return { upstream, server, close };
}
