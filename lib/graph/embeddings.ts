/**
 * Sentence vectors in the graph stores: what the `GraphStore` port's vector methods take and return, and the helpers
 * both adapters share so they behave alike.
 *
 * Every stored vector belongs to one node (a belief, or an evidence text) and records the `model` that made it
 * (`modelKey` of the Embedder: `name@version`) and the md5 of the text it embeds: searches compare only vectors of the
 * model asked for, and `missingEmbeddings` lists nodes whose vector is absent, of another model, or of an older text.
 * Vectors are unit length (the Embedder port's promise), so cosine similarity is their dot product.
 */
import { createHash } from "node:crypto";
import { ChangeSetRejected } from "./errors";
import type { CandidateStats } from "./graph-store";

export type EmbeddedKind = "belief" | "evidence";

export interface NodeEmbedding {
  id: string;
  kind: EmbeddedKind;
  /** Unit length. */
  vector: Float32Array;
  /** `modelKey(embedder.model)`, e.g. `all-minilm-l6-v2-q@1.19.0-beta29`. */
  model: string;
  /** `embeddingTextHash(text)` of the text embedded. */
  textHash: string;
}

export interface VectorSearchOptions {
  /** At most this many hits. */
  k: number;
  /** Only vectors of this model (`modelKey`); vectors of other models are never compared. */
  model: string;
  /** Include superseded / retired / contracted beliefs (as `CandidateSearchOptions.includeEnded`). Default false. */
  includeEnded?: boolean;
  /**
   * Ask for each hit's slim row (`VectorHit.stats`) with it: a store that checks the hits against the view in a
   * statement of its own may read the row there, sparing the caller a second read of the same beliefs. Stores that
   * cannot leave `stats` out.
   */
  withStats?: boolean;
  /**
   * With `withStats`: the distinct terms of the query the rows will be ranked for; a store may then ship only those of
   * each belief's terms, with `termCount` (`CandidateStats`).
   */
  statsTerms?: readonly string[];
}

/** A stored vector a store holds in memory, and the hash of the text it is of (`embeddingTextHash`). */
export interface HeldVector {
  vector: Float32Array;
  textHash: string;
}

export interface VectorHit {
  /** A belief of the home scope. */
  id: string;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
  /** The belief's slim row, as `candidateStatsByIds` reads it (only with `withStats`, and only from stores that read it). */
  stats?: CandidateStats;
}

/** A node whose vector is missing or stale, with the text to embed. */
export interface EmbeddingTarget {
  id: string;
  kind: EmbeddedKind;
  text: string;
}

export interface EmbeddingCounts {
  /** Nodes of the home scope that can carry a vector (evidence placeholders cannot: their text is a raw id). */
  total: number;
  /** Of which carry a current vector of the model asked about. */
  current: number;
}

export interface EmbeddingStatus {
  model: string;
  beliefs: EmbeddingCounts;
  evidence: EmbeddingCounts;
}

/** The fingerprint of an embedded text: md5 hex (not a security measure, a change detector). */
export function embeddingTextHash(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** Checks what a caller hands a store: finite, non-empty vectors, a model, a known kind. Throws ChangeSetRejected("invalid"). */
export function checkEmbeddings(items: readonly NodeEmbedding[]): void {
  for (const item of items) {
    if (item.vector.length === 0 || !item.vector.every(Number.isFinite)) {
      throw new ChangeSetRejected("invalid", `The vector for ${item.id} is empty or not finite.`);
    }
    if (item.model.length === 0 || (item.kind !== "belief" && item.kind !== "evidence")) {
      throw new ChangeSetRejected("invalid", `The vector for ${item.id} has no model or an unknown kind.`);
    }
  }
}

/** Exact cosine of unit vectors (their dot product); `null` when the dimensions differ (another model's vector). */
export function dotOrNull(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  if (a.length !== b.length) return null;
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}
