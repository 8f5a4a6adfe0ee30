/**
 * Ingest reads its candidates as slim rows and the histories of only the stored beliefs it writes: every write must
 * still be the one the whole history gives (`writeBelief` on the stored record), and every decision that reads a
 * history (contraction, the seq a person's correction targets) must read the whole one.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { writeBelief, type UnsequencedItem } from "./assimilate";
import { arbEntrySpec, buildEntries } from "./testing/arbitraries";
import { makeStatusEvent, minutesAfter } from "./history-builder";
import type { BeliefRecord, History, HistoryItem } from "./model";
import { defaultParams } from "./params";
import { isLive, replay, replayWithCheckpoint, sliceOfCheckpoint } from "./replay";
import { ingest, type IngestEdits, type IngestResult } from "./revision";
import { storedRecord } from "./testing/fixtures";
import { restatementByScore } from "./testing/restatement-by-score";
import { scriptedAssessor, type ScriptedAssessor } from "./testing/scripted-assessor";

// Sentences close enough to one another for the scripted assessor to relate, rebut (negations) and restate them.
const BELIEF_TEXTS = [
  "The harbour ferry leaves at seven every morning.",
  "The harbour ferry leaves late on foggy mornings.",
  "The harbour ferry carries bicycles every morning.",
  "The island ferry leaves at seven every morning.",
  "The harbour bus leaves at seven every morning.",
] as const;
const CLAIM_TEXTS = [
  "The harbour ferry never leaves at seven every morning.",
  "The harbour ferry does not carry bicycles every morning.",
  "The harbour ferry leaves at seven every morning.",
  "The island ferry leaves at seven on weekday mornings.",
  "The harbour ferry is not late on foggy mornings.",
  "The harbour bus never leaves at seven every morning.",
] as const;

const START = "2026-05-01T08:00:00.000Z";
const NOW = "2026-06-01T08:00:00.000Z";

/** A stored belief: a long random history, rebuttals from distinct verified sources (contraction), maybe ended. */
const arbRecord = (index: number): fc.Arbitrary<BeliefRecord> =>
  fc
    .record({
      specs: fc.array(arbEntrySpec(), { minLength: 0, maxLength: 40 }),
      rebuttals: fc.array(arbEntrySpec({ verified: fc.constant(true), laundering: fc.constant(null) }).map((s) => ({ ...s, relation: "REBUTS" as const, newChangeSet: true })), { maxLength: 4 }),
      ended: fc.option(fc.constantFrom("retired" as const, "superseded" as const), { freq: 4 }),
    })
    .map(({ specs, rebuttals, ended }) => {
      const entries = buildEntries([...specs, ...rebuttals.map((s, i) => ({ ...s, source: `r${index}-${i}` }))], 1, START);
      const history: HistoryItem[] = [...entries];
      if (ended) history.push(makeStatusEvent({ seq: history.length + 1, type: ended, time: minutesAfter(24 * 60, START) }));
      return storedRecord(`b${index}`, BELIEF_TEXTS[index] as string, history);
    });

const arbScene = fc.record({
  records: fc.subarray([0, 1, 2, 3, 4], { minLength: 1 }).chain((ids) => fc.tuple(...ids.map(arbRecord))),
  claims: fc.uniqueArray(fc.constantFrom(...CLAIM_TEXTS), { minLength: 1, maxLength: 3 }),
  kind: fc.constantFrom("observation" as const, "document" as const, "measurement" as const),
  contract: fc.boolean(),
  severity: fc.constantFrom(0.4, 1),
  edit: fc.nat(),
});

