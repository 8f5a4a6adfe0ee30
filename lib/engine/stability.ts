/**
 * The stability monitor (docs/design.md §4.4), per scope and topic, over the mutation journal:
 * * drift: more than `driftMaxMutations` (5) mutations within `driftWindowMs` (7 days) → `drift_warning`;
 * * more than `supersessionFlagCount` (3) supersessions of one topic → `architectural_review`;
 * * returning a topic to a belief it left (A→B→A: the proposal has the key of, or similarity > `oscillationSimilarity`
 *   (0.9) to, a belief the topic superseded or retired) → hard stop: the mutation is journaled `blocked` and the topic
 *   is frozen until a reviewer lifts the freeze; every mutation on a frozen topic is blocked too.
 * Counting: journal records with status `blocked` or `rejected` moved nothing, so they count toward neither rule; the
 * mutation being decided counts (it is the one that makes the count exceed the limit). A lifted freeze also clears
 * the oscillation memory before it: a reviewer who lifts it has accepted the history up to then. The journal records
 * that: when the topic is not frozen, beliefs left before the latest `blocked` record (whose freeze was lifted) are
 * no longer returns.
 */
import type { TopicFreeze } from "./change-set";
import { EngineError } from "./errors";
import { eventTime, type IsoTime, type MutationDecision, type MutationRecord, type StabilityFlag } from "./model";
import type { EngineParams } from "./params";

export function isFrozen(freeze: TopicFreeze | null | undefined): boolean {
  return !!freeze && freeze.frozen;
}

/** A belief a topic left, from the journal: the superseded side of a supersession, or a retired belief. */
export interface LeftBelief {
  beliefId: string | null;
  text: string;
  key: string;
  mutationId: string;
  time: IsoTime;
}

const MOVED: ReadonlySet<string> = new Set(["applied", "approved", "pending_review"]);

function effectiveDecision(r: MutationRecord): MutationDecision {
  if (r.review?.decision === "approve" && r.review.resolution) {
    return r.review.resolution === "supersede" ? "supersede" : r.review.resolution === "merge" ? "merge" : "coexist";
  }
  return r.decision;
}

/**
 * Beliefs the topic left, oldest first, counting only records after the last lifted freeze.
 * `keyOf` is the engine's key normalisation (the same one that makes beliefs' `key`).
 */
export function leftBeliefs(records: readonly MutationRecord[], keyOf: (text: string) => string, since?: IsoTime | null): LeftBelief[] {
  const out: LeftBelief[] = [];
  for (const r of sortedByTime(records)) {
    if (since && Date.parse(eventTime(r)) <= Date.parse(since)) continue;
    if (r.status !== "applied" && r.status !== "approved") continue;
    const decision = effectiveDecision(r);
    if (decision === "supersede" && r.conflictReport) {
      out.push({ beliefId: r.conflictReport.existingBeliefId, text: r.conflictReport.existingText, key: keyOf(r.conflictReport.existingText), mutationId: r.id, time: eventTime(r) });
    } else if (decision === "retire") {
      out.push({ beliefId: r.beliefIds[0] ?? null, text: r.belief, key: keyOf(r.belief), mutationId: r.id, time: eventTime(r) });
    }
  }
  return out;
}

