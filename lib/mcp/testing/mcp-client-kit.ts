import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export const MCP_TOOL_NAMES = [
  "remember",
  "assimilate",
  "recall",
  "search_beliefs",
  "get_belief",
  "propose_mutation",
  "retract_source",
  "correct_relation",
  "harvest_claims",
  "list_scopes",
  "create_scope",
  "list_members",
  "add_member",
  "change_member_role",
  "remove_member",
  "list_grants",
  "add_grant",
  "remove_grant",
] as const;

export interface ToolAnswer {
  isError: boolean;
  /** The first text content (what a model reads). */
  text: string;
  structured: Record<string, unknown>;
  meta: Record<string, unknown>;
}

/** Calls a tool and returns its answer in one shape, for success and tool errors alike. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  const text = content.find((c) => c.type === "text")?.text ?? "";
  const structured = (result.structuredContent as Record<string, unknown> | undefined) ?? {};
  return { isError: result.isError === true, text, structured, meta: (result._meta as Record<string, unknown> | undefined) ?? {} };
}
