import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbHistory } from "./testing/arbitraries";
import { decided, makeEntry, minutesAfter, possibleDuplicate, renumber, undecided } from "./history-builder";
import {
  decideReading,
  defaultParams,
  derivedFields,
  foldCheckpoint,
  newBelief,
  openReadings,
  previewDecisions,
  reopenReading,
  replay,
  replayIncremental,
  type BeliefRecord,
  type HistoryItem,
} from "./index";

const P = defaultParams;

function core(history: readonly HistoryItem[]) {
  const s = replay(history, P);
  return { ...derivedFields(s), n: s.n, real: s.realLogOdds, model: s.modelLogOdds, entries: s.entries.map((e) => [e.relation, e.contribution, e.zeroReason]) };
}

/** A belief whose stored fields are the replay of `history`. */
function recordOf(history: HistoryItem[]): BeliefRecord {
  const belief = newBelief({ id: "b1", scope: "s", topic: "deploy", text: "Deploys go from the main branch." }, P, minutesAfter(0));
  return { belief: { ...belief, ...derivedFields(replay(history, P)), version: 1 }, history };
}

describe("undecided readings and possible duplicates carry no weight", () => {
  it("inserting them anywhere in a history, even inside a change-set, changes nothing replay derives", () => {
    const arb = fc.tuple(arbHistory(20), fc.array(fc.tuple(fc.nat(), fc.constantFrom("undecided", "possible_duplicate", "decided")), { maxLength: 6 }));
    fc.assert(
      fc.property(arb, ([entries, inserts]) => {
        const items: HistoryItem[] = [...entries];
        for (const [at, kind] of inserts) {
          const i = entries.length === 0 ? 0 : at % (items.length + 1);
          // The inserted event shares its neighbour's change-set and time, so it sits inside a group.
          const near = items[Math.max(0, i - 1)];
          const where = { seq: 10_000 + items.length, time: near?.time, changeSet: near?.changeSet, actor: near?.actor };
          const item =
            kind === "undecided"
              ? undecided({ ...where, guess: "REBUTS", confidence: 0.4 })
              : kind === "possible_duplicate"
                ? possibleDuplicate({ ...where, otherBeliefId: "b2" })
                : decided({ ...where, targetSeq: 1, decision: "DISTINCT" });
          items.splice(i, 0, item);
        }
        const withLinks = renumber(items);
        expect(core(withLinks)).toEqual(core(renumber(entries)));
      }),
      { numRuns: 200 },
    );
  });

  it("folds onto a checkpoint exactly as the full replay does", () => {
    const history: HistoryItem[] = [makeEntry({ seq: 1, sourceId: "a" }), makeEntry({ seq: 2, sourceId: "b", relation: "REBUTS", time: minutesAfter(5), changeSet: "c2" })];
    const added: HistoryItem[] = [undecided({ seq: 3, time: minutesAfter(10), changeSet: "c3" }), makeEntry({ seq: 4, sourceId: "c", time: minutesAfter(10), changeSet: "c3" })];
    const folded = replayIncremental(foldCheckpoint(history, P), added, P);
    if ("fallback" in folded) throw new Error(`unexpected fallback ${folded.fallback}`);
    expect(folded.derived).toEqual(derivedFields(replay([...history, ...added], P)));
  });
});

describe("openReadings", () => {
  it("lists the links no decision closed, as of a time when asked", () => {
    const history: HistoryItem[] = [
      makeEntry({ seq: 1 }),
      undecided({ seq: 2, time: minutesAfter(1) }),
      possibleDuplicate({ seq: 3, otherBeliefId: "b2", time: minutesAfter(1) }),
      undecided({ seq: 4, time: minutesAfter(2) }),
      decided({ seq: 5, targetSeq: 2, decision: "UNRELATED", time: minutesAfter(3) }),
    ];
    const now = openReadings(history);
    expect(now.undecided.map((u) => u.seq)).toEqual([4]);
    expect(now.possibleDuplicates.map((d) => d.seq)).toEqual([3]);
    expect(openReadings(history, minutesAfter(2)).undecided.map((u) => u.seq)).toEqual([2, 4]);
  });
});

