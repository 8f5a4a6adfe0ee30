import { describe, expect, it } from "vitest";
import { decided, makeEntry, makeRevised, minutesAfter, undecided } from "@/lib/engine/history-builder";
import { makeBelief, makeEvidence } from "@/lib/engine/testing/fixtures";
import type { BeliefRecord, History } from "@/lib/engine";
import { labelledPairs, labelledPairSchema } from "./export-readings";

const READER = "heuristic@0123456789ab";
const ev = (id: string, text: string) => makeEvidence(text, { id });
const record = (id: string, text: string, history: History): BeliefRecord => ({ belief: makeBelief(text, { id }), history });

describe("labelled readings", () => {
  const evidence = [
    ev("ev-a", "The wiki page says the branch is main."),
    ev("ev-b", "A note about lunch options."),
    ev("ev-c", "A thread that was hard to read."),
    ev("ev-d", "The caller's own citation."),
    ev("ev-e", "A reading decided, then opened again."),
    makeEvidence("raw-id", { id: "ev-u", kind: "unresolved" }),
  ];
  const history: History = [
    makeEntry({ seq: 1, sourceId: "ev-a", relation: "SUPPORTS", assessor: READER, time: minutesAfter(1) }),
    makeEntry({ seq: 2, sourceId: "ev-b", relation: "REBUTS", assessor: READER, time: minutesAfter(1) }),
    undecided({ seq: 3, sourceId: "ev-c", guess: "REBUTS", confidence: 0.45, assessor: READER, time: minutesAfter(1) }),
    makeEntry({ seq: 4, sourceId: "ev-d", relation: "REBUTS", assessor: "caller", time: minutesAfter(1) }),
    makeEntry({ seq: 5, sourceId: "ev-u", sourceKind: null, relation: "SUPPORTS", assessor: READER, time: minutesAfter(1) }),
    makeRevised({ seq: 6, targetSeq: 2, relation: "UNRELATED", reason: "It is about lunch.", actor: "user-ana", time: minutesAfter(2) }),
    decided({ seq: 7, targetSeq: 3, decision: "SUPPORTS", entrySeq: 8, reason: "It agrees.", actor: "user-bo", time: minutesAfter(3) }),
    makeEntry({ seq: 8, sourceId: "ev-c", relation: "SUPPORTS", assessor: "caller", time: minutesAfter(3) }),
    makeRevised({ seq: 9, targetSeq: 8, relation: "CONTEXTUALIZES", reason: "Only for staging.", actor: "user-ana", time: minutesAfter(4) }),
    undecided({ seq: 10, sourceId: "ev-e", guess: "SUPPORTS", assessor: READER, time: minutesAfter(1) }),
    decided({ seq: 11, targetSeq: 10, decision: "REBUTS", entrySeq: 12, actor: "user-bo", time: minutesAfter(5) }),
    makeEntry({ seq: 12, sourceId: "ev-e", relation: "REBUTS", assessor: "caller", time: minutesAfter(5) }),
    makeRevised({ seq: 13, targetSeq: 12, weight: 0, reason: "undo: misclick", actor: "user-bo", time: minutesAfter(6) }),
    undecided({ seq: 14, sourceId: "ev-e", guess: "SUPPORTS", assessor: READER, time: minutesAfter(6) }),
  ];
  const data = { beliefs: [record("b-1", "We deploy from main.", history)], evidence };

  it("labels each pair once: a person's correction or decision over the reader, the reader's own reading otherwise", () => {
    const pairs = labelledPairs(data);
    expect(pairs.map((p) => [p.evidenceId, p.relation, p.source, p.by])).toEqual([
      ["ev-a", "SUPPORTS", "reader", READER],
      ["ev-b", "UNRELATED", "person", "user-ana"],
      ["ev-c", "CONTEXTUALIZES", "person", "user-ana"],
    ]);
    const [a, b, c] = pairs;
    expect(a).toEqual({ id: "b-1/ev-a", belief: "We deploy from main.", evidence: "The wiki page says the branch is main.", relation: "SUPPORTS", source: "reader", beliefId: "b-1", evidenceId: "ev-a", by: READER, at: minutesAfter(1) });
    expect(b).toMatchObject({ reason: "It is about lunch.", at: minutesAfter(2), reader: { relation: "REBUTS", assessor: READER } });
    // Corrected after a decision: the person's latest word, and what the reader had said before anyone decided.
    expect(c).toMatchObject({ reason: "Only for staging.", reader: { relation: "UNDECIDED", guess: "REBUTS", confidence: 0.45, assessor: READER } });
    for (const p of pairs) expect(labelledPairSchema.parse(p)).toEqual(p);
  });

  it("filters by source, and leaves out what nobody read or decided", () => {
    expect(labelledPairs(data, { source: "person" }).map((p) => p.evidenceId)).toEqual(["ev-b", "ev-c"]);
    expect(labelledPairs(data, { source: "reader" }).map((p) => p.evidenceId)).toEqual(["ev-a"]);
    const ids = labelledPairs(data).map((p) => p.evidenceId);
    // ev-d: the caller's own relation; ev-e: the decision was undone; ev-u: no text to read.
    for (const left of ["ev-d", "ev-e", "ev-u"]) expect(ids).not.toContain(left);
  });

  it("a person who puts the reader's relation back still labels the pair (a correction and its undo)", () => {
    const h: History = [
      makeEntry({ seq: 1, sourceId: "ev-a", relation: "SUPPORTS", assessor: READER }),
      makeRevised({ seq: 2, targetSeq: 1, relation: "REBUTS", actor: "user-ana", reason: "misread" }),
      makeRevised({ seq: 3, targetSeq: 1, relation: "SUPPORTS", actor: "user-ana", reason: "undo" }),
    ];
    expect(labelledPairs({ beliefs: [record("b-2", "Deploys are manual.", h)], evidence })).toEqual([
      expect.objectContaining({ relation: "SUPPORTS", source: "person", reason: "undo", reader: { relation: "SUPPORTS", assessor: READER } }),
    ]);
  });
});
