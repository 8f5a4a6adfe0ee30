/**
 * Credence is a replay (SPEC §4.1): a deterministic fold over a belief's stored history, from stored values only.
 *
 * Order of work:
 * 1. Events up to `asOf` of kind `retracted`, `stripped`, `revised` are applied first: a removed entry is skipped as
 *    if it had never arrived; a revised entry carries its revised weight/relation from the start.
 * 2. The remaining items fold in `seq` order. Live entries are grouped into change-sets (consecutive live entries
 *    sharing `changeSet`); resistance and cooling are fixed at the start of each group. `contraction`, status and
 *    review events apply in place. Status is evaluated at every checkpoint: the end of each group and after each
 *    in-place event (this is where the `disputed` hysteresis is carried).
 *
 * Per counted entry:  contribution = sign × strength(effectiveTier) × weight × ess × resistance × cooling,
 *   resistance = 1/(confidence before the group + 1), cooling = max(floor, elapsed/window) when the same actor's
 *   previous moving change-set is within the window, else 1.
 * One vote per (source, relation): only the largest |contribution| counts; anonymous entries (sourceId null) each vote.
 * credence = σ(real + clamp(model, ±logit(cap))).
 * n = Σ per distinct source of the largest weight × ess × cooling × min(1, strength(tier)/strength(document)).
 * confidence = (1 − e^(−n/6))·(1 − tension/2); tension as in `network.ts`.
 * contraction s: real, model, S, R, n (and every standing vote) × (1 − s); s = 1 ends the belief (`contracted`).
 */
import {
  isRealTier,
  maxTier,
  type BeliefStatus,
  type DerivedBeliefFields,
  type EvidenceEntry,
  type History,
  type HistoryItem,
  type IsoTime,
  type ItemKind,
  type Relation,
  type ReviewState,
  type Tier,
} from "./model";
import { confidenceOf, deriveLiveStatus, initialStatusMemory, tension as tensionOf, type StatusMemory } from "./network";
import { logit, paramsVersion, sigmoid, type EngineParams } from "./params";
import type { SupportRef } from "./ports";

/** Why an entry contributes nothing in the replayed state. */
export type ZeroReason = "contextualizes" | "laundered" | "retracted" | "stripped" | "outvoted";

export interface EntryOutcome {
  seq: number;
  /** Relation and weight after `revised` events. */
  relation: Relation;
  weight: number;
  /** weight × ess (after revisions). */
  assessedStrength: number;
  contribution: number;
  effectiveWeight: number;
  counted: boolean;
  zeroReason: ZeroReason | null;
}

/** A live, verified, non-laundered entry whose effective tier is above `model_assertion`. */
export interface RealEntryRef {
  seq: number;
  sourceId: string;
  sourceKind: ItemKind | null;
  effectiveTier: Tier;
  /** weight × ess after revisions. */
  assessedStrength: number;
  time: IsoTime;
  changeSet: string;
  actor: string;
}

/** One checkpoint of the fold (for credence-over-time charts and status timelines). */
export interface Checkpoint {
  seq: number;
  time: IsoTime;
  credence: number;
  confidence: number;
  tension: number;
  status: BeliefStatus;
}

export interface ReplayState extends DerivedBeliefFields {
  /** Evidence mass after contraction scaling. */
  n: number;
  /** Sum of counted real contributions (after contraction scaling). */
  realLogOdds: number;
  /** Sum of counted model-assertion contributions before the clamp (after contraction scaling). */
  modelLogOdds: number;
  /** Distinct sources among live real supports. */
  independentRealSupports: number;
  realSupports: readonly RealEntryRef[];
  realRebuttals: readonly RealEntryRef[];
  strongestRealSupportTier: Tier | null;
  maxRealRebuttalStrength: number;
  lastRealSupportAt: IsoTime | null;
  lastRealRebuttalAt: IsoTime | null;
  promoted: boolean;
  /** Per entry, in history order. */
  entries: readonly EntryOutcome[];
  /** Filled when `replay(…, { timeline: true })`. */
  timeline: readonly Checkpoint[];
}

export interface ReplayOptions {
  /** Only items with time ≤ asOf take part (ISO string or epoch ms). */
  asOf?: IsoTime | number;
  /** Record a checkpoint per change-set and per in-place event. */
  timeline?: boolean;
}

