-- Idempotency keys of the REST API: `Idempotency-Key` on a write replays the first response for the same
-- principal, key and request, and refuses a different request under the same key. Not modelled in schema.prisma:
-- only lib/api/idempotency.ts reads and writes it, through parameterised SQL.
--
-- `principal` is the caller (user id and the scope its token is limited to), so two callers never share a key.
-- A row is `pending` while its first request runs and `done` once its response (status < 500) is stored; a 5xx
-- removes the row so a retry can run. Rows live 24 h (`expires_at`); an expired key is free again.

CREATE TABLE "api_idempotency_keys" (
    "principal" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    -- sha-256 of method, path with query, and the raw body
    "fingerprint" TEXT NOT NULL,
    "state" TEXT NOT NULL CHECK ("state" IN ('pending', 'done')),
    "status" INTEGER,
    "body" TEXT,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- last claim of a pending row; a pending row untouched for the lease period is taken over by a retry
    "claimed_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "expires_at" TIMESTAMPTZ NOT NULL,
    CONSTRAINT "api_idempotency_keys_pkey" PRIMARY KEY ("principal", "key")
);
CREATE INDEX "api_idempotency_keys_expires_at" ON "api_idempotency_keys" ("expires_at");
