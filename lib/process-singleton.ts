/**
 * One value per process, kept on `globalThis` so every copy of a module shares it (Next.js bundles route handlers,
 * server actions and the custom server separately, and reloads modules in development). Built on first use, never at
 * import time; a failed build is forgotten, so the next call tries again (e.g. after the CLI released the data folder).
 */
export interface ProcessSingleton<T> {
  /** The value, building it on first use. */
  get(): Promise<T>;
  /** Registers a value built elsewhere (the server opens the database at start). */
  set(value: T): void;
  /** Forgets the value (tests); does not close it. */
  forget(): void;
}

/** `key` names the `globalThis` property (e.g. `__credenceDatabase`); one key, one value, whichever module asks. */
export function processSingleton<T>(key: `__credence${string}`, build: () => Promise<T>): ProcessSingleton<T> {
  const holder = globalThis as unknown as Record<string, Promise<T> | undefined>;
  return {
    get() {
      const existing = holder[key];
      if (existing) return existing;
      const building = build();
      holder[key] = building;
      building.catch(() => {
        if (holder[key] === building) delete holder[key];
      });
      return building;
    },
    set(value) {
      holder[key] = Promise.resolve(value);
    },
    forget() {
      delete holder[key];
    },
  };
}

/** A synchronous process-wide value (a logger, a counter, a flag): built on first `get`, replaceable by `set`. */
export interface ProcessValue<T> {
  get(): T;
  /** Replaces the value; `undefined` forgets it, so the next `get` builds it again. */
  set(value: T | undefined): void;
}

/** Like `processSingleton`, for values built synchronously: one `globalThis` key, shared by every module copy. */
export function processValue<T>(key: `__credence${string}`, build: () => T): ProcessValue<T> {
  const holder = globalThis as unknown as Record<string, T | undefined>;
  return {
    get() {
      if (!(key in holder)) holder[key] = build();
      return holder[key] as T;
    },
    set(value) {
      if (value === undefined) delete holder[key];
      else holder[key] = value;
    },
  };
}
