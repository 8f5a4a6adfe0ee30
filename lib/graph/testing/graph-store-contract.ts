/**
 * The GraphStore contract suite: one set of Vitest tests every adapter must pass (SQL on PGlite, SQL on a Postgres
 * server, Neo4j). An adapter's test file calls `describeGraphStoreContract("sql on PGlite", makeHarness)`.
 *
 * Every test works in scopes of its own, so one store serves the whole suite; the export/import round trip opens a
 * second, empty store through the same `makeHarness`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assimilate,
  assimilateOnCheckpoint,
  checkReplay,
  decideReading,
  defaultParams,
  derivedFields,
  replay,
  replayWithStanding,
  standingData,
  standingOfHead,
  foldCheckpoint,
  joinCheckpoint,
  resolveParams,
  retrieve,
  supportRefsOf,
  termSet,
  type Belief,
  type BeliefRecord,
  type ChangeSet,
  type HistoryItem,
} from "@/lib/engine";
import { possibleDuplicate, undecided } from "@/lib/engine/history-builder";
import { ChangeSetRejected, VersionConflict } from "../errors";
import {
  parseScopeExport,
  placeholderEvidenceId,
  serializeScopeExport,
  type CandidateStats,
  type GraphStore,
  type ScopeView,
} from "../graph-store";
import {
  at,
  changeSet,
  citeEvidence,
  insertBelief,
  makeBelief,
  unsourcedEntry,
  makeEvidence,
  makeMutation,
  miniAssimilate,
  miniReplay,
  uid,
} from "./fixtures";
import { rankCandidateStats } from "../rank-candidate-stats";
import { describeVectorContract } from "./vector-contract";

/** One statement the store sent to its database (SQL text or Cypher, with its parameters). */
export interface RecordedQuery {
  text: string;
  params: unknown;
}

export interface GraphStoreHarness {
  store: GraphStore;
  /** Runs `fn` and returns the statements the store sent while it ran (used to prove hidden ≡ missing). */
  recordQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: readonly RecordedQuery[] }>;
  /** Closes the store and discards its database. */
  close(): Promise<void>;
}

const view = (home: string, ...others: string[]): ScopeView => ({ homeScopeId: home, visibleScopeIds: [home, ...others] });

/** Replace every occurrence of `id` in recorded parameters by a marker, so two runs differing only in the id compare equal. */
function masked(queries: readonly RecordedQuery[], id: string): unknown {
  return JSON.parse(JSON.stringify(queries).split(JSON.stringify(id).slice(1, -1)).join("<ID>"));
}

async function expectReject<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

