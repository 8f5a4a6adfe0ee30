import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { writeBelief, writeBeliefOnCheckpoint, type BeliefHead, type UnsequencedItem } from "./assimilate";
import { makeContraction, makeEntry, makeStatusEvent, minutesAfter } from "./history-builder";
import { defaultParams, derivedFields, replay, type Belief, type BeliefRecord, type HistoryItem } from "./index";
import { eventTime, type Relation, type Tier } from "./model";
import { checkReplay, foldCheckpoint, inFoldOrder, replayIncremental } from "./replay";

const P = defaultParams;
/** Every item below is recorded within the same second. */
const RECORDED = "2026-06-01T09:00:00.000Z";
const DAY = 24 * 60;

/** One change-set as a caller sends it: its event time and its entries, or an in-place event. */
type Step =
  | { kind: "entries"; actor: string; at: number; entries: { source: string | null; relation: Relation; tier: Tier; weight: number }[] }
  | { kind: "contraction"; at: number; severity: number }
  | { kind: "retired"; at: number };

const arbEntries = fc.array(
  fc.record({
    source: fc.option(fc.constantFrom("s0", "s1", "s2", "s3"), { freq: 4 }),
    relation: fc.constantFrom<Relation>("SUPPORTS", "REBUTS", "CONTEXTUALIZES"),
    tier: fc.constantFrom<Tier>("model_assertion", "observation", "document", "measurement"),
    weight: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  { minLength: 1, maxLength: 3 },
);

const arbStep: fc.Arbitrary<Omit<Step, "at">> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant("entries" as const), actor: fc.constantFrom("alice", "bob"), entries: arbEntries }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("contraction" as const), severity: fc.double({ min: 0, max: 0.9, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "retired" as const }) },
);

/**
 * Steps with distinct event times (minutes after the epoch; gaps of 1 minute to 3 weeks, so some pairs of one actor
 * fall inside the cooling window and some far outside it), and a record order: a permutation of the steps.
 */
const arbScenario = fc
  .array(fc.tuple(arbStep, fc.integer({ min: 1, max: 21 * DAY })), { minLength: 1, maxLength: 12 })
  .chain((raw) => {
    let at = 0;
    const steps = raw.map(([s, gap]) => ({ ...s, at: (at += gap) }) as Step);
    const order = fc.shuffledSubarray(
      steps.map((_, i) => i),
      { minLength: steps.length, maxLength: steps.length },
    );
    return fc.tuple(fc.constant(steps), order, order);
  });

/** The unsequenced items of one step, recorded at `RECORDED` and observed at its event time. */
function itemsOf(step: Step, index: number): UnsequencedItem[] {
  const observedAt = minutesAfter(step.at);
  const changeSet = `cs-${index}`;
  if (step.kind === "contraction")
    return [makeContraction({ seq: 1, severity: step.severity, time: RECORDED, observedAt, changeSet })].map(unseq);
  if (step.kind === "retired") return [makeStatusEvent({ seq: 1, type: "retired", time: RECORDED, observedAt, changeSet })].map(unseq);
  return step.entries.map((e) =>
    unseq(
      makeEntry({
        seq: 1,
        sourceId: e.source,
        sourceKind: e.source === null ? null : "evidence",
        verified: e.source !== null,
        relation: e.relation,
        tier: e.tier,
        effectiveTier: e.source === null ? "model_assertion" : e.tier,
        weight: e.weight,
        actor: step.actor,
        time: RECORDED,
        observedAt,
        changeSet,
      }),
    ),
  );
}

function unseq(item: HistoryItem): UnsequencedItem {
  const { seq: _seq, ...rest } = item;
  return rest as UnsequencedItem;
}

/** The history written in `order` (record order): seqs follow that order. */
function recorded(steps: readonly Step[], order: readonly number[]): HistoryItem[] {
  let seq = 0;
  return order.flatMap((i) => itemsOf(steps[i] as Step, i).map((it) => ({ ...it, seq: ++seq }) as HistoryItem));
}

