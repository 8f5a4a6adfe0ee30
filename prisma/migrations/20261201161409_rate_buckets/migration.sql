-- Rate limits shared by every app server on one Postgres (used when REDIS_URL is not set and the database
-- is a server): one token bucket per key, refilled and spent in one atomic statement by lib/api/rate-limiter-postgres.ts.
-- Not modelled in schema.prisma. Rows of keys unseen for a day are removed now and then.
CREATE TABLE "api_rate_buckets" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "allowed" BOOLEAN NOT NULL,
    "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT "api_rate_buckets_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "api_rate_buckets_updated_at" ON "api_rate_buckets" ("updated_at");
