-- Event time: when a history item, a belief's first observation or an evidence item happened or was seen, beside the
-- time it was recorded. `asOf` reads cut by these columns; the recorded times ("time", "created_at") stay as they are.
-- Rows written before this migration were observed when they were recorded.

ALTER TABLE "graph_history" ADD COLUMN "observed_at" TIMESTAMPTZ;
UPDATE "graph_history" SET "observed_at" = COALESCE(("data"->>'observedAt')::timestamptz, "time");
ALTER TABLE "graph_history" ALTER COLUMN "observed_at" SET NOT NULL;

-- The earliest event time of the belief's history (`Belief.validFrom`): an `asOf` read shows the belief from then on.
ALTER TABLE "graph_beliefs" ADD COLUMN "valid_from" TIMESTAMPTZ;
UPDATE "graph_beliefs" SET "valid_from" = COALESCE(("data"->>'validFrom')::timestamptz, "created_at");
ALTER TABLE "graph_beliefs" ALTER COLUMN "valid_from" SET NOT NULL;

ALTER TABLE "graph_evidence" ADD COLUMN "observed_at" TIMESTAMPTZ;
UPDATE "graph_evidence" SET "observed_at" = COALESCE(("data"->>'observedAt')::timestamptz, "created_at");
ALTER TABLE "graph_evidence" ALTER COLUMN "observed_at" SET NOT NULL;
