/**
 * stdio MCP server proxying to a running Credence server's `/api/mcp` (see docs/mcp.md):
 *
 *   npx tsx bin/mcp.ts --token T [--scope S] [--url http://127.0.0.1:3000]
 *   CREDENCE_TOKEN=T CREDENCE_SCOPE=S CREDENCE_URL=U npx tsx bin/mcp.ts
 *
 * Flags win over the environment. stdout carries the protocol only; every message goes to stderr as one line
 * (`credence-mcp: …`), never a stack trace. A closed stdout or stdin (the client went away) ends the process quietly.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { mcpEndpoint, parseMcpProxyConfig, startStdioProxy, type McpProxy } from "@/lib/mcp/stdio-proxy";

const USAGE = "usage: npx tsx bin/mcp.ts --token T [--scope S] [--url U] (or CREDENCE_TOKEN, CREDENCE_SCOPE, CREDENCE_URL)";

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

function fail(text: string, code: number): never {
  process.stderr.write(`credence-mcp: ${text}\n`);
  process.exit(code);
}

/** A pipe whose other end is gone (EPIPE, a reset, a destroyed stream): the client left, so we leave too. */
function clientGone(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "EPIPE" || code === "ECONNRESET" || code === "ERR_STREAM_DESTROYED" || code === "ERR_STREAM_WRITE_AFTER_END";
}

for (const stream of [process.stdout, process.stdin]) {
  stream.on("error", (error) => (clientGone(error) ? process.exit(0) : fail(message(error), 1)));
}
process.on("uncaughtException", (error) => (clientGone(error) ? process.exit(0) : fail(message(error), 1)));
process.on("unhandledRejection", (error) => (clientGone(error) ? process.exit(0) : fail(message(error), 1)));

/** The endpoint without its query, for messages. */
function endpointOf(config: Parameters<typeof mcpEndpoint>[0]): string {
  const url = mcpEndpoint(config);
  return `${url.origin}${url.pathname}`;
}

function readFlags(): { url?: string; token?: string; scope?: string } {
  // A launcher that passes a lone `--` through (`… bin/mcp.ts -- --token T`) still means the flags after it.
  const args = process.argv.slice(2);
  if (args[0] === "--") args.shift();
  try {
    return parseArgs({ args, options: { url: { type: "string" }, token: { type: "string" }, scope: { type: "string" } }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    fail(`${message(error)}; ${USAGE}`, 2);
  }
}

async function main(): Promise<void> {
  const flags = readFlags();
  let config;
  try {
    config = parseMcpProxyConfig(flags, process.env);
  } catch (error) {
    // Under `npm run mcp`, a launcher that dropped the `--` lets npm take the flags for its own.
    const viaNpm = process.env.npm_lifecycle_event === "mcp" && flags.token === undefined ? " (npm may have taken the flags for itself: launch `npx tsx bin/mcp.ts --token …`, or set CREDENCE_TOKEN)" : "";
    fail(`${error instanceof z.ZodError ? error.issues.map((i) => i.message).join("; ") : message(error)}${viaNpm}`, 2);
  }
  const endpoint = endpointOf(config);
  let proxy: McpProxy;
  try {
    proxy = await startStdioProxy(config);
  } catch (error) {
    fail(`cannot serve stdio: ${message(error)}`, 1);
  }
  const refused = (error: unknown) => fail(`cannot connect to ${endpoint}: ${message(error)}`, 1);
  proxy.upstream.then(
    () => process.stderr.write(`credence-mcp: proxying stdio to ${endpoint}${config.scope ? ` (default scope ${config.scope})` : ""}\n`),
    refused,
  );
  // The client closed stdin: finish connecting (a refusal still says why, with exit 1), then leave.
  const stop = () =>
    void proxy.upstream.then(
      () => proxy.close().then(() => process.exit(0)),
      refused,
    );
  process.stdin.on("end", stop);
  process.on("SIGINT", () => void proxy.close().then(() => process.exit(0)));
  process.on("SIGTERM", () => void proxy.close().then(() => process.exit(0)));
}

void main();
