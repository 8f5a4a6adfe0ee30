/**
 * Structured JSON logs (pino) on stdout: one object per line with `level`, `time`, `msg`, and — inside a request —
 * its `requestId` (mixed in from the request context). `LOG_LEVEL` sets the level (default info; `silent` for none).
 */
import pino, { type DestinationStream, type Logger } from "pino";
import { processValue } from "@/lib/process-singleton";
import { currentRequest } from "./request-context";

const processLogger = processValue<Logger>("__credenceLogger", () => createLogger());

/** A logger with the process's configuration, writing to `destination` (default stdout). */
export function createLogger(destination?: DestinationStream): Logger {
  const options = {
    level: process.env.LOG_LEVEL ?? "info",
    base: { service: "credence", pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const request = currentRequest();
      return request ? { requestId: request.requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export function getLogger(): Logger {
  return processLogger.get();
}

/** Replaces the process logger (tests capture lines with a destination of their own). */
export function setLogger(logger: Logger | undefined): void {
  processLogger.set(logger);
}
