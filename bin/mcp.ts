/**
 * stdio MCP server proxying to a running Credence server's `/api/mcp` (see docs/mcp.md):
 *
 *   npm run -s mcp -- --token T [--scope S] [--url http://127.0.0.1:3000]
 *
 * or the environment: CREDENCE_TOKEN, CREDENCE_SCOPE, CREDENCE_URL. stdout carries the protocol only; messages go to stderr.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { mcpEndpoint, parseMcpProxyConfig, startStdioProxy } from "@/lib/mcp/stdio-proxy";

function fail(message: string, code: number): never {
  process.stderr.write(`credence-mcp: ${message}\n`);
  process.exit(code);
}

/** The endpoint without its query, for messages. */
function endpointOf(config: Parameters<typeof mcpEndpoint>[0]): string {
  const url = mcpEndpoint(config);
  return `${url.origin}${url.pathname}`;
}

async function main(): Promise<void> {
  let flags: { url?: string; token?: string; scope?: string };
  try {
    flags = parseArgs({ options: { url: { type: "string" }, token: { type: "string" }, scope: { type: "string" } }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}; usage: npm run -s mcp -- --token T [--scope S] [--url U]`, 2);
  }
  let config;
  try {
    config = parseMcpProxyConfig(flags, process.env);
  } catch (error) {
    fail(error instanceof z.ZodError ? error.issues.map((i) => i.message).join("; ") : String(error), 2);
  }
  let proxy;
  try {
    proxy = await startStdioProxy(config);
  } catch (error) {
    fail(`cannot connect to ${endpointOf(config)}: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
  process.stderr.write(`credence-mcp: proxying stdio to ${endpointOf(config)}${config.scope ? ` (default scope ${config.scope})` : ""}\n`);
  const stop = () => void proxy.close().then(() => process.exit(0));
  process.stdin.on("end", stop);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
