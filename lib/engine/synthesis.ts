/**
 * Dialectical synthesis (docs/design.md §4.5, memnode): when one of two beliefs rebuts the other and both keep real support
 * across at least `synthesisMinChangeSets` (2) change-sets each, propose a scoped synthesis.
 *
 * * "A rebuts B": a live real rebuttal on B comes from A itself or from evidence that really supports A (either way
 *   round counts for the pair).
 * * "Keeps real support across k change-sets": its live real supports come from at least k distinct change-sets.
 * * Dismissal memory: a dismissed pair is not proposed again until either side gains new real support, i.e. a live
 *   real support with a higher seq than the one recorded at dismissal.
 * * Accepted, the synthesis enters as a fresh `provisional` belief (empty history, so credence 0.5) with
 *   `SYNTHESIZES` edges to both sides, inheriting the first side's topic; it earns its status like any other belief.
 */
import type { SynthesisProposal } from "./assessor";
import { emptyChangeSet, type ChangeSet } from "./change-set";
import { newBelief, writeBelief } from "./assimilate";
import { EngineError } from "./errors";
import { isLiveStatus, type Belief, type BeliefEdge, type BeliefRecord, type IsoTime } from "./model";
import type { EngineParams } from "./params";
import { rebuttalsFrom } from "./recall";
import { isLive, type ReplayState } from "./replay";
import { replayWithStanding, type Standing } from "./standing";

export interface SynthesisCandidate {
  /** The pair, ordered by id. */
  aId: string;
  bId: string;
  /** Who rebuts whom (either or both). */
  aRebutsB: boolean;
  bRebutsA: boolean;
  /** Distinct change-sets carrying each side's live real support. */
  aSupportChangeSets: number;
  bSupportChangeSets: number;
  /** Highest live real-support seq per side (what a dismissal records). */
  aSupportMark: number;
  bSupportMark: number;
}

export interface SynthesisDismissal {
  aId: string;
  bId: string;
  aSupportMark: number;
  bSupportMark: number;
  dismissedAt: IsoTime;
  dismissedBy: string;
}

interface Side {
  record: BeliefRecord;
  belief: Belief;
  state: ReplayState;
  standing: Standing;
}

function supportChangeSets(state: ReplayState): number {
  return new Set(state.realSupports.map((s) => s.changeSet)).size;
}

function supportMark(state: ReplayState): number {
  return state.realSupports.reduce((m, s) => Math.max(m, s.seq), 0);
}

const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

export interface DetectOptions {
  dismissals?: readonly SynthesisDismissal[];
  /** Pairs that already have an accepted synthesis. */
  synthesized?: ReadonlyArray<{ aId: string; bId: string }>;
}

/**
 * Synthesis candidates among `beliefs` (one scope's live beliefs with histories), ordered by the weaker side's number
 * of supporting change-sets (most entrenched disputes first), then by ids.
 */
export function detectSynthesisCandidates(beliefs: readonly BeliefRecord[], params: EngineParams, options: DetectOptions = {}): SynthesisCandidate[] {
  const sides: Side[] = beliefs
    .map((record) => ({ record, belief: record.belief, ...replayWithStanding(record.history, params) }))
    .filter((s) => isLive(s.state) && supportChangeSets(s.state) >= params.synthesisMinChangeSets)
    .sort((x, y) => (x.record.belief.id < y.record.belief.id ? -1 : 1));
  const dismissed = new Map((options.dismissals ?? []).map((d) => [pairKey(d.aId, d.bId), d]));
  const done = new Set((options.synthesized ?? []).map((p) => pairKey(p.aId, p.bId)));
  const out: SynthesisCandidate[] = [];
  for (let i = 0; i < sides.length; i++) {
    for (let j = i + 1; j < sides.length; j++) {
      const a = sides[i] as Side;
      const b = sides[j] as Side;
      const key = pairKey(a.record.belief.id, b.record.belief.id);
      if (done.has(key)) continue;
      const bRebutsA = rebuttalsFrom(a, b).length > 0;
      const aRebutsB = rebuttalsFrom(b, a).length > 0;
      if (!aRebutsB && !bRebutsA) continue;
      const candidate: SynthesisCandidate = {
        aId: a.record.belief.id,
        bId: b.record.belief.id,
        aRebutsB,
        bRebutsA,
        aSupportChangeSets: supportChangeSets(a.state),
        bSupportChangeSets: supportChangeSets(b.state),
        aSupportMark: supportMark(a.state),
        bSupportMark: supportMark(b.state),
      };
      const d = dismissed.get(key);
      if (d) {
        const marks = d.aId === candidate.aId ? [d.aSupportMark, d.bSupportMark] : [d.bSupportMark, d.aSupportMark];
        if (candidate.aSupportMark <= (marks[0] ?? 0) && candidate.bSupportMark <= (marks[1] ?? 0)) continue;
      }
      out.push(candidate);
    }
  }
  return out.sort(
    (x, y) =>
      Math.min(y.aSupportChangeSets, y.bSupportChangeSets) - Math.min(x.aSupportChangeSets, x.bSupportChangeSets) ||
      (x.aId < y.aId ? -1 : x.aId > y.aId ? 1 : x.bId < y.bId ? -1 : 1),
  );
}

/** The dismissal to store for a candidate (its current support marks). */
export function dismissSynthesis(candidate: SynthesisCandidate, by: string, now: IsoTime): SynthesisDismissal {
  return { aId: candidate.aId, bId: candidate.bId, aSupportMark: candidate.aSupportMark, bSupportMark: candidate.bSupportMark, dismissedAt: now, dismissedBy: by };
}

export interface AcceptSynthesisInput {
  a: Belief;
  b: Belief;
  proposal: Pick<SynthesisProposal, "text" | "contextTags">;
  /** Ids and time come from the caller (the engine has no clock and no id source). */
  newBeliefId: string;
  changeSetId: string;
  actor: string;
  now: IsoTime;
}

/** The change-set of an accepted synthesis: one new provisional belief and `SYNTHESIZES` edges to both sides. */
export function acceptSynthesis(input: AcceptSynthesisInput, params: EngineParams): ChangeSet {
  const text = input.proposal.text.trim();
  if (!text) throw new EngineError("empty_text", "A synthesis needs a sentence.");
  if (input.a.id === input.b.id) throw new EngineError("same_belief", "A synthesis reconciles two different beliefs.");
  for (const side of [input.a, input.b]) {
    if (!isLiveStatus(side.status)) {
      throw new EngineError("not_live", `Belief ${side.id} is no longer live.`);
    }
  }
  const created = newBelief(
    { id: input.newBeliefId, scope: input.a.scope, topic: input.a.topic, text, contextTags: input.proposal.contextTags },
    params,
    input.now,
  );
  const write = writeBelief({ belief: created, history: [] }, [], params, input.now, true);
  const belief = write.record.belief;
  const edges: BeliefEdge[] = [input.a.id, input.b.id].map((to) => ({ kind: "SYNTHESIZES", from: belief.id, to, time: input.now, changeSet: input.changeSetId }));
  return { ...emptyChangeSet(input.changeSetId, input.actor, input.now), beliefs: [write.upsert], edges };
}
