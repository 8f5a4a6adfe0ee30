/**
 * A TCP relay that counts what a server exchanges with its database: `bench:http` puts it between the server and
 * Postgres (DATABASE_URL) or Neo4j (NEO4J_URI, Bolt), so each cell can report the bytes the database sent per request
 * and the round trips taken. A round trip is counted on each connection when the database answers after the client
 * has sent something since the last answer (a pipelined batch of messages, as the drivers send them, is one). The
 * relay adds a hop on loopback; its counts are exact, its latency is not the server's.
 *
 * On Postgres (`postgres: true`) it also reads the frontend/backend protocol's message frames, so that the bytes of
 * each result (its DataRow messages) are counted against the statement that produced them: Parse names a statement's
 * text, Bind runs one (named or not) and its BindComplete starts that statement's rows; a simple Query is its own text.
 * Messages are only read, never changed. It expects a plain connection, as on loopback here (under TLS the counts
 * stay right, the statements do not).
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

/** One statement's results (Postgres only): how often it ran, its rows, and their bytes on the wire. */
export interface StatementBytes {
  text: string;
  runs: number;
  rows: number;
  bytes: number;
}

export interface WireCounter {
  /** The relay's own port on 127.0.0.1. */
  port: number;
  /** The counts so far (take two and subtract them for a window). */
  counts(): WireCounts;
  /** Per statement text, its results so far (Postgres only; empty otherwise). */
  statements(): StatementBytes[];
  close(): Promise<void>;
}

/**
 * Splits a byte stream into protocol messages (a type byte, then a 4-byte length counting itself); the first frontend
 * message of a connection (the startup packet, or an SSL request) has no type byte.
 */
function frames(untyped: boolean, onMessage: (type: string, body: Buffer, size: number) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let first = untyped;
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      if (first) {
        if (pending.length < 4) return;
        const size = pending.readInt32BE(0);
        if (pending.length < size) return;
        first = false;
        pending = pending.subarray(size);
        continue;
      }
      if (pending.length < 5) return;
      const size = pending.readInt32BE(1) + 1;
      if (pending.length < size) return;
      onMessage(String.fromCharCode(pending[0] as number), pending.subarray(5, size), size);
      pending = pending.subarray(size);
    }
  };
}

const cstring = (body: Buffer, from: number): [string, number] => {
  const end = body.indexOf(0, from);
  return [body.subarray(from, end).toString(), end + 1];
};

export async function startWireCounter(target: { host: string; port: number; postgres?: boolean }): Promise<WireCounter> {
  const totals: WireCounts = { down: 0, up: 0, roundTrips: 0 };
  const byText = new Map<string, StatementBytes>();
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    // Whether the client has sent since the database last answered on this connection.
    let awaiting = false;
    // Postgres: statement texts by name; the texts bound in each Sync batch not yet answered; the one whose rows flow.
    const named = new Map<string, string>();
    const batches: string[][] = [];
    let batch: string[] = [];
    let current: StatementBytes | null = null;
    const start = (text: string) => {
      const key = text.replace(/\s+/g, " ").trim();
      current = byText.get(key) ?? { text: key, runs: 0, rows: 0, bytes: 0 };
      byText.set(key, current);
      current.runs += 1;
    };
    const readFrontend = target.postgres
      ? frames(true, (type, body) => {
          if (type === "P") {
            const [name, at] = cstring(body, 0);
            named.set(name, cstring(body, at)[0]);
          } else if (type === "B") {
            const [, at] = cstring(body, 0);
            batch.push(named.get(cstring(body, at)[0]) ?? "(a statement prepared before the relay saw it)");
          } else if (type === "S") {
            batches.push(batch);
            batch = [];
          } else if (type === "Q") {
            batches.push([`\u0000${cstring(body, 0)[0]}`]);
          }
        })
      : null;
    const readBackend = target.postgres
      ? frames(false, (type, _body, size) => {
          const head = batches[0];
          if (type === "2" && head && head.length > 0) start(head.shift() as string);
          else if ((type === "T" || type === "C") && head?.[0]?.startsWith("\u0000")) start((head.shift() as string).slice(1));
          else if (type === "D" && current) {
            current.rows += 1;
            current.bytes += size;
          } else if (type === "Z") {
            // Ready for query: the batch is answered (after an error, its later statements never ran).
            batches.shift();
            current = null;
          }
        })
      : null;
    client.on("data", (chunk: Buffer) => {
      totals.up += chunk.length;
      awaiting = true;
      readFrontend?.(chunk);
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on("data", (chunk: Buffer) => {
      totals.down += chunk.length;
      if (awaiting) totals.roundTrips += 1;
      awaiting = false;
      readBackend?.(chunk);
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
    statements: () => [...byText.values()].map((s) => ({ ...s })),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}
