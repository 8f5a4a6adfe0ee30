-- The owner's note on a parameter version (why it was changed), shown in the version history.
ALTER TABLE "scope_params" ADD COLUMN "note" TEXT;
