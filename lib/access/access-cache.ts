/**
 * Access rows kept between requests: the principal behind an API token and the authorised view of (principal, scope),
 * each stored with the value of the database's access counter (`access_epoch`, moved at the commit of every change to
 * memberships, grants, scopes, parameter sets and tokens: prisma/migrations/20261205120000_access_epoch). A request
 * reads the counter once (one primary-key read instead of the token's and the view's statements) and reuses a kept
 * row only when it was read under that same value, so a change applies to the next request on every server sharing
 * the database, exactly as when nothing was kept.
 *
 * Why the counter is read first: rows read after it are at least as new as it, so a row kept under value E never
 * predates a change that moved the counter to E. Used only inside a request (`oncePerRequest`) and only on the
 * database itself, never inside a transaction (a transaction's own uncommitted changes have not moved the counter).
 */
import type { Database } from "@/lib/db/database";
import { oncePerRequest } from "@/lib/ops/request-context";

/** Rows kept per database; the oldest kept is dropped first beyond this. */
const MAX_ENTRIES = 4096;

interface Kept {
  epoch: string;
  value: unknown;
  /** When it was read (ms since the epoch of the clock passed in). */
  readAt: number;
}

type Db = Pick<Database, "prisma">;

/** One cache per database (its Prisma client): a test's fresh database never meets another's counter values. */
const caches = new WeakMap<object, Map<string, Kept>>();
/** The per-request memo key of each database's counter read. */
const epochKeys = new WeakMap<object, object>();

function cacheOf(db: Db): Map<string, Kept> {
  let cache = caches.get(db.prisma);
  if (cache === undefined) {
    cache = new Map();
    caches.set(db.prisma, cache);
  }
  return cache;
}

/** The access counter as this request reads it (one read per request and database); null outside a request. */
function requestEpoch(db: Db): Promise<string> | null {
  let key = epochKeys.get(db.prisma);
  if (key === undefined) {
    key = {};
    epochKeys.set(db.prisma, key);
  }
  const read = oncePerRequest(key, async () => {
    const [row] = await db.prisma.$queryRaw<{ epoch: string }[]>`SELECT "epoch"::text AS "epoch" FROM "access_epoch" WHERE "id" = 1`;
    if (!row) throw new Error("access_epoch has no row: the database's migrations are incomplete");
    return row.epoch;
  });
  return read ?? null;
}

export interface CachedAccessOptions<T> {
  /** A kept row older than this is read again even under the same counter value (default: no age limit). */
  maxAgeMs?: number;
  /** Whether a value may be kept (default: every value). */
  keep?: (value: T) => boolean;
  /** The clock, ms (default `Date.now()`). */
  now?: number;
}

/**
 * `load()`'s value for `key`, reused from an earlier request while the access counter has not moved (module comment).
 * Outside a request it is always `load()`.
 */
export async function cachedAccess<T>(db: Db, key: string, load: () => Promise<T>, options: CachedAccessOptions<T> = {}): Promise<T> {
  const reading = requestEpoch(db);
  if (reading === null) return load();
  const epoch = await reading;
  const cache = cacheOf(db);
  const now = options.now ?? Date.now();
  const kept = cache.get(key);
  if (kept !== undefined && kept.epoch === epoch && (options.maxAgeMs === undefined || now - kept.readAt < options.maxAgeMs)) return kept.value as T;
  const value = await load();
  cache.delete(key);
  if (options.keep?.(value) ?? true) {
    cache.set(key, { epoch, value, readAt: now });
    while (cache.size > MAX_ENTRIES) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  }
  return value;
}
