-- Incremental replay, split: a belief's fold checkpoint kept as a small head in
-- "graph_beliefs"."fold_checkpoint" (`CheckpointHead`: the scalars and the counts of the rows) and one row per
-- (belief, source) here (`CheckpointSource` without its name), so a write reads and rewrites only the rows of the
-- sources it cites instead of the whole checkpoint (290 KiB for 4 000 sources).
-- No conversion: a "fold_checkpoint" written before this migration is a whole checkpoint (it has "sources"); the store
-- reads it as such, and the next write replaces it with a head and these rows. A cache, never a source of truth: no
-- foreign key (a belief is never deleted; a test that empties the tables leaves rows no belief reads).
CREATE TABLE "graph_fold_sources" (
    "belief_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    CONSTRAINT "graph_fold_sources_pkey" PRIMARY KEY ("belief_id", "source")
);
