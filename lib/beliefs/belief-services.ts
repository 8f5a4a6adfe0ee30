/**
 * The belief services' facade (types): what server actions, the REST API, the MCP tools, the CLI and the demo seeder
 * call. Every method takes `(caller, scopeSlug, input)`: it builds the caller's authorised view of the URL's scope
 * through `lib/access`, checks the role (viewer reads · editor writes · reviewer reviews and lifts freezes · owner
 * changes parameters and imports), parses `input` with its schema from `./belief-schemas`, and never resolves an id
 * any other way. `input` is `unknown` on purpose: the REST routes and MCP tools hand over what they received, and the
 * method's schema (the one the OpenAPI document is generated from) is the only thing that decides what is valid. A scope the caller may not read answers exactly like a missing one (`not_found`).
 *
 * Writes: load → engine → `store.apply(changeSet)` (one transaction); on `VersionConflict` reload and retry
 * (bounded), in the scope's write gate, so concurrent writers never lose an update and, within one server, do not keep
 * losing to each other. Errors are `BeliefServiceError`.
 */
import type { EmbeddingServices } from "./embedding-services";
import type { Caller } from "@/lib/access/principal";
import type { ReadableScope } from "@/lib/access/readable-scopes";
import type {
  Belief,
  BeliefRecord,
  DecidedRelation,
  EssAssessment,
  Evidence,
  EvidenceEntry,
  History,
  IsoTime,
  MutationDecision,
  MutationRecord,
  OpenReadings,
  Relation,
  StabilityFlag,
  TopicFreeze,
} from "@/lib/engine";
import type { ConflictRecheck } from "@/lib/engine/mutation";
import type { RecallAnswer } from "@/lib/engine/recall";
import type { Checkpoint, EntryOutcome, ReplayMismatch } from "@/lib/engine/replay";
import type { GraphViewServices } from "./graph-view-services";
import type { GraphEdge, GraphOverview, GraphSlice, ImportResult, ScopeExport } from "@/lib/graph/graph-store";
import type { HarvestedClaim, PossibleDuplicate } from "@/lib/engine";
import type { ReadingQueue } from "./readings-service";

/** Who is asking: a user principal (session, or API token possibly limited to one scope), or the operator (`OPERATOR`). */
export type { Caller, Operator } from "@/lib/access/principal";
import type { IdentityServices, SignInServices } from "./identity-services";
import type { BeliefChange } from "./service-config";

export type { BeliefChange, BeliefServicesConfig } from "./service-config";

// ---------------------------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------------------------

/** A belief with its (possibly "as of") state and its full history. */
export interface BeliefDetail {
  belief: Belief;
  history: History;
  /** Per entry: what it counts for in the current replay (or as of `asOf`). */
  entries: readonly EntryOutcome[];
  /** Credence / confidence / tension / status after each change-set (the credence-over-time chart). */
  timeline: readonly Checkpoint[];
  /** Mutations that touched this belief, newest first. */
  mutations: readonly MutationRecord[];
  /** Older beliefs this one superseded (nearest first), as far as the caller can see. */
  supersedes: readonly Belief[];
  /** The belief that superseded this one, if any and visible. */
  supersededBy: Belief | null;
  /** Set when the detail is an "as of" reconstruction. */
  asOf: IsoTime | null;
  /** Open undecided readings and possible duplicates (no weight until decided), as of `asOf` when set. */
  openReadings: OpenReadings;
}

export interface RegisterEvidenceResult {
  evidence: Evidence;
  /** The assessment when `assess` was set. */
  assessment: EssAssessment | null;
}

export interface AssimilateResult {
  belief: Belief;
  /** The belief's whole history after the change-set (what replay of `belief` runs over). */
  history: History;
  created: boolean;
  /** The entries this call appended (verified / effectiveTier / launderingReason decided through the caller's view). */
  entries: readonly EvidenceEntry[];
  changeSetId: string;
  /** Other beliefs changed in the same change-set (related by the reader, or grounding stripped), visible ones only. */
  cascade: readonly BeliefChange[];
  /**
   * How the claim found its belief: `id` (beliefId), `key` (same normalised text), `restatement` (the reader read it
   * as restating a live belief), null (a new belief).
   */
  match: "id" | "key" | "restatement" | null;
  /** Other live beliefs the reader related the claim to, each given the claim's cited sources with that relation. */
  relations: readonly AssimilateRelation[];
  /**
   * A new belief that may restate a live one (`otherBeliefId`) but not surely (the write policy, `restatementPolicy`):
   * kept apart and linked as a possible duplicate, listed in the readings queue; null otherwise.
   */
  possibleDuplicate: PossibleDuplicate | null;
}

