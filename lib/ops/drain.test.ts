/**
 * Graceful shutdown over a real HTTP server: a request in flight when draining starts is answered in full, the
 * process reports not ready meanwhile, new connections are refused, drain hooks start at once; a request or a hook
 * that outlives the grace period is reported as cut off and does not hold the shutdown.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createDrainer } from "./drain";
import { isDraining, markDraining } from "./lifecycle";

function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const drainer = createDrainer();
  const server = createServer(drainer.track(handler));
  return new Promise<{ drainer: typeof drainer; server: typeof server; base: string }>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ drainer, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

describe("drain", () => {
  afterEach(() => markDraining(false));

  it("lets a request in flight finish, refuses new connections, runs the hooks, and is not ready meanwhile", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (started = resolve));
    const { drainer, server, base } = await serve((_req, res) => {
      started();
      void held.then(() => res.end("finished"));
    });
    const inFlight = fetch(`${base}/slow`).then(async (r) => ({ status: r.status, text: await r.text() }));
    await arrived;
    expect(drainer.inFlight()).toBe(1);
    const hookRan: string[] = [];
    drainer.onDrain(async () => void hookRan.push("jobs stopped"));
    const draining = drainer.drain(server, 60_000);
    expect(isDraining()).toBe(true);
    // The hooks start with the drain, while the request is still in flight (the job worker takes no new job).
    expect(hookRan).toEqual(["jobs stopped"]);
    await expect(fetch(`${base}/new`)).rejects.toThrow();
    release();
    expect(await inFlight).toEqual({ status: 200, text: "finished" });
    expect(await draining).toEqual({ unfinished: 0, hooksUnfinished: 0 });
  });

  it("reports requests cut off by the grace period", async () => {
    const { drainer, server, base } = await serve(() => {
      // never answers
    });
    const stuck = fetch(`${base}/stuck`).catch(() => "cut off");
    while (drainer.inFlight() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await drainer.drain(server, 50)).toEqual({ unfinished: 1, hooksUnfinished: 0 });
    server.closeAllConnections();
    expect(await stuck).toBe("cut off");
  });

  it("does not wait past the grace period for a hook that never ends (a job that runs on)", async () => {
    const { drainer, server } = await serve((_req, res) => res.end());
    drainer.onDrain(() => new Promise<void>(() => {}));
    expect(await drainer.drain(server, 50)).toEqual({ unfinished: 0, hooksUnfinished: 1 });
  });
});
