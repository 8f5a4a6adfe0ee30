/**
 * How Neo4j plans the store's lookups of beliefs by id, on a real server (the Vitest global setup's): each one a seek of
 * the `(ns, id)` key, never a read of the whole scope. The statements are the store's own, recorded as it sends them
 * (`onQuery`) and run again under PROFILE with the same parameters.
 *
 * Left to its cost model, the planner matched a vector search's candidates through the `(ns, scope)` index and
 * filtered by id (every belief of the scope read once per candidate: 40 000 rows for 20 hits in a scope of 2 000),
 * and a listing of given ids, and even a belief's head by its one id (with other files' data in the database),
 * through a scan of the whole `(ns, id)` index; the statements now name the seek.
 */
import { randomBytes } from "node:crypto";
import neo4j, { type Driver, type ProfiledPlan } from "neo4j-driver";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ScopeView } from "../graph-store";
import { changeSet, makeBelief, uid } from "../testing/fixtures";
import { unitVector } from "../testing/vector-contract";
import { createNeo4jGraphStore, type Neo4jGraphStore } from "./neo4j-graph-store";

const MODEL = "plan-model@1";
const BELIEFS = 400;

interface PlanStep {
  operator: string;
  details: string;
  rows: number;
}

/** Every operator of a profiled plan, depth first. */
function steps(plan: ProfiledPlan): PlanStep[] {
  const own = { operator: plan.operatorType.replace(/@.*$/, ""), details: String(plan.arguments.Details ?? ""), rows: Number(plan.rows) };
  return [own, ...plan.children.flatMap(steps)];
}

describe("Neo4j plans of the lookups by id", () => {
  let store: Neo4jGraphStore;
  let driver: Driver;
  let recorded: { text: string; params: Record<string, unknown> }[] | null = null;
  const scope = uid("plans");
  const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
  const ids: string[] = [];

  beforeAll(async () => {
    const namespace = `plans_${randomBytes(6).toString("hex")}`;
    store = createNeo4jGraphStore({ uri: inject("neo4jUri"), database: "neo4j", namespace, onQuery: (text, params) => void recorded?.push({ text, params }) });
    driver = neo4j.driver(inject("neo4jUri"));
    await store.check();
    const beliefs = Array.from({ length: BELIEFS }, (_, i) => makeBelief(scope, `Plan belief number ${i}.`));
    await store.apply(changeSet({ beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })) }), {
      embeddings: beliefs.map((b, i) => ({ id: b.id, kind: "belief" as const, model: MODEL, textHash: `h${i}`, vector: unitVector(i + 1) })),
    });
    ids.push(...beliefs.map((b) => b.id));
  }, 120_000);
  afterAll(async () => {
    await store?.dropNamespace().catch(() => {});
    await store?.close();
    await driver?.close();
  });

  /** The statements `work` sends, each profiled with its own parameters: the plan's operators. */
  async function profiled(work: () => Promise<unknown>): Promise<{ text: string; plan: PlanStep[] }[]> {
    recorded = [];
    await work();
    const statements = recorded;
    recorded = null;
    const session = driver.session({ database: "neo4j", defaultAccessMode: neo4j.session.READ });
    try {
      const out: { text: string; plan: PlanStep[] }[] = [];
      for (const { text, params } of statements) {
        const result = await session.run(`PROFILE ${text}`, params);
        const profile = result.summary.profile;
        expect(profile, text).toBeTruthy();
        if (profile) out.push({ text, plan: steps(profile) });
      }
      return out;
    } finally {
      await session.close();
    }
  }

  /** No operator reads beliefs but a seek of the (ns, id) key, and none scans an index or a label. */
  function expectBeliefsSoughtById(statements: { text: string; plan: PlanStep[] }[]): void {
    expect(statements.length).toBeGreaterThan(0);
    for (const { text, plan } of statements) {
      for (const step of plan) {
        expect(step.operator, `${step.operator} ${step.details}\nin ${text}`).not.toMatch(/Scan$/);
        if (/:Belief\b/.test(step.details) && /Seek/.test(step.operator)) {
          expect(`${step.operator} ${step.details}`, text).toMatch(/^NodeUniqueIndexSeek UNIQUE \w+:Belief\(ns, id\)/);
        }
      }
    }
  }

  it("a vector search with its rows matches each candidate's belief by its key, not by its scope", async () => {
    const statements = await profiled(() => store.vectorSearch(view, unitVector(7), { k: 20, model: MODEL, withStats: true }));
    expectBeliefsSoughtById(statements);
    // The belief seeks read candidates (the index's best), never the scope's 400 beliefs.
    const beliefRows = statements.flatMap((s) => s.plan).filter((step) => /:Belief\b/.test(step.details) && /Seek/.test(step.operator));
    expect(beliefRows.length).toBeGreaterThan(0);
    for (const step of beliefRows) expect(step.rows).toBeLessThan(BELIEFS);
  });

  it("a listing, a load and the slim rows of given ids seek each one", async () => {
    const wanted = ids.slice(0, 5);
    const sorted = [...wanted].sort();
    const statements = await profiled(async () => {
      expect((await store.listBeliefs(view, { ids: wanted, liveOnly: false })).map((b) => b.id).sort()).toEqual(sorted);
      expect((await store.loadBeliefs(view, wanted)).map((b) => b.belief.id).sort()).toEqual(sorted);
      expect((await store.candidateStatsByIds(view, wanted)).map((s) => s.id).sort()).toEqual(sorted);
    });
    expect(statements.length).toBe(3);
    expectBeliefsSoughtById(statements);
  });

  it("the similarities of listed ids seek each one's vector, and the other reads of a write and a recall scan nothing", async () => {
    const wanted = ids.slice(0, 5);
    const statements = await profiled(async () => {
      expect([...(await store.similarities(view, unitVector(7), wanted, { model: MODEL })).keys()].sort()).toEqual([...wanted].sort());
      expect([...(await store.loadBeliefHeads(view, wanted, { historyLimit: 10 })).keys()].sort()).toEqual([...wanted].sort());
      expect((await store.loadBeliefHead(view, wanted[0] ?? "", { historyLimit: 10 }))?.belief.id).toBe(wanted[0]);
      expect((await store.beliefLinks(view, wanted)).length).toBe(0);
      expect(await store.searchTopK?.(view, "plan belief number", { k: 10 })).toBeTruthy();
    });
    expectBeliefsSoughtById(statements);
    const vectorSeeks = statements.flatMap((s) => s.plan).filter((step) => /:Embedding\b/.test(step.details) && /Seek/.test(step.operator));
    expect(vectorSeeks.map((step) => `${step.operator} ${step.details}`)).toEqual([expect.stringMatching(/^NodeUniqueIndexSeek UNIQUE \w+:Embedding\(ns, id\)/)]);
    expect(vectorSeeks[0]?.rows).toBe(wanted.length);
  });
});
