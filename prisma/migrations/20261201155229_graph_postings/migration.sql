-- Postings for retrieval: one row per (belief, content term), so a query's ranking statistics and its
-- best candidates come from an index-only read of the postings of its terms instead of every matching belief row.
-- Not modelled in schema.prisma: only lib/graph/sql/sql-search.ts reads it; the triggers below keep it equal to
-- graph_beliefs ("search_terms" split into terms), whatever writes the beliefs.
--
-- `current` = the belief qualifies for a search that excludes ended beliefs: its status is live AND it has no
-- validUntil (the engine's `isLiveCandidate` without an asOf). `n_terms` = how many distinct terms the belief has
-- (the ranking's focus denominator).

CREATE TABLE "graph_postings" (
    "scope" TEXT NOT NULL,
    "term" TEXT NOT NULL,
    "belief_id" TEXT NOT NULL,
    "credence" DOUBLE PRECISION NOT NULL,
    "current" BOOLEAN NOT NULL,
    "n_terms" INTEGER NOT NULL,
    CONSTRAINT "graph_postings_pkey" PRIMARY KEY ("scope", "term", "belief_id")
);
-- Covering index: a query's postings are read from the index alone.
CREATE INDEX "graph_postings_read" ON "graph_postings" ("scope", "term") INCLUDE ("belief_id", "credence", "current", "n_terms");
CREATE INDEX "graph_postings_belief" ON "graph_postings" ("belief_id");

-- The postings of one belief row.
CREATE FUNCTION "graph_postings_rows"("b" "graph_beliefs") RETURNS SETOF "graph_postings" LANGUAGE sql STABLE AS $$
  WITH t AS (SELECT DISTINCT x AS term FROM unnest(string_to_array(b.search_terms, ' ')) AS x WHERE x <> '')
  SELECT b.scope, t.term, b.id, b.credence, b.live AND b.valid_until IS NULL, (SELECT count(*) FROM t)::int FROM t
$$;

-- Statement-level triggers with transition tables: one set-based statement per write statement, whatever its size.
CREATE FUNCTION "graph_postings_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM graph_postings p USING old_rows o WHERE p.belief_id = o.id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO graph_postings SELECT r.* FROM new_rows n, LATERAL graph_postings_rows(n) r;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "graph_postings_insert" AFTER INSERT ON "graph_beliefs" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION graph_postings_sync();
CREATE TRIGGER "graph_postings_update" AFTER UPDATE ON "graph_beliefs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION graph_postings_sync();
CREATE TRIGGER "graph_postings_delete" AFTER DELETE ON "graph_beliefs" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION graph_postings_sync();

INSERT INTO graph_postings SELECT r.* FROM graph_beliefs b, LATERAL graph_postings_rows(b) r;
