-- Undecided readings and possible duplicates (lib/engine/readings.ts) are history rows of type `undecided` /
-- `possible_duplicate`; `live` turns false once a `decided` row targets them. The review queue lists a scope's open
-- ones: this index holds only those rows.
CREATE INDEX "graph_history_open_readings" ON "graph_history" ("belief_id", "seq") WHERE "type" IN ('undecided', 'possible_duplicate') AND "live";
