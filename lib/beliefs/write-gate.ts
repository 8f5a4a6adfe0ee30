/**
 * A FIFO gate per key: `run(key, fn)` starts `fn` once every earlier run of that key has settled. A run started from
 * inside one of the key's runs (a write that calls another write of the same scope) already holds the gate and starts
 * at once; waiting for itself would never end.
 *
 * The belief services serialise, per scope and within this process, the writes that contend (./conflict-retry): a
 * write that lost a race runs its next attempts holding its scope's gate, and while the gate is busy, new writes of
 * that scope queue behind it instead of starting a race they would likely lose. Other processes' writes are not
 * serialised by it; the store's version check still decides every race.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface KeyedGate {
  /** True while a run of `key` is running or waiting, and the caller does not hold the gate itself. */
  busy(key: string): boolean;
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

export function keyedGate(): KeyedGate {
  const tails = new Map<string, Promise<void>>();
  const held = new AsyncLocalStorage<ReadonlySet<string>>();
  const holds = (key: string) => held.getStore()?.has(key) === true;
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
      try {
        return await held.run(new Set([...(held.getStore() ?? []), key]), fn);
      } finally {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}
