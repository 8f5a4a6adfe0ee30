import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "./testing/memory-store";
import {
  assimilate,
  defaultParams,
  derivedFields,
  isGrounded,
  makeEntry,
  changeSetOf,
  minutesAfter,
  newBelief,
  propagateGrounding,
  replay,
  retract,
  writeBelief,
  type BeliefRecord,
  type CascadeContext,
  type CitationIndex,
  type CitationRef,
  type EvidenceEntry,
  type HistoryItem,
} from "./index";

const P = defaultParams;

function ctx(index: CitationIndex, id = "cs-cascade"): CascadeContext {
  return { index, paramsFor: () => P, time: minutesAfter(10_000), actor: "system", changeSetId: id };
}

/** A synthetic index over prebuilt records (no store), for the big-graph tests. */
function syntheticIndex(records: Map<string, BeliefRecord>): CitationIndex {
  const citers = new Map<string, CitationRef[]>();
  for (const rec of records.values())
    for (const it of rec.history)
      if (it.type === "entry" && it.sourceId !== null) {
        const list = citers.get(it.sourceId) ?? [];
        list.push({ beliefId: rec.belief.id, seq: it.seq });
        citers.set(it.sourceId, list);
      }
  return { citersOf: async (id) => citers.get(id) ?? [], load: async (id) => records.get(id) ?? null };
}

function record(id: string, entries: EvidenceEntry[]): BeliefRecord {
  const w = writeBelief({ belief: newBelief({ id, scope: "s", topic: "t", text: id }, P, minutesAfter(0)), history: [] }, [], P, minutesAfter(0));
  const history: HistoryItem[] = entries;
  const state = replay(history, P);
  return { belief: { ...w.record.belief, ...derivedFields(state) }, history };
}

const cite = (seq: number, sourceId: string, kind: "evidence" | "belief" = "belief") =>
  makeEntry({ seq, sourceId, sourceKind: kind, tier: "document", changeSet: `c${seq}` });

describe("grounding: scale", () => {
  it("strips a 10 000-long chain iteratively when its root evidence is retracted", async () => {
    const N = 10_000;
    const records = new Map<string, BeliefRecord>();
    records.set("b0", record("b0", [cite(1, "root", "evidence")]));
    for (let i = 1; i < N; i++) records.set(`b${i}`, record(`b${i}`, [cite(1, `b${i - 1}`)]));
    const res = await retract("root", ctx(syntheticIndex(records)));
    expect(res.touched).toHaveLength(N);
    expect(res.ungrounded).toHaveLength(N);
    expect(res.touched[0]?.retractedSeqs).toEqual([1]);
    expect(res.touched.slice(1).every((t) => t.strippedSeqs.length === 1 && !t.groundedAfter && t.groundedBefore)).toBe(true);
    expect(res.changeSet.history).toHaveLength(N);
    expect(res.changeSet.retractions).toEqual([{ evidenceId: "root", retractedAt: minutesAfter(10_000) }]);
  });

  it("terminates on a dense 1 000-node citation cycle and strips it whole once its root is gone", async () => {
    const N = 1000;
    const K = 8;
    const records = new Map<string, BeliefRecord>();
    for (let i = 0; i < N; i++) {
      const entries = Array.from({ length: K }, (_, k) => cite(k + 1, `n${(i + k + 1) % N}`));
      if (i === 0) entries.push(cite(K + 1, "root", "evidence"));
      records.set(`n${i}`, record(`n${i}`, entries));
    }
    const res = await retract("root", ctx(syntheticIndex(records)));
    expect(res.ungrounded).toHaveLength(N);
    expect(res.touched).toHaveLength(N);
    const stripped = res.touched.reduce((s, t) => s + t.strippedSeqs.length, 0);
    expect(stripped).toBe(N * K);
    expect(res.writes.every((w) => !isGrounded(w.state))).toBe(true);
  });

  it("leaves a cycle alone while any member keeps evidence", async () => {
    const records = new Map<string, BeliefRecord>();
    records.set("a", record("a", [cite(1, "b"), cite(2, "root", "evidence")]));
    records.set("b", record("b", [cite(1, "a"), cite(2, "other", "evidence")]));
    const res = await retract("root", ctx(syntheticIndex(records)));
    expect(res.ungrounded).toEqual([]);
    expect(res.touched.map((t) => [t.beliefId, t.retractedSeqs, t.strippedSeqs])).toEqual([["a", [2], []]]);
  });
});

