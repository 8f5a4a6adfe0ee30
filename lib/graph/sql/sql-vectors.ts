/**
 * Sentence vectors in the SQL store (table `graph_embeddings`, migration 20261201154130_graph_embeddings, and the
 * sketches of migration 20261201190000_graph_vector_sketches): named statements and the functions the adapter calls.
 * docs/decisions/008-sentence-vectors.md says why.
 *
 * Two ways to compute an exact cosine, chosen once per store by `detectPgvector`:
 * * **pgvector** (PGlite always; a server where `CREATE EXTENSION vector` succeeded when migrating): the native
 *   `embedding vector` column, cosine distance `<=>` computed by the extension;
 * * **fallback** (a server without pgvector, as this machine's Postgres 15): the vector's float4 bytes (`packed`) read
 *   by the application, which computes the dot product of the unit vectors.
 * **Search** (both): the scope's sign sketches (`graph_vector_sketches`) ranked by Hamming distance to the query's in
 * one narrow sequential pass, the best `sketchCandidates(k)` kept, those re-ranked by their exact cosine. Exact when
 * the scope holds at most `sketchCandidates(k)` vectors of the model; beyond that approximate in one place: a vector
 * whose sketch is farther from the query's than the kept ones is not considered (recall loss measured by
 * `npm run bench:retrieval`). Ended beliefs are dropped after the pass (they take a kept place when includeEnded is
 * false). `similarities` (cosines of given ids) is always exact.
 * Anchoring as every caller read: `scope = $home AND $home = ANY($visible)` inside the statement.
 * The store ranks in memory by default (./vector-index.ts: the same ranking, no vectors per search); the search
 * statements here are its `vectorRanking: "database"` path. Writes always go through `writeEmbeddings`.
 */
import { z } from "zod";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import type { EmbeddedKind, EmbeddingStatus, EmbeddingTarget, NodeEmbedding, VectorHit, VectorSearchOptions } from "../embeddings";
import type { ScopeView } from "../graph-store";
import { idRow, run, statement } from "./sql-rows";

const hitRow = z.object({ id: z.string(), similarity: z.number() });
const targetRow = z.object({ kind: z.enum(["belief", "evidence"]), id: z.string(), text: z.string() });
const statusRow = z.object({ kind: z.enum(["belief", "evidence"]), total: z.number().int(), current: z.number().int() });
const flagRow = z.object({ present: z.boolean() });
const packedRow = z.object({ id: z.string(), packed: z.instanceof(Uint8Array) });

/** Sketch candidates kept for the exact re-rank of a k-nearest search (a scope with at most this many is searched exactly). */
export function sketchCandidates(k: number): number {
  return Math.max(1_000, 4 * k);
}

/** The nodes that can carry a vector, as (id, scope, kind, text): beliefs, and evidence that is not a placeholder. */
const NODES = `SELECT id, scope, 'belief' AS kind, data->>'text' AS text FROM graph_beliefs
               UNION ALL
               SELECT id, scope, 'evidence' AS kind, text FROM graph_evidence WHERE kind <> 'unresolved'`;

/**
 * The CTEs that upsert vectors and their sketches (`v_in`: the items of `items`, a jsonb parameter; `v_rows`: the rows
 * written, RETURNING id, scope, kind, model, dimensions): each item's scope is that of its node in `nodes` (a
 * subquery of id, scope, kind), restricted by `where`. Shared by the vectors' own statement and the one-statement
 * write of new beliefs (sql-writes).
 */
