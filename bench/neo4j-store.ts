/**
 * The Neo4j rows of `npm run bench:store` (the script, owned by the SQL store, calls `benchNeo4jStore` and prints
 * these rows beside its own). Same corpus, same metrics, same names as the SQL rows:
 * batched ingest (one change-set of 2 000 new beliefs, each with one verified entry citing its own Evidence) against
 * the raw baseline — the same nodes and relationships written by the bare driver with `UNWIND … CREATE` in one
 * transaction, no checks — in the same run; single assimilations (load → engine assimilate → apply); retrieval and
 * recall p50/p95 at each size (the services' read paths, `bench/read-paths.ts`); the cascade closure over a
 * 10 000-long chain.
 * Everything is written in a namespace of its own, dropped at the end.
 */
import neo4j, { type Driver } from "neo4j-driver";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import {
  assimilate,
  defaultParams,
  emptyChangeSet,
  type Belief,
  type ChangeSet,
} from "@/lib/engine";
import { BATCH, SINGLE, QUERIES, CHAIN, iso, rng, run, sentence, nid, belief, entry, batch } from "./corpus";
import { measureReadPaths, readPathRows } from "./read-paths";
import type { ScopeView } from "@/lib/graph/graph-store";
import { createNeo4jGraphStore } from "@/lib/graph/neo4j/neo4j-graph-store";
import { beliefToProps, evidenceToProps } from "@/lib/graph/neo4j/neo4j-records";
import { BELIEF_SEARCH_INDEX, SCHEMA_STATEMENTS } from "@/lib/graph/neo4j/neo4j-schema";
import { EMBEDDING_VECTOR_INDEX } from "@/lib/graph/neo4j/neo4j-vectors";

export interface Neo4jBenchOptions {
  uri: string;
  user?: string;
  password?: string;
  database?: string;
  /** Belief counts at which retrieval and recall are measured (the scope grows in place). Default 10 000 and 100 000. */
  sizes?: readonly number[];
  /** Label of the rows' backend column. */
  backend?: string;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
}

export interface BenchRow {
  backend: string;
  metric: string;
  value: string;
}

