/**
 * What the services are built from (`BeliefServicesConfig`, given by the composition root) and the one result type the
 * service kit itself produces (`BeliefChange`). Kept apart from the facade's types so the kit never imports the facade.
 */
import type { Database } from "@/lib/db/database";
import type { Assessor, Belief, Clock, Embedder, EngineParamsInput } from "@/lib/engine";
import type { GraphStore } from "@/lib/graph/graph-store";

export interface BeliefServicesConfig {
  /** Prisma (scopes, memberships, grants, parameter sets). */
  db: Pick<Database, "prisma">;
  store: GraphStore;
  assessor: Assessor;
  /**
   * Sentence embeddings for meaning-based retrieval and claim matching (lib/retrieval); null or absent: lexical only.
   * When present, the Assessor's `similarity` is replaced by the restatement similarity (lib/retrieval/semantic-matcher).
   */
  embedder?: Embedder | null;
  /** Every server-set time comes from here (the demo back-dates it). */
  clock: Clock;
  /** Overrides of the engine defaults for scopes that have no parameter set of their own. */
  params?: EngineParamsInput;
  /** Id generator for beliefs, evidence, mutations and change-sets; default random UUIDs with a kind prefix. */
  newId?: (kind: "belief" | "evidence" | "mutation" | "changeset") => string;
  /** Optimistic-concurrency retries per write; default 8 attempts with jittered backoff. */
  maxAttempts?: number;
  /**
   * A write to a belief whose history is longer than this folds onto the belief's stored checkpoint instead of
   * loading and replaying the history (default 2 000; the test harness sets it low so every suite exercises both).
   */
  headHistoryLimit?: number;
}

/** One belief moved by a write, before and after. */
export interface BeliefChange {
  beliefId: string;
  text: string;
  created: boolean;
  before: Pick<Belief, "credence" | "confidence" | "tension" | "status"> | null;
  after: Pick<Belief, "credence" | "confidence" | "tension" | "status">;
}
