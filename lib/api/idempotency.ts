import { createHash, randomUUID } from "node:crypto";
import type { Principal } from "@/lib/access/principal";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { IDEMPOTENCY_MARK_HOURS, runUnderIdempotencyClaim, type IdempotencyMarks } from "@/lib/graph/idempotency-mark";
import { processValue } from "@/lib/process-singleton";
import { ApiError } from "./api-error";

/** How long a key is remembered (docs/design.md §7 asks for idempotent writes; 24 h is the usual retry horizon). */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A pending key untouched this long belongs to a request that died mid-way; a retry takes it over. */
export const IDEMPOTENCY_LEASE_SECONDS = 300;
/** Printable ASCII without spaces, 1–255 characters (a UUID fits; so does any client's own scheme). */
export const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Answers that say "not now" (timeout, conflict or frozen topic, too early, rate limit): the same request may pass later. */
const NOT_NOW = new Set([408, 409, 425, 429]);

/**
 * Whether an answer is final, i.e. the same request would get it again: 2xx and 4xx except "not now" answers, and no
 * 5xx. Only final answers are stored under a key; a retry after any other runs the request again.
 */
export function isFinalStatus(status: number): boolean {
  return status < 500 && !NOT_NOW.has(status);
}

/**
 * Whether a response is kept under its key: a final one; a 5xx whose request committed a write (a retry must not
 * write again); never a "not now" answer, since all such a request writes is the journal of its refusal, and a retry
 * is a new attempt.
 */
function keeps(status: number, committed: boolean): boolean {
  return isFinalStatus(status) || (status >= 500 && committed);
}

export interface StoredResponse {
  status: number;
  body: string;
}

/**
 * A fresh claim runs the request and then records (or abandons) it; a replay hands back the first response. A fresh
 * claim that took a stale key over (`takeover`) may belong to a request whose write committed before it died: the
 * graph store's marks of `claimId` tell (see `runClaimed`).
 */
export type IdempotencyClaim =
  | {
      kind: "fresh";
      claimId: string;
      takeover: boolean;
      /** Stores the response if it `keeps` (`keep`: a write of the request committed); otherwise frees the key. */
      complete(response: StoredResponse, options?: { keep?: boolean }): Promise<void>;
      abandon(): Promise<void>;
    }
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

type Row = { fingerprint: string; state: "pending" | "done"; status: number | null; body: string | null; claim_id: string; stale: boolean };

/**
 * Claims `key` for this principal. Exactly one of any number of concurrent requests gets `fresh` (the INSERT …
 * ON CONFLICT DO NOTHING decides); the others wait for its response and replay it. A different request under the same
 * key is 409 `idempotency_conflict`. Time comes from the database (`now()`), so several app processes agree.
 */
