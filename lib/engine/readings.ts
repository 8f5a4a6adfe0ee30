/**
 * Links the reader could not decide, kept on a belief with no weight (docs/design.md §3): undecided readings of
 * evidence and possible duplicates of another belief. Both are history events that replay skips; a `decided` event
 * closes one. An undecided reading decided as a relation is followed, in the same change-set, by the evidence entry
 * that carries it, so the stored credence stays the replay of the history: before the decision nothing moves, after
 * it the entry counts from the decision's time like any other.
 */
import { writeBelief, type UnsequencedItem } from "./assimilate";
import type { DecidedRelation } from "./assessor";
import { emptyChangeSet, type ChangeSet } from "./change-set";
import { EngineError } from "./errors";
import {
  RELATIONS,
  type BeliefRecord,
  type DecidedEvent,
  type History,
  type IsoTime,
  type PossibleDuplicateEvent,
  type ReadingDecision,
  type Relation,
  type UndecidedEvent,
} from "./model";
import type { EngineParams } from "./params";
import type { ReplayState } from "./replay";

/**
 * A new claim at least this similar to a live belief, yet not surely the same claim (below the twin threshold,
 * `twinSimilarity` 0.9, or not sure for the restatement policy, `RestatementPolicy`), is kept as a new belief linked to
 * that one as a possible duplicate. On the restatement similarity's scale
 * (`lib/reading/restatement.ts`) 0.7 is "same subject" and 0.9 "restates"; a pair that clashes on a slot or a negation
 * scores at most 0.8, so it reaches this band only when everything else is the same.
 */
export const POSSIBLE_DUPLICATE_SIMILARITY = 0.8;

/** A live belief a new claim is compared with, and the restatement similarity of the two (`Assessor.similarity`). */
export interface RestatementCandidate {
  id: string;
  text: string;
  similarity: number;
}

/**
 * What a write makes of a new claim and the live beliefs it is compared with: `merge` it into one (the claim surely
 * restates it), keep it apart and link it to one as a `possible_duplicate` (close, but not sure; `reason` says why),
 * or neither (null).
 */
export type RestatementChoice =
  | { action: "merge"; id: string; similarity: number }
  | { action: "possible_duplicate"; id: string; similarity: number; reason: string }
  | null;

/**
 * The write policy for restatements, a port: every write that merges a claim into the belief it restates (ingest,
 * and assimilate's restatement match) asks it, so merging has one rule. Implemented by `restatementPolicy`
 * (lib/reading/merge-policy.ts), which reads the two texts as well as their score.
 */
export type RestatementPolicy = (claim: string, candidates: readonly RestatementCandidate[], params: EngineParams) => RestatementChoice;

/**
 * The `possible_duplicate` event a new belief gets when the restatement policy keeps it apart from `other` (an
 * ingest, harvest or assimilation appends it after the belief's first entries).
 */
export function possibleDuplicateItem(p: {
  other: { id: string; text: string };
  similarity: number;
  reason: string;
  assessor: string;
  time: IsoTime;
  observedAt: IsoTime;
  actor: string;
  changeSet: string;
}): Omit<PossibleDuplicateEvent, "seq"> {
  return {
    type: "possible_duplicate",
    time: p.time,
    observedAt: p.observedAt,
    actor: p.actor,
    changeSet: p.changeSet,
    otherBeliefId: p.other.id,
    score: clamp01(p.similarity),
    reasoning: `similarity ${p.similarity.toFixed(2)} to "${p.other.text}": ${p.reason}, not sure enough to merge`,
    assessor: p.assessor,
  };
}

/** The weight an undecided reading's entry takes when decided, where the reader gave its guess no strength. */
export const UNDECIDED_DEFAULT_WEIGHT = 0.5;

export interface OpenReadings {
  /** Undecided readings no decision has closed, in seq order. */
  undecided: UndecidedEvent[];
  /** Possible duplicates no decision has closed, in seq order. */
  possibleDuplicates: PossibleDuplicateEvent[];
}

/** The open links of a history (up to `asOf` when given): those no `decided` event targets. */
export function openReadings(history: History, asOf?: IsoTime): OpenReadings {
  const cutoff = asOf === undefined ? Number.POSITIVE_INFINITY : Date.parse(asOf);
  const within = history.filter((h) => Date.parse(h.time) <= cutoff);
  const closed = new Set(within.flatMap((h) => (h.type === "decided" ? [h.targetSeq] : [])));
  const open = within.filter((h) => !closed.has(h.seq)).sort((a, b) => a.seq - b.seq);
  return {
    undecided: open.filter((h): h is UndecidedEvent => h.type === "undecided"),
    possibleDuplicates: open.filter((h): h is PossibleDuplicateEvent => h.type === "possible_duplicate"),
  };
}

