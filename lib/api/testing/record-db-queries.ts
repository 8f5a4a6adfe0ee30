/**
 * Records every statement this process sends to Postgres (Prisma through adapter-pg and the raw-SQL port on a server
 * both end in `pg.Client#query`; the raw-SQL port on the embedded PGlite is observed where it sends, `observeStatements`)
 * and, through `recordCypher`, to Neo4j, so a test can prove that a hidden id and a missing id take the same queries end to end:
 * authentication, the authorised view, the store lookups, the writes.
 */
import pg from "pg";
import { observeStatements } from "@/lib/db/pglite-executor";

export interface DbQuery {
  text: string;
  params: unknown[];
}

type QueryArgs = [unknown, ...unknown[]];

let active: DbQuery[] | null = null;

/** Give this to the Neo4j store (`onQuery`): its Cypher joins the current recording, in order with the SQL. */
export function recordCypher(cypher: string, params: Record<string, unknown>): void {
  active?.push({ text: cypher, params: [params] });
}

/** Runs `fn` with recording on; returns its result and the statements, in the order they were sent. */
export async function recordDbQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: DbQuery[] }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: QueryArgs) => unknown };
  const original = proto.query;
  const queries: DbQuery[] = [];
  active = queries;
  proto.query = function recorded(this: unknown, ...args: QueryArgs) {
    const [first, second] = args;
    if (typeof first === "string") queries.push({ text: first, params: Array.isArray(second) ? [...(second as unknown[])] : [] });
    else if (first && typeof first === "object" && "text" in first) {
      const config = first as { text: string; values?: unknown[] };
      queries.push({ text: config.text, params: Array.isArray(second) ? [...(second as unknown[])] : [...(config.values ?? [])] });
    }
    return original.apply(this, args);
  };
  const stopObserving = observeStatements((text, params) => queries.push({ text, params: [...params] }));
  try {
    const result = await fn();
    return { result, queries };
  } finally {
    proto.query = original;
    stopObserving();
    active = null;
  }
}

const TIMESTAMP = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?/g;

/**
 * The statements with `ids` replaced by `<ID>` and clock readings by `<TIME>`: two runs that differ only in which id
 * was asked for (and when) compare equal.
 */
export function maskQueries(queries: readonly DbQuery[], ids: readonly string[]): { text: string; params: string }[] {
  return queries.map((query) => {
    let params = JSON.stringify(query.params, (_key, value: unknown) => (value instanceof Date ? "<TIME>" : value));
    for (const id of ids) params = params.split(id).join("<ID>");
    return { text: query.text, params: params.replace(TIMESTAMP, "<TIME>") };
  });
}
