-- Idempotency in the same transaction as the write. A claim of `api_idempotency_keys` gets an id
-- (`claim_id`, kept when a retry takes a stale key over, new when an expired key is claimed again), and the SQL graph
-- store writes one row of `graph_idempotency_marks` per change-set applied under that claim, in the change-set's own
-- transaction. A retry that takes a key over finds the marks and does not write again. Not modelled in schema.prisma:
-- only lib/api/idempotency.ts and lib/graph/sql/sql-idempotency.ts use them, through parameterised SQL.

ALTER TABLE "api_idempotency_keys" ADD COLUMN "claim_id" TEXT NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text);

CREATE TABLE "graph_idempotency_marks" (
    "principal" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "claim_id" TEXT NOT NULL,
    -- 1 for the request's first change-set, 2 for its second…
    "ordinal" INTEGER NOT NULL,
    "change_set_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT "graph_idempotency_marks_pkey" PRIMARY KEY ("principal", "key", "claim_id", "ordinal")
);
CREATE INDEX "graph_idempotency_marks_created_at" ON "graph_idempotency_marks" ("created_at");
