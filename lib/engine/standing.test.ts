import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultParams, resolveParams } from "./params";
import { checkpointHeadSchema, checkpointSourceDataSchema, foldCheckpoint, replay, replayIncremental, sliceOfCheckpoint, type CheckpointSlice, type FoldCheckpoint } from "./replay";
import { replayWithStanding, standingData, standingOfHead, type Standing } from "./standing";
import { storedRecord } from "./testing/fixtures";
import { arbOp, build } from "./testing/history-ops";
import type { History } from "./model";

const P = defaultParams;

/** A checkpoint as a SQL store reads it back: the head and each row through JSON and their schemas. */
function storedSlice(cp: FoldCheckpoint): CheckpointSlice {
  const whole = sliceOfCheckpoint(JSON.parse(JSON.stringify(cp)) as FoldCheckpoint);
  return {
    head: checkpointHeadSchema.parse(JSON.parse(JSON.stringify(whole.head))) as CheckpointSlice["head"],
    sources: whole.sources.map(([source, ...data]) => [source, ...(checkpointSourceDataSchema.parse(JSON.parse(JSON.stringify(data))) as typeof data)]),
    covered: "all",
  };
}

/** The head a store gives for `history` (its belief row written from the replay, the checkpoint beside it). */
function headOf(history: History, checkpoint: FoldCheckpoint | null = foldCheckpoint(history, P)) {
  return { belief: storedRecord("b1", "A belief.", history).belief, lastSeq: history[history.length - 1]?.seq ?? 0, checkpoint: checkpoint === null ? null : storedSlice(checkpoint) };
}

const plain = standingData;

const noRewrites = (items: History) => items.filter((i) => i.type !== "retracted" && i.type !== "stripped" && i.type !== "revised");

describe("a belief's standing", () => {
  it("from the stored checkpoint equals the one from replaying the history, whatever the history holds", () => {
    fc.assert(
      fc.property(fc.array(arbOp, { minLength: 1, maxLength: 50, size: "max" }), (ops) => {
        const history = build(ops);
        const fromHead = standingOfHead(headOf(history), P);
        expect(fromHead).not.toBeNull();
        expect(plain(fromHead as Standing)).toEqual(plain(replayWithStanding(history, P).standing));
      }),
      { numRuns: 300 },
    );
  });

  it("stays equal when the checkpoint was grown by incremental folds rather than one replay", () => {
    fc.assert(
      fc.property(fc.array(arbOp, { minLength: 1, maxLength: 40, size: "max" }), (ops) => {
        const items = noRewrites(build(ops));
        let cp = foldCheckpoint([], P);
        for (const item of items) {
          const next = replayIncremental(cp, [item], P);
          if ("fallback" in next || next.checkpoint === null) throw new Error("a whole checkpoint folds into a whole one");
          cp = next.checkpoint;
        }
        expect(plain(standingOfHead(headOf(items, cp), P) as Standing)).toEqual(plain(replayWithStanding(items, P).standing));
      }),
      { numRuns: 200 },
    );
  });

  it("says what the replay's real entries say: the supports' sources, and per source the strongest and latest real rebuttal", () => {
    fc.assert(
      fc.property(fc.array(arbOp, { minLength: 1, maxLength: 50, size: "max" }), (ops) => {
        const history = build(ops);
        const { state, standing } = replayWithStanding(history, P);
        expect([...standing.supportSources].sort()).toEqual([...new Set(state.realSupports.map((r) => r.sourceId))].sort());
        const want = new Map<string, { strength: number; latestAt: number }>();
        for (const r of state.realRebuttals) {
          const held = want.get(r.sourceId);
          const at = Date.parse(r.time);
          want.set(r.sourceId, held ? { strength: Math.max(held.strength, r.assessedStrength), latestAt: Math.max(held.latestAt, at) } : { strength: r.assessedStrength, latestAt: at });
        }
        expect([...standing.realRebuttals].sort()).toEqual([...want].sort());
        expect(standing.independentRealSupports).toBe(state.independentRealSupports);
        expect(standing.maxRealRebuttalStrength).toBe(state.maxRealRebuttalStrength);
        // Without a contraction, a source's standing real vote is the |contribution| of the entry that cast it.
        if (history.some((i) => i.type === "contraction")) return;
        const counted = (refs: typeof state.realSupports) => {
          const bySeq = new Map(state.entries.map((e) => [e.seq, e]));
          const out = new Map<string, number>();
          for (const r of refs) {
            const c = Math.abs(bySeq.get(r.seq)?.contribution ?? 0);
            if (c > 0) out.set(r.sourceId, c);
          }
          return out;
        };
        const nonZero = (m: ReadonlyMap<string, number>) => [...m].filter(([, v]) => v > 0).sort();
        expect(nonZero(standing.realSupportWeight)).toEqual([...counted(state.realSupports)].sort());
        expect(nonZero(standing.realRebuttalWeight)).toEqual([...counted(state.realRebuttals)].sort());
      }),
      { numRuns: 300 },
    );
  });

  it("is not taken from a head whose checkpoint is missing, behind the history, partial, or made with other parameters", () => {
    const history = build([
      { kind: "entry", spec: { source: "s1", relation: "SUPPORTS", tier: "document", verified: true, weight: 1, ess: 1, laundering: null, actor: "alice", newChangeSet: true, minutes: 1 } },
      { kind: "entry", spec: { source: "s2", relation: "REBUTS", tier: "document", verified: true, weight: 0.8, ess: 1, laundering: null, actor: "bob", newChangeSet: true, minutes: 5 } },
    ]);
    expect(standingOfHead(headOf(history), P)).not.toBeNull();
    expect(standingOfHead(headOf(history, null), P)).toBeNull();
    expect(standingOfHead({ ...headOf(history, foldCheckpoint(history.slice(0, 1), P)) }, P)).toBeNull();
    const whole = headOf(history);
    const partial = { ...whole, checkpoint: { ...(whole.checkpoint as CheckpointSlice), covered: ["s1"] } };
    expect(standingOfHead(partial, P)).toBeNull();
    const other = resolveParams({ dominanceTieMargin: P.dominanceTieMargin + 0.01 });
    expect(standingOfHead(whole, other)).toBeNull();
    expect(replay(history, P).realRebuttals).toHaveLength(1);
  });
});
