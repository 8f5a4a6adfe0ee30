-- `graph_embeddings.written_by`: the id of the transaction that last wrote the row (`pg_current_xact_id()`), so a
-- process that keeps a scope's vectors in memory (lib/graph/sql/vector-index.ts) reads only the rows written since its
-- last read: those with `written_by` at or above the oldest transaction that was still running then
-- (`pg_snapshot_xmin`). Every transaction below that one had ended, so nothing it wrote can appear later; the rows
-- of the transactions at or above it are read again next time. Rows written before this migration get 0 (read by a
-- first, whole load only).
ALTER TABLE "graph_embeddings" ADD COLUMN "written_by" xid8 NOT NULL DEFAULT '0'::xid8;
ALTER TABLE "graph_embeddings" ALTER COLUMN "written_by" SET DEFAULT pg_current_xact_id();
CREATE INDEX "graph_embeddings_written_by" ON "graph_embeddings" ("written_by");
