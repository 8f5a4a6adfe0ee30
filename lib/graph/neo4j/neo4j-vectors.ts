/**
 * Sentence vectors in the Neo4j store: one `(:Embedding {ns, id, scope, kind, model, dimensions, textHash, vector})`
 * node per belief or evidence text, beside (not on) the node it describes, because belief writes replace a belief's
 * properties wholesale. Named Cypher and the functions the adapter calls; docs/decisions/008-sentence-vectors.md
 * says why.
 *
 * Search uses Neo4j 5's native vector index (`credence_embedding_vector`, HNSW, cosine, 384 dimensions: the local
 * model's size) for candidates, then anchors them on the scope inside the same query. Neo4j 5.26 cannot filter inside
 * the index, so the index is asked for `firstCandidateCount(k)` nodes of every scope, then, when fewer than k of them
 * are in the home scope, for `candidateCount(k)`; once at least k are, they are the answer (the best k of the scope
 * among the index's best, approximate only as far as HNSW is), otherwise (a small scope, a busy index, another
 * model's dimensions) an exact scan of the scope's vectors answers. The index's own scores are approximate (it may
 * quantize), so its candidates are re-scored exactly; Neo4j's cosine is (1 + cos) / 2, turned back into a cosine here.
 */
import neo4j from "neo4j-driver";
import { z } from "zod";
import type { EmbeddedKind, EmbeddingStatus, EmbeddingTarget, NodeEmbedding, VectorHit, VectorSearchOptions } from "../embeddings";
import { embeddingTextHash } from "../embeddings";
import { candidateStatsOf, type ScopeView } from "../graph-store";
import type { CypherRunner } from "./neo4j-runner";
import { toPlain } from "./neo4j-records";

export const EMBEDDING_VECTOR_INDEX = "credence_embedding_vector";
/** The dimension the vector index is built for (all-MiniLM-L6-v2); vectors of other sizes are searched exactly. */
export const VECTOR_INDEX_DIMENSIONS = 384;

export const VECTOR_SCHEMA_STATEMENTS: readonly string[] = [
  "CREATE CONSTRAINT credence_embedding_id IF NOT EXISTS FOR (n:Embedding) REQUIRE (n.ns, n.id) IS UNIQUE",
  "CREATE INDEX credence_embedding_scope IF NOT EXISTS FOR (n:Embedding) ON (n.ns, n.scope)",
  `CREATE VECTOR INDEX ${EMBEDDING_VECTOR_INDEX} IF NOT EXISTS FOR (n:Embedding) ON n.vector ` +
    `OPTIONS {indexConfig: {\`vector.dimensions\`: ${VECTOR_INDEX_DIMENSIONS}, \`vector.similarity_function\`: 'cosine'}}`,
];

/**
 * Index candidates asked for k hits, first try: enough for a scope that holds most of the index's vectors (one
 * deployment, one busy scope) to fill k, with room for the exact re-score to reorder the index's approximate scores.
 * Each candidate is re-scored from its stored vector, so asking for 10 k every time cost ~5× the reads for nothing
 * where the scope is the index.
 */
export function firstCandidateCount(k: number): number {
  return Math.min(Math.max(k * 2, 50), 10_000);
}

/**
 * Index candidates asked for k hits when the first try left fewer than k in the home scope: enough that a scope
 * holding a fair share of the vectors fills k.
 */
export function candidateCount(k: number): number {
  return Math.min(Math.max(k * 10, 200), 10_000);
}

const NODE_MATCH = {
  belief: "MATCH (n:Belief {ns: $ns, id: item.id})",
  evidence: "MATCH (n:Evidence {ns: $ns, id: item.id}) WHERE n.kind <> 'unresolved'",
} as const;