function sortedByTime(records: readonly MutationRecord[]): MutationRecord[] {
  return [...records].sort((a, b) => Date.parse(eventTime(a)) - Date.parse(eventTime(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export interface OscillationInput {
  /** The topic's journal (same scope and topic). */
  records: readonly MutationRecord[];
  freeze: TopicFreeze | null;
  proposal: { key: string; text: string };
  /** Similarity of the proposal to each left belief's text, by `LeftBelief.mutationId` (precomputed by the caller's assessor). */
  similarityToLeft: ReadonlyMap<string, number>;
  keyOf: (text: string) => string;
  /** The key of the belief the topic holds now (reinforcing the current belief is not a return). */
  currentKeys?: ReadonlySet<string>;
}

export type StabilityBlock =
  | { code: "oscillation_hard_stop"; returnsTo: LeftBelief; similarity: number; message: string }
  | { code: "topic_frozen"; freeze: TopicFreeze; message: string };

/** The hard stop check, run before any write: a frozen topic or an A→B→A return blocks the mutation. */
export function checkOscillation(input: OscillationInput, params: EngineParams): StabilityBlock | null {
  if (input.freeze && isFrozen(input.freeze)) {
    return { code: "topic_frozen", freeze: input.freeze, message: `Topic "${input.freeze.topic}" is frozen until a reviewer lifts it.` };
  }
  const since = latestBlockedTime(input.records);
  for (const left of leftBeliefs(input.records, input.keyOf, since).reverse()) {
    if (input.currentKeys?.has(left.key)) continue;
    const sim = left.key === input.proposal.key ? 1 : (input.similarityToLeft.get(left.mutationId) ?? 0);
    if (left.key === input.proposal.key || sim > params.oscillationSimilarity) {
      return {
        code: "oscillation_hard_stop",
        returnsTo: left,
        similarity: sim,
        message: `The proposal returns the topic to a belief it left (mutation ${left.mutationId}): A→B→A oscillation.`,
      };
    }
  }
  return null;
}

function latestBlockedTime(records: readonly MutationRecord[]): IsoTime | null {
  let latest: IsoTime | null = null;
  for (const r of records) if (r.status === "blocked" && (latest === null || Date.parse(eventTime(r)) > Date.parse(latest))) latest = eventTime(r);
  return latest;
}

export interface StabilityReport {
  /** Mutations in the window, this one included. */
  mutationsInWindow: number;
  /** Supersessions of the topic, this one included. */
  supersessions: number;
  flags: StabilityFlag[];
  warnings: string[];
}

/** Drift and supersession counting for a mutation about to be journaled with `decision`, observed at `now` (event time). */
export function stabilityReport(
  records: readonly MutationRecord[],
  decision: MutationDecision,
  now: IsoTime,
  params: EngineParams,
): StabilityReport {
  const nowMs = Date.parse(now);
  // Reinforcement is not a mutation (§4.4): it is journaled but never counts toward drift.
  const counted = records.filter((r) => MOVED.has(r.status) && r.decision !== "reinforce");
  const moves = decision !== "blocked" && decision !== "reinforce";
  const inWindow =
    counted.filter((r) => {
      const at = Date.parse(eventTime(r));
      return nowMs - at < params.driftWindowMs && at <= nowMs;
    }).length + (moves ? 1 : 0);
  const supersessions = counted.filter((r) => effectiveDecision(r) === "supersede").length + (decision === "supersede" ? 1 : 0);
  const flags: StabilityFlag[] = [];
  const warnings: string[] = [];
  if (inWindow > params.driftMaxMutations) {
    flags.push("drift_warning");
    warnings.push(`Drift: ${inWindow} mutations of this topic within ${Math.round(params.driftWindowMs / 86_400_000)} days (limit ${params.driftMaxMutations}).`);
  }
  if (supersessions > params.supersessionFlagCount) {
    flags.push("architectural_review");
    warnings.push(`Architectural review: this topic has been superseded ${supersessions} times (limit ${params.supersessionFlagCount}).`);
  }
  return { mutationsInWindow: inWindow, supersessions, flags, warnings };
}

/** The freeze a hard stop writes (in the blocked mutation's change-set). */
export function freezeTopic(scope: string, topic: string, mutationId: string, reason: string): TopicFreeze {
  return { scope, topic, frozen: true, reason, byMutationId: mutationId };
}

/** A reviewer lifts a freeze; returns the value to write. Lifting a topic that is not frozen is refused. */
export function liftFreeze(freeze: TopicFreeze | null, scope: string, topic: string, note: string): TopicFreeze {
  if (!isFrozen(freeze)) throw new EngineError("not_frozen", `Topic "${topic}" is not frozen.`);
  return { scope, topic, frozen: false, reason: note, byMutationId: null };
}