/** One ingest of `claims` over slim candidates, recording what the engine asked histories of. */
async function slimIngest(
  records: readonly BeliefRecord[],
  claims: readonly string[],
  scene: { kind: "observation" | "document" | "measurement"; contract: boolean; severity: number },
  edits?: IngestEdits,
  options: { heads?: boolean } = {},
) {
  const byId = new Map(records.map((r) => [r.belief.id, r]));
  const asked: string[][] = [];
  const headsAsked: string[][] = [];
  let n = 0;
  const assessor: ScriptedAssessor = scriptedAssessor({ contractions: [{ contract: scene.contract, severity: scene.severity, reasoning: "scripted" }] });
  const result = await ingest(
    {
      scope: "scope_a",
      text: claims.join(" "),
      kind: scene.kind,
      evidenceId: "ev_text",
      changeSetId: "cs_text",
      newBeliefId: () => `b_new${++n}`,
      actor: "dana",
      now: NOW,
      candidates: records.map((r) => r.belief),
      histories: async (ids) => {
        asked.push([...ids]);
        return new Map(ids.map((id): [string, History] => [id, byId.get(id)?.history ?? []]));
      },
      // As a store hands them out: the checkpoint the last write stored (the replay's), no history.
      ...(options.heads
        ? {
            heads: async (ids: readonly string[]) => {
              headsAsked.push([...ids]);
              return new Map(
                ids.map((id) => {
                  const r = byId.get(id) as BeliefRecord;
                  return [id, { belief: r.belief, lastSeq: r.history.at(-1)?.seq ?? 0, checkpoint: sliceOfCheckpoint(replayWithCheckpoint(r.history, defaultParams).checkpoint), history: null }];
                }),
              );
            },
          }
        : {}),
      sourceText: async (id) => `text of ${id}`,
      ...(edits ? { edits } : {}),
    },
    { assessor, params: defaultParams, restatement: restatementByScore() },
  );
  return { result, asked, headsAsked, assessor };
}

/** Every stored belief the change-set writes is written as `writeBelief` writes it from its whole stored history. */
function expectWrittenFromWholeHistories(records: readonly BeliefRecord[], result: IngestResult): void {
  const byId = new Map(records.map((r) => [r.belief.id, r]));
  for (const upsert of result.changeSet.beliefs) {
    const stored = byId.get(upsert.belief.id);
    if (!stored) {
      expect(upsert.expectedVersion).toBeNull();
      continue;
    }
    const appended = result.changeSet.history.find((h) => h.beliefId === stored.belief.id)?.items ?? [];
    const items = appended.map(({ seq: _seq, ...item }) => ({ ...item, ...(item.type === "entry" ? { contribution: 0, effectiveWeight: 0 } : {}) }) as UnsequencedItem);
    const expected = writeBelief(stored, items, defaultParams, NOW, false);
    expect(upsert).toEqual(expected.upsert);
    expect(appended).toEqual(expected.append.items);
    expect(result.changeSet.entryOutputs.filter((o) => o.beliefId === stored.belief.id)).toEqual(expected.outputs);
    // A contraction is assessed exactly when the whole history, with this text's entries, has enough rebuttals.
    const beforeContraction = items.filter((i) => i.type !== "contraction");
    const trial = writeBelief(stored, beforeContraction, defaultParams, NOW, false).state;
    const rebutted = beforeContraction.some((i) => i.type === "entry" && i.relation === "REBUTS");
    const due = rebutted && trial.contradictCount >= defaultParams.contractionMinRebuttals && trial.rebuttalWeight >= trial.supportWeight;
    expect(result.contractions.some((c) => c.beliefId === stored.belief.id)).toBe(due);
  }
}

