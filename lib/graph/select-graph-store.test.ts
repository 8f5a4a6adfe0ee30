import { describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { GraphStoreError } from "./errors";
import type { GraphStore } from "./graph-store";
import { redactUrl } from "@/lib/redact-url";
import { selectGraphStore, type Neo4jModule, type Neo4jStoreConfig } from "./select-graph-store";

const TABLES = ["graph_beliefs", "graph_evidence", "graph_mutations", "graph_history", "graph_edges", "graph_topic_freezes", "graph_change_sets"];

function fakeDatabase(tables: readonly string[] | Error): Database {
  const sql: SqlExecutor = {
    async query<T>(): Promise<T[]> {
      if (tables instanceof Error) throw tables;
      return tables.map((name) => ({ name })) as T[];
    },
    transaction: (fn) => fn(sql),
  };
  return { sql, describe: () => "embedded PGlite in ./.data-test" } as unknown as Database;
}

function fakeNeo4j(check: () => Promise<void>, seen: Neo4jStoreConfig[]): () => Promise<Neo4jModule> {
  return async () => ({
    createNeo4jGraphStore(config) {
      seen.push(config);
      return { kind: "neo4j", describe: () => "neo4j", check, close: async () => {} } as unknown as GraphStore;
    },
  });
}

async function failure(promise: Promise<unknown>): Promise<GraphStoreError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GraphStoreError);
  return error as GraphStoreError;
}

describe("selectGraphStore", () => {
  it("uses the SQL store on the app's database when NEO4J_URI is not set, and says so", async () => {
    const lines: string[] = [];
    let loaded = false;
    const selected = await selectGraphStore({
      env: {},
      database: fakeDatabase(TABLES),
      log: (l) => lines.push(l),
      loadNeo4j: async () => {
        loaded = true;
        throw new Error("must not load");
      },
    });
    expect(selected.store.kind).toBe("sql");
    expect(loaded).toBe(false);
    expect(lines).toEqual(["Graph store: SQL on embedded PGlite in ./.data-test, because NEO4J_URI is not set."]);
  });

  it("fails clearly when the SQL store's tables are missing or the database is down", async () => {
    const missing = await failure(selectGraphStore({ env: {}, database: fakeDatabase(TABLES.slice(1)), log: () => {} }));
    expect(missing.message).toMatch(/SQL on embedded PGlite.*NEO4J_URI is not set.*startup check failed.*graph_beliefs.*20261129130000_graph_store/);
    const down = await failure(selectGraphStore({ env: {}, database: fakeDatabase(new Error("ECONNREFUSED")), log: () => {} }));
    expect(down.message).toMatch(/startup check failed.*not reachable.*ECONNREFUSED/);
    const unopened = await failure(
      selectGraphStore({
        env: {},
        database: async () => {
          throw new Error("data folder in use");
        },
        log: () => {},
      }),
    );
    expect(unopened.message).toMatch(/SQL \(NEO4J_URI is not set\).*failed to open: data folder in use/);
  });

  it("selects Neo4j when NEO4J_URI is set, passing user, password and database, and redacts the password", async () => {
    const seen: Neo4jStoreConfig[] = [];
    const lines: string[] = [];
    const env = { NEO4J_URI: "bolt://neo:secret@127.0.0.1:7687", NEO4J_USER: "neo4j", NEO4J_PASSWORD: "pw", NEO4J_DATABASE: "graph" };
    const selected = await selectGraphStore({ env, database: fakeDatabase(new Error("unused")), log: (l) => lines.push(l), loadNeo4j: fakeNeo4j(async () => {}, seen) });
    expect(selected.store.kind).toBe("neo4j");
    expect(seen).toEqual([{ uri: env.NEO4J_URI, user: "neo4j", password: "pw", database: "graph" }]);
    expect(lines[0]).toBe("Graph store: Neo4j at bolt://neo:***@127.0.0.1:7687 (database graph), because NEO4J_URI is set.");
    expect(lines[0]).not.toContain("secret");
  });

  it("never falls back to SQL when the selected Neo4j fails its check", async () => {
    const error = await failure(
      selectGraphStore({
        env: { NEO4J_URI: "bolt://127.0.0.1:1" },
        database: fakeDatabase(TABLES),
        log: () => {},
        loadNeo4j: fakeNeo4j(async () => {
          throw new Error("ServiceUnavailable: connection refused");
        }, []),
      }),
    );
    expect(error.code).toBe("store_unavailable");
    expect(error.message).toMatch(/Neo4j at bolt:\/\/127\.0\.0\.1:1 \(database neo4j\), because NEO4J_URI is set; the startup check failed: ServiceUnavailable/);
  });

  it("loads the real Neo4j adapter on demand and reports an unreachable server", async () => {
    const error = await failure(selectGraphStore({ env: { NEO4J_URI: "bolt://127.0.0.1:9" }, database: fakeDatabase(TABLES), log: () => {} }));
    expect(error.message).toMatch(/Neo4j at bolt:\/\/127\.0\.0\.1:9.*startup check failed/);
  });

  it("redacts only the password of a URI", () => {
    expect(redactUrl("neo4j://u:p@host:7687", "NEO4J_URI")).toBe("neo4j://u:***@host:7687");
    expect(redactUrl("bolt://host:7687", "NEO4J_URI")).toBe("bolt://host:7687");
    expect(redactUrl("not a uri", "NEO4J_URI")).toBe("(unparseable NEO4J_URI)");
  });
});