interface Vote {
  seq: number;
  value: number;
  real: boolean;
  relation: Relation;
}

interface MassVote {
  seq: number;
  value: number;
}

const versionCache = new WeakMap<EngineParams, string>();
function versionOf(params: EngineParams): string {
  let v = versionCache.get(params);
  if (v === undefined) {
    v = paramsVersion(params);
    versionCache.set(params, v);
  }
  return v;
}

function toMs(t: IsoTime | number): number {
  return typeof t === "number" ? t : Date.parse(t);
}

/**
 * Replay a history into a belief state. Pure and deterministic: the same history and parameters always give the
 * same state, bit for bit.
 * @example replay([entry({ tier: "held_out_truth" })], defaultParams).credence ≈ 0.881
 */
export function replay(history: History, params: EngineParams, options: ReplayOptions = {}): ReplayState {
  const asOfMs = options.asOf === undefined ? Number.POSITIVE_INFINITY : toMs(options.asOf);
  const wantTimeline = options.timeline === true;

  // Items may arrive unsorted from a store; the fold is defined in seq order.
  let items: History = history;
  for (let i = 1; i < history.length; i++) {
    if ((history[i] as HistoryItem).seq < (history[i - 1] as HistoryItem).seq) {
      items = [...history].sort((a, b) => a.seq - b.seq);
      break;
    }
  }

  let lastTimeStr = "";
  let lastTimeMs = 0;
  const timeMs = (t: IsoTime): number => {
    if (t !== lastTimeStr) {
      lastTimeStr = t;
      lastTimeMs = Date.parse(t);
    }
    return lastTimeMs;
  };
  const inWindow = (item: HistoryItem): boolean => asOfMs === Number.POSITIVE_INFINITY || timeMs(item.time) <= asOfMs;

  // Pass 1: removals and revisions.
  const removed = new Map<number, "retracted" | "stripped">();
  const revisedWeight = new Map<number, number>();
  const revisedRelation = new Map<number, Relation>();
  for (const item of items) {
    if (item.type === "entry" || !inWindow(item)) continue;
    if (item.type === "retracted" || item.type === "stripped") {
      if (!removed.has(item.targetSeq)) removed.set(item.targetSeq, item.type);
    } else if (item.type === "revised") {
      if (item.weight !== undefined) revisedWeight.set(item.targetSeq, Math.min(1, Math.max(0, item.weight)));
      if (item.relation !== undefined) revisedRelation.set(item.targetSeq, item.relation);
    }
  }

  const strength = params.tierStrength;
  const docStrength = strength.document > 0 ? strength.document : 1;
  const cap = logit(params.modelAssertionCap);

  // Running sums (contraction scales them in place).
  let real = 0;
  let model = 0;
  let S = 0;
  let R = 0;
  let n = 0;
  const votes = new Map<string, Vote>();
  const massVotes = new Map<string, MassVote>();
  const outcomes: EntryOutcome[] = [];
  const outcomeIndex = new Map<number, number>();
  const realSupports: RealEntryRef[] = [];
  const realRebuttals: RealEntryRef[] = [];
  const supportSources = new Set<string>();
  let strongestTier: Tier | null = null;
  let maxRebuttal = 0;
  let lastSupportAt: IsoTime | null = null;
  let lastRebuttalAt: IsoTime | null = null;

  // Cooling clock: per actor, the time of their last change-set that moved the belief.
  const lastMoving = new Map<string, number>();
  const pendingMoving = new Map<string, number>();

  // Group state.
  let groupId: string | null = null;
  let groupTime = 0;
  let resistance = 1;

  // Status state.
  let terminal: BeliefStatus | null = null;
  let validUntil: IsoTime | null = null;
  let reviewState: ReviewState = "none";
  let promoted = false;
  let memory: StatusMemory = initialStatusMemory;
  let status: BeliefStatus = "provisional";
  const timeline: Checkpoint[] = [];

  const credenceNow = (): number => sigmoid(real + Math.max(-cap, Math.min(cap, model)));

  const checkpoint = (seq: number, time: IsoTime): void => {
    const t = tensionOf(S, R, params);
    const credence = credenceNow();
    if (terminal !== null) status = terminal;
    else {
      const next = deriveLiveStatus(
        {
          credence,
          tension: t,
          independentRealSupports: supportSources.size,
          maxRealRebuttalStrength: maxRebuttal,
          promoted,
        },
        memory,
        params,
      );
      status = next.status;
      memory = next.memory;
    }
    if (wantTimeline) timeline.push({ seq, time, credence, confidence: confidenceOf(n, t, params), tension: t, status });
  };

  let lastSeq = 0;
  let lastTime: IsoTime = "";
  const closeGroup = (): void => {
    if (groupId === null) return;
    for (const [actor, t] of pendingMoving) lastMoving.set(actor, t);
    pendingMoving.clear();
    groupId = null;
    checkpoint(lastSeq, lastTime);
  };

  for (const item of items) {
    if (!inWindow(item)) continue;
    if (item.type !== "entry") {
      if (item.type === "retracted" || item.type === "stripped" || item.type === "revised") continue;
      closeGroup();
      applyInPlaceEvent(item);
      checkpoint(item.seq, item.time);
      continue;
    }
    const entry = item;
    const removal = removed.get(entry.seq);
    const relation = revisedRelation.get(entry.seq) ?? entry.relation;
    const weight = revisedWeight.get(entry.seq) ?? Math.min(1, Math.max(0, entry.weight));
    const ess = Math.min(1, Math.max(0, entry.ess));
    const assessed = weight * ess;
    const outcome: EntryOutcome = {
      seq: entry.seq,
      relation,
      weight,
      assessedStrength: assessed,
      contribution: 0,
      effectiveWeight: 0,
      counted: false,
      zeroReason: null,
    };
    outcomeIndex.set(entry.seq, outcomes.length);
    outcomes.push(outcome);
    if (removal !== undefined) {
      outcome.zeroReason = removal;
      continue;
    }
    if (entry.launderingReason !== null) {
      outcome.zeroReason = "laundered";
      continue;
    }
    if (relation === "CONTEXTUALIZES") {
      outcome.zeroReason = "contextualizes";
      continue;
    }

    if (entry.changeSet !== groupId) {
      closeGroup();
      groupId = entry.changeSet;
      groupTime = timeMs(entry.time);
      const t = tensionOf(S, R, params);
      resistance = 1 / (confidenceOf(n, t, params) + 1);
    }
    lastSeq = entry.seq;
    lastTime = entry.time;

    const prevMove = lastMoving.get(entry.actor);
    let cooling = 1;
    if (prevMove !== undefined && params.coolingWindowMs > 0) {
      const elapsed = groupTime - prevMove;
      if (elapsed < params.coolingWindowMs) cooling = Math.max(params.coolingFloor, Math.max(0, elapsed) / params.coolingWindowMs);
    }

    // An unverified entry is a model assertion whatever its stored tier says.
    const tier: Tier = entry.verified ? entry.effectiveTier : "model_assertion";
    const isReal = isRealTier(tier);
    const sign = relation === "SUPPORTS" ? 1 : -1;
    const effectiveWeight = assessed * resistance * cooling;
    const contribution = sign * strength[tier] * effectiveWeight;

    // One vote per (source, relation).
    const voteKey = entry.sourceId === null ? `#${entry.seq}` : `${relation}\u0000${entry.sourceId}`;
    const prior = votes.get(voteKey);
    if (prior === undefined || Math.abs(contribution) > Math.abs(prior.value)) {
      if (prior !== undefined) {
        removeVote(prior);
        const prevOutcome = outcomes[outcomeIndex.get(prior.seq) as number] as EntryOutcome;
        prevOutcome.counted = false;
        prevOutcome.contribution = 0;
        prevOutcome.effectiveWeight = 0;
        prevOutcome.zeroReason = "outvoted";
      }
      const vote: Vote = { seq: entry.seq, value: contribution, real: isReal, relation };
      votes.set(voteKey, vote);
      addVote(vote);
      outcome.counted = true;
      outcome.contribution = contribution;
      outcome.effectiveWeight = effectiveWeight;
      pendingMoving.set(entry.actor, groupTime);
    } else {
      outcome.zeroReason = "outvoted";
    }

    // Evidence mass: one per distinct source, the largest.
    const massKey = entry.sourceId === null ? `#${entry.seq}` : entry.sourceId;
    const mass = assessed * cooling * Math.min(1, strength[tier] / docStrength);
    const priorMass = massVotes.get(massKey);
    if (priorMass === undefined) {
      massVotes.set(massKey, { seq: entry.seq, value: mass });
      n += mass;
    } else if (mass > priorMass.value) {
      n += mass - priorMass.value;
      priorMass.seq = entry.seq;
      priorMass.value = mass;
    }

    if (isReal && assessed > 0 && entry.sourceId !== null) {
      const ref: RealEntryRef = {
        seq: entry.seq,
        sourceId: entry.sourceId,
        sourceKind: entry.sourceKind,
        effectiveTier: tier,
        assessedStrength: assessed,
        time: entry.time,
        changeSet: entry.changeSet,
        actor: entry.actor,
      };
      if (relation === "SUPPORTS") {
        realSupports.push(ref);
        supportSources.add(entry.sourceId);
        strongestTier = strongestTier === null ? tier : maxTier(strongestTier, tier);
        lastSupportAt = entry.time;
      } else {
        realRebuttals.push(ref);
        if (assessed > maxRebuttal) maxRebuttal = assessed;
        lastRebuttalAt = entry.time;
      }
    }
  }
  closeGroup();

  function addVote(v: Vote): void {
    if (v.real) real += v.value;
    else model += v.value;
    if (v.relation === "SUPPORTS") S += Math.abs(v.value);
    else R += Math.abs(v.value);
  }
  function removeVote(v: Vote): void {
    if (v.real) real -= v.value;
    else model -= v.value;
    if (v.relation === "SUPPORTS") S -= Math.abs(v.value);
    else R -= Math.abs(v.value);
  }

  function applyInPlaceEvent(item: Exclude<HistoryItem, EvidenceEntry>): void {
    switch (item.type) {
      case "contraction": {
        const s = Math.min(1, Math.max(0, item.severity));
        const k = 1 - s;
        real *= k;
        model *= k;
        S *= k;
        R *= k;
        n *= k;
        for (const v of votes.values()) v.value *= k;
        for (const m of massVotes.values()) m.value *= k;
        if (s >= 1 && terminal === null) {
          terminal = "contracted";
          validUntil = item.time;
        }
        break;
      }
      case "superseded":
      case "retired":
        if (terminal === null) {
          terminal = item.type;
          validUntil = item.time;
        }
        break;
      case "promoted":
        promoted = true;
        break;
      case "review":
        if (item.action === "requested") reviewState = "pending_review";
        else {
          reviewState = "none";
          if (item.action === "rejected" && terminal === null) {
            terminal = "retired";
            validUntil = item.time;
          }
        }
        break;
      default:
        break;
    }
  }

  const t = tensionOf(S, R, params);
  const credence = credenceNow();
  const confidence = confidenceOf(n, t, params);
  let supportCount = 0;
  let contradictCount = 0;
  for (const v of votes.values()) {
    if (v.relation === "SUPPORTS") supportCount++;
    else contradictCount++;
  }
  return {
    credence,
    valence: 2 * credence - 1,
    confidence,
    uncertainty: 1 - confidence,
    supportCount,
    contradictCount,
    evidenceCount: supportCount + contradictCount,
    supportWeight: S,
    rebuttalWeight: R,
    tension: t,
    status,
    reviewState,
    validUntil,
    paramsVersion: versionOf(params),
    n,
    realLogOdds: real,
    modelLogOdds: model,
    independentRealSupports: supportSources.size,
    realSupports,
    realRebuttals,
    strongestRealSupportTier: strongestTier,
    maxRealRebuttalStrength: maxRebuttal,
    lastRealSupportAt: lastSupportAt,
    lastRealRebuttalAt: lastRebuttalAt,
    promoted,
    entries: outcomes,
    timeline,
  };
}

