/**
 * The ports, in one place: what the engine and the application layer (`lib/beliefs`) need from the outside, defined
 * here and implemented by adapters.
 *
 * | port                     | defined in        | implemented by                                                  |
 * |--------------------------|-------------------|-----------------------------------------------------------------|
 * | `Clock`                  | here              | `lib/beliefs/settable-clock.ts` (system clock, settable clock)  |
 * | `ScopeView`              | here              | built by `lib/access` (`authorisedView` → `scopeViewOf`)        |
 * | `AuthorisedResolver`, `CitationIndex` | here | every `GraphStore` (`resolverFor(view)`, `citationIndex()`)     |
 * | `Assessor`               | `./assessor`      | `lib/reading`, `lib/assess/openai`                     |
 * | `Embedder`               | `./embedder`      | `lib/embed`                                                     |
 * | `RestatementPolicy`      | `./readings`      | `lib/reading/merge-policy.ts` (`restatementPolicy`)             |
 * | `GraphStore`             | `lib/graph/graph-store.ts` (its types name the store's own shapes: slices, exports) | `lib/graph/sql`, `lib/graph/neo4j` |
 *
 * Everything is re-exported from `@/lib/engine`, so a caller imports a port from one entry point.
 */
import type { BeliefRecord, EvidenceKind, IsoTime, ItemKind, Tier } from "./model";

export type { Assessor } from "./assessor";
export type { Embedder, EmbeddingModel } from "./embedder";

/** The only clock the engine sees. Tests and the demo inject fixed or back-dated clocks. */
export interface Clock {
  /** Current time as an ISO-8601 string. */
  now(): IsoTime;
}

/**
 * The caller's authorised view of one scope (docs/design.md §5), as the graph stores filter by it. Built only by `lib/access`
 * from the caller's memberships, the grants into the home scope and the public scopes.
 */
export interface ScopeView {
  /** The URL's scope: every read is anchored on it. */
  homeScopeId: string;
  /** Scopes whose items the caller may resolve (home if a member, granted, public). */
  visibleScopeIds: readonly string[];
}

/**
 * One live, verified, non-laundered `SUPPORTS` entry of a belief, as the resolver reports it. The engine derives
 * everything it needs about a cited belief from these: its real support (effective tier above `model_assertion`),
 * the strongest such tier, and the beliefs it cites (for cycle checks). The stores compute the list without a replay
 * (`supportRefsOf` in `./replay` is the one definition; the contract suite holds every store to it).
 */
export interface SupportRef {
  sourceId: string;
  sourceKind: ItemKind;
  effectiveTier: Tier;
}

export interface ResolvedEvidence {
  kind: "evidence";
  id: string;
  scope: string;
  evidenceKind: EvidenceKind;
  /** Assessed ESS, if any; an entry citing it carries this ess (else 1). */
  ess: number | null;
  retracted: boolean;
  /** Rejected as manipulative: citing it counts as unverified. */
  discarded: boolean;
}

export interface ResolvedBelief {
  kind: "belief";
  id: string;
  scope: string;
  /** Not superseded, retired or contracted. A belief that is not live has no real support. */
  live: boolean;
  supports: readonly SupportRef[];
}

export interface ResolvedMutation {
  kind: "mutation";
  id: string;
  scope: string;
}

export type ResolvedItem = ResolvedEvidence | ResolvedBelief | ResolvedMutation;

/**
 * The caller's authorised view (docs/design.md §5): the only way the engine learns whether an id exists.
 *
 * One lookup per id, with the visibility check inside the query: an id that exists but is not visible to the
 * caller returns `null` exactly like an id that does not exist (same code path, same queries). Every hop of a proof
 * chain goes through the same resolver.
 */
export interface AuthorisedResolver {
  resolve(id: string): Promise<ResolvedItem | null>;
}

/** A live entry citing some item: belief `beliefId`, entry `seq`. */
export interface CitationRef {
  beliefId: string;
  seq: number;
}

/**
 * System-level citation index for grounding propagation and retraction (docs/design.md §4.2). Not filtered by any caller's
 * view: the cascade is maintenance across scopes; what a caller is shown of it is filtered by the service.
 */
export interface CitationIndex {
  /** Live (not retracted, not stripped) entries whose `sourceId` is `id`, in any belief of any scope. */
  citersOf(id: string): Promise<readonly CitationRef[]>;
  /** A belief and its full history, or null if there is none. */
  load(beliefId: string): Promise<BeliefRecord | null>;
}
