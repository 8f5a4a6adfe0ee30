import { handleMcpRequest } from "@/lib/mcp/handle-mcp-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** MCP over Streamable HTTP (stateless, JSON answers): every JSON-RPC message is a POST. */
export function POST(request: Request): Promise<Response> {
  return handleMcpRequest(request);
}

/** No server-initiated stream and no session to end in stateless mode: 405, which MCP clients expect. */
function methodNotAllowed(): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless; send JSON-RPC messages with POST." }, id: null },
    { status: 405, headers: { allow: "POST", "cache-control": "no-store" } },
  );
}

export function GET(): Response {
  return methodNotAllowed();
}

export function DELETE(): Response {
  return methodNotAllowed();
}