/** Live: not superseded, retired or contracted. */
export function isLive(state: Pick<ReplayState, "status">): boolean {
  return state.status !== "superseded" && state.status !== "retired" && state.status !== "contracted";
}

/** Grounded: live and holding at least one live real support. Losing this triggers the stripping cascade (§4.2). */
export function isGrounded(state: Pick<ReplayState, "status" | "realSupports">): boolean {
  return isLive(state) && state.realSupports.length > 0;
}

/**
 * What a resolver reports about a belief's support: every live, verified, non-laundered SUPPORTS entry with a
 * resolved source (after revisions), real or not. Adapters must use this so every store reports alike.
 */
export function supportRefsOf(history: History, params: EngineParams): SupportRef[] {
  const state = replay(history, params);
  const outcome = new Map(state.entries.map((e) => [e.seq, e]));
  const refs: SupportRef[] = [];
  for (const item of history) {
    if (item.type !== "entry") continue;
    const o = outcome.get(item.seq);
    if (!o || o.zeroReason === "retracted" || o.zeroReason === "stripped" || o.zeroReason === "laundered") continue;
    if (o.relation !== "SUPPORTS" || !item.verified || item.sourceId === null || item.sourceKind === null) continue;
    refs.push({ sourceId: item.sourceId, sourceKind: item.sourceKind, effectiveTier: item.effectiveTier });
  }
  return refs;
}

