/**
 * `idempotencyKey` on a write tool: the REST API's Idempotency-Key semantics (lib/api/idempotency) for a tool call.
 * The first call under a key runs and its final answer is kept 24 h (`isFinalStatus`: tool errors included; failures of ours, conflicts and rate limits excepted); a retry
 * with the same key and the same arguments gets that answer back without writing again; other arguments under the key
 * are `idempotency_conflict`. Keys are per principal and shared with the REST API's (one key, one request).
 */
import type { Principal } from "@/lib/access/principal";
import { ApiError } from "@/lib/api/api-error";
import { claimIdempotencyKey, fingerprintRequest, KEY_PATTERN, principalKey, runClaimed } from "@/lib/api/idempotency";
import { getGraphStore } from "@/lib/graph/select-graph-store";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { mcpErrorAnswer } from "./mcp-error";


export type ToolOutcome = { ok: true; result: object; replayed: boolean } | { ok: false; status: number; body: object; replayed: boolean };

export function parseIdempotencyKey(value: unknown): string {
  if (typeof value === "string" && KEY_PATTERN.test(value)) return value;
  throw new ApiError(422, "invalid", "The request has invalid fields.", {
    fields: [{ field: "idempotencyKey", message: "must be 1–255 printable ASCII characters without spaces" }],
  });
}

export async function runIdempotentTool(
  sql: SqlExecutor,
  call: { principal: Principal; key: string; tool: string; scope: string; args: Record<string, unknown> },
  run: () => Promise<object>,
): Promise<ToolOutcome> {
  const fingerprint = fingerprintRequest("POST", new URL(`mcp://credence/tools/${encodeURIComponent(call.tool)}?scope=${encodeURIComponent(call.scope)}`), JSON.stringify(call.args));
  const who = principalKey(call.principal);
  const claim = await claimIdempotencyKey(sql, { principal: who, key: call.key, fingerprint });
  const fromStored = (stored: { status: number; body: string }, replayed: boolean): ToolOutcome => {
    const body = JSON.parse(stored.body) as object;
    return stored.status < 400 ? { ok: true, result: body, replayed } : { ok: false, status: stored.status, body, replayed };
  };
  if (claim.kind === "replay") return fromStored(claim.response, true);
  // The write and its mark share one transaction; a takeover of a key whose write committed answers without writing.
  const { response, replayed } = await runClaimed(claim, { principal: who, key: call.key, marks: async () => (await getGraphStore()).idempotency }, async () => {
    try {
      return { status: 200, body: JSON.stringify(await run()) };
    } catch (error) {
      const { status, body } = await mcpErrorAnswer(error);
      return { status, body: JSON.stringify(body) };
    }
  });
  return fromStored(response, replayed);
}
