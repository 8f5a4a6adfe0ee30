/**
 * Sentence-vector maintenance: how many of a scope's beliefs and evidence texts carry a current vector of
 * the configured embedder, and the rebuild that embeds the missing and stale ones (a new scope imported, the model
 * changed, writes made while the embedder was down). Owners only; the CLI runs it as the operator
 * (`npm run cli -- embeddings rebuild [--scope S]`).
 *
 * The rebuild works in batches: ask the store what is missing, embed those texts, store them, repeat. Each batch is
 * its own transaction, so an interrupted rebuild keeps what it did and the next run continues from there.
 */
import type { Caller } from "@/lib/access/principal";
import { modelKey } from "@/lib/engine";
import { embeddingTextHash, type EmbeddingStatus } from "@/lib/graph/embeddings";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import type { ServiceKit } from "./service-kit";

/** Texts per batch: one store round trip and one embedder call each. */
const REBUILD_BATCH = 64;

export interface RebuildProgress {
  scope: string;
  done: number;
  /** What was missing when the rebuild started (more may appear from concurrent writes). */
  total: number;
}

export interface RebuildResult extends EmbeddingStatus {
  scope: string;
  embedded: number;
}

export interface EmbeddingServices {
  embeddingStatus(caller: Caller, scopeSlug: string): Promise<EmbeddingStatus & { scope: string }>;
  rebuildEmbeddings(caller: Caller, scopeSlug: string, options?: { onProgress?: (progress: RebuildProgress) => void }): Promise<RebuildResult>;
}

export function embeddingServices(kit: ServiceKit): EmbeddingServices {
  const { store } = kit.config;

  function requireEmbedder() {
    const embedder = kit.config.embedder;
    if (!embedder) {
      throw new BeliefServiceError("unavailable", "No embedding model is configured here (run `npm run model:fetch`, or set CREDENCE_EMBEDDINGS).");
    }
    return embedder;
  }

  return {
    async embeddingStatus(caller, scopeSlug) {
      const ctx = await kit.context(caller, scopeSlug, "read");
      const embedder = requireEmbedder();
      return { ...(await store.embeddingStatus(ctx.view, modelKey(embedder.model))), scope: ctx.scope.slug };
    },

    async rebuildEmbeddings(caller, scopeSlug, options = {}) {
      const ctx = await kit.context(caller, scopeSlug, "owner");
      const embedder = requireEmbedder();
      const model = modelKey(embedder.model);
      const before = await store.embeddingStatus(ctx.view, model);
      const total = before.beliefs.total - before.beliefs.current + before.evidence.total - before.evidence.current;
      let embedded = 0;
      options.onProgress?.({ scope: ctx.scope.slug, done: 0, total });
      for (;;) {
        const batch = await store.missingEmbeddings(ctx.view, model, { limit: REBUILD_BATCH });
        if (batch.length === 0) break;
        const vectors = await embedder.embed(batch.map((t) => t.text));
        const written = await store.upsertEmbeddings(
          ctx.view,
          batch.flatMap((target, i) => {
            const vector = vectors[i];
            return vector ? [{ id: target.id, kind: target.kind, vector, model, textHash: embeddingTextHash(target.text) }] : [];
          }),
        );
        // A batch that stores nothing would come back forever: the node vanished between the two calls.
        if (written === 0) break;
        embedded += written;
        options.onProgress?.({ scope: ctx.scope.slug, done: embedded, total: Math.max(total, embedded) });
      }
      return { ...(await store.embeddingStatus(ctx.view, model)), scope: ctx.scope.slug, embedded };
    },
  };
}
