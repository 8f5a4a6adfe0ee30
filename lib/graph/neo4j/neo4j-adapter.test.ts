/**
 * What the contract suite cannot see from the port: the Neo4j schema, the vocabulary actually stored, integer typing,
 * namespace isolation, dangling citations, and a clear failure without a server.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import neo4j, { type Driver } from "neo4j-driver";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { changeSet, insertBelief, makeBelief, unsourcedEntry, makeEvidence, makeMutation, citeEvidence, uid } from "../testing/fixtures";
import { ChangeSetRejected, GraphStoreError } from "../errors";
import { write } from "./neo4j-cypher";
import { createNeo4jGraphStore, type Neo4jGraphStore } from "./neo4j-graph-store";
import { NODE_LABELS, RELATIONSHIP_TYPES, UnsafeIdentifierError } from "./neo4j-vocabulary";

/** Nodes beside the graph proper: change-set journal, topic freezes, sentence vectors, idempotency marks. */
const BOOKKEEPING_LABELS = ["AppliedChangeSet", "TopicFreeze", "Embedding", "IdempotencyMark", "CredenceBackfill"];
const view = (home: string) => ({ homeScopeId: home, visibleScopeIds: [home] });

describe("Neo4j adapter specifics", () => {
  let driver: Driver;
  const stores: Neo4jGraphStore[] = [];
  const open = (namespace = `adapter_${randomBytes(5).toString("hex")}`) => {
    const store = createNeo4jGraphStore({ uri: inject("neo4jUri"), database: "neo4j", namespace });
    stores.push(store);
    return store;
  };

  beforeAll(() => {
    driver = neo4j.driver(inject("neo4jUri"));
  });
  afterAll(async () => {
    for (const s of stores) await s.dropNamespace().catch(() => {});
    for (const s of stores) await s.close();
    await driver.close();
  });

  async function cypher(text: string, params: Record<string, unknown> = {}) {
    return (await driver.executeQuery(text, params, { database: "neo4j" })).records.map((r) => r.toObject() as Record<string, unknown>);
  }

  it("creates its constraints and indexes idempotently, from two stores at once", async () => {
    await Promise.all([open().check(), open().check()]);
    await open().check();
    const constraints = (await cypher("SHOW CONSTRAINTS YIELD name RETURN name")).map((r) => String(r.name));
    for (const name of ["credence_belief_id", "credence_evidence_id", "credence_mutation_id", "credence_belief_live_key", "credence_change_set_id", "credence_topic_freeze"]) {
      expect(constraints).toContain(name);
    }
    const indexes = await cypher("SHOW INDEXES YIELD name, type, state WHERE name STARTS WITH 'credence_' RETURN name, type, state");
    expect(indexes.every((i) => i.state === "ONLINE")).toBe(true);
    expect(indexes.find((i) => i.name === "credence_belief_search")?.type).toBe("FULLTEXT");
    expect(indexes.filter((i) => String(i.name).endsWith("_source")).map((i) => i.name).sort()).toEqual([
      "credence_contextualizes_source",
      "credence_rebuts_source",
      "credence_supports_source",
    ]);
  });

  it("stores graph data only under the SPEC's labels and relationship types", async () => {
    const store = open();
    const scope = uid("s");
    const ev = makeEvidence(scope, "doc");
    const a = makeBelief(scope, "Labels are literal.");
    const b = makeBelief(scope, "Types are literal.");
    const m = makeMutation(scope, { beliefIds: [a.id] });
    await store.apply(
      changeSet({
        evidence: [ev],
        beliefs: [a, b].map((belief) => ({ belief, expectedVersion: null })),
        history: [
          { beliefId: a.id, items: [citeEvidence(1, ev.id), unsourcedEntry(2, { sourceId: "nowhere", relation: "REBUTS" }), unsourcedEntry(3, { sourceId: b.id, sourceKind: "belief", relation: "CONTEXTUALIZES" })] },
        ],
        edges: [
          { kind: "REFINES", from: b.id, to: a.id, time: ev.createdAt, changeSet: "c" },
          { kind: "SYNTHESIZES", from: b.id, to: a.id, time: ev.createdAt, changeSet: "c" },
          { kind: "SUPERSEDES", from: b.id, to: a.id, time: ev.createdAt, changeSet: "c" },
        ],
        mutations: [m],
        topicFreezes: [{ scope, topic: "general", frozen: true, reason: "x", byMutationId: m.id }],
      }),
    );
    const labels = await cypher(
      "CALL () { MATCH (n:Belief {ns: $ns}) RETURN n UNION MATCH (n:Evidence {ns: $ns}) RETURN n UNION MATCH (n:Mutation {ns: $ns}) RETURN n } RETURN DISTINCT labels(n) AS l",
      { ns: store.namespace },
    );
    expect(new Set(labels.map((r) => (r.l as string[]).join(":")))).toEqual(new Set(NODE_LABELS));
    const types = await cypher("MATCH (n:Belief {ns: $ns})-[r]-() RETURN DISTINCT type(r) AS t", { ns: store.namespace });
    expect(new Set(types.map((r) => String(r.t)))).toEqual(new Set(RELATIONSHIP_TYPES));

    // Every label or type written into a Cypher text of the adapter is one of the allowlisted names.
    const source = ["./neo4j-cypher.ts", "./neo4j-schema.ts", "./neo4j-vectors.ts", "./neo4j-idempotency.ts"]
      .map((file) => readFileSync(new URL(file, import.meta.url), "utf8"))
      .join("\n");
    const spliced = [...source.matchAll(/[([]\w*:(\w+)/g)].map((x) => x[1]);
    expect(spliced.length).toBeGreaterThan(10);
    const allowed = new Set<string>([...NODE_LABELS, ...RELATIONSHIP_TYPES, ...BOOKKEEPING_LABELS]);
    expect(spliced.filter((l) => l !== undefined && !allowed.has(l))).toEqual([]);
  });

  it("refuses to build Cypher around a label or type outside the allowlist", () => {
    for (const bad of ["Belief) DETACH DELETE (x", "SUPPORTS]->() MATCH (n) DETACH DELETE n //", "belief", "Person"]) {
      expect(() => write.createNodes(bad as (typeof NODE_LABELS)[number])).toThrow(UnsafeIdentifierError);
      expect(() => write.createEntryEdges("Evidence", bad)).toThrow(UnsafeIdentifierError);
      expect(() => write.mergeBeliefEdges("Belief", bad)).toThrow(UnsafeIdentifierError);
      expect(() => write.retypeEntryEdges(bad)).toThrow(UnsafeIdentifierError);
    }
    expect(() => write.createEntryEdges("Evidence", "SUPERSEDES")).toThrow(UnsafeIdentifierError);
  });

  it("stores counts, seq and version as Neo4j Integers and reads them back as JS numbers", async () => {
    const store = open();
    const scope = uid("s");
    const ev = makeEvidence(scope, "doc");
    const belief = makeBelief(scope, "Integers stay integers.", { supportCount: 1, evidenceCount: 1 });
    await store.apply(insertBelief(belief, [citeEvidence(1, ev.id)], [ev]));
    const raw = await cypher("MATCH (e {ns: $ns, id: $ev})-[r:SUPPORTS]->(b:Belief {ns: $ns, id: $id}) RETURN b.version AS v, b.supportCount AS c, r.seq AS seq, b.credence AS credence", {
      ns: store.namespace,
      id: belief.id,
      ev: ev.id,
    });
    expect(neo4j.isInt(raw[0]?.v)).toBe(true);
    expect(neo4j.isInt(raw[0]?.c)).toBe(true);
    expect(neo4j.isInt(raw[0]?.seq)).toBe(true);
    expect(typeof raw[0]?.credence).toBe("number");
    const loaded = await store.loadBelief(view(scope), belief.id);
    expect(typeof loaded?.belief.version).toBe("number");
    expect(loaded?.belief.supportCount).toBe(1);
    expect(loaded?.history[0]?.seq).toBe(1);
  });

  it("keeps namespaces apart: the same ids in two stores, and dropping one leaves the other whole", async () => {
    const one = open();
    const two = open();
    const scope = uid("s");
    const belief = makeBelief(scope, "Same id in two namespaces.");
    await one.apply(insertBelief(belief));
    await two.apply(insertBelief({ ...belief, text: "Same id, other store.", key: "same id other store" }));
    expect((await one.loadBelief(view(scope), belief.id))?.belief.text).toBe("Same id in two namespaces.");
    expect((await two.loadBelief(view(scope), belief.id))?.belief.text).toBe("Same id, other store.");
    await one.dropNamespace();
    expect(await one.loadBelief(view(scope), belief.id)).toBeNull();
    expect((await two.loadBelief(view(scope), belief.id))?.belief.text).toBe("Same id, other store.");
    expect(await two.searchCandidates(view(scope), "other store")).toHaveLength(1);
  });

  it("keeps a resolved citation of an item this store lacks findable by citersOf, and never draws it", async () => {
    const store = open();
    const scope = uid("s");
    const elsewhere = uid("elsewhere");
    const belief = makeBelief(scope, "Cites an item the store does not hold.");
    const result = await store.apply(insertBelief(belief, [unsourcedEntry(1, { sourceId: elsewhere, sourceKind: "belief", verified: true, effectiveTier: "document" })]));
    expect(result.placeholdersCreated).toEqual([]);
    expect(await store.citationIndex().citersOf(elsewhere)).toEqual([{ beliefId: belief.id, seq: 1 }]);
    const slice = await store.neighbourhood(view(scope), belief.id);
    expect(slice.edges).toEqual([]);
    expect(slice.evidence).toEqual([]);
    expect((await store.exportScope(view(scope))).evidence).toEqual([]);
  });

  it("walks the cascade alike by levels and by reachable sets: live edges only, placeholder-hung citations included", async () => {
    const store = open();
    const a = uid("s");
    const hidden = uid("s");
    const cite = (seq: number, id: string) => unsourcedEntry(seq, { sourceId: id, sourceKind: "belief", verified: true, effectiveTier: "document" });
    const x = makeBelief(hidden, "The hidden root.");
    const p = makeBelief(a, "Cites the root by its raw id, unresolved.");
    const q = makeBelief(a, "Cites p.");
    const r = makeBelief(a, "Cites q, then loses it.");
    const s = makeBelief(a, "Cites r.");
    const t = makeBelief(a, "Cites q by its raw id, unresolved.");
    await store.apply(
      changeSet({
        beliefs: [x, p, q, r, s, t].map((belief) => ({ belief, expectedVersion: null })),
        history: [
          { beliefId: p.id, items: [unsourcedEntry(1, { sourceId: x.id })] },
          { beliefId: q.id, items: [cite(1, p.id), cite(2, x.id)] },
          { beliefId: r.id, items: [cite(1, q.id), { type: "stripped", seq: 2, targetSeq: 1, citedBeliefId: q.id, time: x.createdAt, actor: "sys", changeSet: "c" }] },
          { beliefId: s.id, items: [cite(1, r.id)] },
          { beliefId: t.id, items: [unsourcedEntry(1, { sourceId: q.id })] },
        ],
      }),
    );
    const long = await store.citationIndex().citationClosure(x.id);
    const short = await store.citationIndex().citationClosure(x.id, { maxHops: 5 });
    const expected = [
      { beliefId: p.id, seq: 1, citedId: x.id, depth: 1 },
      { beliefId: q.id, seq: 2, citedId: x.id, depth: 1 },
      { beliefId: q.id, seq: 1, citedId: p.id, depth: 2 },
      { beliefId: t.id, seq: 1, citedId: q.id, depth: 2 },
    ].sort((m, n) => m.depth - n.depth || (m.beliefId < n.beliefId ? -1 : m.beliefId > n.beliefId ? 1 : 0) || m.seq - n.seq);
    expect(long).toEqual(expected);
    expect(short).toEqual(expected);
    expect(await store.citationIndex().citationClosure(r.id)).toEqual([{ beliefId: s.id, seq: 1, citedId: r.id, depth: 1 }]);
  });

  it("names constraint failures: duplicate Evidence and Mutation ids, a change-set id applied twice", async () => {
    const store = open();
    const scope = uid("s");
    const ev = makeEvidence(scope, "once");
    const m = makeMutation(scope);
    await store.apply(changeSet({ evidence: [ev], mutations: [m] }));
    const reasonOf = async (cs: Parameters<typeof store.apply>[0]) =>
      store.apply(cs).then(
        () => "applied",
        (e: unknown) => (e instanceof ChangeSetRejected ? e.reason : String(e)),
      );
    expect(await reasonOf(changeSet({ evidence: [ev] }))).toBe("duplicate_id");
    expect(await reasonOf(changeSet({ mutations: [m] }))).toBe("duplicate_id");
    const fresh = makeEvidence(scope, "twice in one change-set");
    expect(await reasonOf(changeSet({ evidence: [fresh, fresh] }))).toBe("duplicate_id");
    const once = changeSet({ evidence: [makeEvidence(scope, "a")] });
    await store.apply(once);
    expect(await reasonOf({ ...once, evidence: [] })).toBe("already_applied");
    expect(await store.loadEvidence(view(scope), fresh.id)).toBeNull();
  });

  it("takes a neo4j:// routing URI, and every session of a store follows the bookmarks of its committed writes", async () => {
    const routing = inject("neo4jUri").replace(/^bolt:\/\//, "neo4j://");
    expect(routing.startsWith("neo4j://")).toBe(true);
    const bookmarkManager = neo4j.bookmarkManager();
    const store = createNeo4jGraphStore({ uri: routing, database: "neo4j", namespace: `adapter_${randomBytes(5).toString("hex")}`, bookmarkManager });
    stores.push(store);
    await store.check();
    const scope = uid("s");
    const belief = makeBelief(scope, "Routing drivers read their own writes.");
    const before = [...(await bookmarkManager.getBookmarks())];
    await store.apply(insertBelief(belief));
    const after = [...(await bookmarkManager.getBookmarks())];
    expect(after.length).toBeGreaterThan(0);
    expect(after).not.toEqual(before);
    // The read runs in a new session that starts from those bookmarks.
    expect((await store.loadBelief(view(scope), belief.id))?.belief.id).toBe(belief.id);
  });

  it("fails fast with store_unavailable when no server answers", async () => {
    const store = createNeo4jGraphStore({ uri: "bolt://127.0.0.1:1", database: "neo4j" });
    try {
      const error = await store.check().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(GraphStoreError);
      expect((error as GraphStoreError).code).toBe("store_unavailable");
      expect((error as GraphStoreError).message).toContain("bolt://127.0.0.1:1");
    } finally {
      await store.close();
    }
  });
});
