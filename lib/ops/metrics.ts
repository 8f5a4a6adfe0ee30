/**
 * Prometheus metrics (prom-client) for `GET /api/metrics`: request rate and latency per route, errors by code, graph
 * store latency per operation, write contention, job queue depth, and the process's default metrics. One registry per
 * process (one per process, lib/process-singleton, so Next's module copies share it).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { contentionStats } from "./contention";
import { processValue } from "@/lib/process-singleton";

export interface AppMetrics {
  registry: Registry;
  requests: Counter<"route" | "method" | "status">;
  requestSeconds: Histogram<"route" | "method">;
  errors: Counter<"code">;
  storeSeconds: Histogram<"operation" | "outcome">;
}

type QueueDepth = () => Promise<Record<string, number>>;
const queueDepth = processValue<QueueDepth | undefined>("__credenceQueueDepth", () => undefined);

/** The jobs module reports its queue depth per state through this (kept optional: no jobs, no gauge values). */
export function setQueueDepthSource(source: QueueDepth | undefined): void {
  queueDepth.set(source);
}

const processMetrics = processValue<AppMetrics>("__credenceMetrics", buildMetrics);

export function getMetrics(): AppMetrics {
  return processMetrics.get();
}

function buildMetrics(): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "credence_" });
  const metrics: AppMetrics = {
    registry,
    requests: new Counter({ name: "credence_http_requests_total", help: "HTTP API requests by route, method and status.", labelNames: ["route", "method", "status"], registers: [registry] }),
    requestSeconds: new Histogram({
      name: "credence_http_request_duration_seconds",
      help: "HTTP API request latency by route and method.",
      labelNames: ["route", "method"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    errors: new Counter({ name: "credence_api_errors_total", help: "Error answers by error code.", labelNames: ["code"], registers: [registry] }),
    storeSeconds: new Histogram({
      name: "credence_store_operation_duration_seconds",
      help: "Graph store latency by operation and outcome.",
      labelNames: ["operation", "outcome"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
  };
  new Gauge({
    name: "credence_write_contention",
    help: "Optimistic-concurrency contention since start: retries, writes that won after retrying, writes that gave up, writes that ran in their scope's write gate.",
    labelNames: ["kind"],
    registers: [registry],
    collect() {
      const stats = contentionStats();
      this.set({ kind: "retries" }, stats.retries);
      this.set({ kind: "contended" }, stats.contended);
      this.set({ kind: "exhausted" }, stats.exhausted);
      this.set({ kind: "serialised" }, stats.serialised);
    },
  });
  new Gauge({
    name: "credence_job_queue_depth",
    help: "Background jobs by state.",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const source = queueDepth.get();
      if (!source) return;
      try {
        for (const [state, count] of Object.entries(await source())) this.set({ state }, count);
      } catch {
        // the database is down: the gauge keeps its last values, /api/health/ready says why
      }
    },
  });
  return metrics;
}

/** Records one answered request. */
export function observeRequest(route: string, method: string, status: number, seconds: number, errorCode?: string): void {
  const metrics = getMetrics();
  metrics.requests.inc({ route, method, status: String(status) });
  metrics.requestSeconds.observe({ route, method }, seconds);
  if (errorCode !== undefined) metrics.errors.inc({ code: errorCode });
}

/** The store with every method timed (`credence_store_operation_duration_seconds`). */
export function instrumentStore<S extends object>(store: S): S {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function" || typeof property !== "string") return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const result = method.apply(target, args);
        if (!(result instanceof Promise)) return result;
        const started = performance.now();
        const done = (outcome: string) => getMetrics().storeSeconds.observe({ operation: property, outcome }, (performance.now() - started) / 1000);
        return result.then(
          (v: unknown) => {
            done("ok");
            return v;
          },
          (error: unknown) => {
            done("error");
            throw error;
          },
        );
      };
    },
  });
}
