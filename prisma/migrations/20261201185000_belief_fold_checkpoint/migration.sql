-- Incremental replay: the engine's fold state after a belief's whole history (`FoldCheckpoint`,
-- lib/engine/replay.ts), written with the belief by every change-set that carries one, so the next write to the
-- belief folds only its own items instead of replaying the history. NULL = none stored (rows written before this
-- migration, imports, writes that did not compute one): the next write replays the history and stores one.
-- A cache of the history, never a source of truth: `replay check` still compares the stored belief with the replay.
ALTER TABLE "graph_beliefs" ADD COLUMN "fold_checkpoint" JSONB;