function upsertCypher(kind: EmbeddedKind): string {
  return `
    UNWIND $items AS item
    ${NODE_MATCH[kind]}
    WITH n, item WHERE $home IS NULL OR (n.scope = $home AND $home IN $visible)
    MERGE (e:Embedding {ns: $ns, id: item.id})
    SET e.scope = n.scope, e.kind = '${kind}', e.model = item.model, e.dimensions = size(item.vector),
        e.textHash = item.textHash, e.vector = item.vector
    RETURN count(e) AS n`;
}

/** The vectors a search may return: the home scope's belief vectors of the model. */
const SEARCH_ANCHOR = `
    WHERE e.ns = $ns AND e.scope = $home AND $home IN $visible AND e.kind = 'belief' AND e.model = $model`;

/**
 * Every anchored vector scored, best first (ties by id), and only then its belief matched and checked (home scope,
 * live unless `$includeEnded`), until k pass: the planner keeps the sort's order through the lookups (a `Limit`, not
 * a `Top` over every candidate), so of 2 000 index candidates about k beliefs are looked up, not 2 000. The second
 * ORDER BY states the order the LIMIT cuts, which the first one already provides. The lookup names its seek of the
 * `(ns, id)` key: left to its cost model, the planner matched each candidate through the `(ns, scope)` index and
 * filtered by id, reading every belief of the scope once per candidate (neo4j-plans.test.ts).
 */
const SCORED_BELIEFS = `
    WITH e, 2 * vector.similarity.cosine(e.vector, $vector) - 1 AS similarity
    ORDER BY similarity DESC, e.id
    MATCH (b:Belief {ns: $ns, id: e.id}) USING INDEX SEEK b:Belief(ns, id)
    WHERE b.scope = $home AND ($includeEnded OR b.live)
    WITH e, b, similarity
    ORDER BY similarity DESC, e.id LIMIT $k`;

/** A hit's columns: its id and similarity, and with `stats` its belief's slim row (`read.candidateStatsByIds`' columns). */
function hitColumns(stats: boolean): [string, string][] {
  return [
    ["id", "e.id"],
    ["similarity", "similarity"],
    ...(stats
      ? ([
          ["credence", "b.credence"],
          ["status", "b.status"],
          ["contextTags", "CASE WHEN size(b.contextTags) > 0 THEN b.contextTags END"],
          ["validUntil", "b.validUntil"],
          ["terms", "b.searchTerms"],
        ] as [string, string][])
      : []),
  ];
}

/**
 * A search's k best hits as rows; with `stats`, each hit's slim row too (`VectorSearchOptions.withStats`), read from
 * the belief the anchor has matched already: hybrid retrieval then reads no row of them again.
 */
function searchReturn(stats: boolean): string {
  return `${SCORED_BELIEFS}
    RETURN ${hitColumns(stats).map(([name, expr]) => `${expr} AS ${name}`).join(", ")}`;
}

/** Every vector of the scope. */
const searchExact = (stats: boolean) => `
    MATCH (e:Embedding {ns: $ns, scope: $home})
    ${SEARCH_ANCHOR} AND e.dimensions = size($vector)${searchReturn(stats)}
    ORDER BY similarity DESC, id`;

/**
 * The same k best collected as one list, best first (ties by id), each hit a map of those columns: an aggregation,
 * so its subquery answers one row even when nothing matched.
 */
function collectedHits(stats: boolean, as: string): string {
  return `${SCORED_BELIEFS}
      RETURN collect({${hitColumns(stats).map(([name, expr]) => `${name}: ${expr}`).join(", ")}}) AS ${as}`;
}

/**
 * Index candidates of every scope, anchored after the call, in up to three tries in one statement, each only when the
 * one before left fewer than k in the home scope: `$first` candidates (`firstCandidateCount`: a scope that is most of
 * the index), then `$candidates` (`candidateCount`: a scope beside larger ones), then every vector of the scope (a
 * small scope, or one among many). A small scope pays one statement, not an under-filled index answer and then the
 * scan. A later try's subquery runs only when needed: its guard is an UNWIND of an empty list, as a WHERE on the
 * earlier list was planned after the scan's index seek, which then read every vector id of the scope for nothing.
 */
