-- Postings follow a belief update in place when only the credence changed: most writes (an assimilation, each belief
-- an ingest relates to) change a belief's figures and never its terms, scope or currency, and rewriting all its
-- postings (a delete and an insert per term, each passed on to graph_term_counts) cost more than the rest of the write.
-- An UPDATE whose rows keep scope, terms and currency now sets the postings' credence only; the other rows are
-- rewritten whole as before. graph_term_counts does not depend on credence, so postings may now be updated, but never
-- in the columns the counts read.

-- On UPDATE, "kept" rows (same id, scope, terms and currency: postings with the same keys and counts) get their
-- credence set; the others are rewritten.
CREATE OR REPLACE FUNCTION "graph_postings_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM graph_postings p USING old_rows o WHERE p.belief_id = o.id;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO graph_postings SELECT r.* FROM new_rows n, LATERAL graph_postings_rows(n) r;
  ELSE
    DELETE FROM graph_postings p USING old_rows o
    WHERE p.belief_id = o.id
      AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.scope = o.scope AND n.search_terms IS NOT DISTINCT FROM o.search_terms
                        AND (n.live AND n.valid_until IS NULL) = (o.live AND o.valid_until IS NULL));
    INSERT INTO graph_postings SELECT r.* FROM new_rows n, LATERAL graph_postings_rows(n) r
    WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE n.id = o.id AND n.scope = o.scope AND n.search_terms IS NOT DISTINCT FROM o.search_terms
                        AND (n.live AND n.valid_until IS NULL) = (o.live AND o.valid_until IS NULL));
    UPDATE graph_postings p SET credence = n.credence
    FROM new_rows n JOIN old_rows o ON n.id = o.id AND n.scope = o.scope AND n.search_terms IS NOT DISTINCT FROM o.search_terms
                        AND (n.live AND n.valid_until IS NULL) = (o.live AND o.valid_until IS NULL)
    WHERE p.belief_id = n.id AND p.credence IS DISTINCT FROM n.credence;
  END IF;
  RETURN NULL;
END
$$;

-- The refusal now covers only the columns graph_term_counts reads (and the key): a credence update passes.
DROP TRIGGER "graph_term_counts_update" ON "graph_postings";
CREATE TRIGGER "graph_term_counts_update" BEFORE UPDATE OF "scope", "term", "belief_id", "current" ON "graph_postings"
  FOR EACH STATEMENT EXECUTE FUNCTION graph_term_counts_refuse_update();
