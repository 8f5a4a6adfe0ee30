-- One counter that moves whenever what decides an authorised view or a token changes: memberships, grants, scopes
-- (id, slug, name, visibility), a scope's parameter sets, and an API token's identity or revocation. A server keeps
-- the access rows it read (token principals, views) beside the counter's value, and reuses them only while a fresh
-- read of the counter still gives that value (lib/access/access-cache.ts), so a change applies to the next request
-- on every server. Not modelled in schema.prisma: only lib/access reads it.
--
-- The counter moves at commit (deferred constraint triggers): the row is locked only while a changing transaction
-- commits, never while it still takes other locks, so two changes cannot deadlock on it, and a reader never sees the
-- new value before the change itself is visible.

CREATE TABLE "access_epoch" (
    "id" INTEGER NOT NULL,
    "epoch" BIGINT NOT NULL,
    CONSTRAINT "access_epoch_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "access_epoch_one_row" CHECK ("id" = 1)
);
INSERT INTO "access_epoch" ("id", "epoch") VALUES (1, 0);

CREATE FUNCTION "access_epoch_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "access_epoch" SET "epoch" = "epoch" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER "access_epoch_memberships" AFTER INSERT OR UPDATE OR DELETE ON "memberships"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_epoch_bump();
CREATE CONSTRAINT TRIGGER "access_epoch_grants" AFTER INSERT OR UPDATE OR DELETE ON "scope_grants"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_epoch_bump();
CREATE CONSTRAINT TRIGGER "access_epoch_scopes" AFTER INSERT OR DELETE OR UPDATE OF "id", "slug", "name", "is_public", "created_at" ON "scopes"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_epoch_bump();
CREATE CONSTRAINT TRIGGER "access_epoch_scope_params" AFTER INSERT OR UPDATE OR DELETE ON "scope_params"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_epoch_bump();
-- A new token is read from the table on its first use (nothing cached yet); recording its use (last_used_at) changes
-- nothing a cache holds.
CREATE CONSTRAINT TRIGGER "access_epoch_api_tokens" AFTER DELETE OR UPDATE OF "id", "user_id", "scope_id", "name", "token_hash", "revoked_at" ON "api_tokens"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_epoch_bump();
-- TRUNCATE has no row triggers: it moves the counter at once (its lock is held to commit anyway).
CREATE TRIGGER "access_epoch_truncate" AFTER TRUNCATE ON "memberships" FOR EACH STATEMENT EXECUTE FUNCTION access_epoch_bump();
CREATE TRIGGER "access_epoch_truncate_grants" AFTER TRUNCATE ON "scope_grants" FOR EACH STATEMENT EXECUTE FUNCTION access_epoch_bump();
CREATE TRIGGER "access_epoch_truncate_scopes" AFTER TRUNCATE ON "scopes" FOR EACH STATEMENT EXECUTE FUNCTION access_epoch_bump();
CREATE TRIGGER "access_epoch_truncate_scope_params" AFTER TRUNCATE ON "scope_params" FOR EACH STATEMENT EXECUTE FUNCTION access_epoch_bump();
CREATE TRIGGER "access_epoch_truncate_api_tokens" AFTER TRUNCATE ON "api_tokens" FOR EACH STATEMENT EXECUTE FUNCTION access_epoch_bump();
