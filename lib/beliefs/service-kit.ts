/**
 * What every service module shares: configuration, the caller context, parameters, ids, the retry loop and the
 * grounding propagation that follows a write which may have cost a belief its last real support.
 */
import { randomUUID } from "node:crypto";
import {
  mergeChangeSets,
  modelKey,
  paramsVersion,
  resolveParams,
  type BeliefRecord,
  type ChangeSet,
  type CitationRef,
  type EngineParams,
} from "@/lib/engine";
import { propagateGrounding, type CascadeResult } from "@/lib/engine/grounding";
import { isGrounded, replay } from "@/lib/engine/replay";
import type { ScopeView, SystemCitationIndex } from "@/lib/graph/graph-store";
import { embeddingTextHash } from "@/lib/graph/embeddings";
import { rankHybrid, type HybridOptions, type HybridRanking } from "@/lib/retrieval/hybrid-search";
import { SemanticMatcher, withSemanticSimilarity } from "@/lib/retrieval/semantic-matcher";
import type { Role } from "@/lib/access/roles";
import type { Caller } from "@/lib/access/principal";
import type { BeliefChange, BeliefServicesConfig } from "./service-config";
import { callerContext, type CallerContext } from "./caller-context";
import { withConflictRetry, type RetryOptions } from "./conflict-retry";
import { keyedGate } from "./write-gate";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { scopeParamsRepository, type ScopeParamsRepository } from "@/lib/identity/scope-params";
import { withVectorsOnApply } from "./vectors-on-apply";

export type IdKind = "belief" | "evidence" | "mutation" | "changeset";
const ID_PREFIX: Record<IdKind, string> = { belief: "b", evidence: "ev", mutation: "mut", changeset: "cs" };

export interface ServiceKit {
  /** The configuration, with the Assessor's `similarity` made meaning-based when an embedder is configured. */
  config: BeliefServicesConfig;
  /** Meaning-based comparison (null without an embedder). */
  matcher: SemanticMatcher | null;
  /** The one candidate ranking of every search, recall and matching path (lib/retrieval/hybrid-search). */
  rank(view: ScopeView, query: string, options?: HybridOptions): Promise<HybridRanking>;
  /**
   * Hands the matcher the stored vectors the store holds in memory for these home-scope beliefs, when of the embedder's
   * model and of the belief's very text, so comparing a claim with them embeds the claim only. No read; beliefs whose
   * vector is not held are embedded when compared, as before.
   */
  primeVectors(view: ScopeView, beliefs: readonly { id: string; text: string }[]): void;
  params: ScopeParamsRepository;
  context(caller: Caller, scopeSlug: string, minimum: Role | "read"): Promise<CallerContext>;
  newId(kind: IdKind): string;
  /**
   * Runs a write of `scope` until it wins its optimistic-concurrency race (./conflict-retry); the writes of a scope
   * that contend run one at a time in this process (./write-gate). `gate: false` for what only reads (a dry run): it
   * can lose a race between two reads, but never makes a write lose one, so it neither waits for writes nor holds them.
   * `rehearse`: a read-only pass run outside a busy gate before queueing (./conflict-retry).
   */
  retry<T>(scope: string, run: (attempt: number) => Promise<T>, options?: { gate?: boolean } & Pick<RetryOptions, "rehearse">): Promise<T>;
  /**
   * Resolved parameters for every stored set of every scope, by content hash (the cascade crosses scopes). With
   * `only`, the versions the caller will look up, and `known`, sets it already holds (its scope's current one): when
   * each of those versions is the defaults' or a known set's, the stored sets are not read.
   */
  paramsIndex(only?: { versions: Iterable<string>; known: readonly EngineParams[] }): Promise<(version: string) => EngineParams>;
  /**
   * The system citation index with citations of unresolved sources left out: an entry whose source did not resolve
   * in its citer's view points at a placeholder and gets no events (docs/design.md §4.2), so retracting a hidden item never
   * reveals, through events, that somebody cited it.
   */
  resolvedCitations(): SystemCitationIndex;
}

