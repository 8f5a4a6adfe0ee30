/**
 * The vector part of the GraphStore contract (lib/graph/embeddings.ts): every adapter stores sentence vectors per
 * node and model, searches a scope's beliefs by cosine exactly as the reference below computes it, anchors every read
 * on the home scope, and lists what a rebuild must re-embed. Vectors here are seeded pseudo-random unit vectors of the
 * local model's 384 dimensions, so Neo4j's vector index path runs too.
 */
import { describe, expect, it } from "vitest";
import type { BeliefStatus } from "@/lib/engine";
import { ChangeSetRejected, VersionConflict } from "../errors";
import { embeddingTextHash, type NodeEmbedding } from "../embeddings";
import type { GraphStore, ScopeView } from "../graph-store";
import { changeSet, citeEvidence, insertBelief, makeBelief, makeEvidence, miniReplay, uid, unsourcedEntry } from "./fixtures";

const MODEL = "test-model@1";
const OTHER_MODEL = "test-model@2";
const DIMS = 384;

const view = (home: string, ...others: string[]): ScopeView => ({ homeScopeId: home, visibleScopeIds: [home, ...others] });

/** A unit vector from a seed (xorshift32), the same on every run. */
export function unitVector(seed: number, dims = DIMS): Float32Array {
  let x = (seed * 2654435761) >>> 0 || 1;
  const v = new Float32Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    const value = x / 0xffffffff - 0.5;
    v[i] = value;
    norm += value * value;
  }
  const n = Math.sqrt(norm);
  for (let i = 0; i < dims; i++) v[i] = (v[i] ?? 0) / n;
  return v;
}

