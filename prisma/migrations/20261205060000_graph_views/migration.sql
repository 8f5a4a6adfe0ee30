-- Saved views of a scope's graph: where its nodes stand (positions, pins) and what is shown (filters, expanded topics,
-- the local graph). The view named '' is the scope's own layout, drawn on every visit; named ones are saved by editors
-- and opened by every member.
CREATE TABLE "graph_views" (
    "id" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "state" JSONB NOT NULL DEFAULT '{}',
    "positions" JSONB NOT NULL DEFAULT '{}',
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "graph_views_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "graph_views_scope_id_name_key" ON "graph_views"("scope_id", "name");
ALTER TABLE "graph_views" ADD CONSTRAINT "graph_views_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "scopes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
