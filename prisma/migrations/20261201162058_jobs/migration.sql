-- Background jobs: a durable queue in the app's own database (PGlite or Postgres), claimed with
-- `FOR UPDATE SKIP LOCKED` under a lease so a job whose server died is picked up by another. Not modelled in
-- schema.prisma: only lib/jobs reads and writes it, through parameterised SQL.
CREATE TABLE "jobs" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    -- who asked (the principal the job runs as) and where
    "principal" JSONB NOT NULL,
    "owner" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "state" TEXT NOT NULL CHECK ("state" IN ('queued', 'running', 'succeeded', 'failed')),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 5,
    "run_after" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "locked_by" TEXT,
    "locked_until" TIMESTAMPTZ,
    "progress" JSONB,
    "result" JSONB,
    "error" JSONB,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "jobs_runnable" ON "jobs" ("state", "run_after");
CREATE INDEX "jobs_owner" ON "jobs" ("owner", "created_at");
