import { createServer, type Server, type Socket } from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler } from "@electric-sql/pglite-socket";
import type { SocketAddress } from "./data-folder-lock";

/**
 * Serves one PGlite (a single Postgres backend session) to many wire-protocol connections without ever
 * interleaving two connections' work. pglite-socket 0.2.17 ships a queue that defaults to `maxConnections: 1`
 * (a second client is refused) and, with more, hands the backend to the next queued message unless PGlite reports
 * an open transaction block; between one client's Parse and Sync it relies on PGlite finishing each message within
 * microtasks (it did in our stress runs), and its loop stays wedged if a message ever throws. This server reuses
 * pglite-socket's framing (`PGLiteSocketHandler`) with a queue built on turns, so the guarantee holds by
 * construction:
 *
 * - a connection takes the turn with its first message and keeps it until a message that ends a protocol cycle
 *   (Query, Sync, Terminate or the startup packet) leaves the backend outside a transaction block;
 * - while a turn is held, only the holder's messages run; everyone else's wait in arrival order (a new
 *   connection's startup too);
 * - a holder that disconnects mid-transaction is rolled back and the turn passes on;
 * - a holder that sits idle inside a transaction for `idleInTransactionMs` while others wait is rolled back and
 *   disconnected (like Postgres' idle_in_transaction_session_timeout), so code that deadlocks itself (awaiting a
 *   second connection from inside a transaction) fails instead of hanging every client.
 *
 * The owning process's own work takes the same turns (`runTurn`: one query, or a transaction from BEGIN to its end),
 * so it never interleaves with a connection's either; an in-process turn idle inside a transaction while others
 * wait loses the turn the same way (rolled back, its next statement fails with SQLSTATE 25P03).
 *
 * Because every connection shares one session, session state is shared too: avoid named prepared statements,
 * session-level SET and temporary tables (Prisma's adapter-pg and plain pg queries use none, and the pool's
 * connections here never name statements: two of them preparing one name fail with "prepared statement … already
 * exists"). The holder's in-process executor prepares its own statements on the session (pglite-executor.ts, names no
 * connection uses; one another connection drops is parsed again) and sets `plan_cache_mode` at start.
 */
export class TurnQueue {
  private readonly items: QueueItem[] = [];
  private holder: number | null = null;
  private running = false;
  /** Statements of the in-process holder running on the session (busy, not idle; a transaction may run several at once). */
  private stepping = 0;
  private readonly disconnected = new Set<number>();
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly kickers = new Map<number, () => void>();
  /** In-process turns are numbered -1, -2, …: connections' handler ids are positive. */
  private lastTurnId = 0;
  /** In-process turns waiting or running (`close` lets them finish); null once closed (`runTurn` refuses). */
  private turns: Set<Promise<unknown>> | null = new Set();

  constructor(
    private readonly db: PGlite,
    private readonly idleInTransactionMs: number,
  ) {}