export function embeddingUpsertCtes(pgvector: boolean, items: string, nodes: string, where = "TRUE"): string {
  const extraColumn = pgvector ? `, "embedding"` : "";
  const extraValue = pgvector ? `, v_in.vector::vector` : "";
  const extraUpdate = pgvector ? `, "embedding" = EXCLUDED."embedding"` : "";
  return `v_in AS (
       SELECT * FROM jsonb_to_recordset(${items}::jsonb) AS e(id text, kind text, model text, text_hash text, vector real[], sketch text, packed text)
     ), v_rows AS (
       INSERT INTO graph_embeddings ("id", "scope", "kind", "model", "dimensions", "text_hash", "vector"${extraColumn}, "packed", "updated_at")
       SELECT v_in.id, n.scope, v_in.kind, v_in.model, cardinality(v_in.vector), v_in.text_hash, v_in.vector${extraValue}, decode(v_in.packed, 'hex'), now()
       FROM v_in JOIN ${nodes} n ON n.id = v_in.id AND n.kind = v_in.kind
       WHERE ${where}
       ON CONFLICT ("id") DO UPDATE SET "scope" = EXCLUDED."scope", "kind" = EXCLUDED."kind", "model" = EXCLUDED."model",
         "dimensions" = EXCLUDED."dimensions", "text_hash" = EXCLUDED."text_hash", "vector" = EXCLUDED."vector"${extraUpdate},
         "packed" = EXCLUDED."packed", "updated_at" = now(), "written_by" = pg_current_xact_id()
       RETURNING "id", "scope", "kind", "model", "dimensions"
     ), v_sketches AS (
       INSERT INTO graph_vector_sketches ("id", "scope", "kind", "model", "dimensions", "sketch")
       SELECT v_rows.id, v_rows.scope, v_rows.kind, v_rows.model, v_rows.dimensions, v_in.sketch::varbit FROM v_rows JOIN v_in ON v_in.id = v_rows.id
       ON CONFLICT ("id") DO UPDATE SET "scope" = EXCLUDED."scope", "kind" = EXCLUDED."kind", "model" = EXCLUDED."model",
         "dimensions" = EXCLUDED."dimensions", "sketch" = EXCLUDED."sketch"
     )`;
}

function upsert(pgvector: boolean) {
  /** [items jsonb, home (null: the node's own scope, used inside apply), visible] */
  return statement(
    pgvector ? "vectors.upsertPgvector" : "vectors.upsert",
    `WITH ${embeddingUpsertCtes(pgvector, "$1", `(${NODES})`, "$2::text IS NULL OR (n.scope = $2 AND $2 = ANY($3::text[]))")}
     SELECT "id" FROM v_rows`,
    idRow,
  );
}

/** Placeholders of the search statements (the fallback has no query vector nor k in SQL). */
interface SearchParams {
  home: string;
  visible: string;
  model: string;
  dimensions: string;
  includeEnded: string;
  candidates: string;
  sketch: string;
}

/** The best `candidates` sketches of the home scope by Hamming distance to the query's, for the exact re-rank. */
function sketchCandidatesCte(p: SearchParams): string {
  return `c AS (
       SELECT k.id FROM q, graph_vector_sketches k
       WHERE k.scope = ${p.home} AND ${p.home} = ANY(${p.visible}::text[]) AND k.kind = 'belief' AND k.model = ${p.model}
         AND k.dimensions = ${p.dimensions}
       ORDER BY bit_count(k.sketch # q.s), k.id COLLATE "C" LIMIT ${p.candidates})`;
}

/** Those candidates' vectors, anchored again and filtered on liveness. */
function candidateRows(p: SearchParams): string {
  return `FROM q, c JOIN graph_embeddings e ON e.id = c.id JOIN graph_beliefs b ON b.id = e.id
     WHERE e.scope = ${p.home} AND b.scope = ${p.home} AND (${p.includeEnded}::boolean OR b.live)`;
}

const PACKED_PARAMS: SearchParams = { home: "$1", visible: "$2", model: "$3", dimensions: "$4", includeEnded: "$5", candidates: "$6", sketch: "$7" };
const PGVECTOR_PARAMS: SearchParams = { home: "$2", visible: "$3", model: "$4", dimensions: "$5", includeEnded: "$6", candidates: "$8", sketch: "$9" };

