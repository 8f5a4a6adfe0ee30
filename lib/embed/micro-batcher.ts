/**
 * Coalesces concurrent calls into batches: every `call(items)` made while a batch is being collected (at most
 * `maxWaitMs` after the first one, or until `maxBatch` items are queued) or while the running batches fill every slot
 * is handed to `run` with the others, once; at most `concurrency` batches run at a time (default one). Each caller
 * gets its own items' outputs, in its own order.
 *
 * Errors go to the caller they belong to: when a batch of several callers fails, each caller's items are run again on
 * their own, so one caller's bad input never fails its neighbours (and a failure that is not the input's — the model
 * missing — reaches every caller). A caller whose items exceed `maxBatch` is one batch of its own (never split).
 *
 * Used by the local embedder (lib/embed/local-embedder.ts) so concurrent requests share one model queue instead of
 * competing for the cores with one inference each.
 */

export interface MicroBatcherOptions {
  /** Longest wait, from the first queued call, before a batch is run (0: the next turn of the event loop). */
  maxWaitMs: number;
  /** A batch is run as soon as this many items are queued. */
  maxBatch: number;
  /** Batches running at once (default 1); a new batch starts when one ends. */
  concurrency?: number;
}

interface Pending<I, O> {
  items: readonly I[];
  resolve(outputs: O[]): void;
  reject(error: unknown): void;
}

export type Batched<I, O> = (items: readonly I[]) => Promise<O[]>;

/**
 * @example
 * const embed = microBatcher((texts) => model(texts), { maxWaitMs: 2, maxBatch: 32 });
 * const [a] = await embed(["one"]); // shares a model call with any other embed(...) made meanwhile
 */
export function microBatcher<I, O>(run: (items: readonly I[]) => Promise<readonly O[]>, options: MicroBatcherOptions): Batched<I, O> {
  const queue: Pending<I, O>[] = [];
  let queued = 0;
  let timer: { cancel(): void } | null = null;
  let running = 0;
  const concurrency = Math.max(1, options.concurrency ?? 1);

  const runOne = async (callers: readonly Pending<I, O>[]): Promise<void> => {
    const items = callers.flatMap((c) => c.items);
    let outputs: readonly O[];
    try {
      outputs = await run(items);
      if (outputs.length !== items.length) throw new Error(`a batch of ${items.length} items returned ${outputs.length} outputs`);
    } catch (error) {
      if (callers.length === 1) {
        callers[0]?.reject(error);
        return;
      }
      // Whose items failed? Each caller again, alone.
      for (const caller of callers) await runOne([caller]);
      return;
    }
    let at = 0;
    for (const caller of callers) {
      caller.resolve(outputs.slice(at, at + caller.items.length));
      at += caller.items.length;
    }
  };

  const takeBatch = (): Pending<I, O>[] => {
    const batch: Pending<I, O>[] = [];
    let size = 0;
    while (queue.length > 0) {
      const next = queue[0] as Pending<I, O>;
      if (batch.length > 0 && size + next.items.length > options.maxBatch) break;
      batch.push(next);
      size += next.items.length;
      queue.shift();
    }
    queued -= size;
    return batch;
  };

  const flush = (): void => {
    timer = null;
    // Each slot takes the next batch; a batch that ends takes the queue's next one (calls made meanwhile).
    while (queue.length > 0 && running < concurrency) {
      running++;
      const batch = takeBatch();
      void runOne(batch).finally(() => {
        running--;
        if (queue.length > 0) flush();
      });
    }
  };

  const schedule = (): void => {
    if (running >= concurrency || timer !== null) return;
    if (queued >= options.maxBatch) {
      flush();
      return;
    }
    if (options.maxWaitMs > 0) {
      const t = setTimeout(flush, options.maxWaitMs);
      timer = { cancel: () => clearTimeout(t) };
    } else {
      const t = setImmediate(flush);
      timer = { cancel: () => clearImmediate(t) };
    }
  };

  return (items) => {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise<O[]>((resolve, reject) => {
      queue.push({ items, resolve, reject });
      queued += items.length;
      if (queued >= options.maxBatch && timer !== null && running < concurrency) {
        timer.cancel();
        timer = null;
      }
      schedule();
    });
  };
}
