/**
 * Test harness for the REST route handlers: one embedded PGlite (migrated template copy) registered as the
 * process-wide database, the SQL graph store registered beside it, and identity fixtures created through
 * `lib/identity` with a Bearer token per caller. Route handlers are called directly, as Next would.
 */
import { embeddedBackend, type TestBackend, type TestLocation } from "@/lib/db/testing/test-backends";
import { registerDatabase, unregisterDatabase, type Database } from "@/lib/db/database";
import type { QueryObserver } from "@/lib/graph/neo4j/neo4j-runner";
import { registerGraphStore, selectGraphStore, unregisterGraphStore, type SelectedGraphStore } from "@/lib/graph/select-graph-store";
import { addMember } from "@/lib/identity/members";
import { createScope } from "@/lib/identity/scopes";
import { createToken } from "@/lib/identity/tokens";
import { createUser } from "@/lib/identity/users";

export const BASE = "http://localhost/api/v1";

export type Handler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  token?: string | null;
  /** A JSON value (serialized) or a raw string body sent as is. */
  body?: unknown;
  raw?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface ApiHarness {
  db: Database;
  userIds: { owner: string; editor: string; viewer: string; outsider: string; secretOwner: string };
  tokens: { owner: string; editor: string; viewer: string; outsider: string; secretOwner: string };
  /** `home`: the callers' private scope; `secret`: another team's private scope; `other`: the outsider's own scope. */
  scopes: { home: string; secret: string; other: string };
  /** Calls a route handler with a URL built from the path params, the way Next's router would. */
  call(handler: Handler, method: string, path: string, params: Record<string, string>, options?: CallOptions): Promise<Response>;
  /** Row counts of the graph tables (what a refused request must not change). */
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

type ServicesGlobal = typeof globalThis & { __credenceBeliefServices?: unknown };

export interface ApiHarnessOptions {
  /** Use the Neo4j graph store at this URI (in a namespace of its own, dropped on close) instead of the SQL store. */
  neo4jUri?: string;
  /** Sees every Cypher statement (with `neo4jUri`). */
  onCypher?: QueryObserver;
  /** Where the database lives; default embedded PGlite (`serverBackend`: a throwaway database on the Postgres server). */
  backend?: TestBackend;
}

export async function openApiHarness(suffix: string, options: ApiHarnessOptions = {}): Promise<ApiHarness> {
  const location: TestLocation = await (options.backend ?? embeddedBackend).create();
  const db = await location.open();
  let selected: SelectedGraphStore | undefined;
  let dropStore: () => Promise<void> = async () => {};
  try {
    if (options.neo4jUri) {
      const { createNeo4jGraphStore } = await import("@/lib/graph/neo4j/neo4j-graph-store");
      const store = createNeo4jGraphStore({
        uri: options.neo4jUri,
        database: "neo4j",
        namespace: `api_${suffix.replace(/[^A-Za-z0-9_]/g, "_")}`,
        ...(options.onCypher ? { onQuery: options.onCypher } : {}),
      });
      await store.check();
      dropStore = () => store.dropNamespace();
      selected = { store, description: `Neo4j at ${options.neo4jUri} (test namespace)` };
    } else {
      selected = await selectGraphStore({ env: {}, database: db, log: () => {} });
    }
    registerDatabase(db);
    registerGraphStore(selected);
    delete (globalThis as ServicesGlobal).__credenceBeliefServices;

    const names = ["owner", "editor", "viewer", "outsider", "secretOwner"] as const;
    const userIds = {} as ApiHarness["userIds"];
    for (const name of names) userIds[name] = (await createUser(db, { email: `${name.toLowerCase()}-${suffix}@example.test`, name })).id;
    const home = await createScope(db, { slug: `home-${suffix}`, name: "Home", ownerId: userIds.owner });
    const secret = await createScope(db, { slug: `secret-${suffix}`, name: "Secret", ownerId: userIds.secretOwner });
    const other = await createScope(db, { slug: `other-${suffix}`, name: "Other", ownerId: userIds.outsider });
    for (const role of ["editor", "viewer"] as const) {
      await addMember(db, userIds.owner, { scopeSlug: home.slug, email: `${role}-${suffix}@example.test`, role });
    }
    const tokens = {} as ApiHarness["tokens"];
    for (const name of names) tokens[name] = (await createToken(db, userIds[name], { name: `${name} token` })).token;

    const call: ApiHarness["call"] = (handler, method, path, params, options = {}) => {
      const url = new URL(`${BASE}${path}`);
      for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token !== null && options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined;
      if (options.raw !== undefined) body = options.raw;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined) headers["content-type"] = "application/json";
      return handler(new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) }), { params: Promise.resolve(params) });
    };

    const counts = async () => {
      const out: Record<string, number> = {};
      for (const table of ["graph_beliefs", "graph_evidence", "graph_history", "graph_mutations", "graph_edges", "graph_change_sets"]) {
        const rows = await db.prisma.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT count(*) AS n FROM "${table}"`);
        out[table] = Number(rows[0]?.n ?? -1);
      }
      return out;
    };

    return {
      db,
      userIds,
      tokens,
      scopes: { home: home.slug, secret: secret.slug, other: other.slug },
      call,
      counts,
      async close() {
        delete (globalThis as ServicesGlobal).__credenceBeliefServices;
        unregisterGraphStore();
        unregisterDatabase();
        try {
          await dropStore();
          await selected?.store.close();
        } finally {
          await db.close();
          await location.cleanup();
        }
      },
    };
  } catch (error) {
    await selected?.store.close().catch(() => {});
    await db.close().catch(() => {});
    await location.cleanup();
    throw error;
  }
}

/** Reads a response as JSON (every API answer is JSON). */
export async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}
