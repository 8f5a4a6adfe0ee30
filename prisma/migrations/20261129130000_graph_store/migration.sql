-- The SQL graph store: the belief graph on the same Postgres as Prisma (PGlite or a server).
-- Not modelled in schema.prisma: only lib/graph/sql reads and writes these tables, through parameterised SQL.
--
-- Every node row keeps the engine's value as JSON (`data`, the source of truth for reads and exact export) beside the
-- columns that queries filter, sort and join on. `scope` is a plain id (no foreign key): the graph may hold items of
-- scopes managed elsewhere, and scope deletion is not a graph operation.

CREATE TABLE "graph_beliefs" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    -- status not superseded / retired / contracted
    "live" BOOLEAN NOT NULL,
    "review_state" TEXT NOT NULL,
    "credence" DOUBLE PRECISION NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
    "tension" DOUBLE PRECISION NOT NULL,
    "support_weight" DOUBLE PRECISION NOT NULL,
    "rebuttal_weight" DOUBLE PRECISION NOT NULL,
    "version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ NOT NULL,
    "updated_at" TIMESTAMPTZ NOT NULL,
    "valid_until" TIMESTAMPTZ,
    -- the engine's content terms (lib/engine/retrieval `tokenize`), space separated
    "search_terms" TEXT NOT NULL,
    "search_vector" TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "search_terms")) STORED,
    "data" JSONB NOT NULL,
    CONSTRAINT "graph_beliefs_pkey" PRIMARY KEY ("id")
);
-- SPEC §3: key unique among a scope's live beliefs.
CREATE UNIQUE INDEX "graph_beliefs_live_key" ON "graph_beliefs" ("scope", "key") WHERE "live";
CREATE INDEX "graph_beliefs_scope_id" ON "graph_beliefs" ("scope", "id");
CREATE INDEX "graph_beliefs_scope_topic" ON "graph_beliefs" ("scope", "topic");
CREATE INDEX "graph_beliefs_search" ON "graph_beliefs" USING GIN ("search_vector");

CREATE TABLE "graph_evidence" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ NOT NULL,
    "retracted_at" TIMESTAMPTZ,
    "data" JSONB NOT NULL,
    CONSTRAINT "graph_evidence_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "graph_evidence_scope_id" ON "graph_evidence" ("scope", "id");
-- One placeholder per (scope, raw id); md5 keeps long raw ids within the btree row limit.
CREATE UNIQUE INDEX "graph_evidence_placeholder" ON "graph_evidence" ("scope", md5("text")) WHERE "kind" = 'unresolved';

CREATE TABLE "graph_mutations" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "time" TIMESTAMPTZ NOT NULL,
    "belief_ids" TEXT[] NOT NULL,
    "data" JSONB NOT NULL,
    CONSTRAINT "graph_mutations_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "graph_mutations_scope_status" ON "graph_mutations" ("scope", "status", "time");
CREATE INDEX "graph_mutations_scope_topic" ON "graph_mutations" ("scope", "topic", "time");
CREATE INDEX "graph_mutations_belief_ids" ON "graph_mutations" USING GIN ("belief_ids");

-- A belief's history: entries and events, one row per seq. `live` is false once a retracted or stripped event
-- targets the entry; `relation` and `weight` carry the latest revision (the JSON keeps the original entry).
CREATE TABLE "graph_history" (
    "belief_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "time" TIMESTAMPTZ NOT NULL,
    "change_set" TEXT NOT NULL,
    "source_id" TEXT,
    "source_kind" TEXT,
    "relation" TEXT,
    "weight" DOUBLE PRECISION,
    "target_seq" INTEGER,
    "verified" BOOLEAN,
    "laundered" BOOLEAN,
    "live" BOOLEAN NOT NULL,
    "data" JSONB NOT NULL,
    CONSTRAINT "graph_history_pkey" PRIMARY KEY ("belief_id", "seq"),
    CONSTRAINT "graph_history_belief_fkey" FOREIGN KEY ("belief_id") REFERENCES "graph_beliefs" ("id")
);
-- The system citation index: live entries by cited id (the cascade's one lookup per hop).
CREATE INDEX "graph_history_citers" ON "graph_history" ("source_id") WHERE "type" = 'entry' AND "live";

-- Edges. Entry edges (SUPPORTS / REBUTS / CONTEXTUALIZES) run source → belief and carry the entry's seq; the
-- others (SUPERSEDES, REFINES, SYNTHESIZES between beliefs, CONCERNS from a mutation) have seq 0.
CREATE TABLE "graph_edges" (
    "kind" TEXT NOT NULL,
    "from_id" TEXT NOT NULL,
    "to_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL DEFAULT 0,
    "live" BOOLEAN NOT NULL DEFAULT TRUE,
    "time" TIMESTAMPTZ NOT NULL,
    "data" JSONB NOT NULL,
    CONSTRAINT "graph_edges_pkey" PRIMARY KEY ("from_id", "to_id", "seq", "kind")
);
CREATE INDEX "graph_edges_to" ON "graph_edges" ("to_id");

CREATE TABLE "graph_topic_freezes" (
    "scope" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "frozen" BOOLEAN NOT NULL,
    "data" JSONB NOT NULL,
    CONSTRAINT "graph_topic_freezes_pkey" PRIMARY KEY ("scope", "topic")
);

-- Applied change-set ids: a change-set applies at most once.
CREATE TABLE "graph_change_sets" (
    "id" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "time" TIMESTAMPTZ NOT NULL,
    "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT "graph_change_sets_pkey" PRIMARY KEY ("id")
);
