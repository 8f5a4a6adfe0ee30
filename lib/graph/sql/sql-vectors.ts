/**
 * Sentence vectors in the SQL store (table `graph_embeddings`, migration 20261201154130_graph_embeddings): named
 * statements and the functions the adapter calls. docs/decisions/008-sentence-vectors.md says why.
 *
 * Two statement sets, chosen once per store by `detectPgvector`:
 * * **pgvector** (PGlite always; a server where `CREATE EXTENSION vector` succeeded when migrating): the native
 *   `embedding vector` column, cosine distance `<=>` computed by the extension;
 * * **exact fallback** (a server without pgvector, as this machine's Postgres 15): the portable `vector REAL[]` column,
 *   the dot product of unit vectors computed in SQL by `unnest`.
 * Both are exact: a search ranks every vector of the home scope (index on scope, kind, model), never a sample. Anchoring
 * as every caller read: `scope = $home AND $home = ANY($visible)` inside the statement.
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

/** The nodes that can carry a vector, as (id, scope, kind, text): beliefs, and evidence that is not a placeholder. */
const NODES = `SELECT id, scope, 'belief' AS kind, data->>'text' AS text FROM graph_beliefs
               UNION ALL
               SELECT id, scope, 'evidence' AS kind, text FROM graph_evidence WHERE kind <> 'unresolved'`;

function upsert(pgvector: boolean) {
  const extraColumn = pgvector ? `, "embedding"` : "";
  const extraValue = pgvector ? `, e.vector::vector` : "";
  const extraUpdate = pgvector ? `, "embedding" = EXCLUDED."embedding"` : "";
  /** [items jsonb, home (null: the node's own scope, used inside apply), visible] */
  return statement(
    pgvector ? "vectors.upsertPgvector" : "vectors.upsert",
    `WITH e AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(id text, kind text, model text, text_hash text, vector real[])
     )
     INSERT INTO graph_embeddings ("id", "scope", "kind", "model", "dimensions", "text_hash", "vector"${extraColumn}, "updated_at")
     SELECT e.id, n.scope, e.kind, e.model, cardinality(e.vector), e.text_hash, e.vector${extraValue}, now()
     FROM e JOIN (${NODES}) n ON n.id = e.id AND n.kind = e.kind
     WHERE $2::text IS NULL OR (n.scope = $2 AND $2 = ANY($3::text[]))
     ON CONFLICT ("id") DO UPDATE SET "scope" = EXCLUDED."scope", "kind" = EXCLUDED."kind", "model" = EXCLUDED."model",
       "dimensions" = EXCLUDED."dimensions", "text_hash" = EXCLUDED."text_hash", "vector" = EXCLUDED."vector"${extraUpdate},
       "updated_at" = now()
     RETURNING "id"`,
    idRow,
  );
}

/** The query vector is parsed once (a CTE), not once per row as a cast of the parameter inside the row expressions would be. */
const SEARCH_FROM = `FROM q, graph_embeddings e JOIN graph_beliefs b ON b.id = e.id
     WHERE e.scope = $2 AND $2 = ANY($3::text[]) AND e.kind = 'belief' AND e.model = $4 AND e.dimensions = $5
       AND b.scope = $2 AND ($6::boolean OR b.live)`;

/** Dot product of the stored REAL[] with $1 in double precision. */
const DOT = `(SELECT sum(x::float8 * y::float8) FROM unnest(e.vector, q.v) AS u(x, y))`;

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

  /** [vector real[], home, visible, model, dimensions, includeEnded, k] */
  search: statement(
    "vectors.search",
    `WITH q AS MATERIALIZED (SELECT $1::real[] AS v)
     SELECT e.id, ${DOT} AS similarity ${SEARCH_FROM} ORDER BY similarity DESC, e.id COLLATE "C" LIMIT $7`,
    hitRow,
  ),
  /** [vector text '[…]', home, visible, model, dimensions, includeEnded, k] */
  searchPgvector: statement(
    "vectors.searchPgvector",
    `WITH q AS MATERIALIZED (SELECT $1::vector AS v)
     SELECT e.id, 1 - (e.embedding <=> q.v) AS similarity ${SEARCH_FROM}
     ORDER BY similarity DESC, e.id COLLATE "C" LIMIT $7`,
    hitRow,
  ),

  /** [vector real[], home, visible, model, dimensions, ids] */
  similarities: statement(
    "vectors.similarities",
    `WITH q AS MATERIALIZED (SELECT $1::real[] AS v)
     SELECT e.id, ${DOT} AS similarity FROM q, graph_embeddings e
     WHERE e.scope = $2 AND $2 = ANY($3::text[]) AND e.kind = 'belief' AND e.model = $4 AND e.dimensions = $5 AND e.id = ANY($6::text[])`,
    hitRow,
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

/** Writes vectors (last one wins for a repeated id); `view` null inside `apply` (each node's own scope). */
export async function writeEmbeddings(sql: SqlExecutor, pgvector: boolean, view: ScopeView | null, items: readonly NodeEmbedding[]): Promise<number> {
  if (items.length === 0) return 0;
  const byId = new Map<string, NodeEmbedding>();
  for (const item of items) byId.set(item.id, item);
  const payload = JSON.stringify(
    [...byId.values()].map((item) => ({ id: item.id, kind: item.kind, model: item.model, text_hash: item.textHash, vector: Array.from(item.vector) })),
  );
  const rows = await run(sql, pgvector ? vectors.upsertPgvector : vectors.upsert, [
    payload,
    view?.homeScopeId ?? null,
    view ? visible(view) : [],
  ]);
  return rows.length;
}

export async function searchVectors(sql: SqlExecutor, pgvector: boolean, view: ScopeView, vector: Float32Array, options: VectorSearchOptions): Promise<VectorHit[]> {
  if (options.k <= 0 || vector.length === 0) return [];
  const query = pgvector ? pgvectorLiteral(vector) : Array.from(vector);
  return run(sql, pgvector ? vectors.searchPgvector : vectors.search, [
    query,
    view.homeScopeId,
    visible(view),
    options.model,
    vector.length,
    options.includeEnded ?? false,
    options.k,
  ]);
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
  const query = pgvector ? pgvectorLiteral(vector) : Array.from(vector);
  const rows = await run(sql, pgvector ? vectors.similaritiesPgvector : vectors.similarities, [
    query,
    view.homeScopeId,
    visible(view),
    model,
    vector.length,
    [...ids],
  ]);
  return new Map(rows.map((r) => [r.id, r.similarity]));
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
