import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbHistory } from "./testing/arbitraries";
import { makeEntry, makeRetracted, makeRevised, minutesAfter } from "./history-builder";
import {
  DECIDED_RELATIONS,
  EngineError,
  currentRelations,
  defaultParams,
  derivedFields,
  planRelationCorrection,
  relationCorrections,
  replay,
  undecidedItem,
  type DecidedRelation,
  type EvidenceEntry,
  type HistoryItem,
  type UnsequencedItem,
} from "./index";

const P = defaultParams;
const RUNS = { numRuns: 300 };

/** Appends a plan's items to a history, numbered on from its last seq. */
function withItems(history: readonly HistoryItem[], items: readonly UnsequencedItem[]): HistoryItem[] {
  let seq = history.reduce((m, h) => Math.max(m, h.seq), 0);
  return [...history, ...items.map((i) => ({ ...i, seq: ++seq }) as HistoryItem)];
}

const plan = (history: readonly HistoryItem[], sourceId: string, relation: DecidedRelation, extra: { seq?: number; reason?: string; actor?: string } = {}) =>
  planRelationCorrection({ history, sourceId, relation, reason: extra.reason ?? "misread", actor: extra.actor ?? "ana", now: minutesAfter(60), changeSetId: `fix-${history.length}`, ...(extra.seq !== undefined ? { seq: extra.seq } : {}) });

function fieldsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof EngineError) return error.fields.map((f) => f.field);
    throw error;
  }
  throw new Error("expected an EngineError");
}

describe("relation corrections", () => {
  const doc = (seq: number, relation: EvidenceEntry["relation"], sourceId = "ev-1") => makeEntry({ seq, sourceId, sourceKind: "evidence", relation, tier: "document", changeSet: `c${seq}` });

  it("corrects every live entry of the evidence, records from and to, and an undo sets back what it replaced", () => {
    const history = [doc(1, "SUPPORTS"), doc(2, "SUPPORTS", "ev-2"), doc(3, "SUPPORTS")];
    const fix = plan(history, "ev-1", "REBUTS");
    expect(fix.from).toBe("SUPPORTS");
    expect(fix.entrySeqs).toEqual([1, 3]);
    const corrected = withItems(history, fix.items);
    expect(replay(corrected, P).credence).toBeLessThan(replay(history, P).credence);
    const undo = plan(corrected, "ev-1", fix.from, { reason: "undo", actor: "bo" });
    expect(undo.from).toBe("REBUTS");
    const undone = withItems(corrected, undo.items);
    expect(derivedFields(replay(undone, P))).toEqual(derivedFields(replay(history, P)));
    expect(relationCorrections(undone).map((c) => [c.targetSeq, c.from, c.to, c.actor, c.reason])).toEqual([
      [1, "SUPPORTS", "REBUTS", "ana", "misread"],
      [3, "SUPPORTS", "REBUTS", "ana", "misread"],
      [1, "REBUTS", "SUPPORTS", "bo", "undo"],
      [3, "REBUTS", "SUPPORTS", "bo", "undo"],
    ]);
    expect(currentRelations(undone).get(1)).toBe("SUPPORTS");
  });

  it("UNRELATED takes the entry out of the count and the support, and a later correction gives it a relation back", () => {
    const history = [doc(1, "SUPPORTS")];
    const unrelated = withItems(history, plan(history, "ev-1", "UNRELATED").items);
    const state = replay(unrelated, P);
    expect(state.credence).toBe(0.5);
    expect(state.realSupports).toHaveLength(0);
    expect(state.entries[0]?.zeroReason).toBe("unrelated");
    const back = withItems(unrelated, plan(unrelated, "ev-1", "REBUTS").items);
    expect(replay(back, P).credence).toBeLessThan(0.5);
  });

  it("names the field to fix: no entry, retracted entries, an undecided reading, disagreeing entries, a wrong seq, the same relation", () => {
    const history: HistoryItem[] = [doc(1, "SUPPORTS"), doc(2, "REBUTS"), doc(3, "SUPPORTS", "ev-2")];
    expect(fieldsOf(() => plan(history, "ev-9", "REBUTS"))).toEqual(["beliefId"]);
    expect(fieldsOf(() => plan(history, "ev-1", "REBUTS"))).toEqual(["seq"]);
    expect(fieldsOf(() => plan(history, "ev-1", "REBUTS", { seq: 3 }))).toEqual(["seq"]);
    expect(fieldsOf(() => plan(history, "ev-2", "SUPPORTS"))).toEqual(["relation"]);
    expect(plan(history, "ev-1", "REBUTS", { seq: 1 }).entrySeqs).toEqual([1]);
    const retracted = [...history, makeRetracted({ seq: 4, targetSeq: 3, sourceId: "ev-2" })];
    expect(fieldsOf(() => plan(retracted, "ev-2", "REBUTS"))).toEqual(["beliefId"]);
    const reading = undecidedItem({
      sourceId: "ev-3", sourceKind: "evidence", guess: "SUPPORTS", confidence: 0.4, weight: 0.5, tier: "document", verified: true, effectiveTier: "document",
      ess: 1, reasoning: "unsure", assessor: "reader", time: minutesAfter(1), actor: "ana", changeSet: "c9",
    });
    expect(fieldsOf(() => plan(withItems(history, [reading]), "ev-3", "REBUTS"))).toEqual(["evidenceId"]);
  });
});

