/**
 * Is this error the database being unreachable, down or frozen (as opposed to a bug or a refused statement)? Such a
 * failure is answered 503 `unavailable` with `Retry-After`, never a 500. Recognised wherever it comes from:
 * pg (connection refused or reset, the pool's connect timeout, the client's query read timeout, SQLSTATE class 08,
 * 57P01–57P03 shutdown / cannot connect, 57014 a statement cancelled by `statement_timeout`) and Prisma (P1001 can't
 * reach, P1002 timed out, P1008 operation timed out, P1017 connection closed, P2024 pool timeout), also when wrapped
 * (`cause`, Prisma's driver-adapter error).
 */

/** What a client is told to wait before retrying an outage. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "57014", "53300"]);
const NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /Can't reach database server/i,
  /connection (?:is )?(?:closed|ended)/i,
  /Client has encountered a connection error/i,
  /statement timeout/i,
  /the database system is (?:starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT/,
];

function fieldsOf(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : null;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    const fields = fieldsOf(current);
    if (fields === null || seen.has(current)) continue;
    seen.add(current);
    const code = typeof fields.code === "string" ? fields.code : undefined;
    if (code !== undefined && (PRISMA_CODES.has(code) || SQLSTATES.has(code) || NODE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    const message = typeof fields.message === "string" ? fields.message : "";
    if (MESSAGES.some((pattern) => pattern.test(message))) return true;
    queue.push(fields.cause, fieldsOf(fields.meta)?.driverAdapterError, fields.originalError);
    if (Array.isArray(fields.errors)) queue.push(...(fields.errors as unknown[]));
  }
  return false;
}

/** Pool timeouts (milliseconds), from the environment with defaults that keep a frozen database from hanging requests. */
export interface DatabaseTimeouts {
  /** Opening a connection (TCP and the startup handshake): `CREDENCE_DB_CONNECT_TIMEOUT_MS`, default 5 000. */
  connectMs: number;
  /** Server-side `statement_timeout`: `CREDENCE_DB_STATEMENT_TIMEOUT_MS`, default 30 000. */
  statementMs: number;
  /** Client-side wait for an answer (covers a server that stopped answering): statement timeout + 5 000. */
  queryMs: number;
}

function positive(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isFinite(parsed) && parsed > 0 ? Math.floor(parsed) : fallback;
}

export function databaseTimeoutsFromEnv(env: Record<string, string | undefined> = process.env): DatabaseTimeouts {
  const connectMs = positive(env.CREDENCE_DB_CONNECT_TIMEOUT_MS, 5_000);
  const statementMs = positive(env.CREDENCE_DB_STATEMENT_TIMEOUT_MS, 30_000);
  return { connectMs, statementMs, queryMs: statementMs + 5_000 };
}

/** The pg pool options for these timeouts (TCP keep-alive finds a dead peer on idle connections too). */
export function poolTimeoutOptions(timeouts: DatabaseTimeouts) {
  return {
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.queryMs,
    idle_in_transaction_session_timeout: timeouts.queryMs * 2,
    keepAlive: true,
  };
}
