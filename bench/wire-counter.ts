/**
 * A TCP relay that counts what a server exchanges with its database: `bench:http` puts it between the server and
 * Postgres (DATABASE_URL) or Neo4j (NEO4J_URI, Bolt), so each cell can report the bytes the database sent per request
 * and the round trips taken. A round trip is counted on each connection when the database answers after the client
 * has sent something since the last answer (a pipelined batch of messages, as the drivers send them, is one). The
 * relay adds a hop on loopback; its counts are exact, its latency is not the server's.
 */
import net from "node:net";

export interface WireCounts {
  /** Bytes the database sent to its clients. */
  down: number;
  /** Bytes the clients sent to the database. */
  up: number;
  /** Client sends answered by the database (see the module comment). */
  roundTrips: number;
}

export interface WireCounter {
  /** The relay's own port on 127.0.0.1. */
  port: number;
  /** The counts so far (take two and subtract them for a window). */
  counts(): WireCounts;
  close(): Promise<void>;
}

export async function startWireCounter(target: { host: string; port: number }): Promise<WireCounter> {
  const totals: WireCounts = { down: 0, up: 0, roundTrips: 0 };
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    // Whether the client has sent since the database last answered on this connection.
    let awaiting = false;
    client.on("data", (chunk: Buffer) => {
      totals.up += chunk.length;
      awaiting = true;
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on("data", (chunk: Buffer) => {
      totals.down += chunk.length;
      if (awaiting) totals.roundTrips += 1;
      awaiting = false;
      if (!client.write(chunk)) upstream.pause();
    });
    client.on("drain", () => upstream.resume());
    upstream.on("drain", () => client.resume());
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve, reject) => {
    relay.once("error", reject);
    relay.listen(0, "127.0.0.1", () => resolve());
  });
  const address = relay.address();
  if (address === null || typeof address === "string") throw new Error("wire counter: no TCP port");
  return {
    port: address.port,
    counts: () => ({ ...totals }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}