/** Replay outputs written back onto the stored entries (contribution, effectiveWeight). */
export function withEntryOutputs(history: History, state: ReplayState): HistoryItem[] {
  const outcome = new Map(state.entries.map((e) => [e.seq, e]));
  return history.map((item) => {
    if (item.type !== "entry") return item;
    const o = outcome.get(item.seq);
    if (!o || (o.contribution === item.contribution && o.effectiveWeight === item.effectiveWeight)) return item;
    return { ...item, contribution: o.contribution, effectiveWeight: o.effectiveWeight };
  });
}

/** The stored (cached) fields a replay determines. */
export function derivedFields(state: ReplayState): DerivedBeliefFields {
  return {
    credence: state.credence,
    valence: state.valence,
    confidence: state.confidence,
    uncertainty: state.uncertainty,
    supportCount: state.supportCount,
    contradictCount: state.contradictCount,
    evidenceCount: state.evidenceCount,
    supportWeight: state.supportWeight,
    rebuttalWeight: state.rebuttalWeight,
    tension: state.tension,
    status: state.status,
    reviewState: state.reviewState,
    validUntil: state.validUntil,
    paramsVersion: state.paramsVersion,
  };
}

export interface ReplayMismatch {
  /** A derived field name, or `entry#<seq>.contribution` / `entry#<seq>.effectiveWeight`. */
  field: string;
  stored: unknown;
  replayed: unknown;
}

