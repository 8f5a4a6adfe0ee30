import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { keyedGate } from "./write-gate";

/** A promise with its resolver, to hold a run open until the test lets it finish. */
function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("keyedGate", () => {
  it("runs one key's calls one at a time, in the order they came", async () => {
    const gate = keyedGate();
    const log: string[] = [];
    const first = latch();
    const a = gate.run("s", async () => {
      log.push("a starts");
      await first.opened;
      log.push("a ends");
    });
    const b = gate.run("s", async () => void log.push("b runs"));
    const c = gate.run("s", async () => void log.push("c runs"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(log).toEqual(["a starts"]);
    expect(gate.busy("s")).toBe(true);
    first.open();
    await Promise.all([a, b, c]);
    expect(log).toEqual(["a starts", "a ends", "b runs", "c runs"]);
    expect(gate.busy("s")).toBe(false);
  });

  it("does not hold one key's calls behind another key's", async () => {
    const gate = keyedGate();
    const held = latch();
    const slow = gate.run("one", () => held.opened);
    await expect(gate.run("two", async () => "ran")).resolves.toBe("ran");
    expect(gate.busy("one")).toBe(true);
    expect(gate.busy("two")).toBe(false);
    held.open();
    await slow;
  });

  it("a call made inside a run of the same key runs at once instead of waiting for itself", async () => {
    const gate = keyedGate();
    const inner = await gate.run("s", async () => {
      expect(gate.busy("s")).toBe(false); // the caller holds it
      return gate.run("s", async () => "inner ran");
    });
    expect(inner).toBe("inner ran");
  });

  it("work a run left behind waits like anyone else once the run has ended", async () => {
    const gate = keyedGate();
    const log: string[] = [];
    let late: Promise<void> | undefined;
    const timerFired = latch();
    await gate.run("s", async () => {
      // A timer set inside the run carries the run's async context; it fires after the run has ended.
      setTimeout(() => {
        late = gate.run("s", async () => void log.push("left-behind runs"));
        timerFired.open();
      }, 10);
    });
    const second = latch();
    const holder = gate.run("s", async () => {
      log.push("second starts");
      await second.opened;
      log.push("second ends");
    });
    await timerFired.opened;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(log).toEqual(["second starts"]);
    second.open();
    await Promise.all([holder, late]);
    expect(log).toEqual(["second starts", "second ends", "left-behind runs"]);
  });

  it("a run that fails passes its error on and frees the gate", async () => {
    const gate = keyedGate();
    await expect(gate.run("s", async () => Promise.reject(new Error("write failed")))).rejects.toThrow("write failed");
    expect(gate.busy("s")).toBe(false);
    await expect(gate.run("s", async () => "next")).resolves.toBe("next");
  });

  it("property: whatever the keys and durations, no two runs of a key overlap and each key keeps its order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 20 }), async (calls) => {
        const gate = keyedGate();
        const running = new Map<string, number>();
        const order = new Map<string, number[]>();
        let overlapped = false;
        await Promise.all(
          calls.map(([key, ticks], i) =>
            gate.run(key, async () => {
              running.set(key, (running.get(key) ?? 0) + 1);
              if ((running.get(key) ?? 0) > 1) overlapped = true;
              order.set(key, [...(order.get(key) ?? []), i]);
              for (let t = 0; t < ticks; t++) await Promise.resolve();
              running.set(key, (running.get(key) ?? 0) - 1);
            }),
          ),
        );
        expect(overlapped).toBe(false);
        for (const [key, seen] of order) expect(seen).toEqual(calls.flatMap(([k], i) => (k === key ? [i] : [])));
        for (const key of ["a", "b", "c"]) expect(gate.busy(key)).toBe(false);
      }),
    );
  });
});
