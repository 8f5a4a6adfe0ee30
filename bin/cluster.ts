/**
 * `npm run cluster`: three app servers on one Postgres (DATABASE_URL; and Neo4j when NEO4J_URI is set) behind nginx
 * doing round robin, the topology of docs/deploy.md on one machine. Serves the production build (`npm run build`
 * first). Ctrl-C or SIGTERM stops nginx and drains every server.
 *
 *   DATABASE_URL=postgres://… npm run cluster [-- --servers 3 --port 8080]
 */
import { parseArgs } from "node:util";
import { startCluster } from "@/lib/ops/local-cluster";
import { dropWritesToClosedLogPipes } from "@/lib/ops/log-pipes";
import { redactUrl } from "@/lib/redact-url";

const { values } = parseArgs({
  options: {
    servers: { type: "string", default: "3" },
    port: { type: "string" },
    quiet: { type: "boolean", default: false },
  },
});

async function main(): Promise<void> {
  // Losing the terminal or log pipe does not leave nginx and the servers running without a parent to stop them.
  dropWritesToClosedLogPipes();
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (!databaseUrl) throw new Error("set DATABASE_URL to a Postgres server: the app servers of a cluster share it (the embedded database belongs to one process)");
  const servers = Number(values.servers);
  if (!Number.isInteger(servers) || servers < 1 || servers > 16) throw new Error(`--servers must be 1–16, got ${values.servers}`);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65_535)) throw new Error(`--port must be a TCP port, got ${values.port}`);

  console.log(`cluster: starting ${servers} app servers on ${redactUrl(databaseUrl, "DATABASE_URL")}${process.env.NEO4J_URI ? ` and ${redactUrl(process.env.NEO4J_URI, "NEO4J_URI")}` : ""}…`);
  const cluster = await startCluster({
    databaseUrl,
    servers,
    ...(process.env.NEO4J_URI ? { neo4jUri: process.env.NEO4J_URI } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(values.quiet ? {} : { onLine: (line: string) => console.log(line) }),
  });
  console.log(`cluster: app servers ${cluster.servers.map((s) => `${s.baseUrl} (pid ${s.pid})`).join(", ")}`);
  console.log(`cluster: nginx (pid ${cluster.nginxPid}) round-robin at ${cluster.url}`);
  console.log(`cluster: ready at ${cluster.url} — Ctrl-C stops everything`);
  if (!process.env.AUTH_SECRET) console.log("cluster: AUTH_SECRET was not set; the servers share a generated one (sessions end with the cluster)");

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`cluster: ${signal}, stopping nginx and draining the servers`);
    void cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`cluster: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(`cluster: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
