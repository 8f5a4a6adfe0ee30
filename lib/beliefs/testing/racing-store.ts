/**
 * A graph store that loses races on purpose: its `apply` refuses the first `refusals` change-sets as lost
 * optimistic-concurrency races (`VersionConflict`, nothing written), as a concurrent writer would make it, then applies
 * them. `beforeApply(n)` runs before the n-th call of `apply` (counting the refused ones, from 1) that is applied: a
 * test holds a write there. Every other method is the store's own.
 */
import type { ChangeSet } from "@/lib/engine";
import { VersionConflict } from "@/lib/graph/errors";
import type { GraphStore } from "@/lib/graph/graph-store";

export function racingStore(store: GraphStore, refusals: number, beforeApply?: (n: number) => Promise<unknown> | unknown): { store: GraphStore; refusalsLeft(): number } {
  let left = refusals;
  let calls = 0;
  const racing = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property !== "apply") return value.bind(target);
      return async (changeSet: ChangeSet) => {
        calls += 1;
        if (left > 0) {
          left -= 1;
          throw new VersionConflict(null, "version", "another writer committed first");
        }
        await beforeApply?.(calls);
        return target.apply(changeSet);
      };
    },
  });
  return { store: racing, refusalsLeft: () => left };
}
