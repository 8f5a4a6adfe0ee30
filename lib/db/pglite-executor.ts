import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { serialize } from "pg-protocol";
import type { BackendMessage, CommandCompleteMessage, DataRowMessage, DatabaseError, Field, ReadyForQueryMessage, RowDescriptionMessage } from "pg-protocol/dist/messages";
import { Parser } from "pg-protocol/dist/parser";
import { setImmediate as nextMacrotask } from "node:timers/promises";
import type { Turn } from "./embedded-socket-server";
import { sessionTransaction, statementNames, type RunStatement, type SqlExecutor, type StatementNamer } from "./sql-executor";

/**
 * The raw-SQL port on the embedded PGlite of this very process, without the socket and the pg client in between.
 *
 * Every statement runs in a turn of the socket server's queue (`runTurn`): one statement is one turn, a transaction
 * holds one turn from BEGIN to COMMIT or ROLLBACK (nested transactions are savepoints, as on a pg connection), so
 * in-process work and the other processes' connections never interleave on the single session.
 *
 * The wire messages are pg's own, built and read with pg's own pieces, so rows, values and errors are what a pg
 * connection gives: the statement is encoded as pg encodes it (no parameters: one simple Query; with parameters:
 * Parse, Bind with `pg.utils.prepareValue`'s values, Describe, Execute, Sync), handed to PGlite in one call, and the
 * answer is parsed by pg-protocol's parser into pg's `Result` (pg's type parsers, `pg.types` overrides included),
 * an ErrorResponse into pg's `DatabaseError`. One difference: a string of several statements without parameters
 * gives the last statement's rows (pg gives an array of results there, whose `rows` is undefined).
 */
export function pgliteExecutor(db: PGlite, runTurn: <T>(fn: (turn: Turn) => Promise<T>) => Promise<T>): SqlExecutor {
  const inTurn =
    (turn: Turn): RunStatement =>
    async (text, params) => {
      // A statement here completes without any I/O: without this yield, a long piece of work (a job's ingest) would
      // run its statements back to back and hold the event loop, leaving every HTTP request waiting until it ended.
      // Over the socket each statement was a round trip, and other requests were served between them; so they are.
      await nextMacrotask();
      return turn.step(() => runStatement(db, text, params));
    };
  return {
    query<T>(text: string, params?: unknown[]): Promise<T[]> {
      return runTurn((turn) => inTurn(turn)(text, params)) as Promise<T[]>;
    },
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return runTurn((turn) => sessionTransaction(inTurn(turn), 0, fn));
    },
  };
}

/** The parts of pg's `Result` that turn wire messages into rows (untyped in @types/pg). */
type ResultBuilder = {
  rows: unknown[];
  addFields(fields: Field[]): void;
  parseRow(values: DataRowMessage["fields"]): unknown;
  addRow(row: unknown): void;
  addCommandComplete(message: CommandCompleteMessage): void;
};

const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils;

/** Who is told of every statement sent to an in-process PGlite, with its parameters, as it is sent. */
export type StatementObserver = (text: string, params: readonly unknown[]) => void;
const observers = new Set<StatementObserver>();

/**
 * Tells `observer` of every statement this process sends to its in-process PGlite, until the returned function is
 * called: what a `pg.Client#query` hook sees of statements sent through pg (tests that prove two requests send the
 * same statements; benchmarks that count round trips).
 */
