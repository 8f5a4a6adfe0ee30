/**
 * A FIFO gate per key: `run(key, fn)` starts `fn` once every earlier run of that key has settled. A run started from
 * inside the key's current run (a write that calls another write of the same scope) already holds the gate and starts
 * at once; waiting for itself would never end. Only the current run counts as holding it: work that a run left behind
 * (a timer, a callback) and that calls `run` after the run ended waits like anyone else.
 *
 * The belief services serialise, per scope and within this process, the writes that contend (./conflict-retry): a
 * write that lost a race runs its next attempts holding its scope's gate, and while the gate is busy, new writes of
 * that scope queue behind it instead of starting a race they would likely lose. Other processes' writes are not
 * serialised by it; the store's version check still decides every race.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface KeyedGate {
  /** True while a run of `key` is running or waiting, and the caller is not inside the key's current run. */
  busy(key: string): boolean;
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

export function keyedGate(): KeyedGate {
  const tails = new Map<string, Promise<void>>();
  /** The token of each key's current run. */
  const holders = new Map<string, symbol>();
  /** The tokens of the runs the current async context was started in. */
  const context = new AsyncLocalStorage<ReadonlySet<symbol>>();
  const holds = (key: string) => {
    const holder = holders.get(key);
    return holder !== undefined && context.getStore()?.has(holder) === true;
  };
  return {
    busy: (key) => tails.has(key) && !holds(key),
    async run(key, fn) {
      if (holds(key)) return fn();
      const before = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const tail = before.then(() => mine);
      tails.set(key, tail);
      await before;
      const token = Symbol(key);
      holders.set(key, token);
      try {
        return await context.run(new Set([...(context.getStore() ?? []), token]), fn);
      } finally {
        holders.delete(key);
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}