export const vectors = {
  /** Whether the native pgvector column exists (the migration added it). [] */
  hasPgvector: statement(
    "vectors.hasPgvector",
    `SELECT EXISTS (SELECT 1 FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name = 'graph_embeddings' AND column_name = 'embedding') AS present`,
    flagRow,
  ),
  upsert: upsert(false),
  upsertPgvector: upsert(true),

  /** Fallback: the sketch candidates' float4 bytes, re-ranked by the caller. [home, visible, model, dimensions, includeEnded, candidates, sketch] */
  searchPacked: statement(
    "vectors.searchPacked",
    `WITH q AS MATERIALIZED (SELECT $7::varbit AS s), ${sketchCandidatesCte(PACKED_PARAMS)}
     SELECT e.id, e.packed ${candidateRows(PACKED_PARAMS)} AND e.packed IS NOT NULL`,
    packedRow,
  ),
  /** pgvector: the sketch candidates re-ranked by the extension. [vector text '[…]', home, visible, model, dimensions, includeEnded, k, candidates, sketch] */
  searchPgvector: statement(
    "vectors.searchPgvector",
    `WITH q AS MATERIALIZED (SELECT $1::vector AS v, $9::varbit AS s), ${sketchCandidatesCte(PGVECTOR_PARAMS)}
     SELECT e.id, 1 - (e.embedding <=> q.v) AS similarity ${candidateRows(PGVECTOR_PARAMS)}
     ORDER BY similarity DESC, e.id COLLATE "C" LIMIT $7`,
    hitRow,
  ),

  /** [home, visible, model, dimensions, ids] */
  packedOf: statement(
    "vectors.packedOf",
    `SELECT e.id, e.packed FROM graph_embeddings e
     WHERE e.scope = $1 AND $1 = ANY($2::text[]) AND e.kind = 'belief' AND e.model = $3 AND e.dimensions = $4 AND e.id = ANY($5::text[])
       AND e.packed IS NOT NULL`,
    packedRow,
  ),
  /** [vector text '[…]', home, visible, model, dimensions, ids] */
  similaritiesPgvector: statement(
    "vectors.similaritiesPgvector",
    `WITH q AS MATERIALIZED (SELECT $1::vector AS v)
     SELECT e.id, 1 - (e.embedding <=> q.v) AS similarity FROM q, graph_embeddings e
     WHERE e.scope = $2 AND $2 = ANY($3::text[]) AND e.kind = 'belief' AND e.model = $4 AND e.dimensions = $5 AND e.id = ANY($6::text[])`,
    hitRow,
  ),

  /** [home, visible, model, limit] */
  missing: statement(
    "vectors.missing",
    `SELECT n.kind, n.id, n.text FROM (${NODES}) n LEFT JOIN graph_embeddings e ON e.id = n.id
     WHERE n.scope = $1 AND $1 = ANY($2::text[])
       AND (e.id IS NULL OR e.model <> $3 OR e.text_hash <> md5(n.text))
     ORDER BY n.kind, n.id COLLATE "C" LIMIT $4`,
    targetRow,
  ),
  /** [home, visible, model] */
  status: statement(
    "vectors.status",
    `SELECT n.kind, count(*)::int AS total,
            count(*) FILTER (WHERE e.model = $3 AND e.text_hash = md5(n.text))::int AS current
     FROM (${NODES}) n LEFT JOIN graph_embeddings e ON e.id = n.id
     WHERE n.scope = $1 AND $1 = ANY($2::text[])
     GROUP BY n.kind`,
    statusRow,
  ),
};

function visible(view: ScopeView): string[] {
  return [...view.visibleScopeIds];
}

function pgvectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(",")}]`;
}

export async function detectPgvector(sql: SqlExecutor): Promise<boolean> {
  const [row] = await run(sql, vectors.hasPgvector);
  return row?.present ?? false;
}

/** The sign sketch of a vector as a bit-string literal: bit i is 1 when component i is positive. */
export function sketchOf(vector: Float32Array): string {
  let bits = "";
  for (let i = 0; i < vector.length; i++) bits += (vector[i] as number) > 0 ? "1" : "0";
  return bits;
}

/** A vector as big-endian float4 bytes in hex (what `float4send` gives per component), for `decode(…, 'hex')`. */
export function packedHexOf(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  // −0 written as 0, as the REAL[] column gets it through JSON (identical products either way).
  for (let i = 0; i < vector.length; i++) bytes.writeFloatBE((vector[i] as number) || 0, i * 4);
  return bytes.toString("hex");
}

/** Dot product of `query` with a vector stored as big-endian float4 bytes (null when their lengths differ). */
export function dotPacked(query: Float32Array, packed: Uint8Array): number | null {
  if (packed.byteLength !== query.length * 4) return null;
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  let sum = 0;
  for (let i = 0; i < query.length; i++) sum += (query[i] as number) * view.getFloat32(i * 4, false);
  return sum;
}

/** Writes vectors (last one wins for a repeated id); `view` null inside `apply` (each node's own scope). */
export async function writeEmbeddings(sql: SqlExecutor, pgvector: boolean, view: ScopeView | null, items: readonly NodeEmbedding[]): Promise<number> {
  if (items.length === 0) return 0;
  const rows = await run(sql, pgvector ? vectors.upsertPgvector : vectors.upsert, [
    embeddingsPayload(pgvector, items),
    view?.homeScopeId ?? null,
    view ? visible(view) : [],
  ]);
  return rows.length;
}

/** The `items` parameter of `embeddingUpsertCtes` (last one wins for a repeated id). */
export function embeddingsPayload(pgvector: boolean, items: readonly NodeEmbedding[]): string {
  const byId = new Map<string, NodeEmbedding>();
  for (const item of items) byId.set(item.id, item);
  return JSON.stringify(
    [...byId.values()].map((item) => ({
      id: item.id,
      kind: item.kind,
      model: item.model,
      text_hash: item.textHash,
      vector: Array.from(item.vector),
      sketch: sketchOf(item.vector),
      // pgvector computes cosines from its own column: the bytes are kept only where the application re-ranks.
      packed: pgvector ? null : packedHexOf(item.vector),
    })),
  );
}

/** Exact cosines of packed rows, best first (ties: id in code-unit order, as `COLLATE "C"`), at most k. */
function rankPacked(query: Float32Array, rows: readonly { id: string; packed: Uint8Array }[], k: number): VectorHit[] {
  const hits: VectorHit[] = [];
  for (const row of rows) {
    const similarity = dotPacked(query, row.packed);
    if (similarity !== null) hits.push({ id: row.id, similarity });
  }
  hits.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return hits.slice(0, k);
}

/** The k nearest beliefs of the home scope (module comment: sketch pass, then exact re-rank). */
export async function searchVectors(sql: SqlExecutor, pgvector: boolean, view: ScopeView, vector: Float32Array, options: VectorSearchOptions): Promise<VectorHit[]> {
  if (options.k <= 0 || vector.length === 0) return [];
  const includeEnded = options.includeEnded ?? false;
  const candidates = sketchCandidates(options.k);
  const sketch = sketchOf(vector);
  if (pgvector) {
    return run(sql, vectors.searchPgvector, [
      pgvectorLiteral(vector),
      view.homeScopeId,
      visible(view),
      options.model,
      vector.length,
      includeEnded,
      options.k,
      candidates,
      sketch,
    ]);
  }
  const rows = await run(sql, vectors.searchPacked, [view.homeScopeId, visible(view), options.model, vector.length, includeEnded, candidates, sketch]);
  return rankPacked(vector, rows, options.k);
}

export async function vectorSimilarities(
  sql: SqlExecutor,
  pgvector: boolean,
  view: ScopeView,
  vector: Float32Array,
  ids: readonly string[],
  model: string,
): Promise<Map<string, number>> {
  if (ids.length === 0 || vector.length === 0) return new Map();
  if (pgvector) {
    const rows = await run(sql, vectors.similaritiesPgvector, [pgvectorLiteral(vector), view.homeScopeId, visible(view), model, vector.length, [...ids]]);
    return new Map(rows.map((r) => [r.id, r.similarity]));
  }
  const rows = await run(sql, vectors.packedOf, [view.homeScopeId, visible(view), model, vector.length, [...ids]]);
  return new Map(rankPacked(vector, rows, rows.length).map((h) => [h.id, h.similarity]));
}

export async function missingEmbeddings(sql: SqlExecutor, view: ScopeView, model: string, limit: number | undefined): Promise<EmbeddingTarget[]> {
  return run(sql, vectors.missing, [view.homeScopeId, visible(view), model, limit ?? null]);
}

export async function embeddingStatus(sql: SqlExecutor, view: ScopeView, model: string): Promise<EmbeddingStatus> {
  const rows = await run(sql, vectors.status, [view.homeScopeId, visible(view), model]);
  const counts = (kind: EmbeddedKind) => {
    const row = rows.find((r) => r.kind === kind);
    return { total: row?.total ?? 0, current: row?.current ?? 0 };
  };
  return { model, beliefs: counts("belief"), evidence: counts("evidence") };
}
