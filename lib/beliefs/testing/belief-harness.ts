/**
 * Test harness for the belief services: a fresh database (embedded PGlite or a throwaway Postgres server database,
 * all migrations applied), a graph store (SQL on that database, or a namespace of the real Neo4j test server),
 * identity fixtures (users with every role, a private home scope, a secret scope, a public scope) and a clock the
 * test moves by hand.
 */
import { randomBytes } from "node:crypto";
import { embeddedBackend, serverBackend, type TestLocation } from "@/lib/db/testing/test-backends";
import type { Database } from "@/lib/db/database";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { sessionPrincipal } from "@/lib/access/principal";
import type { Assessor } from "@/lib/engine";
import type { GraphStore } from "@/lib/graph/graph-store";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { addGrant } from "@/lib/identity/grants";
import { addMember } from "@/lib/identity/members";
import { createScope } from "@/lib/identity/scopes";
import { createUser } from "@/lib/identity/users";
import type { Role } from "@/lib/access/roles";
import type { BeliefServices, BeliefServicesConfig, Caller } from "../belief-services";
import { createBeliefServices } from "../create-belief-services";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { settableClock, type SettableClock } from "../settable-clock";

export type HarnessBackend = "pglite" | "postgres" | "neo4j";

export type ManualClock = SettableClock;

export function manualClock(start = "2026-03-02T09:00:00.000Z"): ManualClock {
  return settableClock(start);
}

export const MINUTE = 60_000;
export const DAY = 86_400_000;

export interface BeliefHarness {
  backend: HarnessBackend;
  db: Database;
  store: GraphStore;
  services: BeliefServices;
  clock: ManualClock;
  /** Callers by role in the `home` scope; `outsider` belongs to no scope; `secretOwner` owns `secret`. */
  callers: Record<Role | "outsider" | "secretOwner", Caller>;
  userIds: Record<Role | "outsider" | "secretOwner", string>;
  /** Slugs: `home` (private, the callers' scope), `secret` (private, another team), `open` (public, owned by secretOwner). */
  scopes: { home: string; secret: string; open: string };
  scopeIds: { home: string; secret: string; open: string };
  /** Runs `fn` and returns the graph-store statements it issued (SQL text or Cypher), in order. */
  recordStoreQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: string[] }>;
  /** Services with another assessor (e.g. scripted) on the same database and store. */
  withAssessor(assessor: Assessor, extra?: Partial<BeliefServicesConfig>): BeliefServices;
  close(): Promise<void>;
}

export async function openBeliefHarness(backend: HarnessBackend, neo4jUri?: string): Promise<BeliefHarness> {
  const location: TestLocation = await (backend === "postgres" ? serverBackend : embeddedBackend).create();
  const db = await location.open();
  let recording: string[] | null = null;
  let store: GraphStore;
  let dropStore: () => Promise<void> = async () => {};
  if (backend === "neo4j") {
    if (!neo4jUri) throw new Error("the neo4j harness needs the test server's URI (inject('neo4jUri'))");
    const { createNeo4jGraphStore } = await import("@/lib/graph/neo4j/neo4j-graph-store");
    const neo = createNeo4jGraphStore({ uri: neo4jUri, database: "neo4j", namespace: `beliefs_${randomBytes(6).toString("hex")}`, onQuery: (text) => void recording?.push(text) });
    await neo.check();
    store = neo;
    dropStore = () => neo.dropNamespace();
  } else {
    store = createSqlGraphStore({ sql: recordingExecutor(db.sql, () => recording), location: db.describe() });
    await store.check();
  }
  const clock = manualClock();
  const assessor = createHeuristicAssessor();
  const suffix = randomBytes(3).toString("hex");
  const roles = ["owner", "reviewer", "editor", "viewer", "outsider", "secretOwner"] as const;
  const userIds = {} as Record<(typeof roles)[number], string>;
  for (const role of roles) userIds[role] = (await createUser(db, { email: `${role.toLowerCase()}-${suffix}@example.test`, name: role })).id;
  const home = await createScope(db, { slug: `home-${suffix}`, name: "Home", ownerId: userIds.owner });
  const secret = await createScope(db, { slug: `secret-${suffix}`, name: "Secret", ownerId: userIds.secretOwner });
  const open = await createScope(db, { slug: `open-${suffix}`, name: "Open", ownerId: userIds.secretOwner, isPublic: true });
  for (const role of ["reviewer", "editor", "viewer"] as const) {
    await addMember(db, userIds.owner, { scopeSlug: home.slug, email: `${role}-${suffix}@example.test`, role });
  }
  // The home owner may read (not edit) the public scope as a viewer member.
  await addMember(db, userIds.secretOwner, { scopeSlug: open.slug, email: `owner-${suffix}@example.test`, role: "viewer" });
  const callers = Object.fromEntries(roles.map((r) => [r, sessionPrincipal(userIds[r])])) as BeliefHarness["callers"];
  // headHistoryLimit 2: writes to beliefs with more than two history items fold onto the stored checkpoint, so the
  // suites run the incremental path (and its fallbacks) wherever a belief is written more than once.
  const config = (a: Assessor, extra: Partial<BeliefServicesConfig> = {}): BeliefServicesConfig => ({ db, store, assessor: a, clock, headHistoryLimit: 2, ...extra });
  return {
    backend,
    db,
    store,
    services: createBeliefServices(config(assessor)),
    clock,
    callers,
    userIds,
    scopes: { home: home.slug, secret: secret.slug, open: open.slug },
    scopeIds: { home: home.id, secret: secret.id, open: open.id },
    async recordStoreQueries(fn) {
      recording = [];
      try {
        const result = await fn();
        return { result, queries: recording };
      } finally {
        recording = null;
      }
    },
    withAssessor: (a, extra) => createBeliefServices(config(a, extra)),
    async close() {
      try {
        await dropStore();
        await store.close();
      } finally {
        await db.close();
        await location.cleanup();
      }
    },
  };
}

/** Reports every statement (transactions included) to the current recording, if any. */
function recordingExecutor(inner: SqlExecutor, sink: () => string[] | null): SqlExecutor {
  return {
    query<T>(text: string, params?: unknown[]): Promise<T[]> {
      sink()?.push(text);
      return inner.query<T>(text, params);
    },
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return inner.transaction((tx) => fn(recordingExecutor(tx, sink)));
    },
  };
}

/** The service error `promise` fails with; fails the test when it resolves or throws anything else. */
export async function errorOf(promise: Promise<unknown>): Promise<BeliefServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BeliefServiceError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

export { addGrant };