function searchIndexedOrExact(stats: boolean): string {
  return `
    CALL () {
      CALL db.index.vector.queryNodes('${EMBEDDING_VECTOR_INDEX}', $first, $vector) YIELD node AS e
      ${SEARCH_ANCHOR}${collectedHits(stats, "near")}
    }
    CALL (near) {
      UNWIND CASE WHEN size(near) < $k AND $candidates > $first THEN [true] ELSE [] END AS wider
      CALL db.index.vector.queryNodes('${EMBEDDING_VECTOR_INDEX}', $candidates, $vector) YIELD node AS e
      ${SEARCH_ANCHOR}${collectedHits(stats, "indexed")}
    }
    WITH CASE WHEN size(near) >= $k THEN near ELSE indexed END AS indexed
    CALL (indexed) {
      UNWIND CASE WHEN size(indexed) < $k THEN [true] ELSE [] END AS scan
      MATCH (e:Embedding {ns: $ns, scope: $home})
      ${SEARCH_ANCHOR} AND e.dimensions = size($vector)${collectedHits(stats, "exact")}
    }
    UNWIND CASE WHEN size(indexed) >= $k THEN indexed ELSE exact END AS hit
    RETURN ${hitColumns(stats).map(([name]) => `hit.${name} AS ${name}`).join(", ")}`;
}

export const vectorCypher = {
  upsertBeliefs: upsertCypher("belief"),
  upsertEvidence: upsertCypher("evidence"),
  searchIndexedOrExact: searchIndexedOrExact(false),
  searchIndexedOrExactWithStats: searchIndexedOrExact(true),
  searchExact: searchExact(false),
  searchExactWithStats: searchExact(true),

  /** Each listed id sought by its `(ns, id)` key: matched by scope and filtered by id, it read every vector of the scope. */
  similarities: `
    UNWIND $ids AS id
    MATCH (e:Embedding {ns: $ns, id: id}) USING INDEX SEEK e:Embedding(ns, id)
    WHERE e.scope = $home AND $home IN $visible AND e.kind = 'belief' AND e.model = $model AND e.dimensions = size($vector)
    RETURN e.id AS id, 2 * vector.similarity.cosine(e.vector, $vector) - 1 AS similarity`,

  /** Every node of the scope that can carry a vector, with its vector's model and text hash (null when none). */
  targets: `
    CALL () {
      MATCH (n:Belief {ns: $ns, scope: $home}) WHERE $home IN $visible
      RETURN 'belief' AS kind, n.id AS id, n.text AS text
      UNION ALL
      MATCH (n:Evidence {ns: $ns, scope: $home}) WHERE $home IN $visible AND n.kind <> 'unresolved'
      RETURN 'evidence' AS kind, n.id AS id, n.text AS text
    }
    OPTIONAL MATCH (e:Embedding {ns: $ns, id: id})
    RETURN kind, id, text, e.model AS model, e.textHash AS textHash
    ORDER BY kind, id`,
} as const;

const hitRow = z.object({ id: z.string(), similarity: z.number() });
const countRow = z.object({ n: z.number() });
const targetRow = z.object({
  kind: z.enum(["belief", "evidence"]),
  id: z.string(),
  text: z.string(),
  model: z.string().nullable(),
  textHash: z.string().nullable(),
});

async function rows<T>(tx: CypherRunner, cypher: string, params: Record<string, unknown>, schema: z.ZodType<T>): Promise<T[]> {
  const result = await tx.run(cypher, params);
  return result.records.map((record) => schema.parse(toPlain(record.toObject())));
}

function anchor(view: ScopeView | null): { home: string | null; visible: string[] } {
  return { home: view?.homeScopeId ?? null, visible: view ? [...view.visibleScopeIds] : [] };
}

