/**
 * Which GraphStore the app uses (docs/design.md §8): `NEO4J_URI` set → Neo4j (with NEO4J_USER / NEO4J_PASSWORD /
 * NEO4J_DATABASE); otherwise the SQL store on the app's own database (embedded PGlite or DATABASE_URL's server).
 *
 * The Neo4j adapter is loaded with a dynamic import, so an embedded deployment never loads the driver. Selection
 * always runs the store's startup check and says which store is in use and why; a failed check throws a
 * GraphStoreError naming the store, the reason it was chosen and what went wrong — never a silent fallback to SQL.
 */
import type { Database } from "@/lib/db/database";
import { processSingleton } from "@/lib/process-singleton";
import { redactUrl } from "@/lib/redact-url";
import { GraphStoreError } from "./errors";
import { graphDeadlineMs, withDeadline } from "./graph-deadline";
import type { GraphStore } from "./graph-store";
import { createSqlGraphStore } from "./sql/sql-graph-store";

/** The environment variables selection reads (the parsed `Env` satisfies it). */
export interface GraphStoreEnv {
  NEO4J_URI?: string | undefined;
  NEO4J_USER?: string | undefined;
  NEO4J_PASSWORD?: string | undefined;
  NEO4J_DATABASE?: string | undefined;
}

export interface Neo4jStoreConfig {
  uri: string;
  user?: string;
  password?: string;
  database?: string;
}

/** What `lib/graph/neo4j/neo4j-graph-store.ts` exports (loaded lazily). */
export interface Neo4jModule {
  createNeo4jGraphStore(config: Neo4jStoreConfig): GraphStore;
}

export interface SelectGraphStoreOptions {
  env: GraphStoreEnv;
  /** The app's database (the SQL store lives in it); only opened when the SQL store is selected. */
  database: Database | (() => Promise<Database>);
  /** Receives the one-line startup report; default console.info. */
  log?: (line: string) => void;
  /** Tests replace the Neo4j module; default: the real adapter, imported on demand. */
  loadNeo4j?: () => Promise<Neo4jModule>;
  /** Neo4j: the deadline per store call (ms, as text); default `CREDENCE_GRAPH_TIMEOUT_MS` or 60 000. */
  deadlineMs?: string;
}

export interface SelectedGraphStore {
  store: GraphStore;
  /** e.g. "Neo4j at bolt://localhost:7687 (database neo4j), because NEO4J_URI is set". */
  description: string;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const defaultLoadNeo4j = async (): Promise<Neo4jModule> => (await import("./neo4j/neo4j-graph-store")) as unknown as Neo4jModule;

export async function selectGraphStore(options: SelectGraphStoreOptions): Promise<SelectedGraphStore> {
  const log = options.log ?? ((line: string) => console.info(line));
  const { env } = options;
  let store: GraphStore;
  let description: string;
  if (env.NEO4J_URI) {
    const where = `${redactUrl(env.NEO4J_URI, "NEO4J_URI")} (database ${env.NEO4J_DATABASE ?? "neo4j"})`;
    const why = "because NEO4J_URI is set";
    let module: Neo4jModule;
    try {
      module = await (options.loadNeo4j ?? defaultLoadNeo4j)();
    } catch (error) {
      throw new GraphStoreError("store_misconfigured", `Graph store: Neo4j at ${where} was selected ${why}, but its adapter failed to load: ${message(error)}`, {
        cause: error,
      });
    }
    try {
      store = module.createNeo4jGraphStore({
        uri: env.NEO4J_URI,
        ...(env.NEO4J_USER !== undefined ? { user: env.NEO4J_USER } : {}),
        ...(env.NEO4J_PASSWORD !== undefined ? { password: env.NEO4J_PASSWORD } : {}),
        ...(env.NEO4J_DATABASE !== undefined ? { database: env.NEO4J_DATABASE } : {}),
      });
    } catch (error) {
      throw new GraphStoreError("store_misconfigured", `Graph store: Neo4j at ${where} was selected ${why}, but the driver refused the configuration: ${message(error)}`, {
        cause: error,
      });
    }
    // A frozen or partitioned Neo4j would hang a request for the whole outage: each call has a deadline (503 past it).
    store = withDeadline(store, graphDeadlineMs(options.deadlineMs ?? process.env.CREDENCE_GRAPH_TIMEOUT_MS));
    description = `Neo4j at ${where}, ${why}`;
  } else {
    let db: Database;
    try {
      db = typeof options.database === "function" ? await options.database() : options.database;
    } catch (error) {
      throw new GraphStoreError("store_unavailable", `Graph store: SQL (NEO4J_URI is not set), but the database failed to open: ${message(error)}`, { cause: error });
    }
    store = createSqlGraphStore({ sql: db.sql, location: db.describe() });
    description = `SQL on ${db.describe()}, because NEO4J_URI is not set`;
  }
  try {
    await store.check();
  } catch (error) {
    await store.close().catch(() => {});
    throw new GraphStoreError("store_unavailable", `Graph store: ${description}; the startup check failed: ${message(error)}`, { cause: error });
  }
  log(`Graph store: ${description}.`);
  return { store, description };
}

const processGraphStore = processSingleton<SelectedGraphStore>("__credenceGraphStore", async () => {
  const [{ getEnv }, { getDatabase }] = await Promise.all([import("@/lib/env"), import("@/lib/db/database")]);
  return selectGraphStore({ env: getEnv(), database: getDatabase });
});

/**
 * The process-wide graph store, selected from the environment on first use (and after a failed attempt), sharing the
 * process-wide database. The server may register its own with `registerGraphStore`.
 */
export function getGraphStore(): Promise<GraphStore> {
  return processGraphStore.get().then((s) => s.store);
}

export function registerGraphStore(selected: SelectedGraphStore): void {
  processGraphStore.set(selected);
}

/** Forgets the registered store (tests); does not close it. */
export function unregisterGraphStore(): void {
  processGraphStore.forget();
}