/** The decisions recorded in a history, by the seq of the link they closed. */
export function readingDecisions(history: History): ReadonlyMap<number, DecidedEvent> {
  return new Map(history.flatMap((h) => (h.type === "decided" ? [[h.targetSeq, h] as const] : [])));
}

/** What an undecided reading of `sourceId` becomes in a history: the event an ingest, harvest or assimilation appends. */
export function undecidedItem(p: {
  sourceId: string;
  sourceKind: UndecidedEvent["sourceKind"];
  guess: DecidedRelation;
  confidence: number;
  weight: number;
  tier: UndecidedEvent["tier"];
  verified: boolean;
  effectiveTier: UndecidedEvent["tier"];
  ess: number;
  reasoning: string;
  assessor: string;
  time: IsoTime;
  actor: string;
  changeSet: string;
}): UnsequencedItem {
  return { type: "undecided", ...p, confidence: clamp01(p.confidence), weight: clamp01(p.weight), ess: clamp01(p.ess) };
}

export interface DecideReadingInput {
  record: BeliefRecord;
  /** The seq of the undecided reading or possible duplicate. */
  targetSeq: number;
  decision: ReadingDecision;
  /** The entry's weight when an undecided reading becomes a relation; default the weight recorded with the reading. */
  weight?: number;
  reason: string;
  actor: string;
  now: IsoTime;
  changeSetId: string;
}

export interface DecideReadingResult {
  changeSet: ChangeSet;
  record: BeliefRecord;
  state: ReplayState;
  /** The entry the decision added (an undecided reading decided as SUPPORTS, REBUTS or CONTEXTUALIZES); else null. */
  entrySeq: number | null;
}

const isRelation = (d: ReadingDecision): d is Relation => (RELATIONS as readonly string[]).includes(d);

/**
 * Decide one open link of a belief. An undecided reading takes a relation (its entry follows the `decided` event) or
 * UNRELATED (the event alone); a possible duplicate takes DUPLICATE or DISTINCT (the event alone: a merge is a
 * mutation of its own). Throws `EngineError`: `invalid_decision` when the target is no such link or the decision does
 * not fit it, `already_decided` when it was closed before.
 */