export interface ReplayCheck {
  ok: boolean;
  mismatches: ReplayMismatch[];
  state: ReplayState;
}

/** Numbers compare equal within 1e-9 absolute (stores may round-trip floats through text). */
const EPS = 1e-9;

/**
 * The invariant stores, the API and the CLI check: the stored state of a belief equals the replay of its stored
 * history with its parameters. Compares every derived field and every entry's stored outputs.
 */
export function checkReplay(belief: DerivedBeliefFields, history: History, params: EngineParams): ReplayCheck {
  const state = replay(history, params);
  const mismatches: ReplayMismatch[] = [];
  const replayed = derivedFields(state);
  for (const key of Object.keys(replayed) as (keyof DerivedBeliefFields)[]) {
    const a = belief[key];
    const b = replayed[key];
    const same = typeof a === "number" && typeof b === "number" ? Math.abs(a - b) <= EPS : a === b;
    if (!same) mismatches.push({ field: key, stored: a, replayed: b });
  }
  const outcome = new Map(state.entries.map((e) => [e.seq, e]));
  for (const item of history) {
    if (item.type !== "entry") continue;
    const o = outcome.get(item.seq);
    if (!o) continue;
    if (Math.abs(o.contribution - item.contribution) > EPS)
      mismatches.push({ field: `entry#${item.seq}.contribution`, stored: item.contribution, replayed: o.contribution });
    if (Math.abs(o.effectiveWeight - item.effectiveWeight) > EPS)
      mismatches.push({ field: `entry#${item.seq}.effectiveWeight`, stored: item.effectiveWeight, replayed: o.effectiveWeight });
  }
  return { ok: mismatches.length === 0, mismatches, state };
}