const freshBelief = (): Belief => ({
  ...derivedFields(replay([], P)),
  id: "b1",
  scope: "s",
  topic: "t",
  text: "The nightly export finishes before six",
  key: "the nightly export finishes before six",
  quantity: null,
  contextTags: [],
  validFrom: RECORDED,
  supersedesId: null,
  version: 0,
  createdAt: RECORDED,
  updatedAt: RECORDED,
});

/** Writes the steps one change-set per write, in `order`, through the store's write path (checkpoint, else replay). */
function writeInOrder(steps: readonly Step[], order: readonly number[]): { record: BeliefRecord; incremental: number } {
  let record: BeliefRecord = { belief: freshBelief(), history: [] };
  let head: BeliefHead | null = null;
  let incremental = 0;
  for (const i of order) {
    const items = itemsOf(steps[i] as Step, i);
    const folded: ReturnType<typeof writeBeliefOnCheckpoint> | null = head === null ? null : writeBeliefOnCheckpoint(head, items, P, RECORDED);
    if (folded !== null && !("fallback" in folded)) {
      incremental++;
      // As a store applies it: the new items, and the new outputs of earlier entries they outvoted.
      const outputs = new Map(folded.outputs.map((o) => [o.seq, o]));
      const earlier = record.history.map((it) => {
        const o = outputs.get(it.seq);
        return o && it.type === "entry" ? { ...it, contribution: o.contribution, effectiveWeight: o.effectiveWeight } : it;
      });
      record = { belief: folded.belief, history: [...earlier, ...folded.append.items] };
      head = { belief: folded.belief, lastSeq: record.history.length, checkpoint: folded.upsert.checkpoint ?? null, history: null };
      continue;
    }
    const write = writeBelief(record, items, P, RECORDED);
    record = write.record;
    head = { belief: write.record.belief, lastSeq: record.history.length, checkpoint: write.upsert.checkpoint ?? null, history: null };
  }
  return { record, incremental };
}

const stateOf = (history: readonly HistoryItem[]) => {
  const s = replay(history, P);
  return { ...derivedFields(s), n: s.n, realLogOdds: s.realLogOdds, modelLogOdds: s.modelLogOdds, lastRealSupportAt: s.lastRealSupportAt };
};

