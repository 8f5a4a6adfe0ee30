/**
 * Vitest global setup: starts the backends the integration and contract suites need, once per run, and hands their
 * addresses to the test files through `provide` (read them with `inject("neo4jUri")`, `inject("postgresAdminUrl")`).
 *
 * A missing backend fails the run loudly: the contract suite must run on PGlite, the Postgres server and Neo4j.
 * Set NEO4J_TEST_URI to reuse a running Neo4j instead of starting the in-process test server.
 */
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startNeo4jServer } from "./neo4j-server";

declare module "vitest" {
  export interface ProvidedContext {
    neo4jUri: string;
    postgresAdminUrl: string;
  }
}

async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    throw new Error(
      `The Postgres server at ${url} is not reachable (${error instanceof Error ? error.message : String(error)}). ` +
        "Start it (pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set TEST_POSTGRES_URL.",
    );
  } finally {
    await client.end().catch(() => {});
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgresAdminUrl = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  await checkPostgres(postgresAdminUrl);
  project.provide("postgresAdminUrl", postgresAdminUrl);

  let stop: () => Promise<void> = async () => {};
  if (process.env.NEO4J_TEST_URI) {
    project.provide("neo4jUri", process.env.NEO4J_TEST_URI);
  } else {
    const started = performance.now();
    const server = await startNeo4jServer();
    console.log(`global-setup: Neo4j test server at ${server.uri} (${Math.round(performance.now() - started)} ms)`);
    project.provide("neo4jUri", server.uri);
    stop = server.stop;
  }
  return stop;
}