describe("relation corrections: replay properties", () => {
  /** A generated history and one of its entries with a source, with a relation to correct it to. */
  const arbCase = arbHistory(25)
    .filter((h) => h.some((e) => e.sourceId !== null))
    .chain((h) => {
      const sourced = h.filter((e) => e.sourceId !== null);
      return fc.tuple(fc.constant(h), fc.constantFrom(...sourced), fc.constantFrom(...DECIDED_RELATIONS));
    });

  it("a corrected relation replays exactly as if the entry had carried it from the start", () => {
    fc.assert(
      fc.property(arbCase, ([history, entry, relation]) => {
        fc.pre(relation !== "UNRELATED" && relation !== entry.relation);
        const corrected = withItems(history, plan(history, entry.sourceId as string, relation, { seq: entry.seq }).items);
        const direct = history.map((h) => (h.seq === entry.seq ? { ...h, relation: relation as EvidenceEntry["relation"] } : h));
        expect(derivedFields(replay(corrected, P))).toEqual(derivedFields(replay(direct, P)));
      }),
      RUNS,
    );
  });

  it("an entry corrected to UNRELATED replays exactly as one that never arrived (a retracted entry)", () => {
    fc.assert(
      fc.property(arbCase, ([history, entry]) => {
        const corrected = withItems(history, plan(history, entry.sourceId as string, "UNRELATED", { seq: entry.seq }).items);
        const gone = withItems(history, [{ type: "retracted", targetSeq: entry.seq, sourceId: entry.sourceId as string, time: minutesAfter(60), actor: "ana", changeSet: "gone" }]);
        expect(derivedFields(replay(corrected, P))).toEqual(derivedFields(replay(gone, P)));
      }),
      RUNS,
    );
  });

  it("a correction followed by its undo replays to the state before the correction", () => {
    fc.assert(
      fc.property(arbCase, ([history, entry, relation]) => {
        fc.pre(relation !== entry.relation);
        const fix = plan(history, entry.sourceId as string, relation, { seq: entry.seq });
        const corrected = withItems(history, fix.items);
        const undone = withItems(corrected, plan(corrected, entry.sourceId as string, fix.from, { seq: entry.seq }).items);
        expect(derivedFields(replay(undone, P))).toEqual(derivedFields(replay(history, P)));
        expect(currentRelations(undone).get(entry.seq)).toBe(entry.relation);
      }),
      RUNS,
    );
  });

  it("a revision's relation takes effect in the fold's order: a later revision by event time wins, whatever its seq", () => {
    const history: HistoryItem[] = [
      makeEntry({ seq: 1, sourceId: "ev-1", sourceKind: "evidence", tier: "document" }),
      makeRevised({ seq: 2, targetSeq: 1, relation: "REBUTS", time: minutesAfter(10) }),
      makeRevised({ seq: 3, targetSeq: 1, relation: "UNRELATED", time: minutesAfter(5) }),
    ];
    expect(currentRelations(history).get(1)).toBe("REBUTS");
    expect(replay(history, P).entries[0]?.relation).toBe("REBUTS");
    expect(relationCorrections(history).map((c) => [c.seq, c.from, c.to])).toEqual([
      [2, "UNRELATED", "REBUTS"],
      [3, "SUPPORTS", "UNRELATED"],
    ]);
  });
});
