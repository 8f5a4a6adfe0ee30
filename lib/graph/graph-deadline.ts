/**
 * A client-side deadline on every call of a graph store. A Neo4j server that stops answering without
 * closing its connections (frozen, a network partition, a stalled failover) cannot enforce its own transaction
 * timeout, and the driver has no read timeout on a connection it holds: a request would hang for the whole outage.
 * Past the deadline the call fails with `store_unavailable` (503 with Retry-After); a write that was already on its
 * way may still commit once the server answers again — as with a Postgres read timeout, the client was not told it
 * succeeded, and its retry with the same Idempotency-Key finds the write's idempotency mark instead of writing twice.
 *
 * The deadline wraps every method that returns a promise, and the methods of objects a method returns (resolvers,
 * the idempotency marks), so no path into the store escapes it. `close` and the startup `check` are left alone.
 */
import { z } from "zod";
import { GraphStoreError } from "./errors";
import type { GraphStore } from "./graph-store";

/** Default deadline per store call: generous for a scope import, short of a load balancer's request timeout. */
export const GRAPH_DEADLINE_MS = 60_000;

/** `CREDENCE_GRAPH_TIMEOUT_MS` (an integer 100–600 000), default 60 000; anything else is a configuration error. */
export function graphDeadlineMs(raw: string | undefined): number {
  const text = raw?.trim();
  if (!text) return GRAPH_DEADLINE_MS;
  const parsed = z.coerce.number().int().min(100).max(600_000).safeParse(text);
  if (!parsed.success) throw new Error(`Invalid configuration: CREDENCE_GRAPH_TIMEOUT_MS must be an integer from 100 to 600000, got "${text}"`);
  return parsed.data;
}

/** `check` is the startup check (schema creation may take long on a fresh database; readiness bounds it itself). */
const UNWRAPPED = new Set(["close", "check"]);

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** An object literal with methods (a resolver, the marks): data (records, lists) is passed through untouched. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.values(value).some((v) => typeof v === "function");
}

function race<T>(promise: PromiseLike<T>, ms: number, what: string, wrapResult: (value: T) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new GraphStoreError("store_unavailable", `the graph store did not answer ${what} within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(wrapResult(value));
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function wrapObject<T extends Record<string, unknown>>(target: T, ms: number, path: string, depth: number): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(target)) {
    if (typeof value === "function" && !UNWRAPPED.has(key)) {
      const fn = value as (...args: unknown[]) => unknown;
      const what = `${path}${key}`;
      const wrapResult = (result: unknown) => (depth > 0 && isPlainObject(result) ? wrapObject(result, ms, `${what}().`, depth - 1) : result);
      out[key] = (...args: unknown[]) => {
        const result = fn.apply(target, args);
        return isThenable(result) ? race(result, ms, what, (v) => wrapResult(v)) : wrapResult(result);
      };
    } else if (depth > 0 && isPlainObject(value)) {
      out[key] = wrapObject(value, ms, `${path}${key}.`, depth - 1);
    } else {
      out[key] = value;
    }
  }
  return out as T;
}

/** The store with a deadline of `ms` on each call. */
export function withDeadline(store: GraphStore, ms: number): GraphStore {
  return wrapObject(store as unknown as Record<string, unknown>, ms, "", 2) as unknown as GraphStore;
}
