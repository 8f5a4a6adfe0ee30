import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeContraction, makeRetracted, makeRevised, makeStripped, minutesAfter } from "./history-builder";
import { arbOp, build, type Op } from "./testing/history-ops";
import { defaultParams, derivedFields, replay, resolveParams, type HistoryItem } from "./index";
import {
  checkpointHeadSchema,
  checkpointSourceDataSchema,
  foldCheckpoint,
  joinCheckpoint,
  mergeCheckpointSources,
  replayIncremental,
  sliceOfCheckpoint,
  sourcesOf,
  type CheckpointSlice,
  type FoldCheckpoint,
} from "./replay";

const P = defaultParams;

const rewrites = (item: HistoryItem) => item.type === "retracted" || item.type === "stripped" || item.type === "revised";

/** A checkpoint as a store keeps it: through JSON text. */
function stored(cp: FoldCheckpoint): FoldCheckpoint {
  return JSON.parse(JSON.stringify(cp)) as FoldCheckpoint;
}

function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** A model-asserted SUPPORTS entry of `source`, in the current change-set. */
function outvotingEntry(weight: number, ess: number, source: string | null = "s1"): Op {
  return { kind: "entry", spec: { source, relation: "SUPPORTS", tier: "model_assertion", verified: false, weight, ess, laundering: null, actor: "alice", newChangeSet: false, minutes: 0 } };
}

const arbCase = fc.record({ ops: fc.array(arbOp, { minLength: 4, maxLength: 60, size: "max" }), split: fc.double({ min: 0, max: 1, noNaN: true }), seed: fc.nat() });

/** Prefix up to the split, suffix after it without rewrites (those fall back to a full replay). */
function splitCase(c: { ops: readonly Op[]; split: number }): { prefix: HistoryItem[]; suffix: HistoryItem[] } {
  const items = build(c.ops);
  const k = Math.floor(c.split * (items.length + 1));
  return { prefix: items.slice(0, k), suffix: items.slice(k).filter((item) => !rewrites(item)) };
}

