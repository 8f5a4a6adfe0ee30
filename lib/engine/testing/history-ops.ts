/**
 * Random histories for property tests: entries in change-sets, in-place events (contraction, status, review) and
 * events that rewrite earlier entries (retracted, stripped, revised).
 */
import fc from "fast-check";
import { makeContraction, makeRetracted, makeReview, makeRevised, makeStatusEvent, makeStripped, minutesAfter } from "../history-builder";
import type { HistoryItem } from "../model";
import { arbEntrySpec, buildEntries, type EntrySpec } from "./arbitraries";

/** One step of a random history: an entry, an in-place event, or an event that rewrites an earlier entry. */
export type Op =
  | { kind: "entry"; spec: EntrySpec }
  | { kind: "contraction"; severity: number }
  | { kind: "status"; type: "superseded" | "retired" | "promoted" | "reinstated" }
  | { kind: "review"; action: "requested" | "approved" | "rejected" }
  | { kind: "retracted" | "stripped"; target: number }
  | { kind: "revised"; target: number; weight: number | undefined; relation: "SUPPORTS" | "REBUTS" | "CONTEXTUALIZES" | undefined };

export const arbOp: fc.Arbitrary<Op> = fc.oneof(
  // Gaps of 0–14 minutes: most change-sets of one actor fall inside the cooling window (10 minutes), some outside.
  { weight: 12, arbitrary: arbEntrySpec().map((spec): Op => ({ kind: "entry", spec: { ...spec, minutes: spec.minutes % 15 } })) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((severity): Op => ({ kind: "contraction", severity })) },
  { weight: 1, arbitrary: fc.constantFrom("superseded", "retired", "promoted", "reinstated").map((type): Op => ({ kind: "status", type: type as "superseded" | "retired" | "promoted" | "reinstated" })) },
  { weight: 1, arbitrary: fc.constantFrom("requested", "approved", "rejected").map((action): Op => ({ kind: "review", action: action as "requested" | "approved" | "rejected" })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("retracted", "stripped"), target: fc.nat() }).map((r): Op => ({ kind: r.kind as "retracted" | "stripped", target: r.target })) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        target: fc.nat(),
        weight: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
        relation: fc.option(fc.constantFrom("SUPPORTS", "REBUTS", "CONTEXTUALIZES"), { nil: undefined }),
      })
      .map((r): Op => ({ kind: "revised", target: r.target, weight: r.weight, relation: r.relation as "SUPPORTS" | "REBUTS" | "CONTEXTUALIZES" | undefined })),
  },
);

/** Builds the items in order: seq 1, 2, …; time moves on with the entries' change-sets; rewrites target earlier entries. */
export function build(ops: readonly Op[]): HistoryItem[] {
  const items: HistoryItem[] = [];
  const entrySeqs: number[] = [];
  let minutes = 0;
  let group = 0;
  let specs: EntrySpec[] = [];
  const flush = () => {
    if (specs.length === 0) return;
    const first = items.length + 1;
    const built = buildEntries(specs, first, minutesAfter(minutes));
    minutes += specs.reduce((m, s) => m + (s.newChangeSet ? s.minutes : 0), specs[0]?.minutes ?? 0);
    for (const e of built) {
      items.push({ ...e, changeSet: `g${group}-${e.changeSet}` });
      entrySeqs.push(e.seq);
    }
    group++;
    specs = [];
  };
  for (const op of ops) {
    if (op.kind === "entry") {
      specs.push(op.spec);
      continue;
    }
    flush();
    const seq = items.length + 1;
    const time = minutesAfter(minutes);
    const base = { seq, time, actor: "alice", changeSet: `e${seq}` };
    if (op.kind === "contraction") items.push(makeContraction({ ...base, severity: op.severity }));
    else if (op.kind === "status") items.push(makeStatusEvent({ ...base, type: op.type }));
    else if (op.kind === "review") items.push(makeReview({ ...base, action: op.action }));
    else {
      const target = entrySeqs.length === 0 ? undefined : entrySeqs[op.target % entrySeqs.length];
      if (target === undefined) continue;
      if (op.kind === "retracted") items.push(makeRetracted({ ...base, targetSeq: target }));
      else if (op.kind === "stripped") items.push(makeStripped({ ...base, targetSeq: target }));
      else if (op.kind === "revised")
        items.push(makeRevised({ ...base, targetSeq: target, ...(op.weight !== undefined ? { weight: op.weight } : {}), ...(op.relation !== undefined ? { relation: op.relation } : {}) }));
    }
  }
  flush();
  return items;
}

