-- Sentence vectors for beliefs and evidence texts. Not modelled in schema.prisma: only lib/graph/sql
-- (sql-vectors.ts) reads and writes this table, through parameterised SQL. docs/decisions/008-sentence-vectors.md explains the choice.
--
-- One row per node (its current vector), keyed by the node's id. `model` is `name@version` of the Embedder that made
-- it: a search compares only vectors of one model, and a model change leaves rows to re-embed
-- (`npm run cli -- embeddings rebuild`). `text_hash` is the md5 of the text embedded, so an edited text is stale too.
--
-- `vector` (REAL[]) is portable: every Postgres has it, and the exact fallback computes cosine over it. Where pgvector
-- exists (PGlite loads it; managed Postgres offers it), the block below adds a native `embedding` column (pgvector
-- `vector`, kept equal to `vector` by the store) that searches use instead. A server without pgvector skips it with a
-- notice: the same migration works on both.

CREATE TABLE "graph_embeddings" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    -- 'belief' | 'evidence'
    "kind" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dimensions" INTEGER NOT NULL,
    "text_hash" TEXT NOT NULL,
    "vector" REAL[] NOT NULL,
    "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT "graph_embeddings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "graph_embeddings_kind" CHECK ("kind" IN ('belief', 'evidence')),
    CONSTRAINT "graph_embeddings_dimensions" CHECK ("dimensions" = cardinality("vector"))
);
CREATE INDEX "graph_embeddings_scope_model" ON "graph_embeddings" ("scope", "kind", "model");

DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS vector;
    ALTER TABLE "graph_embeddings" ADD COLUMN "embedding" vector;
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pgvector is not available (%): graph_embeddings uses the exact REAL[] fallback', SQLERRM;
END
$$;