describe("incremental replay", () => {
  it("equals the full replay, bit for bit: derived fields, mass, log-odds, the new entries' outcomes and the outvoted ones", () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const { prefix, suffix } = splitCase(c);
        // The stored history may come in any order: the checkpoint is of the fold, in seq order.
        const inc = replayIncremental(stored(foldCheckpoint(shuffled(prefix, c.seed), P)), suffix, P);
        if ("fallback" in inc) throw new Error(`unexpected fallback ${inc.fallback}`);
        const full = replay([...prefix, ...suffix], P);
        const want = derivedFields(full);
        for (const key of Object.keys(want) as (keyof typeof want)[]) expect(Object.is(inc.derived[key], want[key]), `${key}: ${String(inc.derived[key])} vs ${String(want[key])}`).toBe(true);
        expect(Object.is(inc.n, full.n)).toBe(true);
        expect(Object.is(inc.realLogOdds, full.realLogOdds)).toBe(true);
        expect(Object.is(inc.modelLogOdds, full.modelLogOdds)).toBe(true);
        expect(inc.realSupportCount).toBe(full.realSupports.length);

        const suffixSeqs = new Set(suffix.map((item) => item.seq));
        expect(inc.entries).toEqual(full.entries.filter((o) => suffixSeqs.has(o.seq)));
        // Earlier entries: every output that differs between the prefix's replay and the full one is reported, with the
        // full replay's values; an entry reported without a change is a no-op write (an outvoted entry whose output was
        // already zero: the checkpoint keeps a vote's contribution, not its effective weight, so it cannot tell).
        const before = new Map(replay(prefix, P).entries.map((o) => [o.seq, o]));
        const after = new Map(full.entries.map((o) => [o.seq, o]));
        const same = (a: { contribution: number; effectiveWeight: number }, b: { contribution: number; effectiveWeight: number }) =>
          a.contribution === b.contribution && a.effectiveWeight === b.effectiveWeight;
        const reported = new Map(inc.changedEntries.map((c) => [c.seq, c]));
        expect(reported.size).toBe(inc.changedEntries.length);
        for (const [seq, c] of reported) {
          const b = before.get(seq);
          const a = after.get(seq);
          expect(b !== undefined && a !== undefined, `reported seq ${seq} is an earlier entry`).toBe(true);
          expect(same(c, a as typeof c), `seq ${seq}: reported as the full replay has it`).toBe(true);
        }
        for (const [seq, b] of before) {
          const a = after.get(seq);
          if (a !== undefined && !same(a, b)) expect(reported.has(seq), `seq ${seq} changed and is reported`).toBe(true);
        }
      }),
      // A zero-output entry outvoted by a later entry of its source carrying a vanishing weight (found by the suite).
      { numRuns: 400, examples: [[{ ops: [outvotingEntry(0, 0), outvotingEntry(9.034137591739898e-209, 1.3672186216562088e-115), { kind: "revised", target: 0, weight: undefined, relation: undefined }, outvotingEntry(0, 0, null), outvotingEntry(0, 0, null), outvotingEntry(0, 0, null)], split: 1 / 7, seed: 0 }]] },
    );
  });

  it("chains: the checkpoint after folding new items equals the checkpoint of the whole history", () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const { prefix, suffix } = splitCase(c);
        const inc = replayIncremental(stored(foldCheckpoint(prefix, P)), suffix, P);
        if ("fallback" in inc) throw new Error(`unexpected fallback ${inc.fallback}`);
        expect(JSON.stringify(inc.checkpoint)).toBe(JSON.stringify(foldCheckpoint([...prefix, ...suffix], P)));
      }),
      { numRuns: 300 },
    );
  });

  it("folds one entry at a time onto a growing checkpoint and ends where the full replay ends", () => {
    fc.assert(
      fc.property(fc.array(arbOp, { maxLength: 40, size: "max" }), (ops) => {
        const items = build(ops).filter((item) => !rewrites(item));
        let cp = foldCheckpoint([], P);
        let last: ReturnType<typeof replayIncremental> | null = null;
        for (const item of items) {
          last = replayIncremental(stored(cp), [item], P);
          if ("fallback" in last) throw new Error(last.fallback);
          if (last.checkpoint === null) throw new Error("a whole checkpoint folds into a whole one");
          cp = last.checkpoint;
        }
        const want = derivedFields(replay(items, P));
        if (last !== null && !("fallback" in last)) expect(last.derived).toEqual(want);
        expect(JSON.stringify(cp)).toBe(JSON.stringify(foldCheckpoint(items, P)));
      }),
      { numRuns: 200 },
    );
  });

  it("folds onto a partial slice (the head and only the rows of the new entries' sources) exactly as onto the whole checkpoint", () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const { prefix, suffix } = splitCase(c);
        if (suffix.some((item) => item.type === "contraction")) return;
        const whole = stored(foldCheckpoint(shuffled(prefix, c.seed), P));
        const cited = sourcesOf(suffix);
        // As a store keeps it: the head through JSON and its schema, each row through JSON and its schema.
        const slice: CheckpointSlice = {
          head: checkpointHeadSchema.parse(JSON.parse(JSON.stringify(sliceOfCheckpoint(whole).head))) as CheckpointSlice["head"],
          sources: whole.sources
            .filter(([source]) => cited.includes(source))
            .map(([source, ...data]) => [source, ...(checkpointSourceDataSchema.parse(JSON.parse(JSON.stringify(data))) as typeof data)]),
          covered: cited,
        };
        const part = replayIncremental(slice, suffix, P);
        const all = replayIncremental(whole, suffix, P);
        if ("fallback" in part || "fallback" in all) throw new Error("unexpected fallback");
        const want = derivedFields(replay([...prefix, ...suffix], P));
        for (const key of Object.keys(want) as (keyof typeof want)[]) expect(Object.is(part.derived[key], want[key]), key).toBe(true);
        expect(Object.is(part.n, all.n) && Object.is(part.realLogOdds, all.realLogOdds) && Object.is(part.modelLogOdds, all.modelLogOdds)).toBe(true);
        expect(part.realSupportCount).toBe(all.realSupportCount);
        expect(part.entries).toEqual(all.entries);
        expect(part.changedEntries).toEqual(all.changedEntries);
        expect(part.checkpoint).toBeNull();
        // The stored rows updated with the slice's rows, under the slice's head: the whole fold's checkpoint, bit for bit.
        const next = joinCheckpoint({ head: part.slice.head, sources: mergeCheckpointSources(whole.sources, part.slice), covered: "all" });
        expect(JSON.stringify(next)).toBe(JSON.stringify(foldCheckpoint([...prefix, ...suffix], P)));
      }),
      { numRuns: 400 },
    );
  });

  it("a partial slice falls back when an entry cites a source it does not cover, or for a contraction (it scales every row)", () => {
    const items = build([
      { kind: "entry", spec: { source: "s1", relation: "SUPPORTS", tier: "document", verified: true, weight: 1, ess: 1, laundering: null, actor: "alice", newChangeSet: true, minutes: 1 } },
      { kind: "entry", spec: { source: "s2", relation: "REBUTS", tier: "document", verified: true, weight: 1, ess: 1, laundering: null, actor: "bob", newChangeSet: true, minutes: 5 } },
    ]);
    const whole = sliceOfCheckpoint(foldCheckpoint(items, P));
    const slice: CheckpointSlice = { ...whole, sources: whole.sources.filter(([s]) => s === "s1"), covered: ["s1"] };
    const next = build([
      { kind: "entry", spec: { source: "s1", relation: "SUPPORTS", tier: "document", verified: true, weight: 1, ess: 1, laundering: null, actor: "alice", newChangeSet: true, minutes: 1 } },
      { kind: "entry", spec: { source: "s2", relation: "SUPPORTS", tier: "document", verified: true, weight: 1, ess: 1, laundering: null, actor: "alice", newChangeSet: true, minutes: 1 } },
    ]).map((it) => ({ ...it, seq: it.seq + 2, time: minutesAfter(60) }));
    const base = { seq: 3, time: minutesAfter(60), actor: "alice", changeSet: "x" };
    expect("fallback" in replayIncremental(slice, next.slice(0, 1), P)).toBe(false);
    expect(replayIncremental(slice, next, P)).toEqual({ fallback: "sources_not_loaded" });
    expect(replayIncremental(slice, [makeContraction({ ...base, severity: 0.5 })], P)).toEqual({ fallback: "sources_not_loaded" });
    expect("fallback" in replayIncremental(whole, [makeContraction({ ...base, severity: 0.5 })], P)).toBe(false);
  });

  it("falls back to a full replay for events that change earlier entries, other parameters, or items that are not new", () => {
    const items = build([
      { kind: "entry", spec: { source: "s1", relation: "SUPPORTS", tier: "document", verified: true, weight: 1, ess: 1, laundering: null, actor: "alice", newChangeSet: true, minutes: 1 } },
      { kind: "entry", spec: { source: "s2", relation: "REBUTS", tier: "document", verified: true, weight: 1, ess: 1, laundering: null, actor: "bob", newChangeSet: true, minutes: 5 } },
    ]);
    const cp = foldCheckpoint(items, P);
    const base = { seq: 3, time: minutesAfter(60), actor: "alice", changeSet: "x" };
    expect(replayIncremental(cp, [makeRetracted({ ...base, targetSeq: 1 })], P)).toEqual({ fallback: "rewrites_history" });
    expect(replayIncremental(cp, [makeStripped({ ...base, targetSeq: 2 })], P)).toEqual({ fallback: "rewrites_history" });
    expect(replayIncremental(cp, [makeRevised({ ...base, targetSeq: 2, weight: 0.5 })], P)).toEqual({ fallback: "rewrites_history" });
    expect(replayIncremental(cp, [makeContraction({ ...base, seq: 2, severity: 0.5 })], P)).toEqual({ fallback: "out_of_order" });
    const other = resolveParams({ ...P, coolingFloor: P.coolingFloor / 2 });
    expect(replayIncremental(cp, [makeContraction({ ...base, severity: 0.5 })], other)).toEqual({ fallback: "params_changed" });
    const ok = replayIncremental(cp, [makeContraction({ ...base, severity: 0.5 })], P);
    expect("fallback" in ok).toBe(false);
  });

  it("keeps -0 through JSON (a contraction to nothing of negative log-odds)", () => {
    const items = build([
      { kind: "entry", spec: { source: "s1", relation: "REBUTS", tier: "document", verified: true, weight: 1, ess: 1, laundering: null, actor: "alice", newChangeSet: true, minutes: 1 } },
      { kind: "contraction", severity: 1 },
    ]);
    const full = replay(items, P);
    expect(Object.is(full.realLogOdds, -0)).toBe(true);
    const inc = replayIncremental(stored(foldCheckpoint(items, P)), [], P);
    if ("fallback" in inc) throw new Error(inc.fallback);
    expect(Object.is(inc.realLogOdds, -0)).toBe(true);
  });
});