  /** Registers how to disconnect a connection that blocks the queue. */
  registerKicker(handlerId: number, kick: () => void): void {
    this.kickers.set(handlerId, kick);
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.items.push({ handlerId, message, onData, resolve, reject });
      void this.pump();
    });
  }

  /**
   * Waits for the turn like a connection (in arrival order), runs `fn` holding it, and gives it back when `fn`
   * settles, throw or not (a transaction `fn` left open is rolled back first). `fn` runs its statements through
   * `turn.step`, which refuses once the turn was taken away.
   */
  runTurn<T>(fn: (turn: Turn) => Promise<T>): Promise<T> {
    const turns = this.turns;
    if (turns === null) return Promise.reject(new DatabaseClosedError());
    const turn = this.takeTurn(fn);
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    turns.add(settled);
    void settled.then(() => turns.delete(settled));
    return turn;
  }

  private async takeTurn<T>(fn: (turn: Turn) => Promise<T>): Promise<T> {
    const id = --this.lastTurnId;
    await this.waitForTurn(id);
    try {
      return await fn({ step: (work) => this.step(id, work) });
    } finally {
      await this.endTurn(id);
    }
  }

  /**
   * Refuses new in-process turns and waits for those already asked for (running or queued) to end: a transaction
   * under way when the server shuts down commits or rolls back whole, before the database closes under it.
   */
  async close(): Promise<void> {
    const turns = this.turns;
    this.turns = null;
    while (turns !== null && turns.size > 0) await Promise.all([...turns]);
  }

  private waitForTurn(id: number): Promise<void> {
    if (this.holder === null && !this.running && this.items.length === 0) {
      this.holder = id;
      return Promise.resolve();
    }
    return new Promise<void>((grant) => {
      this.items.push({ kind: "turn", handlerId: id, grant });
      void this.pump();
    });
  }

  private async step<T>(id: number, work: () => Promise<T>): Promise<T> {
    if (this.holder !== id) throw new TurnLostError(this.idleInTransactionMs);
    this.stepping++;
    this.clearIdleTimer();
    try {
      return await work();
    } finally {
      this.stepping--;
      if (this.stepping === 0 && this.holder === id && this.items.length > 0) this.armIdleTimer(id);
    }
  }

  private async endTurn(id: number): Promise<void> {
    this.disconnected.delete(id);
    if (this.holder !== id) return;
    this.clearIdleTimer();
    try {
      // Still the holder: nobody else's statement can run between this check and the rollback.
      if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    } finally {
      this.holder = null;
      void this.pump();
    }
  }

  getQueueLength(): number {
    return this.items.length;
  }

  clearQueueForHandler(handlerId: number): void {
    for (let index = this.items.length - 1; index >= 0; index--) {
      const item = this.items[index];
      if (item?.handlerId === handlerId && item.kind !== "turn") {
        this.items.splice(index, 1);
        item.reject(new Error("Handler disconnected"));
      }
    }
  }

  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    this.kickers.delete(handlerId);
    if (this.holder !== handlerId) return;
    this.disconnected.add(handlerId);
    if (!this.running) await this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.clearIdleTimer();
    try {
      for (;;) {
        if (this.holder !== null && this.disconnected.has(this.holder)) await this.abandonTurn();
        const index = this.holder === null ? 0 : this.items.findIndex((item) => item.handlerId === this.holder);
        const item = index >= 0 ? this.items[index] : undefined;
        if (!item) break;
        this.items.splice(index, 1);
        this.holder = item.handlerId;
        if (item.kind === "turn") {
          // Held until `runTurn` gives it back; no item of this id is queued, so the loop ends here.
          item.grant();
          continue;
        }
        try {
          const bytes = await this.run(item);
          item.resolve(bytes);
        } catch (error) {
          item.reject(error);
        }
        if (endsCycle(item.message) && !this.db.isInTransaction()) this.holder = null;
      }
    } finally {
      this.running = false;
    }
    if (this.holder !== null && this.items.length > 0) this.armIdleTimer(this.holder);
  }

  private async run(item: MessageItem): Promise<number> {
    let bytes = 0;
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(item.message, {
        onRawData: (data) => {
          bytes += data.length;
          item.onData(data);
        },
      }),
    );
    return bytes;
  }

  private async abandonTurn(): Promise<void> {
    const holder = this.holder;
    if (holder === null) return;
    this.disconnected.delete(holder);
    this.holder = null;
    // Not inside runExclusive: exec takes PGlite's query mutex itself (nesting them deadlocks).
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
  }

  private armIdleTimer(holder: number): void {
    this.clearIdleTimer();
    this.idleTimer = setTimeout(() => {
      if (this.holder !== holder || this.running || this.stepping > 0) return;
      this.kickers.get(holder)?.();
      this.disconnected.add(holder);
      void this.pump();
    }, this.idleInTransactionMs);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

/** An in-process turn's handle: runs one piece of work (a statement) on the session while the turn is held. */
export type Turn = {
  step<T>(work: () => Promise<T>): Promise<T>;
};

/**
 * A statement of an in-process turn that no longer holds the database: its transaction sat idle while others waited
 * and was rolled back, or the transaction had already ended. SQLSTATE 25P03 is Postgres's
 * idle_in_transaction_session_timeout; like that session's end, it counts as the database being unavailable (503).
 */
/** In-process work asked of a socket server that is closing or closed (the server is shutting down: 503). */
export class DatabaseClosedError extends Error {
  readonly code = "57P01";
  constructor() {
    super("the embedded database is closed (the server is shutting down)");
    this.name = "DatabaseClosedError";
  }
}

export class TurnLostError extends Error {
  readonly code = "25P03";
  constructor(idleMs: number) {
    super(`this transaction no longer holds the database (rolled back after ${idleMs} ms idle while others waited, or already ended)`);
    this.name = "TurnLostError";
  }
}

type MessageItem = {
  kind?: undefined;
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
};
type TurnItem = { kind: "turn"; handlerId: number; grant: () => void };
type QueueItem = MessageItem | TurnItem;

const QUERY = 0x51; // 'Q'
const SYNC = 0x53; // 'S'
const TERMINATE = 0x58; // 'X'

/** The startup packet starts with its int32 length (first byte 0 for any sane size); typed messages with a letter. */
function endsCycle(message: Uint8Array): boolean {
  const type = message[0];
  return type === QUERY || type === SYNC || type === TERMINATE || type === 0;
}

export type EmbeddedSocketServer = {
  readonly address: SocketAddress;
  readonly connectionCount: number;
  /** Messages and in-process turns waiting for the session (diagnostics and tests). */
  readonly waiting: number;
  /** The owning process's own work on the session, in turn with the connections (`TurnQueue.runTurn`). */
  runTurn<T>(fn: (turn: Turn) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/**
 * Listens on `${socketDir}/.s.PGSQL.5432` (the name pg derives from `host = socketDir`, owner-only permissions),
 * or on a loopback port when `socketDir` is null or its path would exceed the unix socket limit.
 */
export async function startEmbeddedSocketServer(
  db: PGlite,
  options: { socketDir: string | null; idleInTransactionMs?: number },
): Promise<EmbeddedSocketServer> {
  const queue = new TurnQueue(db, options.idleInTransactionMs ?? 30_000);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // pglite-socket types its queue as its own class; TurnQueue implements the same four methods it calls.
    const handler = new PGLiteSocketHandler({
      queryQueue: queue as unknown as ConstructorParameters<typeof PGLiteSocketHandler>[0]["queryQueue"],
      closeOnDetach: true,
    });
    queue.registerKicker(handler.handlerId, () => socket.destroy());
    void handler.attach(socket);
  });
  const port = 5432;
  const unixPath = options.socketDir === null ? null : `${options.socketDir}/.s.PGSQL.${port}`;
  const address: SocketAddress =
    unixPath !== null && Buffer.byteLength(unixPath) < 104
      ? { kind: "unix", dir: options.socketDir ?? "", port }
      : { kind: "tcp", host: "127.0.0.1", port: await listenTcp(server) };
  if (address.kind === "unix" && unixPath !== null) await listenUnix(server, unixPath);
  return {
    address,
    get connectionCount() {
      return sockets.size;
    },
    get waiting() {
      return queue.getQueueLength();
    },
    runTurn: (fn) => queue.runTurn(fn),
    async close() {
      // The owning process's own turns end first; they may still be waiting behind a connection's statement.
      await queue.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function listenUnix(server: Server, socketPath: string): Promise<void> {
  const { chmod, unlink } = await import("node:fs/promises");
  // Only the lock holder gets here, so a leftover socket file belongs to a dead process.
  await unlink(socketPath).catch(() => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
}

async function listenTcp(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = server.address();
  if (bound === null || typeof bound === "string") throw new Error("loopback listener has no port");
  return bound.port;
}
