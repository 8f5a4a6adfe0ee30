/**
 * The belief model (docs/design.md §3): plain data, no behaviour beyond total orders and lookups.
 *
 * A belief's stored fields are a cache of `replay(history, params)`; the history (entries and events, ordered by
 * `seq`) is the source of truth and nothing in it is ever deleted.
 */
import { RELATIONS, type AssessorStamp, type DecidedRelation, type ReasoningType, type Relation } from "./assessor";

export { RELATIONS };
export type { Relation, ReasoningType, AssessorStamp };

/** Evidence tiers, weakest first. The order is the array order (see `tierRank`). */
export const TIERS = [
  "model_assertion",
  "observation",
  "document",
  "measurement",
  "executable_check",
  "held_out_truth",
] as const;
export type Tier = (typeof TIERS)[number];

const TIER_RANK: Readonly<Record<Tier, number>> = {
  model_assertion: 0,
  observation: 1,
  document: 2,
  measurement: 3,
  executable_check: 4,
  held_out_truth: 5,
};

/** 0 for `model_assertion` … 5 for `held_out_truth`. */
export function tierRank(tier: Tier): number {
  return TIER_RANK[tier];
}

/** The weaker of two tiers. */
export function minTier(a: Tier, b: Tier): Tier {
  return TIER_RANK[a] <= TIER_RANK[b] ? a : b;
}

/** The stronger of two tiers. */
export function maxTier(a: Tier, b: Tier): Tier {
  return TIER_RANK[a] >= TIER_RANK[b] ? a : b;
}

/** Real evidence is anything above `model_assertion`. */
export function isRealTier(tier: Tier): boolean {
  return TIER_RANK[tier] > 0;
}

/**
 * Evidence kinds. `unresolved` is the in-scope placeholder for a cited id that did not resolve in the citer's view
 * (docs/design.md §2); it holds the raw id string as its text and never backs more than `model_assertion`.
 */