export async function benchNeo4jStore(options: Neo4jBenchOptions): Promise<BenchRow[]> {
  const backend = options.backend ?? "Neo4j 5.26";
  const log = options.log ?? ((line: string) => console.error(line));
  const sizes = options.sizes ?? [10_000, 100_000];
  const database = options.database ?? "neo4j";
  const ns = `bench_${run}`;
  const store = createNeo4jGraphStore({ uri: options.uri, user: options.user, password: options.password, database, namespace: ns });
  const auth = options.user !== undefined ? neo4j.auth.basic(options.user, options.password ?? "") : undefined;
  const driver = neo4j.driver(options.uri, auth);
  const rows: BenchRow[] = [];
  const add = (metric: string, value: string) => {
    rows.push({ backend, metric, value });
    log(`  ${backend}: ${metric} = ${value}`);
  };
  try {
    await store.check();
    const r = rng(42);

    // Batched ingest vs the raw baseline: same rows, separate scopes, same run.
    const batchScope = nid("s");
    const rawScope = nid("s");
    let t = performance.now();
    for (let i = 0; i < 5; i++) await store.apply(batch(batchScope, BATCH, r, iso(0)));
    const batched = (5 * BATCH) / ((performance.now() - t) / 1000);
    const rawBatches = Array.from({ length: 5 }, () => batch(rawScope, BATCH, r, iso(0)));
    t = performance.now();
    for (const cs of rawBatches) await rawInsert(driver, database, ns, cs);
    const raw = (5 * BATCH) / ((performance.now() - t) / 1000);
    add("batched ingest (beliefs+entry+evidence /s)", batched.toFixed(0));
    add("raw insert baseline, bare driver (same rows /s)", raw.toFixed(0));
    add("batched / raw", `${((100 * batched) / raw).toFixed(0)} %`);

    // Single assimilations: load → engine assimilate through the resolver → apply, one at a time.
    const singleScope = nid("s");
    const v: ScopeView = { homeScopeId: singleScope, visibleScopeIds: [singleScope] };
    const seed = batch(singleScope, SINGLE, r, iso(0));
    await store.apply(seed);
    const evs = batch(singleScope, SINGLE, r, iso(0)).evidence;
    await store.apply({ ...emptyChangeSet(nid("cs"), "bench", iso(0)), evidence: evs });
    t = performance.now();
    for (let i = 0; i < SINGLE; i++) {
      const rec = await store.loadBelief(v, seed.beliefs[i]?.belief.id ?? "");
      if (!rec) throw new Error("missing belief");
      const result = await assimilate({
        target: { existing: rec },
        evidence: [{ sourceId: evs[i]?.id ?? null, tier: "document" }],
        resolver: store.resolverFor(v),
        params: defaultParams,
        time: iso(60_000 * (i + 1)),
        actor: "bench",
        changeSetId: nid("cs"),
      });
      await store.apply(result.changeSet);
    }
    add("single assimilations /s (load → assimilate → apply)", (SINGLE / ((performance.now() - t) / 1000)).toFixed(0));

    // Retrieval and recall at each size, in one scope grown in place.
    const scope = nid("s");
    const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
    const assessor = createHeuristicAssessor();
    let size = 0;
    for (const target of sizes) {
      t = performance.now();
      while (size < target) {
        const n = Math.min(5_000, target - size);
        await store.apply(batch(scope, n, r, iso(0)));
        size += n;
      }
      log(`  ${backend}: grew to ${size} beliefs in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const qr = rng(7);
      const questions = Array.from({ length: QUERIES }, () => sentence(qr, 3));
      const samples = await measureReadPaths(store, view, questions, assessor, defaultParams);
      for (const [metric, value] of readPathRows(size, samples)) add(metric, value);
    }

    // Cascade: citation closure over a 10 000-long chain.
    const chainScope = nid("s");
    const chain: Belief[] = Array.from({ length: CHAIN + 1 }, (_, i) => belief(chainScope, `chain link ${i}.`, iso(0)));
    await store.apply({
      ...emptyChangeSet(nid("cs"), "bench", iso(0)),
      beliefs: chain.map((b) => ({ belief: b, expectedVersion: null })),
      history: chain.slice(1).map((b, i) => ({ beliefId: b.id, items: [entry(chain[i]?.id ?? "", iso(0), "belief")] })),
    });
    t = performance.now();
    const hops = await store.citationIndex().citationClosure(chain[0]?.id ?? "");
    add(`cascade closure over a ${hops.length}-long chain (ms)`, (performance.now() - t).toFixed(0));
  } finally {
    await store.dropNamespace().catch(() => {});
    await store.close();
    await driver.close();
  }
  return rows;
}

/**
 * The baseline: the same nodes and relationships as `apply` writes, bare `UNWIND … CREATE`, no checks, one transaction
 * (also how `npm run bench:retrieval` bulk-loads its corpus, with `embeddings` as the store's `Embedding` nodes).
 */
export async function rawInsert(
  driver: Driver,
  database: string,
  ns: string,
  cs: ChangeSet,
  embeddings: readonly { id: string; scope: string; model: string; vector: Float32Array }[] = [],
): Promise<void> {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.WRITE });
  try {
    await session.executeWrite(async (tx) => {
      await tx.run("UNWIND $rows AS row CREATE (n:Evidence) SET n = row", { rows: cs.evidence.map((e) => evidenceToProps(ns, e)) });
      const history = new Map(cs.history.map((h) => [h.beliefId, h.items]));
      await tx.run("UNWIND $rows AS row CREATE (n:Belief) SET n = row", {
        rows: cs.beliefs.map((u) => beliefToProps(ns, u.belief, history.get(u.belief.id) ?? [])),
      });
      const edges = cs.history.flatMap((h) =>
        h.items.flatMap((item) =>
          item.type === "entry" && item.sourceId !== null
            ? [{ beliefId: h.beliefId, sourceId: item.sourceId, props: { ns, beliefId: h.beliefId, seq: neo4j.int(item.seq), sourceId: item.sourceId, live: true, time: item.time, changeSet: item.changeSet } }]
            : [],
        ),
      );
      await tx.run(
        `UNWIND $rows AS row
         MATCH (b:Belief {ns: $ns, id: row.beliefId})
         MATCH (s:Evidence {ns: $ns, id: row.sourceId})
         CREATE (s)-[r:SUPPORTS]->(b) SET r = row.props`,
        { ns, rows: edges },
      );
      if (embeddings.length > 0) {
        await tx.run(
          `UNWIND $rows AS row
           CREATE (e:Embedding {ns: $ns, id: row.id, scope: row.scope, kind: 'belief', model: row.model,
                                dimensions: size(row.vector), textHash: 'bench', vector: row.vector})`,
          { ns, rows: embeddings.map((e) => ({ id: e.id, scope: e.scope, model: e.model, vector: Array.from(e.vector) })) },
        );
      }
    });
  } finally {
    await session.close();
  }
}

/**
 * The bulk loader of `npm run bench:retrieval` for large corpora: the same nodes and relationships as `rawInsert` for a
 * bench change-set (each belief with one entry citing its own Evidence), but in ONE `UNWIND` statement per batch —
 * each row creates its Evidence, its Belief and the SUPPORTS edge between them, so no edge needs an index lookup to
 * find its ends. Callers drop the full-text and vector indexes before a big load and create them after (one
 * population pass instead of an index update per transaction: `dropSearchIndexes` / `createSearchIndexes`).
 */
export async function bulkInsert(driver: Driver, database: string, ns: string, cs: ChangeSet): Promise<void> {
  const evidenceOf = new Map(cs.evidence.map((e) => [e.id, e]));
  const beliefOf = new Map(cs.beliefs.map((u) => [u.belief.id, u.belief]));
  const rows = cs.history.flatMap((h) => {
    const b = beliefOf.get(h.beliefId);
    const item = h.items[0];
    if (!b || !item || item.type !== "entry" || item.sourceId === null) return [];
    const e = evidenceOf.get(item.sourceId);
    if (!e) return [];
    return [
      {
        e: evidenceToProps(ns, e),
        b: beliefToProps(ns, b, h.items),
        r: { ns, beliefId: b.id, seq: neo4j.int(item.seq), sourceId: item.sourceId, live: true, time: item.time, changeSet: item.changeSet },
      },
    ];
  });
  if (rows.length !== cs.beliefs.length) throw new Error("bulkInsert takes bench change-sets: one entry citing its own Evidence per belief");
  const session = driver.session({ database, defaultAccessMode: neo4j.session.WRITE });
  try {
    await session.executeWrite((tx) => tx.run("UNWIND $rows AS row CREATE (e:Evidence) SET e = row.e CREATE (b:Belief) SET b = row.b CREATE (e)-[r:SUPPORTS]->(b) SET r = row.r", { rows }));
  } finally {
    await session.close();
  }
}

/** The search indexes a bulk load drops before and creates after (`ensureNeo4jSchema` creates them as the store's own). */
const SEARCH_INDEXES = [BELIEF_SEARCH_INDEX, EMBEDDING_VECTOR_INDEX];

export async function dropSearchIndexes(driver: Driver, database: string): Promise<void> {
  const session = driver.session({ database });
  try {
    for (const name of SEARCH_INDEXES) await session.run(`DROP INDEX ${name} IF EXISTS`);
  } finally {
    await session.close();
  }
}

/** Every schema statement of the store (the dropped indexes come back), then waits up to `seconds` for population. */
export async function createSearchIndexes(driver: Driver, database: string, seconds = 7_200): Promise<void> {
  const session = driver.session({ database });
  try {
    for (const statement of SCHEMA_STATEMENTS) await session.run(statement);
    await session.run(`CALL db.awaitIndexes(${Math.floor(seconds)})`);
  } finally {
    await session.close();
  }
}