/** One belief an assimilated claim bears on, as the reader read it (`match: "relate"`). */
export interface AssimilateRelation {
  beliefId: string;
  text: string;
  relation: "SUPPORTS" | "REBUTS" | "CONTEXTUALIZES";
  strength: number;
  similarity: number;
  reasoning: string;
  assessor: string;
}

export interface HarvestResult {
  claims: readonly HarvestedClaim[];
  /** With `commit`: one result per claim, in claim order. */
  assimilated: readonly AssimilateResult[];
  /** With `commit` and no producer source: the `model_output` Evidence item the claims cite. */
  evidence: Evidence | null;
}

/** One assessed relation of the ingested text to an existing belief. */
export interface IngestRelation {
  beliefId: string;
  text: string;
  relation: Relation | "UNRELATED";
  /** The assessed strength [0,1] (the entry's weight). */
  strength: number;
  similarity: number;
  reasoning: string;
  assessor: string;
  /** The claim of the text it came from. */
  claim: string;
  /** The claim's index in `IngestResult.claims` (with `beliefId`, what an edit names). */
  claimIndex: number;
  /** When a person changed the reader's relation before the commit: what the reader read (else null). */
  readerRelation: Relation | null;
}

/** A relation the reader found that a person left out before the commit (alone or with its claim): not written. */
export interface IngestExcludedRelation {
  beliefId: string;
  text: string;
  relation: Relation;
  claim: string;
  claimIndex: number;
}

/** A related belief the reader could not decide for one claim: its guess and the confidence it gave. */
export interface IngestUndecided {
  beliefId: string;
  text: string;
  guess: Relation | "UNRELATED";
  confidence: number;
  similarity: number;
  reasoning: string;
  claim: string;
}

/** An existing live belief the text disagrees with (REBUTS), for the ingest's disagreement report. */
export interface Disagreement {
  beliefId: string;
  text: string;
  credence: number;
  strength: number;
  reasoning: string;
  claim: string;
}

export interface IngestResult {
  /** The registered Evidence item (for a discarded ingest: the rejected item kept for audit; for a dry run: not stored). */
  evidence: Evidence;
  ess: EssAssessment;
  /** committed: written; discarded: manipulative, only the evidence kept; dry_run: nothing written. */
  outcome: "committed" | "discarded" | "dry_run";
  claims: readonly string[];
  /**
   * A fingerprint of the reading (claims, relations, undecided links, ESS) before any edit: a commit that names it is
   * refused when reading the text again gives another one, so it applies exactly the plan the person edited.
   */
  planId: string;
  /** What a person left out before the commit: claim indices and relations; empty without edits. */
  excluded: { claims: readonly number[]; relations: readonly IngestExcludedRelation[] };
  /** Beliefs created (expansion) or supported as twins, and related beliefs revised. */
  changes: readonly BeliefChange[];
  relations: readonly IngestRelation[];
  /** Related beliefs the reader left UNDECIDED: kept on each as an undecided link, with no weight. */
  undecided: readonly IngestUndecided[];
  /** New beliefs kept apart from an existing one they may duplicate, linked as a possible duplicate. */
  possibleDuplicates: readonly { beliefId: string; otherBeliefId: string; score: number; claim: string }[];
  disagreements: readonly Disagreement[];
  /** Contraction events staged (belief id and severity). */
  contractions: readonly { beliefId: string; severity: number; reasoning: string }[];
  changeSetId: string;
  /** The staged beliefs after the change (dry run: what would be written). */
  beliefs: readonly Belief[];
}

export type { ReadingQueue, UndecidedReadingItem, PossibleDuplicateItem } from "./readings-service";

export interface DecideReadingResult {
  belief: Belief;
  /** The belief's whole history after the decision. */
  history: History;
  changeSetId: string;
  /** The entry a relation decision appended; null for UNRELATED, DUPLICATE and DISTINCT. */
  entrySeq: number | null;
}

export interface ReviseEntryResult {
  belief: Belief;
  /** The belief's whole history after the correction. */
  history: History;
  changeSetId: string;
  cascade: readonly BeliefChange[];
}

/** A relation correction: the revision's result, what was corrected, and the belief's figures before and after. */
export interface CorrectRelationResult extends ReviseEntryResult {
  correction: {
    evidenceId: string;
    beliefId: string;
    /** The relation the evidence carried before: correct it back to this to undo. */
    from: DecidedRelation;
    to: DecidedRelation;
    reason: string;
    actor: string;
    time: IsoTime;
    /** The entries corrected, and the `revised` events that did it (one per entry). */
    entrySeqs: readonly number[];
    revisionSeqs: readonly number[];
  };
  before: NonNullable<BeliefChange["before"]>;
  after: NonNullable<BeliefChange["before"]>;
}