export function decideReading(input: DecideReadingInput, params: EngineParams): DecideReadingResult {
  const target = input.record.history.find((h) => h.seq === input.targetSeq);
  if (!target || (target.type !== "undecided" && target.type !== "possible_duplicate")) {
    throw new EngineError("invalid_decision", `History item #${input.targetSeq} is neither an undecided reading nor a possible duplicate.`);
  }
  if (readingDecisions(input.record.history).has(target.seq)) {
    throw new EngineError("already_decided", `History item #${input.targetSeq} was decided already.`);
  }
  const fits = target.type === "undecided" ? isRelation(input.decision) || input.decision === "UNRELATED" : input.decision === "DUPLICATE" || input.decision === "DISTINCT";
  if (!fits) {
    const allowed = target.type === "undecided" ? "SUPPORTS, REBUTS, CONTEXTUALIZES or UNRELATED" : "DUPLICATE or DISTINCT";
    throw new EngineError("invalid_decision", `History item #${input.targetSeq} is a ${target.type.replace("_", " ")}: decide it as ${allowed}.`);
  }
  const base = { time: input.now, actor: input.actor, changeSet: input.changeSetId };
  const lastSeq = input.record.history.reduce((m, h) => Math.max(m, h.seq), 0);
  const items: UnsequencedItem[] = [];
  let entrySeq: number | null = null;
  if (target.type === "undecided" && isRelation(input.decision)) {
    entrySeq = lastSeq + 2;
    items.push({ type: "decided", ...base, targetSeq: target.seq, decision: input.decision, entrySeq, reason: input.reason });
    items.push({
      type: "entry",
      ...base,
      sourceId: target.sourceId,
      sourceKind: target.sourceKind,
      relation: input.decision,
      tier: target.tier,
      weight: clamp01(input.weight ?? target.weight),
      ess: target.ess,
      verified: target.verified,
      effectiveTier: target.effectiveTier,
      launderingReason: null,
      reasoning: `a person decided the reading: ${input.reason}`,
      assessor: "caller",
      contribution: 0,
      effectiveWeight: 0,
    });
  } else {
    items.push({ type: "decided", ...base, targetSeq: target.seq, decision: input.decision, entrySeq: null, reason: input.reason });
  }
  const write = writeBelief(input.record, items, params, input.now, false);
  const changeSet: ChangeSet = {
    ...emptyChangeSet(input.changeSetId, input.actor, input.now),
    beliefs: [write.upsert],
    history: [write.append],
    entryOutputs: write.outputs,
  };
  return { changeSet, record: write.record, state: write.state, entrySeq };
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** What one decision of an open link would leave the belief at. */
export interface DecisionPreview {
  decision: ReadingDecision;
  credence: number;
  tension: number;
}

/**
 * What each decision that fits an open link would do to the belief's credence and tension (a dry run of
 * `decideReading`; nothing is stored), were `actor` to decide it: an actor who moved the belief within the cooling
 * window (a decision made and undone a moment ago included) moves it less, in the preview as in the decision.
 */
export function previewDecisions(record: BeliefRecord, targetSeq: number, params: EngineParams, now: IsoTime, actor: string): DecisionPreview[] {
  const target = record.history.find((h) => h.seq === targetSeq);
  if (!target || (target.type !== "undecided" && target.type !== "possible_duplicate")) return [];
  const decisions: ReadingDecision[] = target.type === "undecided" ? [...RELATIONS, "UNRELATED"] : ["DUPLICATE", "DISTINCT"];
  return decisions.map((decision) => {
    const r = decideReading({ record, targetSeq, decision, reason: "preview", actor, now, changeSetId: "preview" }, params);
    return { decision, credence: r.state.credence, tension: r.state.tension };
  });
}

export interface ReopenReadingInput {
  record: BeliefRecord;
  /** The seq of the `decided` event to undo. */
  decidedSeq: number;
  reason: string;
  actor: string;
  now: IsoTime;
  changeSetId: string;
}

/**
 * Undo a decision: the link it closed is open again (a fresh copy of the undecided reading or possible duplicate),
 * and the entry a relation decision added is revised to weight 0, so replay gives the credence and tension the belief
 * had before the decision. Nothing is deleted: the decision, the revision and the reopened link stay in the history.
 * Throws `EngineError` `invalid_decision` when `decidedSeq` is no decision, `already_decided` when it was undone before.
 */
export function reopenReading(input: ReopenReadingInput, params: EngineParams): DecideReadingResult {
  const decided = input.record.history.find((h): h is DecidedEvent => h.type === "decided" && h.seq === input.decidedSeq);
  if (!decided) throw new EngineError("invalid_decision", `History item #${input.decidedSeq} is no decision.`);
  const target = input.record.history.find((h) => h.seq === decided.targetSeq);
  if (!target || (target.type !== "undecided" && target.type !== "possible_duplicate")) {
    throw new EngineError("invalid_decision", `Decision #${input.decidedSeq} closed no undecided reading or possible duplicate.`);
  }
  const reopened = input.record.history.some(
    (h) => h.seq > decided.seq && h.type === target.type && h.changeSet !== decided.changeSet && sameLink(h, target),
  );
  if (reopened) throw new EngineError("already_decided", `Decision #${input.decidedSeq} was undone already.`);
  const base = { time: input.now, actor: input.actor, changeSet: input.changeSetId };
  const items: UnsequencedItem[] = [];
  if (decided.entrySeq !== null) items.push({ type: "revised", ...base, targetSeq: decided.entrySeq, weight: 0, reason: `undo: ${input.reason}` });
  const { seq: _seq, time: _time, actor: _actor, changeSet: _changeSet, ...link } = target;
  items.push({ ...link, ...base } as UnsequencedItem);
  const write = writeBelief(input.record, items, params, input.now, false);
  const changeSet: ChangeSet = {
    ...emptyChangeSet(input.changeSetId, input.actor, input.now),
    beliefs: [write.upsert],
    history: [write.append],
    entryOutputs: write.outputs,
  };
  return { changeSet, record: write.record, state: write.state, entrySeq: null };
}

function sameLink(a: History[number], b: UndecidedEvent | PossibleDuplicateEvent): boolean {
  if (a.type === "undecided" && b.type === "undecided") return a.sourceId === b.sourceId;
  if (a.type === "possible_duplicate" && b.type === "possible_duplicate") return a.otherBeliefId === b.otherBeliefId;
  return false;
}
