import { createHash } from "node:crypto";
import type { Principal } from "@/lib/access/principal";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { ApiError } from "./api-error";

/** How long a key is remembered (SPEC §7 asks for idempotent writes; 24 h is the usual retry horizon). */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A pending key untouched this long belongs to a request that died mid-way; a retry takes it over. */
export const IDEMPOTENCY_LEASE_SECONDS = 300;
/** Printable ASCII without spaces, 1–255 characters (a UUID fits; so does any client's own scheme). */
export const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: string;
}

/** A fresh claim runs the request and then records (or abandons) it; a replay hands back the first response. */
export type IdempotencyClaim =
  | { kind: "fresh"; complete(response: StoredResponse): Promise<void>; abandon(): Promise<void> }
  | { kind: "replay"; response: StoredResponse };

export interface ClaimOptions {
  /** Who is asking; keys of different principals never meet. */
  principal: string;
  key: string;
  /** `fingerprintRequest(...)` of the request. */
  fingerprint: string;
  /** How long a concurrent duplicate waits for the first request to finish before 409 `idempotency_in_progress`. */
  waitMs?: number;
  /** Poll interval while waiting; default 25 ms. */
  pollMs?: number;
}

/** The `Idempotency-Key` header, validated; null when absent. */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get("idempotency-key");
  if (key === null) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(422, "invalid", "The request has invalid fields.", {
      fields: [{ field: "header.Idempotency-Key", message: "must be 1–255 printable ASCII characters without spaces" }],
    });
  }
  return key;
}

/** sha-256 over method, path with query and the raw body: "the same request" means these bytes. */
export function fingerprintRequest(method: string, url: URL, body: string): string {
  return createHash("sha256").update(`${method.toUpperCase()} ${url.pathname}${url.search}\n`).update(body).digest("hex");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Row = { fingerprint: string; state: "pending" | "done"; status: number | null; body: string | null; stale: boolean };

/**
 * Claims `key` for this principal. Exactly one of any number of concurrent requests gets `fresh` (the INSERT …
 * ON CONFLICT DO NOTHING decides); the others wait for its response and replay it. A different request under the same
 * key is 409 `idempotency_conflict`. Time comes from the database (`now()`), so several app processes agree.
 */
export async function claimIdempotencyKey(sql: SqlExecutor, options: ClaimOptions): Promise<IdempotencyClaim> {
  const { principal, key, fingerprint } = options;
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  const abandon = async () => {
    await sql.query(`DELETE FROM "api_idempotency_keys" WHERE "principal" = $1 AND "key" = $2 AND "state" = 'pending' AND "fingerprint" = $3`, [
      principal,
      key,
      fingerprint,
    ]);
  };
  const complete = async (response: StoredResponse) => {
    if (response.status >= 500) return abandon();
    await sql.query(
      `UPDATE "api_idempotency_keys" SET "state" = 'done', "status" = $3, "body" = $4 WHERE "principal" = $1 AND "key" = $2 AND "fingerprint" = $5`,
      [principal, key, response.status, response.body, fingerprint],
    );
  };
  const fresh = (): IdempotencyClaim => ({ kind: "fresh", complete, abandon });

  for (;;) {
    await sql.query(`DELETE FROM "api_idempotency_keys" WHERE "principal" = $1 AND "key" = $2 AND "expires_at" <= now()`, [principal, key]);
    const inserted = await sql.query(
      `INSERT INTO "api_idempotency_keys" ("principal", "key", "fingerprint", "state", "expires_at")
       VALUES ($1, $2, $3, 'pending', now() + make_interval(hours => $4::int))
       ON CONFLICT ("principal", "key") DO NOTHING RETURNING "key"`,
      [principal, key, fingerprint, IDEMPOTENCY_TTL_HOURS],
    );
    if (inserted.length > 0) return fresh();

    const [row] = await sql.query<Row>(
      `SELECT "fingerprint", "state", "status", "body", "claimed_at" <= now() - make_interval(secs => $3::int) AS "stale"
         FROM "api_idempotency_keys" WHERE "principal" = $1 AND "key" = $2`,
      [principal, key, IDEMPOTENCY_LEASE_SECONDS],
    );
    if (!row) continue; // expired or abandoned between the INSERT and the SELECT: claim again
    if (row.fingerprint !== fingerprint) {
      throw new ApiError(409, "idempotency_conflict", "This Idempotency-Key was already used with a different request.", { idempotencyKey: key });
    }
    if (row.state === "done" && row.status !== null && row.body !== null) return { kind: "replay", response: { status: row.status, body: row.body } };
    if (row.stale) {
      const taken = await sql.query(
        `UPDATE "api_idempotency_keys" SET "claimed_at" = now() WHERE "principal" = $1 AND "key" = $2 AND "state" = 'pending'
            AND "claimed_at" <= now() - make_interval(secs => $3::int) RETURNING "key"`,
        [principal, key, IDEMPOTENCY_LEASE_SECONDS],
      );
      if (taken.length > 0) return fresh();
    }
    if (Date.now() >= deadline) {
      throw new ApiError(409, "idempotency_in_progress", "A request with this Idempotency-Key is still running; retry later.", { idempotencyKey: key });
    }
    await sleep(options.pollMs ?? 25);
  }
}

/** Removes expired keys (any principal); returns how many. Called now and then, never on the request's own path. */
export async function purgeExpiredIdempotencyKeys(sql: SqlExecutor): Promise<number> {
  const rows = await sql.query(`DELETE FROM "api_idempotency_keys" WHERE "expires_at" <= now() RETURNING "key"`);
  return rows.length;
}

/** Keys of different principals never meet: a token limited to one scope is a different principal from its user. */
export function principalKey(principal: Principal): string {
  return `${principal.userId}|${principal.tokenScopeId ?? "*"}`;
}