export async function claimIdempotencyKey(sql: SqlExecutor, options: ClaimOptions): Promise<IdempotencyClaim> {
  const { principal, key, fingerprint } = options;
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  const fresh = (claimId: string, takeover: boolean): IdempotencyClaim => {
    const abandon = async () => {
      await sql.query(`DELETE FROM "api_idempotency_keys" WHERE "principal" = $1 AND "key" = $2 AND "state" = 'pending' AND "claim_id" = $3`, [principal, key, claimId]);
    };
    const complete = async (response: StoredResponse, completion: { keep?: boolean } = {}) => {
      if (!keeps(response.status, completion.keep === true)) return abandon();
      await sql.query(`UPDATE "api_idempotency_keys" SET "state" = 'done', "status" = $3, "body" = $4 WHERE "principal" = $1 AND "key" = $2 AND "claim_id" = $5`, [
        principal,
        key,
        response.status,
        response.body,
        claimId,
      ]);
    };
    return { kind: "fresh", claimId, takeover, complete, abandon };
  };

  for (;;) {
    // One statement claims a free key: a new row, or an expired one taken over whole (new fingerprint, state, claim
    // and times, as if deleted and inserted). A live row is left alone and nothing is returned.
    const claimId = randomUUID();
    const inserted = await sql.query(
      `INSERT INTO "api_idempotency_keys" ("principal", "key", "fingerprint", "state", "expires_at", "claim_id")
       VALUES ($1, $2, $3, 'pending', now() + make_interval(hours => $4::int), $5)
       ON CONFLICT ("principal", "key") DO UPDATE SET "fingerprint" = EXCLUDED."fingerprint", "state" = 'pending', "status" = NULL,
         "body" = NULL, "created_at" = now(), "claimed_at" = now(), "expires_at" = EXCLUDED."expires_at", "claim_id" = EXCLUDED."claim_id"
       WHERE "api_idempotency_keys"."expires_at" <= now()
       RETURNING "key"`,
      [principal, key, fingerprint, IDEMPOTENCY_TTL_HOURS, claimId],
    );
    if (inserted.length > 0) return fresh(claimId, false);

    const [row] = await sql.query<Row>(
      `SELECT "fingerprint", "state", "status", "body", "claim_id", "claimed_at" <= now() - make_interval(secs => $3::int) AS "stale"
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
      if (taken.length > 0) return fresh(row.claim_id, true);
    }
    if (Date.now() >= deadline) {
      throw new ApiError(409, "idempotency_in_progress", "A request with this Idempotency-Key is still running; retry later.", { idempotencyKey: key });
    }
    await sleep(options.pollMs ?? 25);
  }
}

type FaultHook = () => void | Promise<void>;
const faultHook = processValue<FaultHook | undefined>("__credenceIdempotencyFault", () => undefined);

/**
 * Fault injection for tests: runs after the request's writes committed and before its response is recorded — the
 * window a crash must not turn into a second write. A hook that throws stands for the process dying there.
 */
export function setIdempotencyFault(hook: FaultHook | undefined): void {
  faultHook.set(hook);
}

/**
 * The answer to a retry whose first attempt committed its writes but died before recording its response: the write
 * is not run again; the body says so and names the change-sets that were written.
 */
export function recoveredResponse(key: string, changeSetIds: readonly string[]): StoredResponse {
  return {
    status: 200,
    body: JSON.stringify({
      idempotency: { key, recovered: true, changeSetIds },
      message: "An earlier request with this Idempotency-Key was written but its answer was lost; it was not written again.",
    }),
  };
}

/**
 * Runs a fresh claim's request: a takeover whose claim has marks answers `recoveredResponse` without running; otherwise
 * `run` executes with the claim ambient (each change-set it applies writes a mark in its own transaction) and its
 * response is recorded — kept even when it is a 5xx if any write committed, so a retry never writes again.
 */
export async function runClaimed(
  claim: Extract<IdempotencyClaim, { kind: "fresh" }>,
  ids: { principal: string; key: string; marks: () => Promise<IdempotencyMarks> },
  run: () => Promise<StoredResponse>,
): Promise<{ response: StoredResponse; replayed: boolean }> {
  if (claim.takeover) {
    const marks = await (await ids.marks()).list(ids.principal, ids.key, claim.claimId);
    if (marks.length > 0) {
      const response = recoveredResponse(ids.key, marks.map((m) => m.changeSetId));
      await recordCompletion(claim, response, true);
      return { response, replayed: true };
    }
  }
  const { value: response, committed } = await runUnderIdempotencyClaim({ principal: ids.principal, key: ids.key, claimId: claim.claimId }, run);
  await faultHook.get()?.();
  await recordCompletion(claim, response, committed > 0);
  return { response, replayed: false };
}

async function recordCompletion(claim: Extract<IdempotencyClaim, { kind: "fresh" }>, response: StoredResponse, keep: boolean): Promise<void> {
  try {
    await claim.complete(response, { keep });
  } catch (error) {
    // The write happened: answer it. The key stays pending until its lease ends; the marks stop a second write.
    console.error("idempotency: could not record a response", error);
  }
}

/** Removes expired keys (any principal); returns how many. Called now and then, never on the request's own path. */
export async function purgeExpiredIdempotencyKeys(sql: SqlExecutor, marks?: IdempotencyMarks): Promise<number> {
  const rows = await sql.query(`DELETE FROM "api_idempotency_keys" WHERE "expires_at" <= now() RETURNING "key"`);
  if (marks) await marks.purge(IDEMPOTENCY_MARK_HOURS);
  return rows.length;
}

/** Keys of different principals never meet: a token limited to one scope is a different principal from its user. */
export function principalKey(principal: Principal): string {
  return `${principal.userId}|${principal.tokenScopeId ?? "*"}`;
}