export function createServiceKit(given: BeliefServicesConfig): ServiceKit {
  const matcher = given.embedder ? new SemanticMatcher(given.embedder) : null;
  // Every change-set the services apply carries its new nodes' vectors (./vectors-on-apply).
  const vectorStore = matcher ? withVectorsOnApply(given.store, { model: matcher.embedder.model, vectors: (texts) => matcher.vectors(texts) }) : given.store;
  const config: BeliefServicesConfig = { ...given, store: vectorStore, assessor: withSemanticSimilarity(given.assessor, matcher) };
  const params = scopeParamsRepository(config.db, config.params ?? {});
  const defaults = resolveParams(config.params ?? {});
  const defaultsVersion = paramsVersion(defaults);
  const store = config.store;
  const writeGate = keyedGate();
  return {
    config,
    matcher,
    rank: (view, query, options) => rankHybrid({ store, matcher }, view, query, options),
    primeVectors(view, beliefs) {
      if (matcher === null || store.heldVectors === undefined || beliefs.length === 0) return;
      const model = matcher.embedder.model;
      const vectors = store.heldVectors(view, beliefs.map((b) => b.id), { model: modelKey(model), dimensions: model.dimensions });
      for (const b of beliefs) {
        const held = vectors.get(b.id);
        // Only a vector of this very text (a rebuild not yet run after a change would leave an older one).
        if (held !== undefined && held.textHash === embeddingTextHash(b.text)) matcher.remember(b.text, held.vector);
      }
    },
    params,
    context: (caller, scopeSlug, minimum) => callerContext(config.db, caller, scopeSlug, minimum, params),
    newId: config.newId ?? ((kind) => `${ID_PREFIX[kind]}_${randomUUID()}`),
    retry: (scope, run, options) =>
      withConflictRetry(run, {
        maxAttempts: config.maxAttempts,
        ...(options?.gate === false ? {} : { serialise: { busy: () => writeGate.busy(scope), run: (fn) => writeGate.run(scope, fn) } }),
        ...(options?.rehearse ? { rehearse: options.rehearse } : {}),
      }),
    async paramsIndex(only) {
      const byVersion = new Map<string, EngineParams>([[defaultsVersion, defaults]]);
      for (const p of only?.known ?? []) byVersion.set(paramsVersion(p), p);
      const complete = only !== undefined && [...only.versions].every((v) => byVersion.has(v));
      if (!complete) for (const p of await params.allParams()) byVersion.set(paramsVersion(p), p);
      return (version) => byVersion.get(version) ?? defaults;
    },
    resolvedCitations() {
      const index = store.citationIndex();
      const keepResolved = async (refs: readonly CitationRef[], citedId: string): Promise<CitationRef[]> => {
        if (refs.length === 0) return [];
        const records = await index.loadMany([...new Set(refs.map((r) => r.beliefId))]);
        const resolved = new Set<string>();
        for (const { belief, history } of records)
          for (const item of history) if (item.type === "entry" && item.sourceId === citedId && item.sourceKind !== null) resolved.add(`${belief.id}#${item.seq}`);
        return refs.filter((r) => resolved.has(`${r.beliefId}#${r.seq}`));
      };
      return {
        ...index,
        citersOf: async (id) => keepResolved(await index.citersOf(id), id),
        load: (id) => index.load(id),
        loadMany: (ids) => index.loadMany(ids),
        citationClosure: (rootId, options) => index.citationClosure(rootId, options),
        async citersOfMany(ids) {
          const all = await index.citersOfMany(ids);
          const out = new Map<string, readonly CitationRef[]>();
          for (const [id, refs] of all) out.set(id, await keepResolved(refs, id));
          return out;
        },
      };
    },
  };
}

/** The figures a result reports for one side of a belief's change. */
export function beliefFigures(b: BeliefRecord["belief"]): NonNullable<BeliefChange["before"]> {
  return { credence: b.credence, confidence: b.confidence, tension: b.tension, status: b.status };
}