/** Writes vectors in `tx` (last one wins for a repeated id); `view` null inside `apply` (each node's own scope). */
export async function writeEmbeddingsInTx(tx: CypherRunner, ns: string, view: ScopeView | null, items: readonly NodeEmbedding[]): Promise<number> {
  const byId = new Map<string, NodeEmbedding>();
  for (const item of items) byId.set(item.id, item);
  let written = 0;
  for (const kind of ["belief", "evidence"] as const) {
    const batch = [...byId.values()]
      .filter((item) => item.kind === kind)
      .map((item) => ({ id: item.id, model: item.model, textHash: item.textHash, vector: Array.from(item.vector) }));
    if (batch.length === 0) continue;
    const cypher = kind === "belief" ? vectorCypher.upsertBeliefs : vectorCypher.upsertEvidence;
    const [row] = await rows(tx, cypher, { ns, ...anchor(view), items: batch }, countRow);
    written += row?.n ?? 0;
  }
  return written;
}

export async function searchVectorsInTx(tx: CypherRunner, ns: string, view: ScopeView, vector: Float32Array, options: VectorSearchOptions): Promise<VectorHit[]> {
  if (options.k <= 0 || vector.length === 0) return [];
  const params = {
    ns,
    ...anchor(view),
    model: options.model,
    includeEnded: options.includeEnded ?? false,
    vector: Array.from(vector),
    k: neo4j.int(Math.floor(options.k)),
  };
  const stats = options.withStats ?? false;
  const hits = async (cypher: string, extra: Record<string, unknown> = {}): Promise<VectorHit[]> =>
    (await tx.run(cypher, { ...params, ...extra })).records.map((record) => {
      const row = toPlain(record.toObject()) as Record<string, unknown>;
      const hit: VectorHit = hitRow.parse(row);
      if (stats) hit.stats = candidateStatsOf({ ...row, scope: view.homeScopeId, contextTags: row.contextTags ?? [] });
      return hit;
    });
  if (vector.length === VECTOR_INDEX_DIMENSIONS) {
    return hits(stats ? vectorCypher.searchIndexedOrExactWithStats : vectorCypher.searchIndexedOrExact, { first: neo4j.int(firstCandidateCount(options.k)), candidates: neo4j.int(candidateCount(options.k)) });
  }
  return hits(stats ? vectorCypher.searchExactWithStats : vectorCypher.searchExact);
}

export async function vectorSimilaritiesInTx(
  tx: CypherRunner,
  ns: string,
  view: ScopeView,
  vector: Float32Array,
  ids: readonly string[],
  model: string,
): Promise<Map<string, number>> {
  if (ids.length === 0 || vector.length === 0) return new Map();
  const found = await rows(tx, vectorCypher.similarities, { ns, ...anchor(view), ids: [...ids], model, vector: Array.from(vector) }, hitRow);
  return new Map(found.map((r) => [r.id, r.similarity]));
}

async function targetsInTx(tx: CypherRunner, ns: string, view: ScopeView, model: string) {
  const all = await rows(tx, vectorCypher.targets, { ns, ...anchor(view) }, targetRow);
  return all.map((t) => ({ ...t, current: t.model === model && t.textHash === embeddingTextHash(t.text) }));
}

export async function missingEmbeddingsInTx(tx: CypherRunner, ns: string, view: ScopeView, model: string, limit?: number): Promise<EmbeddingTarget[]> {
  const stale = (await targetsInTx(tx, ns, view, model)).filter((t) => !t.current).map(({ kind, id, text }) => ({ kind, id, text }));
  return limit === undefined ? stale : stale.slice(0, limit);
}

export async function embeddingStatusInTx(tx: CypherRunner, ns: string, view: ScopeView, model: string): Promise<EmbeddingStatus> {
  const targets = await targetsInTx(tx, ns, view, model);
  const counts = (kind: EmbeddedKind) => {
    const ofKind = targets.filter((t) => t.kind === kind);
    return { total: ofKind.length, current: ofKind.filter((t) => t.current).length };
  };
  return { model, beliefs: counts("belief"), evidence: counts("evidence") };
}
