/**
 * Standard output and error whose reader is gone (the log collector stopped, the parent that piped them died,
 * `| head` exited) fail every later write with EPIPE. Unhandled, the first failure is an uncaught exception; Next.js's
 * handler prints it to the same broken stream, which fails again: a loop that keeps a core busy and never lets a
 * SIGTERM's shutdown finish (its first line is a log line). With a listener on each stream, a failed write is
 * dropped: the process goes on serving and stops when told. Structured logs (pino) already drop writes to a broken
 * pipe; this covers `console.*` and anything else writing to the two streams.
 */
export function dropWritesToClosedLogPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount("error") === 0) stream.on("error", () => {});
  }
}
