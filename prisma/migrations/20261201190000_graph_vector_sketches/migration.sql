-- Vector search that does not compute a cosine for every vector of a scope, on every SQL backend.
-- Not modelled in schema.prisma: only lib/graph/sql/sql-vectors.ts reads and writes these, beside graph_embeddings.
--
-- `graph_vector_sketches`: one narrow row per stored vector with its sign sketch (bit i = 1 when component i > 0: the
-- binary quantisation of the vector, 48 bytes for 384 dimensions). A search ranks a scope's sketches by Hamming
-- distance to the query's (`bit_count(sketch # q)`, one sequential pass over ~100 bytes a row instead of 1.5 KiB of
-- floats), keeps the best few hundred, and re-ranks those by their exact cosine. Kept in a table of its own so the pass
-- reads only sketches, not the wide vector rows.
--
-- `graph_embeddings.packed`: the vector as big-endian float4 bytes (`float4send`), written beside the REAL[] column, so
-- the exact re-rank on a server without pgvector decodes the candidates' vectors in the application in one read
-- instead of unnesting arrays in SQL (which cost ~1 ms a vector).

CREATE TABLE "graph_vector_sketches" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "dimensions" INTEGER NOT NULL,
    "sketch" BIT VARYING NOT NULL,
    CONSTRAINT "graph_vector_sketches_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "graph_vector_sketches_scope" ON "graph_vector_sketches" ("scope", "kind", "model");

ALTER TABLE "graph_embeddings" ADD COLUMN "packed" BYTEA;

INSERT INTO "graph_vector_sketches" ("id", "scope", "kind", "model", "dimensions", "sketch")
SELECT e.id, e.scope, e.kind, e.model, e.dimensions,
       (SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i) FROM unnest(e.vector) WITH ORDINALITY AS u(x, i))::varbit
FROM "graph_embeddings" e WHERE e.dimensions > 0;

UPDATE "graph_embeddings" e
SET "packed" = (SELECT string_agg(float4send(x), ''::bytea ORDER BY i) FROM unnest(e.vector) WITH ORDINALITY AS u(x, i));
