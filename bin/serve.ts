/**
 * The one process that serves Credence: opens the database (migrating it; in embedded mode it takes the data folder's
 * lock and shares the database with the CLI over a local socket), optionally seeds the demo, then serves Next.js.
 *
 *   tsx bin/serve.ts [--dev] [--demo] [--port N]
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import next from "next";
import { getEnv } from "@/lib/env";
import { databaseConfigFromEnv, openDatabase, registerDatabase } from "@/lib/db/database";
import { keepPlannerStatistics, needsPlannerStatistics } from "@/lib/db/planner-statistics";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import type { Embedder } from "@/lib/engine";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { getGraphStore } from "@/lib/graph/select-graph-store";
import { queueDepth } from "@/lib/jobs/job-queue";
import { createJobWorker, jobLeaseSeconds } from "@/lib/jobs/job-worker";
import { createDrainer } from "@/lib/ops/drain";
import { setQueueDepthSource } from "@/lib/ops/metrics";
import { answerClientError, answerConnect, guardApiRequest, keepConnectionsAlive } from "@/lib/ops/http-guard";
import { allowedMethods } from "@/lib/api/openapi";
import { ensureAuthSecret } from "./auth-secret";
import { dropWritesToClosedLogPipes } from "@/lib/ops/log-pipes";

const { values } = parseArgs({
  options: {
    dev: { type: "boolean", default: false },
    demo: { type: "boolean", default: false },
    port: { type: "string" },
    hostname: { type: "string" },
  },
});

async function main(): Promise<void> {
  // A server keeps serving, and stops when told, after whoever read its output went away.
  dropWritesToClosedLogPipes();
  const env = getEnv();
  const port = values.port ? Number(values.port) : env.PORT;
  const hostname = values.hostname ?? process.env.HOSTNAME ?? "127.0.0.1";
  ensureAuthSecret(env);

  // Next.js, the database and the embedding model are made ready side by side (each waits on files, compiles wasm or
  // loads a native library at some point, when another can run); the server listens once all three are.
  // Next.js needs neither the database nor the model to prepare (no route module is loaded at start: next.config.js).
  const app = next({ dev: values.dev, dir: process.cwd(), hostname, port });
  const preparing = app.prepare();
  // Awaited below; a failure here must not count as unhandled while the database opens.
  preparing.catch(() => {});
  // Selected at start, so a missing embedding model is said once, here (lib/embed/select-embedder).
  const embedder = getEmbedder();
  const loadingModel = embedder ? loadEmbeddingModel(embedder) : Promise.resolve();

  const started = performance.now();
  // A CLI command holding the folder for a moment is waited for; a second server is refused with a message naming us.
  const db = await openDatabase({ ...databaseConfigFromEnv(env), owner: `credence server on http://${hostname}:${port}`, waitIfHeldMs: 15_000 });
  registerDatabase(db);
  console.log(`credence: database ${db.describe()} ready in ${Math.round(performance.now() - started)} ms`);
  await loadingModel;

  if (values.demo) {
    const { seedDemo } = await import("./seed-demo");
    const summary = await seedDemo(db);
    console.log(summary);
  }

  await preparing;
  const handle = app.getRequestHandler();
  const drainer = createDrainer();
  setQueueDepthSource(() => queueDepth(db.sql));
  const server = createServer(
    drainer.track((req, res) => {
      if (guardApiRequest(req, res, { restMethods: allowedMethods })) return;
      void handle(req, res);
    }),
  );
  server.on("clientError", answerClientError);
  server.on("connect", answerConnect);
  keepConnectionsAlive(server);
  // Bound first, then the job worker starts: a server that cannot take its port does no work and ends (main's catch
  // closes the database, releasing the data folder's lock, and exits non-zero).
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await db.close().catch(() => {});
    const code = (error as { code?: string }).code;
    throw new Error(code === "EADDRINUSE" ? `port ${port} on ${hostname} is already in use (set PORT or --port)` : `cannot listen on ${hostname}:${port}: ${error instanceof Error ? error.message : String(error)}`);
  });
  // Every server works the durable job queue (CREDENCE_JOB_WORKER=off to leave it to others); SIGTERM stops it taking
  // jobs and lets the job in hand finish within the grace period; a job cut off, or whose server died, is taken over
  // when its lease runs out.
  if (process.env.CREDENCE_JOB_WORKER !== "off") {
    // The lease holder names this server (`jobs.locked_by`), so an operator can tell which server runs a job.
    const worker = createJobWorker({
      id: `${hostname}:${port}/${process.pid}/${randomUUID().slice(0, 8)}`,
      sql: async () => db.sql,
      services: getBeliefServices,
      marks: async () => (await getGraphStore()).idempotency,
      leaseSeconds: jobLeaseSeconds(process.env.CREDENCE_JOB_LEASE_SECONDS),
    });
    worker.start();
    drainer.onDrain(() => worker.stop());
  }
  // Without autovacuum (PGlite; a server with it off) the server keeps the planner statistics (lib/db/planner-statistics).
  const statistics = (await needsPlannerStatistics(db).catch((error: unknown) => {
    console.warn(`credence: could not read the database's autovacuum setting (${error instanceof Error ? error.message : String(error)}): tables are left to it`);
    return false;
  }))
    ? keepPlannerStatistics(db.sql)
    : undefined;
  console.log(`credence: serving on http://${hostname}:${port}`);

  let closing = false;
  async function shutdown(signal: string): Promise<void> {
    if (closing) return;
    closing = true;
    console.log(`credence: ${signal}, draining ${drainer.inFlight()} request(s) in flight`);
    const { unfinished, hooksUnfinished } = await drainer.drain(server);
    const cut = [unfinished > 0 ? `${unfinished} request(s)` : "", hooksUnfinished > 0 ? "the job in hand (retried elsewhere when its lease runs out)" : ""].filter(Boolean);
    console.log(`credence: drained${cut.length > 0 ? ` (${cut.join(" and ")} cut off by the grace period)` : ""}, closing`);
    await statistics?.stop();
    await db.close();
    process.exit(0);
  }
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/**
 * Loads the model at start, not on the first request that needs a vector (the ONNX session takes ~0.1–5 s to build),
 * so a server that says it serves reads by meaning at once. Never rejects.
 */
async function loadEmbeddingModel(embedder: Embedder): Promise<void> {
  const loading = performance.now();
  try {
    await embedder.load?.();
    console.log(`credence: reading by meaning with ${embedder.model.name}@${embedder.model.version} (loaded in ${Math.round(performance.now() - loading)} ms)`);
  } catch (error) {
    // The embedder retries its load on the next use; until then the reads fall back to words (lib/retrieval).
    console.warn(`credence: the embedding model did not load (${error instanceof Error ? error.message : String(error)}): it is retried on first use`);
  }
}

main().catch((error: unknown) => {
  console.error(`credence: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