export const EVIDENCE_KINDS = [
  "model_output",
  "observation",
  "document",
  "measurement",
  "executable_check",
  "held_out_truth",
  "unresolved",
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** The highest tier an evidence kind can back (docs/design.md §3). */
export const EVIDENCE_KIND_TIER_CAP: Readonly<Record<EvidenceKind, Tier>> = {
  model_output: "model_assertion",
  observation: "observation",
  document: "document",
  measurement: "measurement",
  executable_check: "executable_check",
  held_out_truth: "held_out_truth",
  unresolved: "model_assertion",
};

/** The tier entries made from evidence of this kind carry when nobody claims otherwise (ingest, mutation source events). */
export function tierOfKind(kind: EvidenceKind): Tier {
  return EVIDENCE_KIND_TIER_CAP[kind];
}

/** Node kinds of the graph; what an id can resolve to. */
export const ITEM_KINDS = ["evidence", "belief", "mutation"] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** Edges between beliefs (evidence entries are SUPPORTS / REBUTS / CONTEXTUALIZES; CONCERNS links a mutation to beliefs). */
export const BELIEF_EDGE_KINDS = ["SUPERSEDES", "REFINES", "SYNTHESIZES"] as const;
export type BeliefEdgeKind = (typeof BELIEF_EDGE_KINDS)[number];
export const EDGE_KINDS = [...RELATIONS, ...BELIEF_EDGE_KINDS, "CONCERNS"] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

export const BELIEF_STATUSES = [
  "provisional",
  "supported",
  "canonical",
  "disputed",
  "superseded",
  "retired",
  "contracted",
] as const;
export type BeliefStatus = (typeof BELIEF_STATUSES)[number];

/** Statuses set by events; a belief in one of them is no longer live. */
export const TERMINAL_STATUSES: readonly BeliefStatus[] = ["superseded", "retired", "contracted"];

/** "Live": not superseded, retired or contracted. The one definition; every other check calls it. */
export function isLiveStatus(status: string): boolean {
  return !(TERMINAL_STATUSES as readonly string[]).includes(status);
}

export const REVIEW_STATES = ["none", "pending_review"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/**
 * Why an entry was laundered (effective weight 0, kept in the trail):
 * `self_citation` — the source is the belief itself;
 * `citation_cycle` — the cited belief cites the citer back through SUPPORTS citations of any length;
 * `ungrounded_belief` — the cited belief has no live real support reachable through the caller's view
 *   (checked transitively; a cited belief that is no longer live counts as ungrounded).
 */
export const LAUNDERING_REASONS = ["self_citation", "citation_cycle", "ungrounded_belief"] as const;
export type LaunderingReason = (typeof LAUNDERING_REASONS)[number];

/** Who decided an entry's relation and weight: an assessor stamp, or `caller` when the request stated it. */
export type EntryAssessor = AssessorStamp | "caller";

/** ISO-8601 timestamp. */
export type IsoTime = string;

interface HistoryItemBase {
  /** Position in the belief's history, strictly increasing from 1: the record order. */
  seq: number;
  /** When the item was recorded: the server's clock at the write (never the caller's). */
  time: IsoTime;
  /**
   * When it happened or was seen (event time), as the caller stated it; absent = `time`. Replay orders, cools and
   * cuts `asOf` by it (`eventTime`), ties in record order.
   */
  observedAt?: IsoTime;
  actor: string;
  /** Items written by one request share it. */
  changeSet: string;
}

/** One step of a belief's history: a piece of evidence bearing on it (docs/design.md §3). */
export interface EvidenceEntry extends HistoryItemBase {
  type: "entry";
  /** The cited item's id as the caller gave it; `null` for an anonymous model assertion (each counts on its own). */
  sourceId: string | null;
  /** What `sourceId` resolved to through the caller's view at assimilation; `null` when unverified or anonymous. */
  sourceKind: ItemKind | null;
  relation: Relation;
  /** The tier the caller (or the ingest pipeline) claimed. */
  tier: Tier;
  /** [0,1], default 1; the assessed strength when the ingest pipeline made it. */
  weight: number;
  /** [0,1]: the cited evidence's assessed ESS, else 1. Assessed strength = weight × ess. */
  ess: number;
  /** Decided once at assimilation, through the caller's authorised view. */
  verified: boolean;
  effectiveTier: Tier;
  launderingReason: LaunderingReason | null;
  reasoning: string | null;
  assessor: EntryAssessor;
  /** Output of replay (log-odds, before contraction scaling; 0 when the entry does not count). Rewritten on every replay. */
  contribution: number;
  /** Output of replay: weight × ess × resistance × cooling when the entry counts, else 0. Rewritten on every replay. */
  effectiveWeight: number;
}

/** The entry's source was retracted: the fold runs as if the entry had never arrived. */
export interface RetractedEvent extends HistoryItemBase {
  type: "retracted";
  targetSeq: number;
  sourceId: string;
}

/** The cited belief lost its grounding: the fold runs as if the entry had never arrived. Never undone. */
export interface StrippedEvent extends HistoryItemBase {
  type: "stripped";
  targetSeq: number;
  /** The belief whose loss of real support caused this. */
  citedBeliefId: string;
}

/**
 * A correction of an earlier entry: the fold runs as if the entry had carried these values from the start.
 * Omitted fields keep their earlier value; with several revisions of one entry the later one (by seq) wins per field.
 * A relation corrected to UNRELATED says the evidence does not bear on the belief: the entry counts for nothing (no
 * credence, tension or mass, no support) while it stays in the history, and a later revision can give it a relation back.
 */
export interface RevisedEvent extends HistoryItemBase {
  type: "revised";
  targetSeq: number;
  weight?: number;
  relation?: DecidedRelation;
  reason: string;
}

/** A holistic contraction with severity s ∈ (0,1]: scales real and model log-odds, S, R and n by (1 − s); s = 1 retires. */
export interface ContractionEvent extends HistoryItemBase {
  type: "contraction";
  severity: number;
  reasoning: string;
  assessor: EntryAssessor;
}

/**
 * Status events. `superseded` and `retired` end the belief (validUntil = event time); `promoted` is a reviewer's
 * promotion; `reinstated` makes a superseded or retired belief live again (a reviewer undid the decision that ended it:
 * validUntil cleared, the status rules resume from where they stood). A contracted belief stays contracted.
 */
export interface StatusEvent extends HistoryItemBase {
  type: "superseded" | "retired" | "promoted" | "reinstated";
  /** For `superseded`: the belief that replaced this one. */
  byBeliefId?: string;
  note?: string;
}

export const REVIEW_ACTIONS = ["requested", "approved", "rejected"] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/**
 * Review bookkeeping. `requested` sets reviewState = pending_review; `approved` clears it; `rejected` clears it and
 * retires the belief (validUntil = event time).
 */
export interface ReviewEvent extends HistoryItemBase {
  type: "review";
  action: ReviewAction;
  mutationId: string | null;
  note: string;
}

/**
 * A reading the reader could not decide: the evidence stays linked to the belief as an undecided link, with no weight,
 * until a reviewer or a model decides it (a `decided` event). Replay skips it: it never moves credence or tension.
 */
export interface UndecidedEvent extends HistoryItemBase {
  type: "undecided";
  /** The evidence (or belief) that was read, as an entry would cite it. */
  sourceId: string;
  sourceKind: ItemKind | null;
  /** The reader's best guess, and the probability it gave that the guess is right. */
  guess: DecidedRelation;
  confidence: number;
  /** What the entry carries once decided as a relation: the reader's strength of its guess, tier, verification, ESS. */
  weight: number;
  tier: Tier;
  verified: boolean;
  effectiveTier: Tier;
  ess: number;
  reasoning: string;
  assessor: EntryAssessor;
}

/**
 * A belief that may say the same as another one: kept apart, linked, with no weight, until someone decides (merge
 * or keep apart). Recorded on the belief that arrived second. Replay skips it.
 */
export interface PossibleDuplicateEvent extends HistoryItemBase {
  type: "possible_duplicate";
  otherBeliefId: string;
  /** The restatement reader's score for the pair. */
  score: number;
  reasoning: string;
  assessor: EntryAssessor;
}

export const READING_DECISIONS = [...RELATIONS, "UNRELATED", "DUPLICATE", "DISTINCT"] as const;
/** A relation (or UNRELATED) for an undecided reading; DUPLICATE or DISTINCT for a possible duplicate. */
export type ReadingDecision = (typeof READING_DECISIONS)[number];

/**
 * The decision that closes an undecided reading or a possible duplicate (`targetSeq`). An undecided reading decided
 * as a relation is followed, in the same change-set, by the evidence entry that carries it (`entrySeq`): replay
 * applies that entry like any other, from the time of the decision. Replay skips the event itself.
 */
export interface DecidedEvent extends HistoryItemBase {
  type: "decided";
  targetSeq: number;
  decision: ReadingDecision;
  entrySeq: number | null;
  reason: string;
}

/** Links kept on a belief with no weight (undecided readings, possible duplicates) and their decisions. */
export type ReadingEvent = UndecidedEvent | PossibleDuplicateEvent | DecidedEvent;
export const READING_EVENT_TYPES = ["undecided", "possible_duplicate", "decided"] as const;

/** True for the items replay skips: undecided readings, possible duplicates and their decisions. */
export function isReadingEvent(item: HistoryItem): item is ReadingEvent {
  return item.type === "undecided" || item.type === "possible_duplicate" || item.type === "decided";
}

/** How far ahead of the server's clock a caller's `observedAt` may lie: callers' clocks run a little fast or slow. */
export const OBSERVED_AT_MAX_SKEW_MS = 5 * 60_000;

/** When an item happened: its `observedAt`, else the time it was recorded. */
export function eventTime(item: { time: IsoTime; observedAt?: IsoTime }): IsoTime {
  return item.observedAt ?? item.time;
}

export type HistoryEvent = RetractedEvent | StrippedEvent | RevisedEvent | ContractionEvent | StatusEvent | ReviewEvent | ReadingEvent;
export type HistoryItem = EvidenceEntry | HistoryEvent;
export type History = readonly HistoryItem[];
export const HISTORY_EVENT_TYPES = [
  "retracted",
  "stripped",
  "revised",
  "contraction",
  "superseded",
  "retired",
  "promoted",
  "reinstated",
  "review",
  ...READING_EVENT_TYPES,
] as const;
export type HistoryEventType = (typeof HISTORY_EVENT_TYPES)[number];

export interface Quantity {
  value: number;
  unit: string;
}

/** The fields of a belief that replay derives (and a store caches). */
export interface DerivedBeliefFields {
  credence: number;
  /** 2·credence − 1. */
  valence: number;
  confidence: number;
  /** 1 − confidence. */
  uncertainty: number;
  supportCount: number;
  contradictCount: number;
  evidenceCount: number;
  supportWeight: number;
  rebuttalWeight: number;
  tension: number;
  status: BeliefStatus;
  reviewState: ReviewState;
  validUntil: IsoTime | null;
  paramsVersion: string;
}

/** A claim held with a credence (docs/design.md §3). Its history is stored beside it (see `BeliefRecord`). */
export interface Belief extends DerivedBeliefFields {
  id: string;
  scope: string;
  topic: string;
  text: string;
  /** Normalised text; unique among a scope's live beliefs. */
  key: string;
  quantity: Quantity | null;
  contextTags: readonly string[];
  validFrom: IsoTime;
  supersedesId: string | null;
  /** Optimistic-concurrency version, +1 on every write. */
  version: number;
  createdAt: IsoTime;
  updatedAt: IsoTime;
}

/**
 * A belief's words, place and standing, without its counts, timestamps or history: what recall (lib/engine/recall.ts)
 * and an assimilation's restatement, topic and relation checks read of each candidate before they know which beliefs
 * they write or answer with, a fifth of a belief row's bytes.
 */
export type BeliefGist = Pick<Belief, "id" | "text" | "topic" | "contextTags" | "status" | "credence">;

export interface BeliefRecord {
  belief: Belief;
  history: History;
}

/** An episode, document, measurement, check result or model output (docs/design.md §3). */
export interface Evidence {
  id: string;
  scope: string;
  kind: EvidenceKind;
  /** For an `unresolved` placeholder: the raw cited id string. */
  text: string;
  uri: string | null;
  registeredBy: string;
  ess: number | null;
  reasoningType: ReasoningType | null;
  /** Assessed as manipulative: kept for audit only; citing it counts as unverified. */
  discarded: boolean;
  /** When it was registered (the server's clock). */
  createdAt: IsoTime;
  /** When it was true or seen, as the caller stated it; absent = `createdAt`. `asOf` reads show it from then on. */
  observedAt?: IsoTime;
  retractedAt: IsoTime | null;
}

/** An edge between beliefs, or from a mutation to the beliefs it touched. */
export interface BeliefEdge {
  kind: BeliefEdgeKind | "CONCERNS";
  from: string;
  to: string;
  time: IsoTime;
  changeSet: string;
}

// ---- Mutation protocol vocabulary (docs/design.md §4.4) ----

export const MUTATION_TYPES = ["new", "updated", "superseded", "merged", "coexisting", "retired"] as const;
export type MutationType = (typeof MUTATION_TYPES)[number];

export const MUTATION_DECISIONS = ["new", "reinforce", "merge", "supersede", "coexist", "review", "retire", "blocked"] as const;
export type MutationDecision = (typeof MUTATION_DECISIONS)[number];

export const MUTATION_STATUSES = ["applied", "pending_review", "approved", "rejected", "blocked"] as const;
export type MutationStatus = (typeof MUTATION_STATUSES)[number];

export const REVIEW_DECISIONS = ["approve", "reject"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];
export const REVIEW_RESOLUTIONS = ["coexist", "supersede", "merge"] as const;
export type ReviewResolution = (typeof REVIEW_RESOLUTIONS)[number];

export const STABILITY_FLAGS = ["drift_warning", "architectural_review", "oscillation_hard_stop"] as const;
export type StabilityFlag = (typeof STABILITY_FLAGS)[number];

/** The conflict check's result, journaled beside the mutation (the seed's `belief_conflict_report`). */
export interface ConflictReport {
  existingBeliefId: string;
  existingText: string;
  existingCredence: number;
  similarity: number;
  moreSpecific: boolean;
  differentContext: boolean;
  /** E has a real rebuttal of assessed strength ≥ the strong-rebuttal threshold (a rule, not an assessment). */
  contradictedByStrongEvidence: boolean;
  /** Seqs of E's strong real rebuttals behind that rule. */
  strongRebuttalSeqs: readonly number[];
  proposedContextTags: readonly string[];
  existingContextTags: readonly string[];
  decision: MutationDecision;
  reasoning: string;
  assessor: EntryAssessor;
}

export interface ReviewRecord {
  decision: ReviewDecision;
  resolution: ReviewResolution | null;
  note: string;
  reviewer: string;
  time: IsoTime;
}

/**
 * How a proposal reached the service: typed by a person in a browser session, sent by an agent through an API token
 * (named as it was then), or by the operator's CLI.
 */
export type MutationVia = { kind: "session" } | { kind: "token"; tokenId: string; tokenName: string } | { kind: "operator" };

/** A review decision that was undone, kept in the journal. */
export interface UndoneReview extends ReviewRecord {
  undoneBy: string;
  undoneAt: IsoTime;
  /** Why it was undone (the reviewer's note). */
  undoNote: string;
  /** The change-set that undid it. */
  undoChangeSet: string;
}

/** One journaled mutation (the seed's `belief_mutation`). */
export interface MutationRecord {
  id: string;
  scope: string;
  topic: string;
  /** The proposed belief sentence. */
  belief: string;
  /** Declared strength [0,1], kept beside the granted credence. */
  strength: number;
  grantedCredence: number | null;
  reason: string;
  evidenceIds: readonly string[];
  sourceEvent: string;
  mutationType: MutationType;
  decision: MutationDecision;
  status: MutationStatus;
  warnings: readonly string[];
  flags: readonly StabilityFlag[];
  conflictReport: ConflictReport | null;
  /** Beliefs this mutation touched (CONCERNS edges). */
  beliefIds: readonly string[];
  review: ReviewRecord | null;
  /**
   * Review decisions a reviewer undid, oldest first: the mutation went back to `pending_review` and `review` was
   * cleared; each keeps the decision it undid beside who undid it, when and why. Absent when none was undone.
   */
  undone?: readonly UndoneReview[];
  actor: string;
  /** How the proposal arrived (absent on records journaled before it was kept). */
  via?: MutationVia;
  /** When it was journaled (the server's clock). */
  time: IsoTime;
  /** When its source event happened (event time), as the proposal stated it; absent = `time`. Drift windows count by it. */
  observedAt?: IsoTime;
  changeSet: string;
}
