import { describe, expect, it } from "vitest";
import { microBatcher } from "./micro-batcher";

/** A batch function that records every batch it is handed and answers each item with `item × 10`. */
function recorder(options: { failOn?: number; delayMs?: number } = {}) {
  const batches: number[][] = [];
  const run = async (items: readonly number[]) => {
    batches.push([...items]);
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    if (options.failOn !== undefined && items.includes(options.failOn)) throw new Error(`bad item ${options.failOn}`);
    return items.map((i) => i * 10);
  };
  return { batches, run };
}

describe("microBatcher", () => {
  it("coalesces calls made together into one batch and gives each caller its own outputs, in its order", async () => {
    const { batches, run } = recorder();
    const call = microBatcher(run, { maxWaitMs: 2, maxBatch: 100 });
    const [a, b, c] = await Promise.all([call([1, 2]), call([3]), call([4, 5, 6])]);
    expect(a).toEqual([10, 20]);
    expect(b).toEqual([30]);
    expect(c).toEqual([40, 50, 60]);
    expect(batches).toEqual([[1, 2, 3, 4, 5, 6]]);
  });

  it("runs one batch at a time: calls made while a batch runs make the next batch", async () => {
    const { batches, run } = recorder({ delayMs: 20 });
    const call = microBatcher(run, { maxWaitMs: 0, maxBatch: 100 });
    const first = call([1]);
    await new Promise((r) => setTimeout(r, 5)); // the first batch is running now
    const later = [call([2]), call([3])];
    expect(await first).toEqual([10]);
    expect(await Promise.all(later)).toEqual([[20], [30]]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it("runs up to `concurrency` batches side by side", async () => {
    let active = 0;
    let most = 0;
    const call = microBatcher(
      async (items: readonly number[]) => {
        active++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        return items.map((i) => -i);
      },
      { maxWaitMs: 0, maxBatch: 1, concurrency: 2 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5].map((i) => call([i])))).toEqual([[-1], [-2], [-3], [-4], [-5]]);
    expect(most).toBe(2);
  });

  it("never puts more than maxBatch items in a batch, and never splits one caller's items", async () => {
    const { batches, run } = recorder();
    const call = microBatcher(run, { maxWaitMs: 50, maxBatch: 3 });
    const results = await Promise.all([call([1, 2]), call([3]), call([4]), call([5, 6, 7, 8]), call([9])]);
    expect(results).toEqual([[10, 20], [30], [40], [50, 60, 70, 80], [90]]);
    expect(batches).toEqual([[1, 2, 3], [4], [5, 6, 7, 8], [9]]);
  });

  it("sends a failure to the caller whose items failed, not to the others in its batch", async () => {
    const { batches, run } = recorder({ failOn: 3 });
    const call = microBatcher(run, { maxWaitMs: 2, maxBatch: 100 });
    const outcomes = await Promise.allSettled([call([1]), call([2, 3]), call([4])]);
    expect(outcomes[0]).toEqual({ status: "fulfilled", value: [10] });
    expect(outcomes[1]).toMatchObject({ status: "rejected", reason: new Error("bad item 3") });
    expect(outcomes[2]).toEqual({ status: "fulfilled", value: [40] });
    // The whole batch first, then each caller alone.
    expect(batches).toEqual([[1, 2, 3, 4], [1], [2, 3], [4]]);
  });

  it("rejects every caller when every run fails, and keeps working afterwards", async () => {
    let broken = true;
    const call = microBatcher(
      async (items: readonly number[]) => {
        if (broken) throw new Error("model missing");
        return items.map((i) => i + 1);
      },
      { maxWaitMs: 0, maxBatch: 10 },
    );
    const outcomes = await Promise.allSettled([call([1]), call([2])]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    broken = false;
    expect(await call([5])).toEqual([6]);
  });

  it("refuses a batch answer of the wrong length, and answers an empty call at once", async () => {
    const call = microBatcher(async () => [1], { maxWaitMs: 0, maxBatch: 10 });
    await expect(call([1, 2])).rejects.toThrow(/2 items returned 1 outputs/);
    expect(await call([])).toEqual([]);
  });
});
