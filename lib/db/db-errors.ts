/**
 * Is this error the database being unreachable, down or frozen (as opposed to a bug or a refused statement)? Such a
 * failure is answered 503 `unavailable` with `Retry-After`, never a 500. Recognised wherever it comes from:
 * pg (connection refused or reset, the pool's connect timeout, the client's query read timeout, SQLSTATE class 08,
 * 57P01–57P03 shutdown / cannot connect, 57014 a statement cancelled by `statement_timeout`) and Prisma (P1001 can't
 * reach, P1002 timed out, P1008 operation timed out, P1017 connection closed; a driver-adapter error of kind
 * ConnectionClosed, DatabaseNotReachable, SocketTimeout or TooManyConnections, e.g. a P2010 raw query whose connection
 * the stopping server closed), also when wrapped (`cause`, Prisma's driver-adapter error). A full pool is not an outage: see `isPoolBusy`.
 */

/** What a client is told to wait before retrying an outage. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** What a client is told to wait when every pooled connection was busy (the database itself is fine). */
export const DATABASE_BUSY_RETRY_AFTER_SECONDS = 1;

/** pg-pool's message when a request waited `connectionTimeoutMillis` in the queue for a connection: all were in use. */
const POOL_WAIT_TIMEOUT = /^timeout exceeded when trying to connect$/i;

const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017"]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "57014", "53300", "25P03"]);
/** Prisma's driver-adapter error kinds for a connection that is gone or never came (`driverAdapterError.cause.kind`). */
const ADAPTER_KINDS = new Set(["ConnectionClosed", "DatabaseNotReachable", "SocketTimeout", "TooManyConnections"]);
const NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const MESSAGES = [
  /Connection terminated/i,
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

/** The parts of an error worth classifying: itself, its causes, Prisma's driver-adapter error, aggregated errors. */
function* errorChain(error: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    const fields = fieldsOf(current);
    if (fields === null || seen.has(current)) continue;
    seen.add(current);
    yield fields;
    queue.push(fields.cause, fieldsOf(fields.meta)?.driverAdapterError, fields.originalError);
    if (Array.isArray(fields.errors)) queue.push(...(fields.errors as unknown[]));
  }
}

/**
 * Is this the connection pool being full (every connection busy for the whole wait), rather than the database being
 * down? Answered 503 `busy` with a short Retry-After. pg-pool raises it for a request that queued for a connection;
 * Prisma's P2024 is its own pool's timeout.
 */
export function isPoolBusy(error: unknown): boolean {
  for (const fields of errorChain(error)) {
    if (fields.code === "P2024") return true;
    if (typeof fields.message === "string" && POOL_WAIT_TIMEOUT.test(fields.message)) return true;
  }
  return false;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const fields of errorChain(error)) {
    const code = typeof fields.code === "string" ? fields.code : undefined;
    if (code !== undefined && (PRISMA_CODES.has(code) || SQLSTATES.has(code) || NODE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof fields.kind === "string" && ADAPTER_KINDS.has(fields.kind)) return true;
    const message = typeof fields.message === "string" ? fields.message : "";
    if (MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

/**
 * The pool size: `CREDENCE_DB_POOL_SIZE` (connections per process), else `fallback` (10 on a Postgres server, 4 for
 * the embedded database). A value that is not a positive integer is ignored.
 */
export function poolSizeFromEnv(fallback: number, env: Record<string, string | undefined> = process.env): number {
  return positive(env.CREDENCE_DB_POOL_SIZE, fallback);
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
