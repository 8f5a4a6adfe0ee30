-- Per-(scope, term) document counts for retrieval: how many beliefs of a scope hold a term (`n_all`) and
-- how many of them are current (`n_current`, the postings' `current`), so a query's document frequencies are a few
-- row reads instead of a count over every posting of its terms (lib/graph/sql/sql-search.ts, step 1). Not modelled
-- in schema.prisma: only sql-search.ts reads it. Kept by statement-level triggers on graph_postings, in the same
-- transaction as the postings (which the triggers on graph_beliefs keep), so the counts always equal
-- `SELECT scope, term, count(*), count(*) FILTER (WHERE current) FROM graph_postings GROUP BY scope, term`.
--
-- Sharded by the writing backend (`pg_backend_pid() % 16`): concurrent writers of one scope add to different rows
-- of a common term instead of queueing on one row until commit; a reader sums at most 16 rows per term. A shard
-- may go negative (a belief counted by one backend, rewritten by another); only the sum means anything.

CREATE TABLE "graph_term_counts" (
    "scope" TEXT NOT NULL,
    "term" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "n_all" INTEGER NOT NULL,
    "n_current" INTEGER NOT NULL,
    CONSTRAINT "graph_term_counts_pkey" PRIMARY KEY ("scope", "term", "shard")
);

-- Rows are added in (scope, term) order, so two writers sharing a shard take the row locks in the same order.
CREATE FUNCTION "graph_term_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO graph_term_counts AS c (scope, term, shard, n_all, n_current)
  SELECT scope, term, pg_backend_pid() % 16, count(*), count(*) FILTER (WHERE current) FROM new_rows GROUP BY scope, term ORDER BY scope, term
  ON CONFLICT (scope, term, shard) DO UPDATE SET n_all = c.n_all + EXCLUDED.n_all, n_current = c.n_current + EXCLUDED.n_current;
  RETURN NULL;
END
$$;
CREATE FUNCTION "graph_term_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO graph_term_counts AS c (scope, term, shard, n_all, n_current)
  SELECT scope, term, pg_backend_pid() % 16, -count(*), -count(*) FILTER (WHERE current) FROM old_rows GROUP BY scope, term ORDER BY scope, term
  ON CONFLICT (scope, term, shard) DO UPDATE SET n_all = c.n_all + EXCLUDED.n_all, n_current = c.n_current + EXCLUDED.n_current;
  RETURN NULL;
END
$$;
-- graph_postings rows are only ever inserted and deleted (graph_postings_sync rewrites a belief's postings whole); an
-- UPDATE would bypass the counts, so it is refused.
CREATE FUNCTION "graph_term_counts_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'graph_postings rows are inserted and deleted, never updated (graph_term_counts would drift)';
END
$$;
CREATE TRIGGER "graph_term_counts_insert" AFTER INSERT ON "graph_postings" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION graph_term_counts_add();
CREATE TRIGGER "graph_term_counts_delete" AFTER DELETE ON "graph_postings" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION graph_term_counts_remove();
CREATE TRIGGER "graph_term_counts_update" BEFORE UPDATE ON "graph_postings"
  FOR EACH STATEMENT EXECUTE FUNCTION graph_term_counts_refuse_update();

INSERT INTO graph_term_counts (scope, term, shard, n_all, n_current)
SELECT scope, term, 0, count(*), count(*) FILTER (WHERE current) FROM graph_postings GROUP BY scope, term;