export function describeGraphStoreContract(name: string, makeHarness: () => Promise<GraphStoreHarness>): void {
  describe(`GraphStore contract: ${name}`, () => {
    let harness: GraphStoreHarness;
    let store: GraphStore;

    beforeAll(async () => {
      harness = await makeHarness();
      store = harness.store;
    });
    afterAll(async () => {
      await harness?.close();
    });

    describeVectorContract(() => store);

    /** A belief with one verified document entry, applied; returns it as stored. */
    async function seedBelief(scope: string, text: string, over: Partial<Belief> = {}): Promise<BeliefRecord> {
      const ev = makeEvidence(scope, `source of ${text}`);
      const belief = makeBelief(scope, text, over);
      const history = [citeEvidence(1, ev.id)];
      await store.apply(insertBelief(miniReplay(belief, history), history, [ev]));
      const loaded = await store.loadBelief(view(scope), belief.id);
      if (!loaded) throw new Error("seeded belief did not load");
      return loaded;
    }

    describe("startup and writes", () => {
      it("passes its startup check and describes itself", async () => {
        await expect(store.check()).resolves.toBeUndefined();
        expect(store.describe().length).toBeGreaterThan(0);
      });

      it("applies a change-set and loads the belief with its history exactly", async () => {
        const scope = uid("s");
        const ev = makeEvidence(scope, "Monday: deploys go from main.");
        const belief = makeBelief(scope, "Deploys go from main.", { quantity: { value: 1.5, unit: "h" }, contextTags: ["ops"], credence: 0.6224593312018546 });
        const history: HistoryItem[] = [
          citeEvidence(1, ev.id, { contribution: 0.5000000000000001, effectiveWeight: 1e-7, reasoning: "quoted" }),
          unsourcedEntry(2, { relation: "CONTEXTUALIZES", assessor: "heuristic@1" }),
        ];
        const result = await store.apply(insertBelief(belief, history, [ev]));
        expect(result.versions[belief.id]).toBe(1);
        const loaded = await store.loadBelief(view(scope), belief.id);
        expect(loaded).toEqual({ belief, history });
        expect(await store.loadEvidence(view(scope), ev.id)).toEqual(ev);
      });

      it("refuses a stale version with VersionConflict and writes nothing of the change-set", async () => {
        const scope = uid("s");
        const rec = await seedBelief(scope, "The cache is warm.");
        const ev = makeEvidence(scope, "late evidence");
        const stale: ChangeSet = changeSet({
          evidence: [ev],
          beliefs: [{ belief: { ...rec.belief, version: 5, credence: 0.9 }, expectedVersion: 1 }],
        });
        // version must be expectedVersion + 1: a shape error, not a race
        await expectReject(store.apply(stale), ChangeSetRejected);
        const conflicting = changeSet({
          evidence: [ev],
          beliefs: [{ belief: { ...rec.belief, version: 3, credence: 0.9 }, expectedVersion: 2 }],
          history: [{ beliefId: rec.belief.id, items: [citeEvidence(2, ev.id)] }],
        });
        const error = await expectReject(store.apply(conflicting), VersionConflict);
        expect(error.code).toBe("version_conflict");
        expect(error.reason).toBe("version");
        expect(await store.loadBelief(view(scope), rec.belief.id)).toEqual(rec);
        expect(await store.loadEvidence(view(scope), ev.id)).toBeNull();
      });

      it("reports an insert of an existing belief, a seq gap and a taken live key as version conflicts", async () => {
        const scope = uid("s");
        const rec = await seedBelief(scope, "Builds take ten minutes.");
        const again = await expectReject(store.apply(insertBelief(rec.belief)), VersionConflict);
        expect(again.reason).toBe("exists");
        const gap = changeSet({
          beliefs: [{ belief: { ...rec.belief, version: 2 }, expectedVersion: 1 }],
          history: [{ beliefId: rec.belief.id, items: [unsourcedEntry(3)] }],
        });
        expect((await expectReject(store.apply(gap), VersionConflict)).reason).toBe("history_seq");
        const twin = makeBelief(scope, "Builds take ten minutes.");
        expect((await expectReject(store.apply(insertBelief(twin)), VersionConflict)).reason).toBe("live_key");
        expect(await store.loadBelief(view(scope), twin.id)).toBeNull();
        expect(await store.loadBelief(view(scope), rec.belief.id)).toEqual(rec);
      });

      it("refuses an update whose history does not follow an append made without an update, and writes none of it", async () => {
        const scope = uid("s");
        const rec = await seedBelief(scope, "Logs rotate daily.");
        const appendOnly = changeSet({ history: [{ beliefId: rec.belief.id, items: [unsourcedEntry(2)] }] });
        await store.apply(appendOnly);
        const after = await store.loadBelief(view(scope), rec.belief.id);
        const ev = makeEvidence(scope, "written against the history before the append");
        const stale = changeSet({
          evidence: [ev],
          beliefs: [{ belief: { ...rec.belief, version: 2, credence: 0.8 }, expectedVersion: 1 }],
          history: [{ beliefId: rec.belief.id, items: [citeEvidence(2, ev.id)] }],
        });
        expect((await expectReject(store.apply(stale), VersionConflict)).reason).toBe("history_seq");
        expect(await store.loadBelief(view(scope), rec.belief.id)).toEqual(after);
        expect(await store.loadEvidence(view(scope), ev.id)).toBeNull();
      });

      it("lets a successor take the key of the belief it supersedes in the same change-set", async () => {
        const scope = uid("s");
        const old = await seedBelief(scope, "Release candidates are cut on Thursdays.");
        const successor = makeBelief(scope, "Release candidates are cut on Thursdays.", { supersedesId: old.belief.id });
        const cs = changeSet({
          beliefs: [
            { belief: successor, expectedVersion: null },
            { belief: { ...old.belief, status: "superseded", validUntil: at(60), version: 2 }, expectedVersion: 1 },
          ],
          history: [{ beliefId: old.belief.id, items: [{ type: "superseded", seq: 2, time: at(60), actor: "a", changeSet: "c", byBeliefId: successor.id }] }],
          edges: [{ kind: "SUPERSEDES", from: successor.id, to: old.belief.id, time: at(60), changeSet: "c" }],
        });
        await store.apply(cs);
        const live = await store.listBeliefs(view(scope));
        expect(live.map((b) => b.id)).toEqual([successor.id]);
        const all = await store.listBeliefs(view(scope), { liveOnly: false });
        expect(all.map((b) => b.id).sort()).toEqual([old.belief.id, successor.id].sort());
      });

      it("is atomic: a change-set failing at its last step leaves nothing, and applies once fixed", async () => {
        const scope = uid("s");
        const ev = makeEvidence(scope, "evidence in a failing change-set");
        const belief = makeBelief(scope, "Atomicity holds.");
        const mutation = makeMutation(scope, { beliefIds: [belief.id] });
        const ghostUpdate = makeMutation(scope);
        const base = insertBelief(belief, [citeEvidence(1, ev.id), unsourcedEntry(2, { sourceId: "ghost-id" })], [ev]);
        const failing: ChangeSet = {
          ...base,
          edges: [{ kind: "REFINES", from: belief.id, to: "elsewhere", time: at(1), changeSet: base.id }],
          mutations: [mutation],
          mutationUpdates: [{ mutation: ghostUpdate }],
          topicFreezes: [{ scope, topic: "general", frozen: true, reason: "x", byMutationId: mutation.id }],
        };
        await expectReject(store.apply(failing), ChangeSetRejected);
        expect(await store.loadBelief(view(scope), belief.id)).toBeNull();
        expect(await store.loadEvidence(view(scope), ev.id)).toBeNull();
        expect(await store.getMutation(view(scope), mutation.id)).toBeNull();
        expect(await store.getTopicFreeze(view(scope), "general")).toBeNull();
        expect(await store.loadEvidence(view(scope), placeholderEvidenceId(scope, "ghost-id"))).toBeNull();
        expect(await store.citationIndex().citersOf(ev.id)).toEqual([]);
        const exported = await store.exportScope(view(scope));
        expect([exported.beliefs, exported.evidence, exported.mutations, exported.edges, exported.topicFreezes].every((l) => l.length === 0)).toBe(true);
        await store.apply({ ...failing, mutationUpdates: [] });
        expect(await store.loadBelief(view(scope), belief.id)).not.toBeNull();
        expect(await store.getMutation(view(scope), mutation.id)).toEqual(mutation);
      });

      it("applies a change-set id at most once", async () => {
        const scope = uid("s");
        const cs = insertBelief(makeBelief(scope, "Once only."));
        await store.apply(cs);
        const error = await expectReject(store.apply({ ...cs, beliefs: [] }), ChangeSetRejected);
        expect(error.reason).toBe("already_applied");
      });

      it("rewrites entry outputs and refuses outputs for entries that do not exist", async () => {
        const scope = uid("s");
        const rec = await seedBelief(scope, "Outputs are rewritten.");
        await store.apply(changeSet({ entryOutputs: [{ beliefId: rec.belief.id, seq: 1, contribution: 0.6931471805599453, effectiveWeight: 0.25 }] }));
        const loaded = await store.loadBelief(view(scope), rec.belief.id);
        expect(loaded?.history[0]).toMatchObject({ contribution: 0.6931471805599453, effectiveWeight: 0.25 });
        await expectReject(store.apply(changeSet({ entryOutputs: [{ beliefId: rec.belief.id, seq: 9, contribution: 1, effectiveWeight: 1 }] })), ChangeSetRejected);
        await expectReject(store.apply(changeSet({ history: [{ beliefId: uid("nobody"), items: [unsourcedEntry(1)] }] })), ChangeSetRejected);
      });

      it("marks retracted evidence and keeps the trail", async () => {
        const scope = uid("s");
        const rec = await seedBelief(scope, "Retraction is recorded.");
        const evId = rec.history[0]?.type === "entry" ? (rec.history[0].sourceId ?? "") : "";
        await store.apply(
          changeSet({
            retractions: [{ evidenceId: evId, retractedAt: at(5) }],
            beliefs: [{ belief: { ...rec.belief, version: 2 }, expectedVersion: 1 }],
            history: [{ beliefId: rec.belief.id, items: [{ type: "retracted", seq: 2, targetSeq: 1, sourceId: evId, time: at(5), actor: "a", changeSet: "c" }] }],
          }),
        );
        expect((await store.loadEvidence(view(scope), evId))?.retractedAt).toBe(at(5));
        const resolved = await store.resolverFor(view(scope)).resolve(evId);
        expect(resolved).toMatchObject({ kind: "evidence", retracted: true });
        expect(await store.citationIndex().citersOf(evId)).toEqual([]);
        expect((await store.loadBelief(view(scope), rec.belief.id))?.history).toHaveLength(2);
        await expectReject(store.apply(changeSet({ retractions: [{ evidenceId: uid("none"), retractedAt: at(6) }] })), ChangeSetRejected);
      });
    });

    describe("resolver (the authorised view)", () => {
      it("resolves evidence, beliefs (with live support refs) and mutations of visible scopes", async () => {
        const home = uid("s");
        const granted = uid("s");
        const rec = await seedBelief(granted, "Granted belief.");
        const ev = makeEvidence(home, "home evidence", { ess: 0.4, kind: "measurement" });
        const m = makeMutation(home);
        await store.apply(changeSet({ evidence: [ev], mutations: [m] }));
        const resolver = store.resolverFor(view(home, granted));
        expect(await resolver.resolve(ev.id)).toEqual({ kind: "evidence", id: ev.id, scope: home, evidenceKind: "measurement", ess: 0.4, retracted: false, discarded: false });
        expect(await resolver.resolve(m.id)).toEqual({ kind: "mutation", id: m.id, scope: home });
        expect(await resolver.resolve(rec.belief.id)).toEqual({
          kind: "belief",
          id: rec.belief.id,
          scope: granted,
          live: true,
          supports: supportRefsOf(rec.history),
        });
        expect(supportRefsOf(rec.history)).toHaveLength(1);
      });

      it("reports supports after retracted, stripped, revised and laundered entries like supportRefsOf", async () => {
        const scope = uid("s");
        const evs = [0, 1, 2, 3, 4, 5].map((i) => makeEvidence(scope, `e${i}`));
        const belief = makeBelief(scope, "Support refs follow events.");
        const history: HistoryItem[] = [
          citeEvidence(1, evs[0]!.id),
          citeEvidence(2, evs[1]!.id, { effectiveTier: "measurement" }),
          citeEvidence(3, evs[2]!.id),
          citeEvidence(4, evs[3]!.id, { launderingReason: "ungrounded_belief" }),
          citeEvidence(5, evs[4]!.id, { relation: "REBUTS" }),
          citeEvidence(6, evs[5]!.id, { verified: false }),
          { type: "retracted", seq: 7, targetSeq: 1, sourceId: evs[0]!.id, time: at(1), actor: "a", changeSet: "c" },
          { type: "revised", seq: 8, targetSeq: 3, relation: "REBUTS", reason: "misread", time: at(2), actor: "a", changeSet: "c" },
          { type: "revised", seq: 9, targetSeq: 5, relation: "SUPPORTS", reason: "misread", time: at(2), actor: "a", changeSet: "c" },
          { type: "revised", seq: 10, targetSeq: 2, weight: 0.5, reason: "weaker", time: at(2), actor: "a", changeSet: "c" },
        ];
        await store.apply(insertBelief(belief, history, evs));
        const resolved = await store.resolverFor(view(scope)).resolve(belief.id);
        expect(resolved?.kind === "belief" ? resolved.supports : null).toEqual(supportRefsOf(history));
        expect(supportRefsOf(history).map((r) => r.sourceId)).toEqual([evs[1]!.id, evs[4]!.id]);
        await store.apply(
          changeSet({
            beliefs: [{ belief: { ...belief, version: 2 }, expectedVersion: 1 }],
            history: [{ beliefId: belief.id, items: [{ type: "stripped", seq: 11, targetSeq: 2, citedBeliefId: "x", time: at(3), actor: "a", changeSet: "c" }] }],
          }),
        );
        const after = await store.resolverFor(view(scope)).resolve(belief.id);
        expect(after?.kind === "belief" ? after.supports.map((s) => s.sourceId) : null).toEqual([evs[4]!.id]);
        const n = await store.neighbourhood(view(scope), belief.id);
        expect(n.edges.find((e) => e.seq === 3)?.kind).toBe("REBUTS");
        expect(n.edges.find((e) => e.seq === 2)?.live).toBe(false);
      });

      it("an entry revised to UNRELATED leaves the supports and the drawn graph, stays a citation, and returns when revised again", async () => {
        const scope = uid("s");
        const evs = [0, 1].map((i) => makeEvidence(scope, `u${i}`));
        const belief = makeBelief(scope, "Unrelated entries are kept but not drawn.");
        const history: HistoryItem[] = [citeEvidence(1, evs[0]!.id), citeEvidence(2, evs[1]!.id)];
        await store.apply(insertBelief(belief, history, evs));
        const revise = async (version: number, item: HistoryItem) => {
          history.push(item);
          await store.apply(changeSet({ beliefs: [{ belief: { ...belief, version: version + 1 }, expectedVersion: version }], history: [{ beliefId: belief.id, items: [item] }] }));
        };
        const supports = async () => {
          const r = await store.resolverFor(view(scope)).resolve(belief.id);
          return r?.kind === "belief" ? r.supports : null;
        };
        const drawn = async () => (await store.neighbourhood(view(scope), belief.id)).edges.filter((e) => e.beliefId === belief.id).map((e) => [e.seq, e.kind, e.live]);

        await revise(1, { type: "revised", seq: 3, targetSeq: 1, relation: "UNRELATED", reason: "not about this", time: at(1), actor: "a", changeSet: "c1" });
        expect(await supports()).toEqual(supportRefsOf(history));
        expect((await supports())?.map((s) => s.sourceId)).toEqual([evs[1]!.id]);
        expect(await drawn()).toEqual([[2, "SUPPORTS", true]]);
        expect(await store.beliefLinks(view(scope), [belief.id])).toEqual([]);
        expect(await store.citationIndex().citersOf(evs[0]!.id)).toEqual([{ beliefId: belief.id, seq: 1 }]);

        await revise(2, { type: "revised", seq: 4, targetSeq: 1, relation: "REBUTS", reason: "it argues against", time: at(2), actor: "a", changeSet: "c2" });
        expect(await supports()).toEqual(supportRefsOf(history));
        expect(await drawn()).toEqual([
          [1, "REBUTS", true],
          [2, "SUPPORTS", true],
        ]);
        await revise(3, { type: "revised", seq: 5, targetSeq: 1, relation: "UNRELATED", reason: "again", time: at(3), actor: "a", changeSet: "c3" });
        await revise(4, { type: "revised", seq: 6, targetSeq: 1, relation: "SUPPORTS", reason: "undo", time: at(4), actor: "a", changeSet: "c4" });
        expect((await supports())?.map((s) => s.sourceId)).toEqual([evs[0]!.id, evs[1]!.id]);
        expect(await supports()).toEqual(supportRefsOf(history));
        expect(await drawn()).toEqual([
          [1, "SUPPORTS", true],
          [2, "SUPPORTS", true],
        ]);
      });

      it("answers a hidden id exactly like a missing one, with the same queries", async () => {
        const home = uid("s");
        const hidden = uid("s");
        const other = await seedBelief(hidden, "Hidden belief.");
        const hiddenEv = makeEvidence(hidden, "hidden evidence");
        await store.apply(changeSet({ evidence: [hiddenEv] }));
        const resolver = store.resolverFor(view(home));
        for (const hiddenId of [other.belief.id, hiddenEv.id]) {
          const missingId = uid("b");
          const a = await harness.recordQueries(() => resolver.resolve(hiddenId));
          const b = await harness.recordQueries(() => resolver.resolve(missingId));
          expect(a.result).toBeNull();
          expect(b.result).toBeNull();
          expect(a.queries.length).toBeGreaterThan(0);
          expect(masked(a.queries, hiddenId)).toEqual(masked(b.queries, missingId));
        }
        const la = await harness.recordQueries(() => store.loadBelief(view(home), other.belief.id));
        const lb = await harness.recordQueries(() => store.loadBelief(view(home), "b_missing"));
        expect(la.result).toBeNull();
        expect(lb.result).toBeNull();
        expect(masked(la.queries, other.belief.id)).toEqual(masked(lb.queries, "b_missing"));
      });
    });

    describe("undecided readings and possible duplicates", () => {
      it("keeps them in the history, lists the open ones of the home scope, closes one on its decision, and stored == replay", async () => {
        const scope = uid("s");
        const v = view(scope);
        const evs = [0, 1, 2].map((i) => makeEvidence(scope, `reading ${i}`));
        const belief = makeBelief(scope, "Staging mirrors production.");
        const other = makeBelief(scope, "The staging environment is a copy of production.");
        const history: HistoryItem[] = [
          citeEvidence(1, evs[0]!.id),
          undecided({ seq: 2, sourceId: evs[1]!.id, guess: "REBUTS", confidence: 0.42, time: at(1), actor: "agent_1", changeSet: "c2" }),
          undecided({ seq: 3, sourceId: evs[2]!.id, guess: "SUPPORTS", confidence: 0.51, time: at(2), actor: "agent_1", changeSet: "c3" }),
        ];
        const stored = { ...belief, ...derivedFields(replay(history, defaultParams)), version: 1 };
        await store.apply(insertBelief(stored, history, evs));
        await store.apply(insertBelief({ ...other, version: 1 }, [possibleDuplicate({ seq: 1, otherBeliefId: belief.id, score: 0.74, time: at(3) })]));

        const open = await store.listOpenReadings(v);
        expect(open.map((o) => [o.beliefId, o.item.seq, o.item.type])).toEqual([
          [belief.id, 2, "undecided"],
          [belief.id, 3, "undecided"],
          [other.id, 1, "possible_duplicate"],
        ]);
        expect(open[0]?.item).toEqual(history[1]);
        expect(await store.listOpenReadings(v, { limit: 1 })).toHaveLength(1);
        expect(await store.listOpenReadings(view(uid("s"), scope))).toEqual([]);

        const record = await store.loadBelief(v, belief.id);
        if (!record) throw new Error("belief missing");
        const decision = decideReading({ record, targetSeq: 2, decision: "REBUTS", reason: "contradicts it", actor: "reviewer", now: at(4), changeSetId: uid("cs") }, defaultParams);
        await store.apply(decision.changeSet);
        const after = await store.loadBelief(v, belief.id);
        expect(after?.history.map((h) => h.type)).toEqual(["entry", "undecided", "undecided", "decided", "entry"]);
        expect(checkReplay(after!.belief, after!.history, defaultParams).ok).toBe(true);
        expect(after?.belief.credence).toBeLessThan(stored.credence);
        expect((await store.listOpenReadings(v)).map((o) => [o.beliefId, o.item.seq])).toEqual([
          [belief.id, 3],
          [other.id, 1],
        ]);
      });
    });

    describe("concurrency", () => {
      it("loses no entry with 16 concurrent writers on one belief (load → engine assimilate → apply, retry on conflict), and stored == replay", async () => {
        const scope = uid("s");
        const v = view(scope);
        const evs = Array.from({ length: 16 }, (_, i) => makeEvidence(scope, `writer ${i}`, { kind: i % 2 ? "document" : "measurement" }));
        await store.apply(changeSet({ evidence: evs }));
        const created = await assimilate({
          target: { create: { id: uid("b"), scope, topic: "writers", text: "Sixteen writers agree." } },
          evidence: [],
          resolver: store.resolverFor(v),
          params: defaultParams,
          time: at(0),
          actor: "setup",
          changeSetId: uid("cs"),
        });
        await store.apply(created.changeSet);
        const beliefId = created.write.record.belief.id;
        let conflicts = 0;
        await Promise.all(
          evs.map(async (ev, i) => {
            for (let attempt = 0; attempt < 200; attempt++) {
              const rec = await store.loadBelief(v, beliefId);
              if (!rec) throw new Error("belief vanished");
              const result = await assimilate({
                target: { existing: rec },
                evidence: [{ sourceId: ev.id, relation: i % 4 === 0 ? "REBUTS" : "SUPPORTS", tier: "document" }],
                resolver: store.resolverFor(v),
                params: defaultParams,
                time: at(i),
                actor: `writer_${i}`,
                changeSetId: uid("cs"),
              });
              try {
                await store.apply(result.changeSet);
                return;
              } catch (error) {
                if (!(error instanceof VersionConflict)) throw error;
                conflicts++;
              }
            }
            throw new Error(`writer ${i} never got through`);
          }),
        );
        const final = await store.loadBelief(v, beliefId);
        if (!final) throw new Error("belief vanished");
        const entries = final.history.filter((h) => h.type === "entry");
        expect(entries).toHaveLength(16);
        expect(final.history.map((h) => h.seq)).toEqual(Array.from({ length: final.history.length }, (_, i) => i + 1));
        expect(new Set(entries.map((h) => h.sourceId))).toEqual(new Set(evs.map((e) => e.id)));
        expect(entries.every((h) => h.verified)).toBe(true);
        expect(final.belief.version).toBe(1 + 16);
        expect(checkReplay(final.belief, final.history, defaultParams).mismatches).toEqual([]);
        expect(final.belief.contradictCount).toBe(4);
        expect(conflicts).toBeGreaterThanOrEqual(0);
      });

      it("keeps the small replay stand-in consistent under concurrent writers too", async () => {
        const scope = uid("s");
        const belief = makeBelief(scope, "Eight writers agree.");
        await store.apply(insertBelief(belief));
        await Promise.all(
          Array.from({ length: 8 }, async (_, i) => {
            for (;;) {
              const rec = await store.loadBelief(view(scope), belief.id);
              if (!rec) throw new Error("belief vanished");
              const { seq: _seq, ...entry } = unsourcedEntry(0, { actor: `w${i}` });
              try {
                await store.apply(miniAssimilate(rec, entry, at(i)));
                return;
              } catch (error) {
                if (!(error instanceof VersionConflict)) throw error;
              }
            }
          }),
        );
        const final = await store.loadBelief(view(scope), belief.id);
        expect(final?.history).toHaveLength(8);
        expect(final && miniReplay(final.belief, final.history)).toEqual(final?.belief);
      });
    });

    describe("incremental replay (a fold checkpoint stored with each belief)", () => {
      /** One write through the head: folded onto the stored checkpoint, or (fallback) with the whole history. */
      async function writeThroughHead(v: ScopeView, beliefId: string, evidence: unknown[], minute: number, actor: string): Promise<"folded" | string> {
        // As the services ask: the checkpoint rows of the sources this write cites (a store may send more).
        const cited = evidence.flatMap((e) => (typeof (e as { sourceId?: unknown }).sourceId === "string" ? [(e as { sourceId: string }).sourceId] : []));
        const head = await store.loadBeliefHead(v, beliefId, { historyLimit: 0, checkpointSources: cited });
        if (!head) throw new Error("belief vanished");
        // The history comes only when it has at most historyLimit items (here: only when empty).
        expect(head.history).toEqual(head.lastSeq === 0 ? [] : null);
        const base = { evidence, resolver: store.resolverFor(v), params: defaultParams, time: at(minute), actor, changeSetId: uid("cs") };
        const folded = await assimilateOnCheckpoint({ ...base, head });
        if (!("fallback" in folded)) {
          await store.apply(folded.changeSet);
          return "folded";
        }
        const record = await store.loadBelief(v, beliefId);
        if (!record) throw new Error("belief vanished");
        await store.apply((await assimilate({ ...base, target: { existing: record } })).changeSet);
        return folded.fallback;
      }

      /** Stored state == full replay, and the stored checkpoint (when one is usable) == the checkpoint of the full fold. */
      async function expectStoredEqualsReplay(v: ScopeView, beliefId: string): Promise<void> {
        const record = await store.loadBelief(v, beliefId);
        if (!record) throw new Error("belief vanished");
        expect(checkReplay(record.belief, record.history, defaultParams).mismatches).toEqual([]);
        const head = await store.loadBeliefHead(v, beliefId, { historyLimit: 1_000_000 });
        expect(head?.history).toEqual(record.history);
        expect(head?.lastSeq).toBe(record.history.length);
        if (head?.checkpoint && head.checkpoint.head.foldedSeq === head.lastSeq) {
          // Head and rows (all of them by default) join into the checkpoint of the full fold, bit for bit.
          const whole = foldCheckpoint(record.history, defaultParams);
          expect(head.checkpoint.covered).toBe("all");
          expect(JSON.stringify(joinCheckpoint(head.checkpoint))).toBe(JSON.stringify(whole));
          // Asked for some sources (and one without a row), a slice holds at least their rows, equal to the whole's.
          const some = [...whole.sources.slice(0, 2).map(([source]) => source), "no-such-source"];
          const part = await store.loadBeliefHead(v, beliefId, { historyLimit: 0, checkpointSources: some });
          expect(part?.checkpoint?.head).toEqual(head.checkpoint.head);
          const rows = new Map(part?.checkpoint?.sources.map((r) => [r[0], r]));
          for (const row of whole.sources.slice(0, 2)) expect(rows.get(row[0])).toEqual(row);
          expect(rows.has("no-such-source")).toBe(false);
        }
        // What recall weighs: from the stored checkpoint, the standing of the full replay; without a usable one, none.
        const standingHead = (await store.beliefStandings(v, [beliefId])).get(beliefId);
        expect(standingHead?.lastSeq).toBe(record.history.length);
        const standing = standingHead && standingOfHead(standingHead, defaultParams);
        if (head?.checkpoint && head.checkpoint.head.foldedSeq === head.lastSeq) expect(standing && standingData(standing)).toEqual(standingData(replayWithStanding(record.history, defaultParams).standing));
        else expect(standing).toBeNull();
      }

      it("folds new entries onto the stored checkpoint, falls back where it must, and keeps stored == full replay", async () => {
        const scope = uid("s");
        const v = view(scope);
        const evs = Array.from({ length: 6 }, (_, i) => makeEvidence(scope, `source ${i}`, { kind: i % 2 ? "document" : "measurement" }));
        await store.apply(changeSet({ evidence: evs }));
        const created = await assimilate({
          target: { create: { id: uid("b"), scope, topic: "fold", text: "Checkpoints fold exactly." } },
          evidence: [{ sourceId: evs[0]?.id ?? null, tier: "measurement" }],
          resolver: store.resolverFor(v),
          params: defaultParams,
          time: at(0),
          actor: "alice",
          changeSetId: uid("cs"),
        });
        await store.apply(created.changeSet);
        const id = created.write.record.belief.id;
        const outcomes: string[] = [];
        // Same sources again (outvoting their earlier entries), rebuttals, anonymous assertions, several actors and change-sets.
        for (let i = 1; i <= 12; i++) {
          const ev = evs[i % evs.length];
          const evidence = [
            { sourceId: ev?.id ?? null, relation: i % 3 === 0 ? "REBUTS" : "SUPPORTS", tier: i % 2 ? "document" : "measurement", weight: ((i * 7) % 10) / 10 + 0.05 },
            ...(i % 4 === 0 ? [{ sourceId: null, tier: "model_assertion", weight: 0.5 }] : []),
          ];
          outcomes.push(await writeThroughHead(v, id, evidence, i * 3, i % 2 ? "alice" : "bob"));
          await expectStoredEqualsReplay(v, id);
        }
        expect(outcomes.every((o) => o === "folded")).toBe(true);

        // Retracted evidence cited: the write adds a `retracted` event, which rewrites an earlier entry → full replay.
        const gone = makeEvidence(scope, "retracted source", { kind: "document", retractedAt: at(1) });
        await store.apply(changeSet({ evidence: [gone] }));
        expect(await writeThroughHead(v, id, [{ sourceId: gone.id, tier: "document" }], 50, "alice")).toBe("rewrites_history");
        await expectStoredEqualsReplay(v, id);
        expect(await writeThroughHead(v, id, [{ sourceId: evs[1]?.id ?? null, tier: "document" }], 51, "alice")).toBe("folded");
        await expectStoredEqualsReplay(v, id);

        // History appended without an upsert leaves the checkpoint behind the last seq: the next write replays.
        const last = (await store.loadBelief(v, id))?.history.length ?? 0;
        await store.apply(changeSet({ history: [{ beliefId: id, items: [{ type: "promoted", seq: last + 1, time: at(52), actor: "alice", changeSet: "c-promoted" }] }] }));
        expect(await writeThroughHead(v, id, [{ sourceId: evs[2]?.id ?? null, tier: "document" }], 53, "alice")).toBe("no_checkpoint");
        await expectStoredEqualsReplay(v, id);
        expect(await writeThroughHead(v, id, [{ sourceId: evs[3]?.id ?? null, tier: "measurement" }], 54, "bob")).toBe("folded");
        await expectStoredEqualsReplay(v, id);

        // Other parameters: the checkpoint is not theirs, so the write replays.
        const other = resolveParams({ modelAssertionCap: 0.7 });
        const head = await store.loadBeliefHead(v, id, { historyLimit: 0 });
        expect(head && (await assimilateOnCheckpoint({ head, evidence: [], resolver: store.resolverFor(v), params: other, time: at(55), actor: "a", changeSetId: uid("cs") }))).toEqual({ fallback: "params_changed" });
      });

      it("reads several heads in one call, as one loadBeliefHead each; another scope's belief and a missing id are left out", async () => {
        const created = async (scope: string, text: string, sources: readonly string[]) => {
          const made = await assimilate({
            target: { create: { id: uid("b"), scope, topic: "heads", text } },
            evidence: sources.map((sourceId) => ({ sourceId, tier: "document" })),
            resolver: store.resolverFor(view(scope)),
            params: defaultParams,
            time: at(1),
            actor: "setup",
            changeSetId: uid("cs"),
          });
          await store.apply(made.changeSet);
          return made.write.record.belief.id;
        };
        const scope = uid("s");
        const elsewhere = uid("s");
        const evs = Array.from({ length: 3 }, (_, i) => makeEvidence(scope, `head source ${i}`, { kind: "document" }));
        await store.apply(changeSet({ evidence: [...evs, makeEvidence(elsewhere, "other scope's source", { kind: "document" })] }));
        const ids = [await created(scope, "Heads come together.", [evs[0]?.id ?? "", evs[1]?.id ?? ""]), await created(scope, "Heads come one by one.", [evs[2]?.id ?? ""])];
        const hidden = await created(elsewhere, "A head of another scope.", []);
        const v = view(scope);
        for (const options of [{ historyLimit: 0, checkpointSources: [evs[1]?.id ?? ""] }, { historyLimit: 1_000 }]) {
          const heads = await store.loadBeliefHeads(v, [...ids, hidden, "b-missing", ids[0] as string], options);
          expect([...heads.keys()].sort()).toEqual([...ids].sort());
          for (const id of ids) expect(heads.get(id)).toEqual(await store.loadBeliefHead(v, id, options));
        }
        expect((await store.loadBeliefHeads(v, [], { historyLimit: 0 })).size).toBe(0);
        // Standings: the same beliefs, their fields as stored, no history.
        const standings = await store.beliefStandings(v, [...ids, hidden, "b-missing", ids[0] as string]);
        expect([...standings.keys()].sort()).toEqual([...ids].sort());
        for (const id of ids) {
          const record = await store.loadBelief(v, id);
          const { id: _id, text, contextTags, quantity, credence, confidence, tension, status, paramsVersion } = record?.belief ?? ({} as Belief);
          expect(standings.get(id)?.belief).toEqual({ id, text, contextTags, quantity, credence, confidence, tension, status, paramsVersion });
          expect(standings.get(id)).not.toHaveProperty("history");
        }
        expect((await store.beliefStandings({ homeScopeId: scope, visibleScopeIds: [elsewhere] }, ids)).size).toBe(0);
        expect((await store.beliefStandings(v, [])).size).toBe(0);
      });

      it("keeps stored == full replay with 8 concurrent writers folding onto checkpoints (retry on conflict)", async () => {
        const scope = uid("s");
        const v = view(scope);
        const evs = Array.from({ length: 8 }, (_, i) => makeEvidence(scope, `writer ${i}`, { kind: "document" }));
        await store.apply(changeSet({ evidence: evs }));
        const created = await assimilate({
          target: { create: { id: uid("b"), scope, topic: "fold", text: "Eight folding writers." } },
          evidence: [],
          resolver: store.resolverFor(v),
          params: defaultParams,
          time: at(0),
          actor: "setup",
          changeSetId: uid("cs"),
        });
        await store.apply(created.changeSet);
        const id = created.write.record.belief.id;
        await Promise.all(
          evs.map(async (ev, i) => {
            for (let attempt = 0; attempt < 200; attempt++) {
              try {
                // All in the same minute: a write observed before one already folded would need a full replay.
                expect(await writeThroughHead(v, id, [{ sourceId: ev.id, relation: i % 4 === 0 ? "REBUTS" : "SUPPORTS", tier: "document" }], 10, `w${i}`)).toBe("folded");
                return;
              } catch (error) {
                if (!(error instanceof VersionConflict)) throw error;
              }
            }
            throw new Error(`writer ${i} never got through`);
          }),
        );
        const final = await store.loadBelief(v, id);
        expect(final?.history.filter((h) => h.type === "entry")).toHaveLength(8);
        await expectStoredEqualsReplay(v, id);
      });
    });

    describe("citation index and cascade", () => {
      it("lists live citers only, in any scope, and loads records system-wide", async () => {
        const a = uid("s");
        const b = uid("s");
        const cited = await seedBelief(a, "Cited belief.");
        const c1 = makeBelief(a, "Citer one.");
        const c2 = makeBelief(b, "Citer two in another scope.");
        const c3 = makeBelief(b, "Citer three, stripped.");
        const cite = (seq: number) => unsourcedEntry(seq, { sourceId: cited.belief.id, sourceKind: "belief", verified: true, effectiveTier: "document" });
        await store.apply(
          changeSet({
            beliefs: [c1, c2, c3].map((belief) => ({ belief, expectedVersion: null })),
            history: [
              { beliefId: c1.id, items: [cite(1)] },
              { beliefId: c2.id, items: [unsourcedEntry(1), cite(2)] },
              { beliefId: c3.id, items: [cite(1), { type: "stripped", seq: 2, targetSeq: 1, citedBeliefId: cited.belief.id, time: at(1), actor: "sys", changeSet: "c" }] },
            ],
          }),
        );
        const index = store.citationIndex();
        const refs = [...(await index.citersOf(cited.belief.id))].sort((x, y) => (x.beliefId < y.beliefId ? -1 : 1));
        expect(refs).toEqual([{ beliefId: c1.id, seq: 1 }, { beliefId: c2.id, seq: 2 }].sort((x, y) => (x.beliefId < y.beliefId ? -1 : 1)));
        const many = await index.citersOfMany([cited.belief.id, uid("none")]);
        expect(many.get(cited.belief.id)).toHaveLength(2);
        expect((await index.load(c2.id))?.belief.scope).toBe(b);
        expect(await index.load(uid("none"))).toBeNull();
        expect((await index.loadMany([c1.id, c2.id, uid("none")])).map((r) => r.belief.id).sort()).toEqual([c1.id, c2.id].sort());
      });

      it("walks a 10 000-long citation chain, and terminates on a cycle", async () => {
        const scope = uid("s");
        const n = 10_000;
        const beliefs = Array.from({ length: n + 1 }, (_, i) => makeBelief(scope, `Chain link number ${i}.`));
        const cs = changeSet({
          beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })),
          history: beliefs.slice(1).map((belief, i) => ({
            beliefId: belief.id,
            items: [unsourcedEntry(1, { sourceId: beliefs[i]!.id, sourceKind: "belief", verified: true, effectiveTier: "document" })],
          })),
        });
        await store.apply(cs);
        const hops = await store.citationIndex().citationClosure(beliefs[0]!.id);
        expect(hops).toHaveLength(n);
        expect(hops[0]).toEqual({ beliefId: beliefs[1]!.id, seq: 1, citedId: beliefs[0]!.id, depth: 1 });
        expect(hops[n - 1]).toEqual({ beliefId: beliefs[n]!.id, seq: 1, citedId: beliefs[n - 1]!.id, depth: n });
        expect((await store.citationIndex().citationClosure(beliefs[0]!.id, { maxHops: 3 })).map((h) => h.depth)).toEqual([1, 2, 3]);

        const x = makeBelief(scope, "Cycle x.");
        const y = makeBelief(scope, "Cycle y.");
        const cite = (id: string) => unsourcedEntry(1, { sourceId: id, sourceKind: "belief", verified: true, effectiveTier: "document" });
        await store.apply(
          changeSet({
            beliefs: [x, y].map((belief) => ({ belief, expectedVersion: null })),
            history: [
              { beliefId: x.id, items: [cite(y.id)] },
              { beliefId: y.id, items: [cite(x.id)] },
            ],
          }),
        );
        const cycle = await store.citationIndex().citationClosure(x.id);
        expect(cycle.map((h) => [h.beliefId, h.depth])).toEqual([
          [y.id, 1],
          [x.id, 2],
        ]);
      });

      it("walks through citations hung on a placeholder (the cited belief was not in the citer's view) as through direct ones", async () => {
        const scope = uid("s");
        const other = uid("s");
        const [a, b, c, d] = ["Root a.", "Direct b.", "Hidden-cite c.", "Direct d."].map((t, i) => makeBelief(i === 2 ? other : scope, t));
        const direct = (id: string) => unsourcedEntry(1, { sourceId: id, sourceKind: "belief", verified: true, effectiveTier: "document" });
        // c cites b by id, unresolved in its view (no sourceKind): the store hangs it on c's scope's placeholder for b's id.
        const unresolved = (id: string) => unsourcedEntry(1, { sourceId: id, sourceKind: null, verified: false, effectiveTier: "model_assertion" });
        await store.apply(
          changeSet({
            beliefs: [a!, b!, c!, d!].map((belief) => ({ belief, expectedVersion: null })),
            history: [
              { beliefId: b!.id, items: [direct(a!.id)] },
              { beliefId: c!.id, items: [unresolved(b!.id)] },
              { beliefId: d!.id, items: [direct(c!.id)] },
            ],
          }),
        );
        const hops = await store.citationIndex().citationClosure(a!.id);
        expect(hops.map((h) => [h.beliefId, h.citedId, h.depth])).toEqual([
          [b!.id, a!.id, 1],
          [c!.id, b!.id, 2],
          [d!.id, c!.id, 3],
        ]);
      });
    });

    describe("reads anchored on the home scope", () => {
      it("returns full-text candidates of the home scope only, the whole matching domain, whatever the query", async () => {
        const home = uid("s");
        const other = uid("s");
        const texts = Array.from({ length: 250 }, (_, i) => `Release deploys happen on day ${i}.`);
        const mine = texts.map((t) => makeBelief(home, t));
        const ended = makeBelief(home, "Release deploys were manual.", { status: "superseded", validUntil: at(1) });
        const unrelated = makeBelief(home, "Coffee is hot.");
        const theirs = makeBelief(other, "Release deploys happen on Friday.");
        await store.apply(changeSet({ beliefs: [...mine, ended, unrelated, theirs].map((belief) => ({ belief, expectedVersion: null })) }));
        const got = await store.searchCandidates(view(home, other), "When do releases get deployed?");
        expect(got.map((b) => b.id).sort()).toEqual(mine.map((b) => b.id).sort());
        const withEnded = await store.searchCandidates(view(home, other), "deploying", { includeEnded: true });
        expect(withEnded.map((b) => b.id)).toContain(ended.id);
        expect(withEnded.map((b) => b.id)).not.toContain(theirs.id);
        expect(await store.searchCandidates(view(home), "the of and")).toEqual([]);
        const injections = [
          "'; DROP TABLE graph_beliefs; --",
          "release' OR '1'='1",
          "release | coffee & !x <-> y:* (",
          "\\ \" ' ` $1 $$ */ /*",
          "MATCH (n) DETACH DELETE n //",
          "release\u0000coffee",
          "rélease ＤＥＰＬＯＹ 🚀",
        ];
        for (const q of injections) {
          const res = await store.searchCandidates(view(home), q);
          expect(res.every((b) => b.scope === home)).toBe(true);
        }
        expect((await store.searchCandidates(view(home), "release' OR '1'='1")).length).toBe(251 - 1);
        expect(await store.searchCandidates({ homeScopeId: home, visibleScopeIds: [other] }, "release")).toEqual([]);
        expect((await store.searchCandidates(view(home), "release", { limit: 5 })).length).toBe(5);
        expect(await store.listBeliefs(view(home), { limit: 3 })).toHaveLength(3);
      });

      it("projects the same candidate domain as slim stats (scorer fields, stored terms), current after updates", async () => {
        const home = uid("s");
        const other = uid("s");
        const plain = Array.from({ length: 30 }, (_, i) => makeBelief(home, `Release deploys happen on day ${i}.`, { credence: (i % 10) / 10 }));
        const tagged = makeBelief(home, "Deploying releases on Fridays isn't safe.", { contextTags: ["eu", "prod"], topic: "ops", credence: 0.8 });
        const expiring = makeBelief(home, "Releases are deployed by hand.", { validUntil: at(30), status: "supported" });
        const ended = makeBelief(home, "Release deploys were manual.", { status: "superseded", validUntil: at(1) });
        const renamed = makeBelief(home, "Coffee is hot.");
        const theirs = makeBelief(other, "Release deploys happen on Friday.");
        const all = [...plain, tagged, expiring, ended, renamed, theirs];
        await store.apply(changeSet({ beliefs: all.map((belief) => ({ belief, expectedVersion: null })) }));
        // A text change must move the stored terms with it (into the domain), a status change must take it out.
        await store.apply(
          changeSet({
            beliefs: [
              { belief: { ...renamed, text: "Coffee breaks delay release deploys.", version: 2 }, expectedVersion: 1 },
              { belief: { ...(plain[0] as Belief), status: "retired", validUntil: at(5), version: 2 }, expectedVersion: 1 },
            ],
          }),
        );
        const v = view(home, other);
        const queries = ["When do releases get deployed?", "deploying", "coffee", "release' OR '1'='1", "release | coffee & !x <-> y:* (", "rélease ＤＥＰＬＯＹ 🚀", "the of and"];
        for (const q of queries) {
          for (const includeEnded of [false, true]) {
            const beliefs = await store.searchCandidates(v, q, { includeEnded });
            const stats = await store.searchCandidateStats(v, q, { includeEnded });
            const expected = beliefs
              .map((b) => ({ id: b.id, scope: b.scope, credence: b.credence, status: b.status, contextTags: b.contextTags, validUntil: b.validUntil, terms: [...termSet(b.text)] }))
              .sort((a, b) => (a.id < b.id ? -1 : 1));
            expect([...stats].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(expected);
            // Ranked on the stats, the order is the engine's over the full beliefs.
            const engine = retrieve(q, beliefs, { k: 50, includeEnded, scope: home }).map((r) => [r.belief.id, r.score]);
            expect(rankCandidateStats(q, stats, { k: 50, includeEnded, scope: home }).map((r) => [r.candidate.id, r.score])).toEqual(engine);
          }
        }
        // By id (hybrid retrieval's vector hits): the same projection, home scope only, any status.
        const wanted = [tagged.id, expiring.id, ended.id, theirs.id, uid("missing")];
        const byIds = await store.candidateStatsByIds(v, wanted);
        const searched = await store.searchCandidateStats(v, "deploying release", { includeEnded: true });
        expect([...byIds].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(searched.filter((c) => wanted.includes(c.id)).sort((a, b) => (a.id < b.id ? -1 : 1)));
        expect(byIds.map((c) => c.id).sort()).toEqual([tagged.id, expiring.id, ended.id].sort());
        expect(await store.candidateStatsByIds({ homeScopeId: home, visibleScopeIds: [other] }, wanted)).toEqual([]);
        // Gists by id (recall's candidates): the stored text, status and credence, any status, home scope only.
        const stored = new Map((await store.listBeliefs(v, { ids: wanted, liveOnly: false })).map((b) => [b.id, b]));
        const gistOf = (b: Belief) => ({ id: b.id, text: b.text, topic: b.topic, contextTags: b.contextTags, status: b.status, credence: b.credence });
        const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
        const read = await store.beliefGists(v, [...wanted, ended.id]);
        expect(read.keyMatch).toBeNull();
        const gists = [...read.gists].sort(byId);
        expect(gists).toEqual([...stored.values()].map(gistOf).sort(byId));
        expect(gists.map((g) => g.id).sort()).toEqual([tagged.id, expiring.id, ended.id].sort());
        expect(gists.find((g) => g.id === tagged.id)).toMatchObject({ topic: "ops", contextTags: ["eu", "prod"] });
        expect(gists.find((g) => g.id === ended.id)).toMatchObject({ status: "superseded", text: ended.text });
        expect(await store.beliefGists({ homeScopeId: home, visibleScopeIds: [other] }, wanted)).toEqual({ gists: [], keyMatch: null });
        expect(await store.beliefGists(v, [])).toEqual({ gists: [], keyMatch: null });
        // With a key: the live belief of that key in the same read, listed or not; an ended one of that key never;
        // none from a scope the view does not hold.
        const keyed = await store.beliefGists(v, [ended.id], { orLiveKey: tagged.key });
        expect(keyed).toEqual({ gists: [gistOf(stored.get(ended.id) as Belief)], keyMatch: gistOf(stored.get(tagged.id) as Belief) });
        expect((await store.beliefGists(v, [tagged.id], { orLiveKey: tagged.key })).keyMatch?.id).toBe(tagged.id);
        expect(await store.beliefGists(v, [], { orLiveKey: ended.key })).toEqual({ gists: [], keyMatch: null });
        expect(await store.beliefGists(v, [], { orLiveKey: theirs.key })).toEqual({ gists: [], keyMatch: null });
        expect(await store.beliefGists({ homeScopeId: home, visibleScopeIds: [other] }, [], { orLiveKey: tagged.key })).toEqual({ gists: [], keyMatch: null });
        // With the query's terms (hybrid retrieval ranks these rows by that query alone, and a store may ship only the
        // terms of it each belief holds, with their count): the same relevance and score as the whole rows give.
        const whole = await store.candidateStatsByIds(v, wanted);
        for (const q of ["deploying release", "deploying coffee in prod", "release eu"]) {
          const cut = await store.candidateStatsByIds(v, wanted, { queryTerms: [...termSet(q)] });
          expect(cut.map((c) => c.id).sort()).toEqual(whole.map((c) => c.id).sort());
          for (const c of cut) expect(c.terms.every((t) => (whole.find((w) => w.id === c.id) as CandidateStats).terms.includes(t))).toBe(true);
          const ranked = (rows: readonly CandidateStats[]) => rankCandidateStats(q, rows, { k: 50, includeEnded: true, scope: home }).map((r) => [r.candidate.id, r.relevance, r.score]);
          expect(ranked(cut)).toEqual(ranked(whole));
        }
        const deploying = await store.searchCandidateStats(v, "deploying coffee", { includeEnded: true });
        expect(deploying.map((c) => c.id)).toEqual(expect.arrayContaining([renamed.id, ended.id, tagged.id, expiring.id, (plain[0] as Belief).id]));
        expect(deploying.map((c) => c.id)).not.toContain(theirs.id);
        expect(deploying.find((c) => c.id === tagged.id)).toMatchObject({ contextTags: ["eu", "prod"], credence: 0.8 });
        expect(deploying.find((c) => c.id === tagged.id)).not.toHaveProperty("topic");
        expect(deploying.find((c) => c.id === expiring.id)).toMatchObject({ validUntil: at(30), status: "supported" });
        expect((await store.searchCandidateStats(v, "deploying")).map((c) => c.id)).not.toContain((plain[0] as Belief).id);
        expect(await store.searchCandidateStats({ homeScopeId: home, visibleScopeIds: [other] }, "release")).toEqual([]);
        const capped = await store.searchCandidateStats(v, "release", { limit: 5 });
        expect(capped).toHaveLength(5);
        expect(capped.every((c) => c.scope === home)).toBe(true);
      });

      it("never returns another scope's items through any read, even when visible", async () => {
        const home = uid("s");
        const other = uid("s");
        const rec = await seedBelief(other, "Theirs.");
        const ev = makeEvidence(other, "their evidence");
        const m = makeMutation(other, { status: "pending_review" });
        await store.apply(changeSet({ evidence: [ev], mutations: [m], topicFreezes: [{ scope: other, topic: "general", frozen: true, reason: "r", byMutationId: m.id }] }));
        const v = view(home, other);
        expect(await store.loadBelief(v, rec.belief.id)).toBeNull();
        expect(await store.loadBeliefs(v, [rec.belief.id])).toEqual([]);
        expect(await store.loadEvidence(v, ev.id)).toBeNull();
        expect(await store.getMutation(v, m.id)).toBeNull();
        expect(await store.listBeliefs(v, { liveOnly: false })).toEqual([]);
        expect(await store.listMutations(v)).toEqual([]);
        expect(await store.getTopicFreeze(v, "general")).toBeNull();
        expect(await store.listTopicFreezes(v)).toEqual([]);
        expect((await store.countMutations(v)).pending_review).toBe(0);
        expect((await store.neighbourhood(v, rec.belief.id)).beliefs).toEqual([]);
        const exported = await store.exportScope(v);
        expect(exported.beliefs).toEqual([]);
        expect(exported.evidence).toEqual([]);
        // the home scope itself not visible: like a scope that does not exist
        const outsider: ScopeView = { homeScopeId: other, visibleScopeIds: [home] };
        expect(await store.loadBelief(outsider, rec.belief.id)).toBeNull();
        expect(await store.listBeliefs(outsider)).toEqual([]);
        expect(await store.getMutation(outsider, m.id)).toBeNull();
        expect((await store.exportScope(outsider)).beliefs).toEqual([]);
        expect(await store.resolverFor(outsider).resolve(rec.belief.id)).toBeNull();
      });

      it("lists beliefs by liveness, topic, key and review state, paginated by id", async () => {
        const scope = uid("s");
        const beliefs = [
          makeBelief(scope, "Alpha one.", { topic: "alpha" }),
          makeBelief(scope, "Alpha two.", { topic: "alpha", reviewState: "pending_review" }),
          makeBelief(scope, "Beta one.", { topic: "beta" }),
          makeBelief(scope, "Beta retired.", { topic: "beta", status: "retired", validUntil: at(3) }),
        ];
        await store.apply(changeSet({ beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })) }));
        const ids = beliefs.map((b) => b.id);
        expect((await store.listBeliefs(view(scope))).map((b) => b.id)).toEqual(ids.slice(0, 3).sort());
        expect((await store.listBeliefs(view(scope), { topic: "alpha" })).map((b) => b.id)).toEqual(ids.slice(0, 2).sort());
        expect((await store.listBeliefs(view(scope), { key: "beta one" })).map((b) => b.id)).toEqual([ids[2]]);
        expect((await store.listBeliefs(view(scope), { reviewState: "pending_review" })).map((b) => b.id)).toEqual([ids[1]]);
        const sorted = [...ids].sort();
        const page1 = await store.listBeliefs(view(scope), { liveOnly: false, limit: 2 });
        const page2 = await store.listBeliefs(view(scope), { liveOnly: false, afterId: page1[1]?.id ?? "", limit: 2 });
        expect([...page1, ...page2].map((b) => b.id)).toEqual(sorted);
        // Listed ids: slim rows of those in the home scope (missing and other scopes' ids left out), the filters still apply.
        const theirs = await seedBelief(uid("s"), "Someone else's belief.");
        const [first, , third, retired] = beliefs as [Belief, Belief, Belief, Belief];
        const listed = [retired.id, "b_missing", theirs.belief.id, first.id, first.id];
        expect(await store.listBeliefs(view(scope, theirs.belief.scope), { ids: listed, liveOnly: false })).toEqual([first, retired].sort((a, b) => (a.id < b.id ? -1 : 1)));
        expect((await store.listBeliefs(view(scope), { ids: listed })).map((b) => b.id)).toEqual([first.id]);
        expect((await store.listBeliefs(view(scope), { ids: [first.id, third.id], topic: "beta" })).map((b) => b.id)).toEqual([third.id]);
        expect(await store.listBeliefs(view(scope), { ids: [] })).toEqual([]);
      });

      it("keeps the mutation journal, the review queue and counts by status", async () => {
        const scope = uid("s");
        const rec = await seedBelief(scope, "Journaled belief.");
        const m1 = makeMutation(scope, { topic: "deploy", time: at(1), beliefIds: [rec.belief.id] });
        const m2 = makeMutation(scope, { topic: "deploy", time: at(2), status: "pending_review", decision: "review" });
        const m3 = makeMutation(scope, { topic: "other", time: at(3), status: "blocked", decision: "blocked" });
        await store.apply(changeSet({ mutations: [m1, m2, m3] }));
        const v = view(scope);
        expect((await store.listMutations(v)).map((m) => m.id)).toEqual([m1.id, m2.id, m3.id]);
        expect((await store.listMutations(v, { newestFirst: true, limit: 2 })).map((m) => m.id)).toEqual([m3.id, m2.id]);
        expect((await store.listMutations(v, { statuses: ["pending_review"] })).map((m) => m.id)).toEqual([m2.id]);
        expect((await store.listMutations(v, { topic: "deploy" })).map((m) => m.id)).toEqual([m1.id, m2.id]);
        expect((await store.listMutations(v, { beliefId: rec.belief.id })).map((m) => m.id)).toEqual([m1.id]);
        expect((await store.listMutations(v, { since: at(2), asOf: at(2) })).map((m) => m.id)).toEqual([m2.id]);
        expect(await store.countMutations(v)).toEqual({ applied: 1, pending_review: 1, approved: 0, rejected: 0, blocked: 1 });
        const approved = { ...m2, status: "approved" as const, beliefIds: [rec.belief.id], review: { decision: "approve" as const, resolution: "coexist" as const, note: "ok", reviewer: "r", time: at(4) } };
        await store.apply(changeSet({ mutationUpdates: [{ mutation: approved }] }));
        expect(await store.getMutation(v, m2.id)).toEqual(approved);
        expect(await store.listMutations(v, { statuses: ["pending_review"] })).toEqual([]);
        const n = await store.neighbourhood(v, rec.belief.id);
        expect(n.edges.filter((e) => e.kind === "CONCERNS").map((e) => e.from).sort()).toEqual([m1.id, m2.id].sort());
      });

      it("records topic freezes and their lifting", async () => {
        const scope = uid("s");
        const v = view(scope);
        await store.apply(changeSet({ topicFreezes: [{ scope, topic: "deploy", frozen: true, reason: "A→B→A", byMutationId: "m1" }, { scope, topic: "b", frozen: true, reason: "x", byMutationId: null }] }));
        expect(await store.getTopicFreeze(v, "deploy")).toEqual({ scope, topic: "deploy", frozen: true, reason: "A→B→A", byMutationId: "m1" });
        await store.apply(changeSet({ topicFreezes: [{ scope, topic: "deploy", frozen: false, reason: "lifted", byMutationId: null }] }));
        expect((await store.getTopicFreeze(v, "deploy"))?.frozen).toBe(false);
        expect((await store.listTopicFreezes(v)).map((f) => f.topic)).toEqual(["b", "deploy"]);
        expect((await store.listTopicFreezes(v, { frozenOnly: true })).map((f) => f.topic)).toEqual(["b"]);
        expect(await store.getTopicFreeze(v, "never")).toBeNull();
      });
    });

    describe("graph view", () => {
      it("expands a neighbourhood through visible nodes, shows granted ones as references without expanding them", async () => {
        const home = uid("s");
        const granted = uid("s");
        const hidden = uid("s");
        const far = await seedBelief(granted, "Far away in the granted scope.");
        const grantedBelief = makeBelief(granted, "Granted cited belief.");
        const hiddenBelief = makeBelief(hidden, "Hidden cited belief.");
        await store.apply(
          changeSet({
            beliefs: [grantedBelief, hiddenBelief].map((belief) => ({ belief, expectedVersion: null })),
            history: [{ beliefId: grantedBelief.id, items: [unsourcedEntry(1, { sourceId: far.belief.id, sourceKind: "belief", verified: true })] }],
          }),
        );
        const ev = makeEvidence(home, "home evidence");
        const center = makeBelief(home, "Center belief.");
        const refined = makeBelief(home, "Refined belief.");
        await store.apply(
          changeSet({
            evidence: [ev],
            beliefs: [center, refined].map((belief) => ({ belief, expectedVersion: null })),
            history: [
              {
                beliefId: center.id,
                items: [
                  citeEvidence(1, ev.id),
                  unsourcedEntry(2, { sourceId: grantedBelief.id, sourceKind: "belief", verified: true }),
                  // resolved by a writer who could see it then: the edge exists, the viewer must not see it
                  unsourcedEntry(3, { sourceId: hiddenBelief.id, sourceKind: "belief", verified: true }),
                  unsourcedEntry(4, { sourceId: "not-a-real-id" }),
                ],
              },
            ],
            edges: [{ kind: "REFINES", from: refined.id, to: center.id, time: at(1), changeSet: "c" }],
          }),
        );
        const v = view(home, granted);
        const slice = await store.neighbourhood(v, center.id, { depth: 2 });
        const ids = new Set([...slice.beliefs, ...slice.evidence, ...slice.mutations].map((n) => n.id));
        expect(ids).toEqual(new Set([center.id, refined.id, ev.id, grantedBelief.id, placeholderEvidenceId(home, "not-a-real-id")]));
        expect(ids.has(far.belief.id)).toBe(false);
        expect(slice.edges.every((e) => ids.has(e.from) && ids.has(e.to))).toBe(true);
        expect(slice.edges.map((e) => `${e.kind}:${e.seq ?? 0}`).sort()).toEqual(["REFINES:0", "SUPPORTS:1", "SUPPORTS:2", "SUPPORTS:4"]);
        expect((await store.neighbourhood(v, center.id, { depth: 0 })).beliefs.map((b) => b.id)).toEqual([center.id]);
        expect(await store.neighbourhood(v, hiddenBelief.id)).toEqual({ beliefs: [], evidence: [], mutations: [], edges: [] });
        expect(await store.neighbourhood(v, uid("none"))).toEqual({ beliefs: [], evidence: [], mutations: [], edges: [] });
        expect(await store.neighbourhood(v, grantedBelief.id)).toEqual({ beliefs: [], evidence: [], mutations: [], edges: [] });
      });

      it("answers the topic map: counts and tension per topic, live relations between topics, contested and recent beliefs", async () => {
        const home = uid("s");
        const hidden = uid("s");
        const a1 = makeBelief(home, "Alpha one is contested.", { topic: "alpha", tension: 0.6, updatedAt: at(3) });
        const a2 = makeBelief(home, "Alpha two was retired.", { topic: "alpha", tension: 0.9, status: "retired", updatedAt: at(9) });
        const b1 = makeBelief(home, "Beta one is mildly contested.", { topic: "beta", tension: 0.3, updatedAt: at(5) });
        const g1 = makeBelief(home, "Gamma one is settled.", { topic: "gamma", tension: 0, updatedAt: at(1) });
        const outsider = makeBelief(hidden, "A hidden belief citing alpha.", { topic: "alpha", tension: 0.95 });
        await store.apply(
          changeSet({
            beliefs: [a1, a2, b1, g1].map((belief) => ({ belief, expectedVersion: null })),
            history: [
              // a1 is rebutted by b1 (alpha–beta) and supported by g1 through an entry later retracted (not live)
              {
                beliefId: a1.id,
                items: [
                  unsourcedEntry(1, { sourceId: b1.id, sourceKind: "belief", verified: true, relation: "REBUTS" }),
                  unsourcedEntry(2, { sourceId: g1.id, sourceKind: "belief", verified: true }),
                  { type: "retracted", seq: 3, targetSeq: 2, sourceId: g1.id, time: at(2), actor: "a", changeSet: "c" },
                ],
              },
            ],
            edges: [
              { kind: "REFINES", from: g1.id, to: a1.id, time: at(1), changeSet: "c" },
              { kind: "SUPERSEDES", from: a1.id, to: a2.id, time: at(1), changeSet: "c" },
            ],
          }),
        );
        await store.apply(insertBelief(outsider, [unsourcedEntry(1, { sourceId: a1.id, sourceKind: "belief", verified: true })]));

        const overview = await store.graphOverview(view(home, hidden));
        expect(overview.topics).toEqual([
          { topic: "alpha", beliefs: 2, live: 1, maxTension: 0.6, contested: 1, updatedAt: at(9) },
          { topic: "beta", beliefs: 1, live: 1, maxTension: 0.3, contested: 1, updatedAt: at(5) },
          { topic: "gamma", beliefs: 1, live: 1, maxTension: 0, contested: 0, updatedAt: at(1) },
        ]);
        // Same-topic SUPERSEDES, the retracted entry and the other scope's citation are not relations between topics.
        expect(overview.links).toEqual([
          { from: "alpha", to: "beta", relations: 1, rebuttals: 1 },
          { from: "alpha", to: "gamma", relations: 1, rebuttals: 0 },
        ]);
        expect(overview.contested.map((b) => b.id)).toEqual([a1.id, b1.id]);
        expect(overview.recent.map((b) => b.id)).toEqual([a2.id, b1.id, a1.id, g1.id]);
        expect((await store.graphOverview(view(home), { contestedAt: 0.5, notable: 1 })).contested.map((b) => b.id)).toEqual([a1.id]);
        expect((await store.graphOverview(view(home), { notable: 2 })).recent.map((b) => b.id)).toEqual([a2.id, b1.id]);
        expect(await store.graphOverview({ homeScopeId: home, visibleScopeIds: [hidden] })).toEqual({ topics: [], links: [], contested: [], recent: [] });

        const links = await store.beliefLinks(view(home, hidden), [b1.id]);
        expect(links).toEqual([
          expect.objectContaining({ kind: "REBUTS", from: b1.id, to: a1.id, beliefId: a1.id, seq: 1, live: true, fromTopic: "beta", toTopic: "alpha" }),
        ]);
        const around = await store.beliefLinks(view(home), [a1.id, uid("none"), outsider.id]);
        expect(around.map((e) => `${e.kind}:${e.from === a1.id ? "a1" : e.from === g1.id ? "g1" : "b1"}>${e.to === a1.id ? "a1" : "a2"}:${e.fromTopic}>${e.toTopic}`)).toEqual([
          "REBUTS:b1>a1:beta>alpha",
          "REFINES:g1>a1:gamma>alpha",
          "SUPERSEDES:a1>a2:alpha>alpha",
        ]);
        expect(await store.beliefLinks({ homeScopeId: home, visibleScopeIds: [hidden] }, [a1.id])).toEqual([]);
        expect(await store.beliefLinks(view(hidden, home), [outsider.id])).toEqual([]);
      });

      it("stores unresolved citations against one in-scope placeholder per raw id", async () => {
        const a = uid("s");
        const b = uid("s");
        const raw = `ghost ${uid("id")} '; DROP TABLE graph_evidence; --`;
        const ba = makeBelief(a, "A cites a ghost.");
        const ba2 = makeBelief(a, "A cites the ghost again.");
        const bb = makeBelief(b, "B cites the same ghost.");
        const result = await store.apply(
          changeSet({
            beliefs: [ba, ba2, bb].map((belief) => ({ belief, expectedVersion: null })),
            history: [ba, ba2, bb].map((x) => ({ beliefId: x.id, items: [unsourcedEntry(1, { sourceId: raw })] })),
          }),
        );
        expect([...result.placeholdersCreated].sort()).toEqual([placeholderEvidenceId(a, raw), placeholderEvidenceId(b, raw)].sort());
        const pa = await store.loadEvidence(view(a), placeholderEvidenceId(a, raw));
        expect(pa).toMatchObject({ scope: a, kind: "unresolved", text: raw });
        expect(await store.loadEvidence(view(a, b), placeholderEvidenceId(b, raw))).toBeNull();
        const slice = await store.neighbourhood(view(a, b), placeholderEvidenceId(a, raw));
        expect(slice.beliefs.map((x) => x.id).sort()).toEqual([ba.id, ba2.id].sort());
        const again = makeBelief(a, "A cites the ghost a third time.");
        expect((await store.apply(insertBelief(again, [unsourcedEntry(1, { sourceId: raw })]))).placeholdersCreated).toEqual([]);
        expect((await store.exportScope(view(a))).evidence.filter((e) => e.kind === "unresolved")).toHaveLength(1);
      });
    });

    describe("as-of reads", () => {
      it("returns a belief's history up to a time, and nothing before it existed", async () => {
        const scope = uid("s");
        const ev = makeEvidence(scope, "first");
        const belief = makeBelief(scope, "Time travels.", { createdAt: at(10), updatedAt: at(10), validFrom: at(10) });
        await store.apply(insertBelief(belief, [citeEvidence(1, ev.id, { time: at(10) })], [ev]));
        const rec = await store.loadBelief(view(scope), belief.id);
        if (!rec) throw new Error("missing");
        const later = miniAssimilate(rec, { ...citeEvidence(0, ev.id, { relation: "REBUTS", time: at(30) }) }, at(30));
        await store.apply(later);
        expect((await store.loadBelief(view(scope), belief.id, { asOf: at(20) }))?.history.map((h) => h.seq)).toEqual([1]);
        expect((await store.loadBelief(view(scope), belief.id, { asOf: at(30) }))?.history.map((h) => h.seq)).toEqual([1, 2]);
        expect(await store.loadBelief(view(scope), belief.id, { asOf: at(5) })).toBeNull();
        expect((await store.loadBeliefs(view(scope), [belief.id], { asOf: at(20) }))[0]?.history).toHaveLength(1);
        const past = await store.exportScope(view(scope), { asOf: at(20) });
        expect(past.beliefs[0]?.history).toHaveLength(1);
        expect(await store.exportScope(view(scope), { asOf: at(0) })).toMatchObject({ beliefs: [], evidence: [ev] });
      });

      it("cuts by event time: items, beliefs, evidence and entry edges recorded later but observed earlier", async () => {
        const scope = uid("s");
        // Everything is recorded at minute 100; it was observed at minutes 5 (evidence), 10 and 30 (entries).
        const ev = makeEvidence(scope, "an old lab notebook", { createdAt: at(100), observedAt: at(5) });
        const later = makeEvidence(scope, "a later reading", { createdAt: at(100), observedAt: at(25) });
        const belief = makeBelief(scope, "The cold room holds four degrees.", { createdAt: at(100), updatedAt: at(100), validFrom: at(10) });
        const history = [
          citeEvidence(1, ev.id, { time: at(100), observedAt: at(10), changeSet: "c1" }),
          citeEvidence(2, later.id, { time: at(100), observedAt: at(30), changeSet: "c2", relation: "REBUTS" }),
        ];
        await store.apply(insertBelief(miniReplay(belief, history), history, [ev, later]));
        const now = await store.loadBelief(view(scope), belief.id);
        expect(now?.history.map((h) => [h.time, h.observedAt])).toEqual([
          [at(100), at(10)],
          [at(100), at(30)],
        ]);
        expect((await store.loadEvidence(view(scope), ev.id))?.observedAt).toBe(at(5));
        expect((await store.loadBelief(view(scope), belief.id, { asOf: at(20) }))?.history.map((h) => h.seq)).toEqual([1]);
        expect((await store.loadBeliefs(view(scope), [belief.id], { asOf: at(30) }))[0]?.history.map((h) => h.seq)).toEqual([1, 2]);
        expect(await store.loadBelief(view(scope), belief.id, { asOf: at(9) })).toBeNull();
        const past = await store.exportScope(view(scope), { asOf: at(20) });
        expect(past.beliefs.map((r) => r.history.length)).toEqual([1]);
        expect(past.evidence.map((e) => e.id)).toEqual([ev.id]);
        expect((await store.exportScope(view(scope), { asOf: at(4) })).evidence).toEqual([]);
        const hood = await store.neighbourhood(view(scope), belief.id, { depth: 1, asOf: at(20) });
        expect(hood.edges.map((e) => e.from).sort()).toEqual([ev.id]);
        const whole = await store.neighbourhood(view(scope), belief.id, { depth: 1, asOf: at(40) });
        expect(whole.edges.map((e) => e.from).sort()).toEqual([ev.id, later.id].sort());
      });
    });

    describe("export and import", () => {
      it("round-trips a whole scope exactly into an empty store", async () => {
        const scope = uid("s");
        const granted = uid("s");
        const foreign = await seedBelief(granted, "Granted source.");
        const evs = [makeEvidence(scope, "doc"), makeEvidence(scope, "obs", { kind: "observation", ess: null, reasoningType: null, uri: "https://x.test/a", observedAt: at(-60) })];
        const b1 = makeBelief(scope, "Exported one.", { topic: "t1", quantity: { value: 3, unit: "days" }, contextTags: ["a", "b"] });
        const b2 = makeBelief(scope, "Exported two.", { topic: "t1", supersedesId: b1.id });
        const m = makeMutation(scope, { beliefIds: [b1.id, b2.id], status: "pending_review", conflictReport: null, flags: ["drift_warning"], warnings: ["w"] });
        await store.apply(
          changeSet({
            evidence: evs,
            beliefs: [b1, b2].map((belief) => ({ belief, expectedVersion: null })),
            history: [
              {
                beliefId: b1.id,
                items: [
                  citeEvidence(1, evs[0]!.id, { contribution: 0.33333333333333337 }),
                  unsourcedEntry(2, { sourceId: foreign.belief.id, sourceKind: "belief", verified: true, effectiveTier: "document" }),
                  unsourcedEntry(3, { sourceId: "nowhere" }),
                  { type: "retracted", seq: 4, targetSeq: 1, sourceId: evs[0]!.id, time: at(2), actor: "a", changeSet: "c" },
                  { type: "revised", seq: 5, targetSeq: 2, weight: 0.5, reason: "r", time: at(3), actor: "a", changeSet: "c" },
                  { type: "superseded", seq: 6, byBeliefId: b2.id, time: at(4), actor: "a", changeSet: "c" },
                ],
              },
              { beliefId: b2.id, items: [citeEvidence(1, evs[1]!.id, { relation: "REBUTS", observedAt: at(-30) })] },
            ],
            edges: [{ kind: "SUPERSEDES", from: b2.id, to: b1.id, time: at(4), changeSet: "c" }],
            mutations: [m],
            retractions: [{ evidenceId: evs[0]!.id, retractedAt: at(2) }],
            topicFreezes: [{ scope, topic: "t1", frozen: true, reason: "oscillation", byMutationId: m.id }],
          }),
        );
        const exported = await store.exportScope(view(scope));
        expect(exported.beliefs).toHaveLength(2);
        expect(exported.beliefs.find((r) => r.belief.id === b2.id)?.history[0]?.observedAt).toBe(at(-30));
        expect(exported.evidence.find((e) => e.id === evs[1]!.id)?.observedAt).toBe(at(-60));
        expect(exported.evidence).toHaveLength(3);
        const text = serializeScopeExport(exported);
        const parsed = parseScopeExport(JSON.parse(text));
        expect(parsed).toEqual(exported);

        const conflict = await expectReject(store.importScope(view(scope), parsed), ChangeSetRejected);
        expect(conflict.reason).toBe("import_conflict");
        await expectReject(store.importScope(view(uid("s")), parsed), ChangeSetRejected);

        const fresh = await makeHarness();
        try {
          const result = await fresh.store.importScope(view(scope), parsed);
          expect(result).toMatchObject({ scope, beliefs: 2, evidence: 3, mutations: 1, topicFreezes: 1 });
          const again = await fresh.store.exportScope(view(scope));
          expect(again).toEqual(exported);
          expect(serializeScopeExport(again)).toBe(text);
          const cited = await fresh.store.citationIndex().citersOf(foreign.belief.id);
          expect(cited).toEqual([{ beliefId: b1.id, seq: 2 }]);
          expect(await fresh.store.citationIndex().citersOf(evs[0]!.id)).toEqual([]);
        } finally {
          await fresh.close();
        }
        expect(() => parseScopeExport({ ...exported, beliefs: [{ belief: { ...b1, credence: 2 }, history: [] }] })).toThrow();
        expect(() => parseScopeExport({ ...exported, extra: 1 })).toThrow();
      });
    });
  });
}