describe("decideReading", () => {
  const base = (): HistoryItem[] => [
    makeEntry({ seq: 1, sourceId: "e1", tier: "document" }),
    undecided({ seq: 2, sourceId: "e2", guess: "REBUTS", confidence: 0.45, weight: 0.8, time: minutesAfter(60), changeSet: "c2" }),
  ];
  const input = (record: BeliefRecord, decision: Parameters<typeof decideReading>[0]["decision"], targetSeq = 2) => ({
    record,
    targetSeq,
    decision,
    reason: "read by a reviewer",
    actor: "reviewer",
    now: minutesAfter(120),
    changeSetId: "c-decide",
  });

  it("a relation appends the decision and the entry; credence moves and equals the replay of the new history", () => {
    const record = recordOf(base());
    const before = record.belief.credence;
    const result = decideReading(input(record, "REBUTS"), P);
    expect(result.entrySeq).toBe(4);
    const [decision, entry] = result.changeSet.history[0]?.items ?? [];
    expect(decision).toMatchObject({ type: "decided", seq: 3, targetSeq: 2, decision: "REBUTS", entrySeq: 4 });
    expect(entry).toMatchObject({ type: "entry", seq: 4, sourceId: "e2", relation: "REBUTS", weight: 0.8, tier: "document", assessor: "caller" });
    expect(result.state.credence).toBeLessThan(before);
    expect(result.changeSet.beliefs[0]?.belief.credence).toBe(replay(result.record.history, P).credence);
    expect(openReadings(result.record.history).undecided).toEqual([]);
  });

  it("UNRELATED closes the reading and moves nothing", () => {
    const record = recordOf(base());
    const result = decideReading(input(record, "UNRELATED"), P);
    expect(result.entrySeq).toBeNull();
    expect(result.changeSet.history[0]?.items).toHaveLength(1);
    expect(result.state.credence).toBe(record.belief.credence);
    expect(openReadings(result.record.history).undecided).toEqual([]);
  });

  it("refuses a second decision, a decision that does not fit, and a target that is no link", () => {
    const record = recordOf(base());
    const once = decideReading(input(record, "SUPPORTS"), P).record;
    expect(() => decideReading(input(once, "REBUTS"), P)).toThrow(expect.objectContaining({ code: "already_decided" }));
    expect(() => decideReading(input(record, "DUPLICATE"), P)).toThrow(expect.objectContaining({ code: "invalid_decision" }));
    expect(() => decideReading(input(record, "SUPPORTS", 1), P)).toThrow(expect.objectContaining({ code: "invalid_decision" }));
    expect(() => decideReading(input(record, "SUPPORTS", 99), P)).toThrow(expect.objectContaining({ code: "invalid_decision" }));
  });

  it("a possible duplicate takes DUPLICATE or DISTINCT, never a relation", () => {
    const record = recordOf([makeEntry({ seq: 1 }), possibleDuplicate({ seq: 2, otherBeliefId: "b2" })]);
    expect(() => decideReading(input(record, "SUPPORTS"), P)).toThrow(expect.objectContaining({ code: "invalid_decision" }));
    const kept = decideReading(input(record, "DISTINCT"), P);
    expect(kept.state.credence).toBe(record.belief.credence);
    expect(openReadings(kept.record.history).possibleDuplicates).toEqual([]);
  });
});

describe("undoing a decision", () => {
  const history: HistoryItem[] = [
    makeEntry({ seq: 1, sourceId: "a" }),
    makeEntry({ seq: 2, sourceId: "b", time: minutesAfter(5), changeSet: "c2" }),
    undecided({ seq: 3, sourceId: "e-undecided", guess: "REBUTS", confidence: 0.4, time: minutesAfter(10), changeSet: "c3" }),
  ];
  const at = (m: number) => minutesAfter(m);

  it("previews each decision as the decision itself would leave the belief", () => {
    const record = recordOf(history);
    const preview = previewDecisions(record, 3, P, at(20), "u");
    expect(preview.map((p) => p.decision)).toEqual(["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED"]);
    for (const p of preview) {
      const done = decideReading({ record, targetSeq: 3, decision: p.decision, reason: "r", actor: "u", now: at(20), changeSetId: "c9" }, P);
      expect(p.credence).toBeCloseTo(done.state.credence, 12);
    }
    const byDecision = Object.fromEntries(preview.map((p) => [p.decision, p.credence]));
    expect(byDecision.REBUTS).toBeLessThan(record.belief.credence);
    expect(byDecision.SUPPORTS).toBeGreaterThan(record.belief.credence);
    expect(byDecision.UNRELATED).toBeCloseTo(record.belief.credence, 12);
  });

  it("gives back the credence and tension from before, and opens the link again", () => {
    const record = recordOf(history);
    const done = decideReading({ record, targetSeq: 3, decision: "REBUTS", reason: "reads against", actor: "u", now: at(20), changeSetId: "c9" }, P);
    expect(done.record.belief.credence).toBeLessThan(record.belief.credence);
    const decidedSeq = done.record.history.find((h) => h.type === "decided")!.seq;
    const undone = reopenReading({ record: done.record, decidedSeq, reason: "misclick", actor: "u", now: at(21), changeSetId: "c10" }, P);
    expect(undone.record.belief.credence).toBeCloseTo(record.belief.credence, 12);
    expect(undone.record.belief.tension).toBeCloseTo(record.belief.tension, 12);
    expect(openReadings(undone.record.history).undecided.map((u) => u.sourceId)).toEqual(["e-undecided"]);
    expect(() => reopenReading({ record: undone.record, decidedSeq, reason: "again", actor: "u", now: at(22), changeSetId: "c11" }, P)).toThrow(/undone already/);
    expect(() => reopenReading({ record: undone.record, decidedSeq: 1, reason: "x", actor: "u", now: at(22), changeSetId: "c11" }, P)).toThrow(/no decision/);
  });

  it("previews a decision made again after an undo as the decider's own decision: their recent move cools it", () => {
    const record = recordOf(history);
    const done = decideReading({ record, targetSeq: 3, decision: "SUPPORTS", reason: "reads for", actor: "u", now: at(20), changeSetId: "c9" }, P);
    const decidedSeq = done.record.history.find((h) => h.type === "decided")!.seq;
    const undone = reopenReading({ record: done.record, decidedSeq, reason: "misclick", actor: "u", now: at(21), changeSetId: "c10" }, P);
    const reopenedSeq = openReadings(undone.record.history).undecided[0]!.seq;
    const again = decideReading({ record: undone.record, targetSeq: reopenedSeq, decision: "REBUTS", reason: "reads against", actor: "u", now: at(22), changeSetId: "c11" }, P);
    const fresh = decideReading({ record: undone.record, targetSeq: reopenedSeq, decision: "REBUTS", reason: "reads against", actor: "w", now: at(22), changeSetId: "c11" }, P);
    // The same actor a minute after their own move rebuts less than someone else would.
    expect(again.state.credence).toBeGreaterThan(fresh.state.credence);
    const rebuts = (actor: string) => previewDecisions(undone.record, reopenedSeq, P, at(22), actor).find((p) => p.decision === "REBUTS")!.credence;
    expect(rebuts("u")).toBeCloseTo(again.state.credence, 12);
    expect(rebuts("w")).toBeCloseTo(fresh.state.credence, 12);
  });
});