/** `base` moved towards `toward` by `t` and renormalised: lets a test set up known similarity orders. */
function blend(base: Float32Array, toward: Float32Array, t: number): Float32Array {
  const v = new Float32Array(base.length);
  let norm = 0;
  for (let i = 0; i < base.length; i++) {
    const value = (1 - t) * (base[i] ?? 0) + t * (toward[i] ?? 0);
    v[i] = value;
    norm += value * value;
  }
  const n = Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / n;
  return v;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

function embedding(id: string, text: string, vector: Float32Array, over: Partial<NodeEmbedding> = {}): NodeEmbedding {
  return { id, kind: "belief", vector, model: MODEL, textHash: embeddingTextHash(text), ...over };
}

export function describeVectorContract(getStore: () => GraphStore): void {
  describe("sentence vectors", () => {
    /** `count` beliefs in `scope`, each with one evidence text; returns them with texts. */
    async function seedBeliefs(scope: string, count: number, status: BeliefStatus = "provisional") {
      const out: { id: string; text: string; evidenceId: string; evidenceText: string }[] = [];
      for (let i = 0; i < count; i++) {
        const text = `Vector belief ${i} of ${scope}.`;
        const ev = makeEvidence(scope, `Evidence ${i} for ${scope}.`);
        const belief = makeBelief(scope, text, { status });
        const history = [citeEvidence(1, ev.id)];
        await getStore().apply(insertBelief(miniReplay(belief, history), history, [ev]));
        out.push({ id: belief.id, text, evidenceId: ev.id, evidenceText: ev.text });
      }
      return out;
    }

    it("ranks the home scope's beliefs by exact cosine, best first, at most k", async () => {
      const store = getStore();
      const scope = uid("vs");
      const beliefs = await seedBeliefs(scope, 12);
      const vectors = beliefs.map((b, i) => unitVector(1000 + i));
      expect(await store.upsertEmbeddings(view(scope), beliefs.map((b, i) => embedding(b.id, b.text, vectors[i] ?? unitVector(0))))).toBe(12);

      const query = blend(unitVector(7), vectors[3] ?? unitVector(0), 0.6);
      const expected = beliefs
        .map((b, i) => ({ id: b.id, similarity: dot(query, vectors[i] ?? unitVector(0)) }))
        .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
      const hits = await store.vectorSearch(view(scope), query, { k: 5, model: MODEL });
      expect(hits.map((h) => h.id)).toEqual(expected.slice(0, 5).map((e) => e.id));
      expect(hits[0]?.id).toBe(beliefs[3]?.id);
      hits.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(expected[i]?.similarity ?? NaN, 4));

      const all = await store.vectorSearch(view(scope), query, { k: 100, model: MODEL });
      expect(all.map((h) => h.id)).toEqual(expected.map((e) => e.id));
      expect(await store.vectorSearch(view(scope), query, { k: 0, model: MODEL })).toEqual([]);

      // With their slim rows: the same hits; a store that reads the rows gives each the row its read by id gives.
      const withStats = await store.vectorSearch(view(scope), query, { k: 5, model: MODEL, withStats: true });
      expect(withStats.map((h) => h.id)).toEqual(hits.map((h) => h.id));
      const rows = new Map((await store.candidateStatsByIds(view(scope), hits.map((h) => h.id))).map((c) => [c.id, c]));
      for (const hit of withStats) if (hit.stats !== undefined) expect(hit.stats).toEqual(rows.get(hit.id));
    });

    it("compares only vectors of the model asked for, and replaces a node's vector on upsert", async () => {
      const store = getStore();
      const scope = uid("vs");
      const [a, b] = await seedBeliefs(scope, 2);
      if (!a || !b) throw new Error("seed failed");
      const va = unitVector(11);
      await store.upsertEmbeddings(view(scope), [embedding(a.id, a.text, va), embedding(b.id, b.text, unitVector(12), { model: OTHER_MODEL })]);
      expect((await store.vectorSearch(view(scope), va, { k: 5, model: MODEL })).map((h) => h.id)).toEqual([a.id]);
      expect((await store.vectorSearch(view(scope), va, { k: 5, model: OTHER_MODEL })).map((h) => h.id)).toEqual([b.id]);

      // Re-embedding with the other model moves a's vector there (one vector per node).
      await store.upsertEmbeddings(view(scope), [embedding(a.id, a.text, va, { model: OTHER_MODEL })]);
      expect(await store.vectorSearch(view(scope), va, { k: 5, model: MODEL })).toEqual([]);
      const other = await store.vectorSearch(view(scope), va, { k: 5, model: OTHER_MODEL });
      expect(other[0]).toMatchObject({ id: a.id });
      expect(other[0]?.similarity).toBeCloseTo(1, 4);

      // A vector of other dimensions (another model's) is never compared with the query.
      await store.upsertEmbeddings(view(scope), [embedding(b.id, b.text, unitVector(13, 8), { model: MODEL })]);
      expect((await store.vectorSearch(view(scope), va, { k: 5, model: MODEL })).map((h) => h.id)).toEqual([]);
    });

    it("anchors on the home scope: other scopes, hidden scopes and wrong kinds are neither written nor found", async () => {
      const store = getStore();
      const home = uid("vs");
      const other = uid("vs");
      const [mine] = await seedBeliefs(home, 1);
      const [theirs] = await seedBeliefs(other, 1);
      if (!mine || !theirs) throw new Error("seed failed");
      const v = unitVector(21);

      // Writing another scope's node through my view, a missing id, or a belief id as evidence: skipped alike.
      const written = await store.upsertEmbeddings(view(home, other), [
        embedding(theirs.id, theirs.text, v),
        embedding(uid("missing"), "nothing", v),
        embedding(mine.id, mine.text, v, { kind: "evidence" }),
      ]);
      expect(written).toBe(0);
      await store.upsertEmbeddings(view(other), [embedding(theirs.id, theirs.text, v)]);
      await store.upsertEmbeddings(view(home), [embedding(mine.id, mine.text, v)]);

      expect((await store.vectorSearch(view(home, other), v, { k: 10, model: MODEL })).map((h) => h.id)).toEqual([mine.id]);
      // Home scope not visible to the caller: nothing, as for a missing scope.
      expect(await store.vectorSearch({ homeScopeId: home, visibleScopeIds: [other] }, v, { k: 10, model: MODEL })).toEqual([]);
      expect(await store.upsertEmbeddings({ homeScopeId: home, visibleScopeIds: [other] }, [embedding(mine.id, mine.text, v)])).toBe(0);

      const sims = await store.similarities(view(home, other), v, [mine.id, theirs.id, uid("missing")], { model: MODEL });
      expect([...sims.keys()]).toEqual([mine.id]);
      expect(sims.get(mine.id)).toBeCloseTo(1, 4);
    });

    it("leaves ended beliefs out unless asked, and gives exact similarities for listed beliefs", async () => {
      const store = getStore();
      const scope = uid("vs");
      const [live] = await seedBeliefs(scope, 1);
      const [ended] = await seedBeliefs(scope, 1, "superseded");
      if (!live || !ended) throw new Error("seed failed");
      const vl = unitVector(31);
      const ve = unitVector(32);
      await store.upsertEmbeddings(view(scope), [embedding(live.id, live.text, vl), embedding(ended.id, ended.text, ve)]);
      expect((await store.vectorSearch(view(scope), ve, { k: 5, model: MODEL })).map((h) => h.id)).toEqual([live.id]);
      expect((await store.vectorSearch(view(scope), ve, { k: 5, model: MODEL, includeEnded: true })).map((h) => h.id)).toEqual([ended.id, live.id]);

      const sims = await store.similarities(view(scope), vl, [live.id, ended.id], { model: MODEL });
      expect(sims.get(live.id)).toBeCloseTo(1, 4);
      expect(sims.get(ended.id)).toBeCloseTo(dot(vl, ve), 4);
      expect((await store.similarities(view(scope), vl, [live.id], { model: OTHER_MODEL })).size).toBe(0);
    });

    it("lists what a rebuild must embed (missing, another model's) and counts what is current", async () => {
      const store = getStore();
      const scope = uid("vs");
      const beliefs = await seedBeliefs(scope, 3);
      const targets = await store.missingEmbeddings(view(scope), MODEL);
      expect(targets).toHaveLength(6);
      expect(targets.filter((t) => t.kind === "belief").map((t) => t.id)).toEqual(beliefs.map((b) => b.id).sort());
      expect(targets.find((t) => t.id === beliefs[0]?.id)?.text).toBe(beliefs[0]?.text);
      expect(targets.find((t) => t.id === beliefs[0]?.evidenceId)).toEqual({ kind: "evidence", id: beliefs[0]?.evidenceId, text: beliefs[0]?.evidenceText });
      expect(await store.missingEmbeddings(view(scope), MODEL, { limit: 2 })).toEqual(targets.slice(0, 2));
      expect(await store.embeddingStatus(view(scope), MODEL)).toEqual({ model: MODEL, beliefs: { total: 3, current: 0 }, evidence: { total: 3, current: 0 } });

      await store.upsertEmbeddings(
        view(scope),
        targets.map((t, i) => embedding(t.id, t.text, unitVector(40 + i), { kind: t.kind })),
      );
      expect(await store.missingEmbeddings(view(scope), MODEL)).toEqual([]);
      expect(await store.embeddingStatus(view(scope), MODEL)).toEqual({ model: MODEL, beliefs: { total: 3, current: 3 }, evidence: { total: 3, current: 3 } });
      // A vector of an older text is stale; so is every vector once the model changes.
      const first = beliefs[0];
      if (!first) throw new Error("seed failed");
      await store.upsertEmbeddings(view(scope), [{ ...embedding(first.id, first.text, unitVector(50)), textHash: embeddingTextHash("an older text") }]);
      expect((await store.missingEmbeddings(view(scope), MODEL)).map((t) => t.id)).toEqual([first.id]);
      expect(await store.missingEmbeddings(view(scope), OTHER_MODEL)).toHaveLength(6);
      // Hidden home scope: nothing, as for a missing one.
      expect(await store.missingEmbeddings({ homeScopeId: scope, visibleScopeIds: [] }, MODEL)).toEqual([]);
    });

    it("writes the vectors given to apply in the change-set's transaction, and none when it is rejected", async () => {
      const store = getStore();
      const scope = uid("vs");
      const ev = makeEvidence(scope, "Canary deploys run on port 8443.");
      const belief = makeBelief(scope, "The canary listens on 8443.");
      const history = [citeEvidence(1, ev.id)];
      const cs = insertBelief(miniReplay(belief, history), history, [ev]);
      const vb = unitVector(61);
      const items = [embedding(belief.id, belief.text, vb), embedding(ev.id, ev.text, unitVector(62), { kind: "evidence" })];
      await store.apply(cs, { embeddings: items });
      expect((await store.vectorSearch(view(scope), vb, { k: 1, model: MODEL }))[0]?.id).toBe(belief.id);
      expect(await store.embeddingStatus(view(scope), MODEL)).toMatchObject({ beliefs: { current: 1 }, evidence: { current: 1 } });

      // The same change-set again is rejected (the belief exists): its vectors must not land either.
      const other = makeBelief(scope, "A belief that never lands.");
      const rejected = changeSet({ ...cs, id: uid("cs"), beliefs: [...cs.beliefs, { belief: { ...other, version: 1 }, expectedVersion: null }] });
      await expect(store.apply(rejected, { embeddings: [embedding(other.id, other.text, unitVector(63))] })).rejects.toThrow();
      expect((await store.vectorSearch(view(scope), unitVector(63), { k: 5, model: MODEL })).map((h) => h.id)).toEqual([belief.id]);

      await expect(store.apply(changeSet({ id: uid("cs") }), { embeddings: [embedding(belief.id, belief.text, new Float32Array([Number.NaN]))] })).rejects.toBeInstanceOf(ChangeSetRejected);
    });

    it("writes a change-set of new beliefs only, with their history, citations and vectors, whole or not at all", async () => {
      const store = getStore();
      const scope = uid("vs");
      const ev = makeEvidence(scope, "The backup log shows a run at 02:00.");
      await store.apply(changeSet({ evidence: [ev] }));
      const first = makeBelief(scope, "The nightly backup runs at two.");
      const history = [citeEvidence(1, ev.id), unsourcedEntry(2)];
      const stored = miniReplay(first, history);
      const v1 = unitVector(71);
      await store.apply(insertBelief(stored, history), { embeddings: [embedding(first.id, first.text, v1)] });
      expect(await store.loadBelief(view(scope), first.id)).toEqual({ belief: stored, history });
      expect((await store.vectorSearch(view(scope), v1, { k: 1, model: MODEL }))[0]?.id).toBe(first.id);
      expect((await store.citationIndex().citersOf(ev.id)).map((r) => r.beliefId)).toEqual([first.id]);

      // A new belief together with the existing one again: a version conflict, and nothing of the change-set lands.
      const second = makeBelief(scope, "The weekly report goes out on Monday.");
      const secondHistory = [unsourcedEntry(1)];
      const both = changeSet({
        beliefs: [{ belief: miniReplay(second, secondHistory), expectedVersion: null }, { belief: stored, expectedVersion: null }],
        history: [{ beliefId: second.id, items: secondHistory }],
      });
      const v2 = unitVector(72);
      const refused = await store.apply(both, { embeddings: [embedding(second.id, second.text, v2)] }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(VersionConflict);
      expect((refused as VersionConflict).reason).toBe("exists");
      expect(await store.loadBelief(view(scope), second.id)).toBeNull();
      expect((await store.vectorSearch(view(scope), v2, { k: 5, model: MODEL })).map((h) => h.id)).toEqual([first.id]);
      // Nothing was kept of it, its change-set row included: without the existing belief, the same change-set applies.
      await store.apply({ ...both, beliefs: both.beliefs.slice(0, 1) }, { embeddings: [embedding(second.id, second.text, v2)] });
      expect(await store.loadBelief(view(scope), second.id)).toEqual({ belief: miniReplay(second, secondHistory), history: secondHistory });
      expect((await store.vectorSearch(view(scope), v2, { k: 1, model: MODEL }))[0]?.id).toBe(second.id);
    });
  });
}
