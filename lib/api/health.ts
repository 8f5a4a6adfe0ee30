/**
 * Liveness and readiness. Live: the process answers. Ready: the database answers `SELECT 1`, the graph
 * store passes its startup check, and the embedding model is loaded — each within a bounded time. No embedding model
 * is `degraded` (recall and matching fall back to words; still ready); a failed database or graph store, or a draining
 * process, is not ready (503), so a load balancer sends traffic elsewhere.
 */
import { getDatabase } from "@/lib/db/database";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { getGraphStore } from "@/lib/graph/select-graph-store";
import { isDraining } from "@/lib/ops/lifecycle";

export type CheckStatus = "ok" | "degraded" | "failed";

export interface CheckResult {
  status: CheckStatus;
  ms: number;
  detail?: string;
}

export interface Readiness {
  status: "ready" | "degraded" | "not_ready";
  draining: boolean;
  checks: { database: CheckResult; graphStore: CheckResult; embedder: CheckResult };
}

export const CHECK_TIMEOUT_MS = 3_000;

async function timed(run: () => Promise<string | undefined>, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const detail = await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: "ok", ms: Math.round(performance.now() - started), ...(detail ? { detail } : {}) };
  } catch (error) {
    return { status: "failed", ms: Math.round(performance.now() - started), detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness(timeoutMs = CHECK_TIMEOUT_MS): Promise<Readiness> {
  const [database, graphStore] = await Promise.all([
    timed(async () => {
      const db = await getDatabase();
      await db.sql.query("SELECT 1");
      return db.mode;
    }, timeoutMs),
    timed(async () => {
      const store = await getGraphStore();
      await store.check();
      return store.kind;
    }, timeoutMs),
  ]);
  let embedder: CheckResult;
  try {
    const model = getEmbedder();
    embedder = model ? { status: "ok", ms: 0, detail: `${model.model.name}@${model.model.version}` } : { status: "degraded", ms: 0, detail: "no embedding model: lexical fallback" };
  } catch (error) {
    embedder = { status: "degraded", ms: 0, detail: `lexical fallback (${error instanceof Error ? error.message : String(error)})` };
  }
  const draining = isDraining();
  const failed = database.status === "failed" || graphStore.status === "failed" || draining;
  return { status: failed ? "not_ready" : embedder.status === "ok" ? "ready" : "degraded", draining, checks: { database, graphStore, embedder } };
}