describe("event time (observedAt)", () => {
  it("any record order of the same evidence with event times replays to the same state, bit for bit", () => {
    fc.assert(
      fc.property(arbScenario, ([steps, a, b]) => {
        expect(stateOf(recorded(steps, a))).toEqual(stateOf(recorded(steps, b)));
      }),
      { numRuns: 300 },
    );
  });

  it("writes in any order, each folded onto the stored checkpoint or replayed, end in the same stored state as the replay", () => {
    let folded = 0;
    fc.assert(
      fc.property(arbScenario, ([steps, a, b]) => {
        const written = writeInOrder(steps, a);
        folded += written.incremental;
        const first = written.record;
        const second = writeInOrder(steps, b).record;
        // The stored belief and every stored entry output equal the replay of the stored history (the store's invariant).
        expect(checkReplay(first.belief, first.history, P).mismatches).toEqual([]);
        expect(checkReplay(second.belief, second.history, P).mismatches).toEqual([]);
        expect(derivedFields(replay(first.history, P))).toEqual(derivedFields(replay(second.history, P)));
      }),
      { numRuns: 300 },
    );
    // The checkpoint path was taken (writes in event order fold on; earlier-observed ones replay).
    expect(folded).toBeGreaterThan(0);
  });

  it("folds in event-time order with ties in record order", () => {
    const at = (m: number) => minutesAfter(m);
    const history = [
      makeEntry({ seq: 1, time: RECORDED, observedAt: at(30) }),
      makeEntry({ seq: 2, time: RECORDED, observedAt: at(10) }),
      makeEntry({ seq: 3, time: RECORDED, observedAt: at(10) }),
      makeEntry({ seq: 4, time: RECORDED }),
    ];
    expect(inFoldOrder(history).map((i) => i.seq)).toEqual([2, 3, 1, 4]);
    const inOrder = [makeEntry({ seq: 1, time: at(1) }), makeEntry({ seq: 2, time: at(2) })];
    expect(inFoldOrder(inOrder)).toBe(inOrder);
  });

  it("a history spanning weeks recorded in one second is not cooled: every update keeps its weight", () => {
    // One actor, four measurements a week apart, all written by one import within the same second.
    const weekly = [0, 1, 2, 3].map((w) =>
      makeEntry({ seq: w + 1, sourceId: `scan-${w}`, tier: "measurement", weight: 0.6, actor: "importer", time: RECORDED, observedAt: minutesAfter(w * 7 * DAY) }),
    );
    const withEventTimes = replay(weekly, P);
    const withoutEventTimes = replay(
      weekly.map(({ observedAt: _o, ...e }) => e),
      P,
    );
    const cooling = (state: ReturnType<typeof replay>, seq: number, resistanceBefore: number) =>
      (state.entries.find((e) => e.seq === seq)?.effectiveWeight ?? 0) / (0.6 * resistanceBefore);
    for (const seq of [2, 3, 4]) {
      const before = replay(weekly.slice(0, seq - 1), P);
      expect(cooling(withEventTimes, seq, 1 / (before.confidence + 1))).toBeCloseTo(1, 12);
      // Recorded time alone: the same updates within the 10-minute window are cut to the cooling floor.
      expect(cooling(withoutEventTimes, seq, 1 / (replay(weekly.slice(0, seq - 1).map(({ observedAt: _o, ...e }) => e), P).confidence + 1))).toBeCloseTo(P.coolingFloor, 12);
    }
    expect(withEventTimes.credence).toBeGreaterThan(withoutEventTimes.credence);
    expect(withEventTimes.lastRealSupportAt).toBe(minutesAfter(21 * DAY));
  });

  it("asOf cuts by event time: an item recorded later but observed before asOf takes part", () => {
    const history = [
      makeEntry({ seq: 1, sourceId: "a", time: minutesAfter(100 * DAY), observedAt: minutesAfter(DAY) }),
      makeEntry({ seq: 2, sourceId: "b", time: minutesAfter(100 * DAY), observedAt: minutesAfter(50 * DAY) }),
    ];
    const asOf = minutesAfter(10 * DAY);
    expect(replay(history, P, { asOf }).evidenceCount).toBe(1);
    expect(replay(history, P, { asOf }).credence).toBe(replay(history.slice(0, 1), P).credence);
    expect(replay(history, P, { asOf: minutesAfter(60 * DAY) }).evidenceCount).toBe(2);
    const ended = [...history, makeStatusEvent({ seq: 3, type: "retired", time: minutesAfter(100 * DAY), observedAt: minutesAfter(70 * DAY) })];
    expect(replay(ended, P).validUntil).toBe(minutesAfter(70 * DAY));
    expect(eventTime(ended[2] as HistoryItem)).toBe(minutesAfter(70 * DAY));
  });

  it("an item observed before the checkpoint's last event needs a full replay; one observed at or after it folds on", () => {
    const history = [makeEntry({ seq: 1, sourceId: "a", observedAt: minutesAfter(60) })];
    const cp = foldCheckpoint(history, P);
    expect(cp.foldedAt).toBe(Date.parse(minutesAfter(60)));
    expect(replayIncremental(cp, [makeEntry({ seq: 2, sourceId: "b", observedAt: minutesAfter(59) })], P)).toEqual({ fallback: "out_of_order" });
    const same = replayIncremental(cp, [makeEntry({ seq: 2, sourceId: "b", observedAt: minutesAfter(60) })], P);
    expect("fallback" in same).toBe(false);
  });
});
