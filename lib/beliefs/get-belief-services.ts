/**
 * The composition root: the one place that wires the application layer to its adapters. `composeServices(db)` builds
 * the services (beliefs and identity, one facade) on a database with the graph store selected by configuration
 * (`selectGraphStore`: Neo4j when NEO4J_URI is set, else SQL in the same database), the assessor chosen by
 * configuration (`selectAssessor`: OpenAI-compatible when configured, the offline heuristic otherwise), the process
 * embedder (`getEmbedder`: null → lexical ranking) and the system clock; each can be given instead (the demo seeder
 * back-dates the clock, tests pass their own store).
 *
 * `getBeliefServices()` is the process-wide instance on the process-wide database and graph store (server actions,
 * pages, the REST API, MCP), built on first use, never at import time. The CLI and the demo seeder open their own
 * database and call `composeServices`.
 */
import { selectAssessor } from "@/lib/assess/select-assessor";
import { getDatabase, type Database } from "@/lib/db/database";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { getEnv } from "@/lib/env";
import type { GraphStore } from "@/lib/graph/graph-store";
import { getGraphStore, selectGraphStore } from "@/lib/graph/select-graph-store";
import { processSingleton } from "@/lib/process-singleton";
import { withVectorCache } from "@/lib/retrieval/vector-cache";
import type { BeliefServices, BeliefServicesConfig } from "./belief-services";
import { createBeliefServices } from "./create-belief-services";
import { systemClock } from "./settable-clock";

export interface ComposeOptions extends Partial<Omit<BeliefServicesConfig, "db">> {
  /** Receives the graph store's one-line startup report when this call selects the store; default: none. */
  log?: (line: string) => void;
}

export interface ComposedServices {
  services: BeliefServices;
  /** The graph store the services use (the caller closes it when it selected one: `ownsStore`). */
  store: GraphStore;
  /** True when `composeServices` selected the store itself (the caller then closes it). */
  ownsStore: boolean;
}

/** Texts whose vectors the process keeps (~1.6 KB each at 384 dimensions: ≈ 32 MB). */
const SERVICE_VECTOR_CACHE = 20_000;

export async function composeServices(db: Database, options: ComposeOptions = {}): Promise<ComposedServices> {
  const { log, store: given, ...rest } = options;
  const store = given ?? (await selectGraphStore({ env: getEnv(), database: db, log: log ?? (() => {}) })).store;
  // One vector cache for the assessor and the services' matcher: a text embedded by either is not embedded again.
  const local = getEmbedder();
  const embedder = local === null ? null : withVectorCache(local, SERVICE_VECTOR_CACHE);
  const services = createBeliefServices({
    assessor: selectAssessor(process.env, { embedder }),
    embedder,
    clock: systemClock,
    ...rest,
    db,
    store,
  });
  return { services, store, ownsStore: given === undefined };
}

const processServices = processSingleton<BeliefServices>("__credenceBeliefServices", async () => {
  const [db, store] = await Promise.all([getDatabase(), getGraphStore()]);
  return (await composeServices(db, { store })).services;
});

/** The process-wide services (see the header). */
export function getBeliefServices(): Promise<BeliefServices> {
  return processServices.get();
}
