/**
 * Graceful shutdown for the custom server: on SIGTERM the process stops being ready (the load balancer
 * takes it out), stops accepting connections and, at the same time, runs the registered drain hooks (e.g. the job
 * worker taking no new job and finishing its current one); it waits for the requests in flight and the hooks up to a
 * grace period (`CREDENCE_SHUTDOWN_GRACE_MS`, default 25 s — under the usual 30 s of a container runtime), then the
 * caller closes the database. What the grace period cuts off is reported: a job cut off is retried by another server
 * when its lease runs out, as after a crash.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { markDraining } from "./lifecycle";

export interface Drainer {
  /** Wraps the request handler: counts requests in flight. */
  track(handler: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void;
  /** Requests in flight now. */
  inFlight(): number;
  /**
   * Stops accepting and starts the hooks, waits for requests in flight and hooks (at most `graceMs` in all); resolves
   * with the requests and hooks still running.
   */
  drain(server: Server, graceMs?: number): Promise<{ unfinished: number; hooksUnfinished: number }>;
  onDrain(hook: () => Promise<void>): void;
}

export function shutdownGraceMs(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.CREDENCE_SHUTDOWN_GRACE_MS);
  return Number.isFinite(value) && value >= 0 && env.CREDENCE_SHUTDOWN_GRACE_MS !== undefined ? value : 25_000;
}

export function createDrainer(): Drainer {
  let active = 0;
  let draining = false;
  const idle: (() => void)[] = [];
  const hooks: (() => Promise<void>)[] = [];
  const settle = () => {
    if (active === 0) for (const resolve of idle.splice(0)) resolve();
  };
  return {
    track(handler) {
      return (req, res) => {
        active += 1;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          active -= 1;
          settle();
        };
        res.on("finish", finish);
        res.on("close", finish);
        // A drained server closes kept-alive connections after their current answer.
        if (draining) res.setHeader("connection", "close");
        handler(req, res);
      };
    },
    inFlight: () => active,
    async drain(server, graceMs = shutdownGraceMs()) {
      draining = true;
      markDraining();
      server.close();
      server.closeIdleConnections();
      let hooksUnfinished = hooks.length;
      const hooksDone = Promise.all(hooks.map((hook) => hook().catch(() => {}).finally(() => (hooksUnfinished -= 1))));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([
          new Promise<void>((resolve) => {
            idle.push(resolve);
            settle();
          }),
          hooksDone,
        ]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
      return { unfinished: active, hooksUnfinished };
    },
    onDrain(hook) {
      hooks.push(hook);
    },
  };
}