/** Before/after of one belief for results (`before`: the stored belief, with or without its history). */
export function beliefChange(before: BeliefRecord | BeliefRecord["belief"] | null, after: BeliefRecord["belief"], created: boolean = before === null): BeliefChange {
  const stored = before === null ? null : "belief" in before ? before.belief : before;
  return { beliefId: after.id, text: after.text, created, before: stored ? beliefFigures(stored) : null, after: beliefFigures(after) };
}

/** A write that names a belief which is no longer live (superseded, retired…): the caller must cite a live one. */
export function notLiveError(beliefId: string, status: string, hint = "cite it from a live belief instead"): BeliefServiceError {
  return new BeliefServiceError("invalid", `belief ${beliefId} is ${status}: ${hint}`, { fields: [{ field: "beliefId", message: "not live" }] });
}

/**
 * Adds the stripping cascade to `changeSet` for every existing belief it upserts that loses its grounding
 * (`before` holds the stored records). Returns the merged change-set and the cascade (null when nothing lost it).
 * An existing belief upserted without its record in `before` must be grounded after the write (it cannot have lost
 * its grounding); when a cascade runs, `loadBefore` reads those records, so that the cascade sees them as staged.
 */
export async function withGroundingPropagation(
  kit: ServiceKit,
  changeSet: ChangeSet,
  before: ReadonlyMap<string, BeliefRecord>,
  options: { dryRun?: boolean; known?: readonly EngineParams[]; loadBefore?: (ids: readonly string[]) => Promise<ReadonlyMap<string, BeliefRecord>> } = {},
): Promise<{ changeSet: ChangeSet; cascade: CascadeResult | null }> {
  const lost: BeliefRecord[] = [];
  // The grounding test reads only the parameter sets of the upserted beliefs, before and after (usually the scope's
  // current one, `known`); the cascade, which crosses scopes, reads every stored set.
  const versions = changeSet.beliefs.flatMap((u) => {
    const old = before.get(u.belief.id);
    return old ? [u.belief.paramsVersion, old.belief.paramsVersion] : [];
  });
  const paramsFor = await kit.paramsIndex({ versions, known: options.known ?? [] });
  for (const upsert of changeSet.beliefs) {
    const old = before.get(upsert.belief.id);
    if (!old) continue;
    const appended = changeSet.history.filter((h) => h.beliefId === upsert.belief.id).flatMap((h) => h.items);
    const history = [...old.history, ...appended];
    const p = paramsFor(upsert.belief.paramsVersion);
    if (isGrounded(replay(old.history, paramsFor(old.belief.paramsVersion))) && !isGrounded(replay(history, p))) {
      lost.push({ belief: upsert.belief, history });
    }
  }
  if (lost.length === 0) return { changeSet, cascade: null };
  // The cascade must see this change-set's beliefs as staged, not as stored: a belief written here and also reached
  // by the cascade then gets its events after the staged items, and the merge keeps the stored expected version.
  const unread = changeSet.beliefs.filter((u) => u.expectedVersion !== null && !before.has(u.belief.id)).map((u) => u.belief.id);
  const loaded = unread.length > 0 && options.loadBefore ? await options.loadBefore(unread) : new Map<string, BeliefRecord>();
  const staged = new Map<string, BeliefRecord>();
  for (const upsert of changeSet.beliefs) {
    const old = before.get(upsert.belief.id) ?? loaded.get(upsert.belief.id);
    if (!old && upsert.expectedVersion !== null) continue;
    const appended = changeSet.history.filter((h) => h.beliefId === upsert.belief.id).flatMap((h) => h.items);
    staged.set(upsert.belief.id, { belief: upsert.belief, history: [...(old?.history ?? []), ...appended] });
  }
  const index = kit.resolvedCitations();
  const cascade = await propagateGrounding(
    lost,
    {
      index: { citersOf: (id) => index.citersOf(id), load: async (id) => staged.get(id) ?? (await index.load(id)) },
      paramsFor: await kit.paramsIndex(),
      time: changeSet.time,
      actor: changeSet.actor,
      changeSetId: changeSet.id,
    },
    options,
  );
  return { changeSet: mergeChangeSets(changeSet, cascade.changeSet), cascade };
}
