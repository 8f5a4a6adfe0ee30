/**
 * The composition root: the one place that wires the application layer to its adapters. `composeServices(db)` builds
 * the services (beliefs and identity, one facade) on a database with the graph store selected by configuration
 * (`selectGraphStore`: Neo4j when NEO4J_URI is set, else SQL in the same database), the assessor chosen by
 * configuration (`selectAssessor`: OpenAI-compatible when configured, the offline heuristic otherwise), the process
 * embedder (`getEmbedder`: null → lexical ranking) and the system clock; each can be given instead (the demo seeder
 * back-dates the clock, tests pass their own store).
 *
 * Built in two steps, so a caller pays only for what it calls: the identity and sign-in methods need the database
 * alone and are ready at once; the first call of any other method selects the graph store (unless one was given),
 * the assessor and the embedder and assembles the rest (`createBeliefServices`), loading their modules only then. An
 * operator command such as `user create` therefore never loads the assessor, the reader, the embedding runtime or a
 * graph store adapter, and never checks (or connects to) the graph store. A failed assembly is tried again on the
 * next call; its error reaches the caller as a `BeliefServiceError` (`unavailable` for a graph store that is down).
 *
 * `getBeliefServices()` is the process-wide instance on the process-wide database and graph store (server actions,
 * pages, the REST API, MCP), built on first use, never at import time. The CLI and the demo seeder open their own
 * database and call `composeServices`.
 */
import { getDatabase, type Database } from "@/lib/db/database";
import { getEnv } from "@/lib/env";
import type { GraphStore } from "@/lib/graph/graph-store";
import { processSingleton } from "@/lib/process-singleton";
import type { BeliefServices, BeliefServicesConfig } from "./belief-services";
import { identityServices, signInServices } from "./identity-services";
import { systemClock } from "./settable-clock";
import { toServiceError, withServiceErrors } from "./to-service-error";

export interface ComposeOptions extends Partial<Omit<BeliefServicesConfig, "db" | "store">> {
  /** The graph store, or how to get it when first needed (the caller closes it); default: selected here, on `db`. */
  store?: GraphStore | (() => Promise<GraphStore>);
  /** Receives the graph store's one-line startup report when this call selects the store; default: none. */
  log?: (line: string) => void;
}

export interface ComposedServices {
  services: BeliefServices;
  /** The graph store the services use (selected now if no call has needed it yet). */
  store(): Promise<GraphStore>;
  /** Closes the graph store if `composeServices` selected it (a given one is its giver's to close). */
  close(): Promise<void>;
}

/** Texts whose vectors the process keeps (~1.6 KB each at 384 dimensions: ≈ 32 MB). */
const SERVICE_VECTOR_CACHE = 20_000;

/** `build` run on the first call and its promise kept; a rejected one is forgotten, so the next call builds again. */
function onFirstCall<T>(build: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () => {
    if (kept) return kept;
    const building = build();
    kept = building;
    building.catch(() => {
      if (kept === building) kept = undefined;
    });
    return building;
  };
}

export async function composeServices(db: Database, options: ComposeOptions = {}): Promise<ComposedServices> {
  const { log, store: given, ...rest } = options;
  let selected: GraphStore | undefined;
  const store = onFirstCall(async () => {
    if (given !== undefined) return typeof given === "function" ? given() : given;
    const { selectGraphStore } = await import("@/lib/graph/select-graph-store");
    selected = (await selectGraphStore({ env: getEnv(), database: db, log: log ?? (() => {}) })).store;
    return selected;
  });
  const assembled = onFirstCall(async () => {
    const [graphStore, { createBeliefServices }, { selectAssessor }, { getEmbedder }, { withVectorCache }] = await Promise.all([
      store(),
      import("./create-belief-services"),
      import("@/lib/assess/select-assessor"),
      import("@/lib/embed/select-embedder"),
      import("@/lib/retrieval/vector-cache"),
    ]);
    // One vector cache for the assessor and the services' matcher: a text embedded by either is not embedded again.
    const local = getEmbedder();
    const embedder = local === null ? null : withVectorCache(local, SERVICE_VECTOR_CACHE);
    return createBeliefServices({
      assessor: selectAssessor(process.env, { embedder }),
      embedder,
      clock: systemClock,
      ...rest,
      db,
      store: graphStore,
    });
  });

  const ready = withServiceErrors({ ...identityServices(db), ...signInServices(db) });
  const deferred = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  const services = new Proxy(ready, {
    get(target, name, receiver) {
      // Not a thenable: the facade is returned from async functions.
      if (typeof name !== "string" || name in target || name === "then") return Reflect.get(target, name, receiver);
      let method = deferred.get(name);
      if (!method) {
        method = async (...args: unknown[]) => {
          let full: Record<string, (...a: unknown[]) => Promise<unknown>>;
          try {
            full = (await assembled()) as unknown as typeof full;
          } catch (error) {
            throw toServiceError(error);
          }
          return full[name]!(...args);
        };
        deferred.set(name, method);
      }
      return method;
    },
  }) as unknown as BeliefServices;

  return {
    services,
    store,
    async close() {
      if (selected) await selected.close();
    },
  };
}

const processServices = processSingleton<BeliefServices>("__credenceBeliefServices", async () => {
  const db = await getDatabase();
  const store = async () => (await import("@/lib/graph/select-graph-store")).getGraphStore();
  return (await composeServices(db, { store })).services;
});

/** The process-wide services (see the header). */
export function getBeliefServices(): Promise<BeliefServices> {
  return processServices.get();
}