export interface RetractResult {
  sourceId: string;
  dryRun: boolean;
  /** Beliefs touched (entries retracted or citations stripped), only those the caller may see; `belief` is the state after. */
  touched: readonly (BeliefChange & { belief: Belief; retractedSeqs: readonly number[]; strippedSeqs: readonly number[] })[];
  changeSetId: string | null;
}

export interface MutationResult {
  mutation: MutationRecord;
  /** What the protocol did (may differ from the caller's `mutationType`, then `warnings` says so). */
  decision: MutationDecision;
  warnings: readonly string[];
  flags: readonly StabilityFlag[];
  /** The proposed (or reinforced) belief, when one exists after the decision. */
  belief: Belief | null;
  /** Every belief the change-set touched. */
  changes: readonly BeliefChange[];
}

export interface ReviewQueue {
  pending: readonly MutationRecord[];
  blocked: readonly MutationRecord[];
  frozenTopics: readonly TopicFreeze[];
  counts: Readonly<Record<MutationRecord["status"], number>>;
}

/** A journaled conflict walked through the protocol again (`recheckMutation`). */
export interface MutationRecheck {
  mutationId: string;
  /** When it was walked (the server's clock). */
  computedAt: IsoTime;
  /** Null when the mutation recorded no conflict, or its existing belief can no longer be read. */
  recheck: ConflictRecheck | null;
}

export interface SynthesisCandidate {
  /** Stable pair id: `${beliefAId}|${beliefBId}` with the ids sorted. */
  id: string;
  beliefA: Belief;
  beliefB: Belief;
  /** The assessor's proposed reconciling sentence. */
  text: string;
  contextTags: readonly string[];
  reasoning: string;
  assessor: string;
  /** The sentence is a template joining both sides' sentences, not prose: rewrite it before accepting. */
  template: boolean;
}

export interface RetrievedBelief {
  belief: Belief;
  relevance: number;
  /** relevance × credence. */
  score: number;
}

export interface ReplayCheckResult {
  scope: string;
  checked: number;
  ok: boolean;
  mismatches: readonly { beliefId: string; mismatches: readonly ReplayMismatch[] }[];
}

import type { ScopeParamsView } from "@/lib/identity/scope-params";
export type { ScopeParamsView };

/** The graph's first view of a scope: its topic map (`GraphOverview` of the store) and how many beliefs it holds. */
export interface GraphOverviewResult extends GraphOverview {
  scope: string;
  /** Beliefs of the scope, live and ended (the sum over the topics). */
  beliefs: number;
}

/**
 * One expansion: the nodes it adds and its edges. A topic's page lists its beliefs and every live belief-to-belief
 * edge touching them, whose far end may lie in another topic (named by `fromTopic` / `toTopic`) and is then not in
 * `beliefs`; `next` pages on. A belief's expansion is its neighbourhood (evidence, mutations, beliefs; every edge
 * between them), `next` null.
 */
export interface GraphExpansion {
  beliefs: readonly Belief[];
  evidence: readonly Evidence[];
  mutations: readonly MutationRecord[];
  edges: readonly (GraphEdge & { fromTopic?: string; toTopic?: string })[];
  next: string | null;
}

export interface ScopeOverview {
  scope: string;
  beliefs: number;
  live: number;
  byStatus: Readonly<Record<Belief["status"], number>>;
  /** Mean tension over live beliefs (0 when none). */
  meanTension: number;
  pendingReview: number;
  frozenTopics: number;
  paramsVersion: string;
}

// ---------------------------------------------------------------------------------------------------------------
// The facade
// ---------------------------------------------------------------------------------------------------------------

export interface BeliefServices extends IdentityServices, SignInServices, EmbeddingServices, GraphViewServices {
  // ---- writes (editor) ----
  registerEvidence(caller: Caller, scopeSlug: string, input: unknown): Promise<RegisterEvidenceResult>;
  assimilate(caller: Caller, scopeSlug: string, input: unknown): Promise<AssimilateResult>;
  harvest(caller: Caller, scopeSlug: string, input: unknown): Promise<HarvestResult>;
  ingest(caller: Caller, scopeSlug: string, input: unknown): Promise<IngestResult>;
  reviseEntry(caller: Caller, scopeSlug: string, input: unknown): Promise<ReviseEntryResult>;
  /** Correct how an evidence item bears on a belief (editor); undone by correcting it back to `correction.from`. */
  correctRelation(caller: Caller, scopeSlug: string, input: unknown): Promise<CorrectRelationResult>;
  /** Open undecided readings and possible duplicates of the scope's live beliefs, oldest first (read). */
  listReadings(caller: Caller, scopeSlug: string, input?: unknown): Promise<ReadingQueue>;
  /** Decide an undecided reading or a possible duplicate (editor). */
  decideReading(caller: Caller, scopeSlug: string, input: unknown): Promise<DecideReadingResult>;
  /** Undo a reading's decision (editor): the link opens again and credence returns to what it was before. */
  undoReadingDecision(caller: Caller, scopeSlug: string, input: unknown): Promise<DecideReadingResult>;
  /** Editor of the source's own scope (403 if the caller sees the source without that role; 404 if not visible). */
  retract(caller: Caller, scopeSlug: string, input: unknown): Promise<RetractResult>;
  /** Throws `oscillation_hard_stop` (details.mutationId = the journaled blocked mutation) or `topic_frozen`. */
  proposeMutation(caller: Caller, scopeSlug: string, input: unknown): Promise<MutationResult>;

