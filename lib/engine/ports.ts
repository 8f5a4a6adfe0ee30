/**
 * Ports the engine defines and adapters implement (`lib/access`, `lib/graph`, `lib/beliefs`).
 * The Assessor port lives in `./assessor`.
 */
import type { BeliefRecord, EvidenceKind, IsoTime, ItemKind, Tier } from "./model";

/** The only clock the engine sees. Tests and the demo inject fixed or back-dated clocks. */
export interface Clock {
  /** Current time as an ISO-8601 string. */
  now(): IsoTime;
}

/** A clock frozen at `time` (tests, dry runs, back-dated demo writes). */
export function fixedClock(time: IsoTime): Clock {
  return { now: () => time };
}

/**
 * One live, verified, non-laundered `SUPPORTS` entry of a belief, as the resolver reports it. The engine derives
 * everything it needs about a cited belief from these: its real support (effective tier above `model_assertion`),
 * the strongest such tier, and the beliefs it cites (for cycle checks). Adapters build the list with
 * `supportRefsOf(history, params)` so every store reports alike.
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
 * The caller's authorised view (SPEC §5): the only way the engine learns whether an id exists.
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
 * System-level citation index for grounding propagation and retraction (SPEC §4.2). Not filtered by any caller's
 * view: the cascade is maintenance across scopes; what a caller is shown of it is filtered by the service.
 */
export interface CitationIndex {
  /** Live (not retracted, not stripped) entries whose `sourceId` is `id`, in any belief of any scope. */
  citersOf(id: string): Promise<readonly CitationRef[]>;
  /** A belief and its full history, or null if there is none. */
  load(beliefId: string): Promise<BeliefRecord | null>;
}
