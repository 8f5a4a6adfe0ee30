/**
 * `idempotencyKey` on a write tool: the REST API's Idempotency-Key semantics (lib/api/idempotency) for a tool call.
 * The first call under a key runs and its answer is kept 24 h (tool errors included, failures of ours excepted); a retry
 * with the same key and the same arguments gets that answer back without writing again; other arguments under the key
 * are `idempotency_conflict`. Keys are per principal and shared with the REST API's (one key, one request).
 */
import type { Principal } from "@/lib/access/principal";
import { ApiError } from "@/lib/api/api-error";
import { claimIdempotencyKey, fingerprintRequest, KEY_PATTERN, principalKey } from "@/lib/api/idempotency";
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
  const claim = await claimIdempotencyKey(sql, { principal: principalKey(call.principal), key: call.key, fingerprint });
  if (claim.kind === "replay") {
    const body = JSON.parse(claim.response.body) as object;
    return claim.response.status < 400 ? { ok: true, result: body, replayed: true } : { ok: false, status: claim.response.status, body, replayed: true };
  }
  let outcome: ToolOutcome;
  try {
    outcome = { ok: true, result: await run(), replayed: false };
  } catch (error) {
    const { status, body } = await mcpErrorAnswer(error);
    outcome = { ok: false, status, body, replayed: false };
  }
  try {
    await claim.complete(outcome.ok ? { status: 200, body: JSON.stringify(outcome.result) } : { status: outcome.status, body: JSON.stringify(outcome.body) });
  } catch (error) {
    // The write happened: answer it. The key stays pending until its lease ends (IDEMPOTENCY_LEASE_SECONDS).
    console.error("mcp: could not record an idempotent answer", error);
  }
  return outcome;
}