  // ---- review (reviewer) ----
  reviewMutation(caller: Caller, scopeSlug: string, input: unknown): Promise<MutationResult>;
  /**
   * Undo an approved supersede or merge (reviewer): one new change-set reinstates the superseded belief and returns the
   * proposal to the queue; both decisions stay in the histories and the journal (`mutation.undone`).
   */
  undoReview(caller: Caller, scopeSlug: string, input: unknown): Promise<MutationResult>;
  /**
   * The protocol's conflict check and decision tree walked again for a journaled mutation against the existing belief as
   * it stands now (reviewer; assessor calls, writes nothing): what the review card shows as its decision path.
   */
  recheckMutation(caller: Caller, scopeSlug: string, input: unknown): Promise<MutationRecheck>;
  liftFreeze(caller: Caller, scopeSlug: string, input: unknown): Promise<TopicFreeze>;
  /** viewer */
  reviewQueue(caller: Caller, scopeSlug: string): Promise<ReviewQueue>;

  // ---- synthesis (list: viewer; accept/dismiss: editor) ----
  listSynthesisCandidates(caller: Caller, scopeSlug: string): Promise<readonly SynthesisCandidate[]>;
  acceptSynthesis(caller: Caller, scopeSlug: string, input: unknown): Promise<AssimilateResult>;
  dismissSynthesis(caller: Caller, scopeSlug: string, input: unknown): Promise<void>;

  // ---- reads (viewer) ----
  /** Every scope the caller may read, with its role there (null: a public scope it is not a member of). By name. */
  listScopes(caller: Caller): Promise<readonly ReadableScope[]>;
  retrieve(caller: Caller, scopeSlug: string, input: unknown): Promise<readonly RetrievedBelief[]>;
  recall(caller: Caller, scopeSlug: string, input: unknown): Promise<RecallAnswer>;
  getBelief(caller: Caller, scopeSlug: string, input: unknown): Promise<BeliefDetail>;
  listBeliefs(caller: Caller, scopeSlug: string, input?: unknown): Promise<readonly Belief[]>;
  getEvidence(caller: Caller, scopeSlug: string, input: unknown): Promise<Evidence>;
  listMutations(caller: Caller, scopeSlug: string, input?: unknown): Promise<readonly MutationRecord[]>;
  getMutation(caller: Caller, scopeSlug: string, input: unknown): Promise<MutationRecord>;
  overview(caller: Caller, scopeSlug: string): Promise<ScopeOverview>;
  graph(caller: Caller, scopeSlug: string, input?: unknown): Promise<GraphSlice>;
  /** The topic map of a scope: never its beliefs in full (`graphOverviewInputSchema`). */
  graphOverview(caller: Caller, scopeSlug: string, input?: unknown): Promise<GraphOverviewResult>;
  /** One expansion of the graph, a topic's page or a belief's neighbourhood (`graphExpandInputSchema`). */
  graphExpand(caller: Caller, scopeSlug: string, input: unknown): Promise<GraphExpansion>;
  replayCheck(caller: Caller, scopeSlug: string, input?: unknown): Promise<ReplayCheckResult>;

  // ---- parameters (read: viewer; set: owner) ----
  getParams(caller: Caller, scopeSlug: string): Promise<ScopeParamsView>;
  listParamsVersions(caller: Caller, scopeSlug: string): Promise<readonly ScopeParamsView[]>;
  setParams(caller: Caller, scopeSlug: string, input: unknown): Promise<ScopeParamsView>;

  // ---- export / import (export: viewer; import: owner, into an empty scope) ----
  exportScope(caller: Caller, scopeSlug: string, input?: unknown): Promise<ScopeExport>;
  /** `{data, freshIds?}`: with `freshIds` every item gets a new id (a copy beside the scope it came from, `rekeyScopeExport`). */
  importScope(caller: Caller, scopeSlug: string, input: unknown): Promise<ImportResult>;
  /**
   * `{slug, name, data, freshIds?}`: creates the scope with the caller as owner and imports into it; when the import
   * is refused the new scope is removed again, so a failure leaves nothing behind.
   */
  importNewScope(caller: Caller, input: unknown): Promise<ImportResult>;
}

export type { BeliefRecord };