export function observeStatements(observer: StatementObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/**
 * Statements prepared on an embedded PGlite's session (named prepared statements of the extended protocol). A
 * statement sent unnamed is parsed, analysed and planned again on every call, which PGlite's wasm does several times
 * slower than a native server: a search's four statements spent about as long there as in executing them. A prepared
 * one is only bound and executed, planned with each call's values (`PLAN_CACHE_MODE`, database.ts).
 *
 * * Which texts, and their names: the server path's policy (`statementNames`, sql-executor.ts: parameterised texts
 *   from their third use, at most a bounded number, never one holding `PLANNED_WITH_VALUES`). Other processes'
 *   connections share this session through the socket server and send unnamed statements (their pool never names).
 * * `parsed`: the names this session has answered ParseComplete for, or has a Parse for queued ahead of any later
 *   call (one whose parse fails is taken out again). Prepared statements outlive transactions, rolled back or not,
 *   so a name counts as parsed even when its statement then failed.
 * * A prepared statement the session no longer has (26000: something ran DEALLOCATE) or whose cached plan no longer
 *   fits its tables (0A000 after DDL changed a row type) is closed and parsed again on its next call; outside a
 *   transaction that call is this one, run again (inside one the error stands: the transaction is already aborted).
 */
interface SessionStatements {
  nameOf: StatementNamer;
  parsed: Set<string>;
}
const statementsBySession = new WeakMap<PGlite, SessionStatements>();

function statementsOf(db: PGlite): SessionStatements {
  let s = statementsBySession.get(db);
  if (!s) {
    s = { nameOf: statementNames(), parsed: new Set() };
    statementsBySession.set(db, s);
  }
  return s;
}

/** How many statements this process holds prepared on `db`'s session (tests). */
export function preparedCount(db: PGlite): number {
  return statementsBySession.get(db)?.parsed.size ?? 0;
}

/** One statement on the session, its rows as pg gives them; the caller holds the turn. */
export async function runStatement(db: PGlite, text: string, params?: unknown[]): Promise<unknown[]> {
  for (const observer of observers) observer(text, params ?? []);
  const parameterised = params !== undefined && params.length > 0;
  const session = parameterised ? statementsOf(db) : undefined;
  // The statement's name (none: unnamed, as pg sends it), and whether this call prepares it.
  const name = session?.nameOf(text, params);
  const preparing = name !== undefined && !session?.parsed.has(name);
  // Recorded before the request is queued, so a call of the same text queued behind this one binds the name instead
  // of parsing it again ("already exists"); taken back below if the parse fails.
  if (preparing) session?.parsed.add(name);
  // As pg: the simple protocol without parameters, the extended one (unnamed statement and portal) with them.
  const request = !parameterised
    ? serialize.query(text)
    : Buffer.concat([
        ...(name === undefined || preparing ? [serialize.parse({ text, ...(name !== undefined ? { name } : {}) })] : []),
        serialize.bind({ values: params, valueMapper: (value) => prepareValue(value), ...(name !== undefined ? { statement: name } : {}) }),
        serialize.describe({ type: "P", name: "" }),
        serialize.execute({}),
        serialize.sync(),
      ]);
  // The stream form, as the socket server uses: PGlite keeps the last stream's data callback and the plain form
  // would hand this answer to whichever connection ran last.
  const chunks: Uint8Array[] = [];
  await db.runExclusive(() => db.execProtocolRawStream(request, { onRawData: (data) => chunks.push(data.slice()) }));
  const response = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);

  const newResult = () => new pg.Result("object", pg.types) as unknown as ResultBuilder;
  let current = newResult();
  let last: ResultBuilder | undefined;
  let failure: DatabaseError | undefined;
  let idle = false;
  let parseCompleted = false;
  new Parser().parse(Buffer.from(response.buffer, response.byteOffset, response.byteLength), (message: BackendMessage) => {
    switch (message.name) {
      case "parseComplete":
        parseCompleted = true;
        break;
      case "readyForQuery":
        idle = (message as ReadyForQueryMessage).status === "I";
        break;
      case "rowDescription":
        current.addFields((message as RowDescriptionMessage).fields);
        break;
      case "dataRow":
        current.addRow(current.parseRow((message as DataRowMessage).fields));
        break;
      case "commandComplete":
        current.addCommandComplete(message as CommandCompleteMessage);
        last = current;
        current = newResult();
        break;
      case "error":
        failure ??= message as DatabaseError;
        break;
    }
  });
  if (preparing && !parseCompleted) session?.parsed.delete(name);
  if (failure) {
    if (name !== undefined && !preparing && (failure.code === "26000" || failure.code === "0A000")) {
      await forget(db, name);
      if (idle) return runStatement(db, text, params);
    }
    // The stack of the caller's statement, not of the parser (pg does the same).
    Error.captureStackTrace(failure);
    throw failure;
  }
  return last?.rows ?? [];
}

/** Drops a prepared statement that no longer works (see SessionStatements): closed on the session, parsed on next use. */
async function forget(db: PGlite, name: string): Promise<void> {
  statementsBySession.get(db)?.parsed.delete(name);
  const close = Buffer.concat([serialize.close({ type: "S", name }), serialize.sync()]);
  await db.runExclusive(() => db.execProtocolRawStream(close, { onRawData: () => {} }));
}
