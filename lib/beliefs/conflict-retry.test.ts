import { describe, expect, it } from "vitest";
import { ChangeSetRejected, VersionConflict } from "@/lib/graph/errors";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { contentionStats } from "@/lib/ops/contention";
import { DEFAULT_MIN_ATTEMPTS, withConflictRetry, type Serialiser } from "./conflict-retry";
import { keyedGate } from "./write-gate";

const noSleep = { sleep: async () => {}, random: () => 0.5 };

describe("withConflictRetry", () => {
  it("reruns after a version conflict until the write wins", async () => {
    let calls = 0;
    const result = await withConflictRetry(async (attempt) => {
      calls += 1;
      if (attempt < 3) throw new VersionConflict("b1", "version", "lost");
      return "won";
    }, noSleep);
    expect(result).toBe("won");
    expect(calls).toBe(3);
  });

  it("gives up after maxAttempts with a conflict error naming the attempts", async () => {
    let calls = 0;
    const error = await withConflictRetry(async () => {
      calls += 1;
      throw new VersionConflict("b1", "version", "lost");
    }, { ...noSleep, maxAttempts: 4 }).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(error).toBeInstanceOf(BeliefServiceError);
    expect((error as BeliefServiceError).code).toBe("conflict");
    expect((error as BeliefServiceError).details.attempts).toBe(4);
  });

  it("gives up once the time budget is spent, reporting the contention (attempts, elapsed, belief)", async () => {
    let clock = 0;
    let calls = 0;
    const before = { ...contentionStats() };
    const error = await withConflictRetry(
      async () => {
        calls += 1;
        clock += 400; // each attempt (an ingest re-running its assessment) costs 400 ms
        throw new VersionConflict("b7", "version", "lost");
      },
      { ...noSleep, maxElapsedMs: 1_000, minAttempts: 2, now: () => clock },
    ).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(error).toBeInstanceOf(BeliefServiceError);
    const details = (error as BeliefServiceError).details;
    expect((error as BeliefServiceError).code).toBe("conflict");
    expect(details).toMatchObject({ attempts: 3, elapsedMs: 1_200, reason: "contention", beliefId: "b7" });
    expect((error as BeliefServiceError).message).toMatch(/contention/);
    expect(contentionStats().exhausted).toBe(before.exhausted + 1);
    expect(contentionStats().retries).toBe(before.retries + 2);
  });

  it("on a slow machine, an attempt that alone outlasts the budget still gets its minimum of attempts", async () => {
    let clock = 0;
    const slow = (winsAt: number) => async (attempt: number) => {
      clock += 20_000; // one attempt takes twice the default budget
      if (attempt < winsAt) throw new VersionConflict("b9", "version", "lost");
      return "won";
    };
    expect(await withConflictRetry(slow(3), { ...noSleep, now: () => clock })).toBe("won");
    clock = 0;
    const error = await withConflictRetry(slow(99), { ...noSleep, now: () => clock }).catch((e: unknown) => e);
    expect((error as BeliefServiceError).details).toMatchObject({ attempts: DEFAULT_MIN_ATTEMPTS, elapsedMs: 20_000 * DEFAULT_MIN_ATTEMPTS });
    const capped = await withConflictRetry(slow(99), { ...noSleep, now: () => clock, maxAttempts: 2 }).catch((e: unknown) => e);
    expect((capped as BeliefServiceError).details.attempts).toBe(2);
  });

  it("counts a write that won after losing races as contended", async () => {
    const before = { ...contentionStats() };
    await withConflictRetry(async (attempt) => {
      if (attempt < 2) throw new VersionConflict("b1", "version", "lost");
      return "won";
    }, noSleep);
    await withConflictRetry(async () => "first try", noSleep);
    expect(contentionStats().contended).toBe(before.contended + 1);
    expect(contentionStats().retries).toBe(before.retries + 1);
  });

  it("never retries other errors (a rejected change-set is not a race)", async () => {
    let calls = 0;
    const rejected = new ChangeSetRejected("duplicate_id", "exists");
    await expect(
      withConflictRetry(async () => {
        calls += 1;
        throw rejected;
      }, noSleep),
    ).rejects.toBe(rejected);
    expect(calls).toBe(1);
  });

  it("backs off with full jitter, growing and capped at 250 ms", async () => {
    const waits: number[] = [];
    await withConflictRetry(
      async (attempt) => {
        if (attempt < 10) throw new VersionConflict(null, "deadlock", "lost");
      },
      { random: () => 0.999, sleep: async (ms) => void waits.push(ms) },
    );
    expect(waits).toHaveLength(9);
    expect(waits[0]).toBeCloseTo(0.999 * 8, 6);
    expect(waits[1]).toBeCloseTo(0.999 * 16, 6);
    expect(Math.max(...waits)).toBeLessThan(250);
    expect(waits[8]).toBeCloseTo(0.999 * 250, 6);
  });

  describe("with a serialiser (the scope's write gate)", () => {
    /** A serialiser that records which attempts ran in it. */
    function recording(busy = false) {
      const inside: boolean[] = [];
      let depth = 0;
      const serialiser: Serialiser = {
        busy: () => busy,
        async run(fn) {
          depth += 1;
          try {
            return await fn();
          } finally {
            depth -= 1;
          }
        },
      };
      return { serialiser, inside, isInside: () => depth > 0 };
    }

    it("a write that lost a race runs its remaining attempts in it, entering once and without a backoff first", async () => {
      const { serialiser, inside, isInside } = recording();
      const waits: number[] = [];
      const before = { ...contentionStats() };
      const result = await withConflictRetry(
        async (attempt) => {
          inside.push(isInside());
          if (attempt < 3) throw new VersionConflict("b1", "version", "lost");
          return "won";
        },
        { serialise: serialiser, random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
      );
      expect(result).toBe("won");
      expect(inside).toEqual([false, true, true]);
      expect(waits).toEqual([0.5 * 16]); // only the second loss, inside the gate, backs off
      expect(contentionStats().serialised).toBe(before.serialised + 1);
      expect(contentionStats().contended).toBe(before.contended + 1);
    });

    it("a write that finds it busy runs every attempt in it; one that never loses and finds it free never enters", async () => {
      const busy = recording(true);
      await withConflictRetry(async () => void busy.inside.push(busy.isInside()), { ...noSleep, serialise: busy.serialiser });
      expect(busy.inside).toEqual([true]);
      const free = recording(false);
      await withConflictRetry(async () => void free.inside.push(free.isInside()), { ...noSleep, serialise: free.serialiser });
      expect(free.inside).toEqual([false]);
    });

    it("a write that finds it busy rehearses outside it first; a free gate, a lost race and other errors in the rehearsal", async () => {
      const busy = recording(true);
      const order: string[] = [];
      const result = await withConflictRetry(async () => (order.push(`attempt, in the gate: ${busy.isInside()}`), "won"), {
        ...noSleep,
        serialise: busy.serialiser,
        rehearse: async () => void order.push(`rehearsal, in the gate: ${busy.isInside()}`),
      });
      expect(result).toBe("won");
      expect(order).toEqual(["rehearsal, in the gate: false", "attempt, in the gate: true"]);
      // A free gate: the write runs at once, without a rehearsal.
      const free = recording(false);
      let rehearsals = 0;
      await withConflictRetry(async () => "won", { ...noSleep, serialise: free.serialiser, rehearse: async () => void (rehearsals += 1) });
      expect(rehearsals).toBe(0);
      // A rehearsal that loses a race is only a rehearsal: the attempts still run, in the gate.
      const raced = recording(true);
      const attempts: boolean[] = [];
      await withConflictRetry(async () => void attempts.push(raced.isInside()), {
        ...noSleep,
        serialise: raced.serialiser,
        rehearse: async () => {
          throw new VersionConflict("b1", "version", "changed while read");
        },
      });
      expect(attempts).toEqual([true]);
      // Any other error fails the write, and no attempt runs.
      const failing = recording(true);
      let ran = 0;
      const error = await withConflictRetry(async () => void (ran += 1), {
        ...noSleep,
        serialise: failing.serialiser,
        rehearse: async () => {
          throw new Error("the reader is unavailable");
        },
      }).catch((e: unknown) => e);
      expect((error as Error).message).toBe("the reader is unavailable");
      expect(ran).toBe(0);
    });

    it("the wait for the gate does not count against the time budget", async () => {
      let clock = 0;
      // Every wait for the gate takes 20 s (a long queue); each attempt takes 100 ms.
      const slowQueue: Serialiser = {
        busy: () => false,
        run: async (fn) => {
          clock += 20_000;
          return fn();
        },
      };
      let calls = 0;
      const result = await withConflictRetry(
        async (attempt) => {
          calls += 1;
          clock += 100;
          if (attempt < 6) throw new VersionConflict("b2", "version", "lost");
          return "won";
        },
        { ...noSleep, serialise: slowQueue, maxElapsedMs: 1_000, minAttempts: 2, now: () => clock },
      );
      expect(result).toBe("won");
      expect(calls).toBe(6);
      // The same write whose attempts alone outlast the budget gives up, reporting the wait apart.
      clock = 0;
      const error = await withConflictRetry(
        async () => {
          clock += 400;
          throw new VersionConflict("b2", "version", "lost");
        },
        { ...noSleep, serialise: slowQueue, maxElapsedMs: 1_000, minAttempts: 2, now: () => clock },
      ).catch((e: unknown) => e);
      expect((error as BeliefServiceError).details).toMatchObject({ attempts: 3, elapsedMs: 1_200, queuedMs: 20_000 });
    });

    it("writers that start together on one version lose once each in it, where without it they lose again to each other", async () => {
      /** A stored version and a write that reads it, yields, and commits only if nobody wrote since. */
      const race = async (writers: number, serialise?: Serialiser) => {
        let version = 0;
        let retries = 0;
        const write = async (attempt: number) => {
          if (attempt > 1) retries += 1;
          const read = version;
          await Promise.resolve();
          await Promise.resolve();
          if (version !== read) throw new VersionConflict("b1", "version", "lost");
          version += 1;
        };
        await Promise.all(Array.from({ length: writers }, () => withConflictRetry(write, { ...noSleep, ...(serialise ? { serialise } : {}) })));
        return { version, retries };
      };
      const gate = keyedGate();
      const gated = await race(6, { busy: () => gate.busy("scope"), run: (fn) => gate.run("scope", fn) });
      const free = await race(6);
      expect(gated).toEqual({ version: 6, retries: 5 });
      expect(free.version).toBe(6);
      expect(free.retries).toBeGreaterThan(5);
    });
  });
});