describe("grounding: examples", () => {
  it("supersession strips citers; regaining support does not restore them; a dry run reports the same", async () => {
    const store = new MemoryStore();
    store.addEvidence("e", "home");
    const mk = async (id: string, src: string, m: number) => {
      const existing = store.beliefs.get(id);
      const r = await assimilate({
        target: existing ? { existing } : { create: { id, scope: "home", topic: "t", text: id } },
        evidence: [{ sourceId: src, tier: "document" }],
        resolver: store.resolverFor(["home"]),
        params: P,
        time: minutesAfter(m),
        actor: "a",
        changeSetId: `cs-${id}-${m}`,
      });
      store.apply(r.changeSet);
    };
    await mk("old", "e", 0);
    await mk("citer", "old", 20);
    const old = store.beliefs.get("old") as BeliefRecord;
    const superseded = writeBelief(old, [{ type: "superseded", time: minutesAfter(30), actor: "a", changeSet: "sup", byBeliefId: "new" }], P, minutesAfter(30));
    store.apply(changeSetOf([superseded], "sup", "a", minutesAfter(30)));
    const dry = await propagateGrounding([superseded.record], ctx(store.citationIndex), { dryRun: true });
    const real = await propagateGrounding([superseded.record], ctx(store.citationIndex));
    expect(dry.dryRun).toBe(true);
    expect(dry.touched).toEqual(real.touched);
    expect(real.touched.map((t) => [t.beliefId, t.strippedSeqs])).toEqual([["citer", [1]]]);
    store.apply(real.changeSet);
    expect(store.beliefs.get("citer")?.belief.credence).toBe(0.5);
    expect(store.beliefs.get("citer")?.history.at(-1)).toMatchObject({ type: "stripped", citedBeliefId: "old", targetSeq: 1 });
  });
});

describe("grounding: properties", () => {
  it("retract(s) equals replay without the removed entries, and strips exactly the citers of beliefs that lost their last grounding", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 10 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 30 }),
        fc.nat(),
        async (nBeliefs, links, pick) => {
          const store = new MemoryStore();
          const evidence = ["e0", "e1", "e2"];
          for (const e of evidence) store.addEvidence(e, "home");
          let minute = 0;
          // Build through assimilate (laundering applies), including attempts to cite later beliefs (cycles).
          for (const [a, b, toEvidence] of links) {
            const id = `b${a % nBeliefs}`;
            const src = toEvidence ? (evidence[b % evidence.length] as string) : `b${b % nBeliefs}`;
            const existing = store.beliefs.get(id);
            const r = await assimilate({
              target: existing ? { existing } : { create: { id, scope: "home", topic: "t", text: id } },
              evidence: [{ sourceId: src, tier: "document" }],
              resolver: store.resolverFor(["home"]),
              params: P,
              time: minutesAfter((minute += 15)),
              actor: `x${a % 2}`,
              changeSetId: `cs${minute}`,
            });
            store.apply(r.changeSet);
          }
          const target = evidence[pick % evidence.length] as string;
          const before = new Map([...store.beliefs].map(([k, v]) => [k, v]));
          const res = await retract(target, ctx(store.citationIndex));
          store.apply(res.changeSet);

          // Oracle: groundedness by least fixed point over the histories with the target's entries removed.
          const live = (rec: BeliefRecord, extra: (e: EvidenceEntry) => boolean) =>
            rec.history.filter((it): it is EvidenceEntry => it.type === "entry").filter((e) => {
              const removed = rec.history.some((x) => (x.type === "retracted" || x.type === "stripped") && x.targetSeq === e.seq);
              return !removed && extra(e);
            });
          const realSupport = (e: EvidenceEntry) => e.relation === "SUPPORTS" && e.verified && e.launderingReason === null && e.effectiveTier !== "model_assertion";
          const grounded = new Set<string>();
          for (let changed = true; changed; ) {
            changed = false;
            for (const [id, rec] of before) {
              if (grounded.has(id)) continue;
              const ok = live(rec, (e) => e.sourceId !== target).some(
                (e) => realSupport(e) && (e.sourceKind === "evidence" || (e.sourceId !== null && grounded.has(e.sourceId))),
              );
              if (ok) {
                grounded.add(id);
                changed = true;
              }
            }
          }
          for (const [id, rec] of before) {
            const expectedRemoved = new Set(
              live(rec, () => true)
                  .filter((e) => (e.sourceId === target && e.sourceKind !== null) || (e.launderingReason === null && e.sourceKind === "belief" && e.sourceId !== null && !grounded.has(e.sourceId)))
                .map((e) => e.seq),
            );
            const after = store.beliefs.get(id) as BeliefRecord;
            const newlyRemoved = new Set(
              after.history.slice(rec.history.length).flatMap((it) => (it.type === "retracted" || it.type === "stripped" ? [it.targetSeq] : [])),
            );
            expect([...newlyRemoved].sort()).toEqual([...expectedRemoved].sort());
            expect(isGrounded(replay(after.history, P))).toBe(grounded.has(id));
            const withoutRemoved = rec.history.filter((it) => !expectedRemoved.has(it.seq));
            expect(derivedFields(replay(after.history, P))).toEqual(derivedFields(replay(withoutRemoved, P)));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