describe("ingest on slim candidates", () => {
  it("reads the histories of exactly the stored beliefs it writes, once, and writes each as its whole history gives (property)", async () => {
    await fc.assert(
      fc.asyncProperty(arbScene, async (scene) => {
        const records = scene.records;
        const { result, asked } = await slimIngest(records, scene.claims, scene);
        const writtenStored = result.changeSet.beliefs.filter((u) => u.expectedVersion !== null).map((u) => u.belief.id);
        expect(asked.length).toBe(writtenStored.length > 0 ? 1 : 0);
        expect([...(asked[0] ?? [])].sort()).toEqual([...writtenStored].sort());
        // Ended beliefs are neither read nor written nor related.
        const ended = new Set(records.filter((r) => !isLive(replay(r.history, defaultParams))).map((r) => r.belief.id));
        expect(writtenStored.filter((id) => ended.has(id))).toEqual([]);
        expect(result.claims.flatMap((c) => [...c.relations, ...c.undecided].map((r) => r.beliefId)).filter((id) => ended.has(id))).toEqual([]);
        expectWrittenFromWholeHistories(records, result);

        // A person's correction of one relation is numbered after the whole stored history.
        const relations = result.claims.flatMap((c, claim) => c.relations.map((r) => ({ claim, beliefId: r.beliefId, relation: r.relation })));
        const pick = relations[scene.edit % Math.max(1, relations.length)];
        if (!pick) return;
        const to = pick.relation === "SUPPORTS" ? "CONTEXTUALIZES" : "SUPPORTS";
        const edited = await slimIngest(records, scene.claims, scene, { overrides: [{ claim: pick.claim, beliefId: pick.beliefId, relation: to }] });
        expectWrittenFromWholeHistories(records, edited.result);
        // Where the corrected reading is written (a stronger claim may stand for the belief instead), the person's
        // `revised` event targets the reader's entry just before it, numbered after the whole stored history.
        for (const { beliefId, items } of edited.result.changeSet.history) {
          const lastStored = records.find((r) => r.belief.id === beliefId)?.history.at(-1)?.seq ?? 0;
          for (const item of items) {
            if (item.type !== "revised") continue;
            expect(item.targetSeq).toBe(item.seq - 1);
            expect(item.targetSeq).toBeGreaterThan(lastStored);
            expect(items.find((i) => i.seq === item.targetSeq)?.type).toBe("entry");
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it("with heads, each stored belief is folded onto its checkpoint unless a decision needs its history, and written as the whole history writes it (property)", async () => {
    // Stored beliefs written by the fold alone (their history never read), and scenes that read a history.
    const seen = { folded: 0, read: 0, contracted: 0 };
    await fc.assert(
      fc.asyncProperty(arbScene, async (scene) => {
        const records = scene.records;
        const whole = await slimIngest(records, scene.claims, scene);
        const folded = await slimIngest(records, scene.claims, scene, undefined, { heads: true });
        // The same beliefs, history items and entry outputs; only the stored checkpoint may be a slice of the whole.
        expect(folded.result.changeSet.beliefs.map(({ checkpoint: _c, ...u }) => u)).toEqual(whole.result.changeSet.beliefs.map(({ checkpoint: _c, ...u }) => u));
        expect(folded.result.changeSet.history).toEqual(whole.result.changeSet.history);
        expect(folded.result.changeSet.entryOutputs).toEqual(whole.result.changeSet.entryOutputs);
        expect(folded.result.claims).toEqual(whole.result.claims);
        expect(folded.result.contractions).toEqual(whole.result.contractions);
        expect(folded.result.disagreements).toEqual(whole.result.disagreements);
        const writtenStored = whole.result.changeSet.beliefs.filter((u) => u.expectedVersion !== null).map((u) => u.belief.id);
        // Heads of every stored belief written, once; histories only of some of them, each once.
        expect(folded.headsAsked.map((ids) => [...ids].sort())).toEqual(writtenStored.length > 0 ? [[...writtenStored].sort()] : []);
        const read = folded.asked.flat();
        expect(new Set(read).size).toBe(read.length);
        for (const id of read) expect(writtenStored).toContain(id);
        // A contraction reads the history it assesses.
        for (const c of whole.result.contractions) expect(read).toContain(c.beliefId);
        seen.contracted += whole.result.contractions.length;
        seen.folded += writtenStored.filter((id) => !read.includes(id)).length;

        // A person's correction: the corrected belief is read whole, and the change-set is still the whole history's.
        const relations = whole.result.claims.flatMap((c, claim) => c.relations.map((r) => ({ claim, beliefId: r.beliefId, relation: r.relation })));
        const pick = relations[scene.edit % Math.max(1, relations.length)];
        if (pick) {
          const edits = { overrides: [{ claim: pick.claim, beliefId: pick.beliefId, relation: pick.relation === "SUPPORTS" ? ("CONTEXTUALIZES" as const) : ("SUPPORTS" as const) }] };
          const wholeEdited = await slimIngest(records, scene.claims, scene, edits);
          const foldedEdited = await slimIngest(records, scene.claims, scene, edits, { heads: true });
          expect(foldedEdited.result.changeSet.beliefs.map(({ checkpoint: _c, ...u }) => u)).toEqual(wholeEdited.result.changeSet.beliefs.map(({ checkpoint: _c, ...u }) => u));
          expect(foldedEdited.result.changeSet.history).toEqual(wholeEdited.result.changeSet.history);
          expect(foldedEdited.result.changeSet.entryOutputs).toEqual(wholeEdited.result.changeSet.entryOutputs);
          const revised = foldedEdited.result.changeSet.history.filter((h) => h.items.some((i) => i.type === "revised")).map((h) => h.beliefId);
          for (const id of revised) expect(foldedEdited.asked.flat()).toContain(id);
        }
        if (folded.asked.length > 0) seen.read++;
      }),
      { numRuns: 150 },
    );
    expect(seen.folded).toBeGreaterThan(10);
    expect(seen.read).toBeGreaterThan(10);
    expect(seen.contracted).toBeGreaterThan(0);
  });
});
