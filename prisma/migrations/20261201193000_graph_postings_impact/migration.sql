-- Impact-ordered postings: the read index gains credence as a key column, so top-k retrieval reads only the
-- postings of a common term whose credence can still reach the current k-th score (a range, best first) instead of
-- the whole list (lib/graph/sql/sql-search.ts, step 2). The statistics read (scope, term) as a prefix of the same index.
CREATE INDEX "graph_postings_impact" ON "graph_postings" ("scope", "term", "credence" DESC) INCLUDE ("belief_id", "current", "n_terms");
DROP INDEX "graph_postings_read";
