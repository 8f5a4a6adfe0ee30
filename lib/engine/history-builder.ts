/**
 * Builders for already-decided history items: tests, fixtures, imports and the demo. They fill the stored fields
 * with neutral defaults; they do NOT verify anything (use `assimilate` at the untrusted boundary).
 */
import type {
  ContractionEvent,
  DecidedEvent,
  PossibleDuplicateEvent,
  ReadingDecision,
  UndecidedEvent,
  EvidenceEntry,
  HistoryItem,
  IsoTime,
  RetractedEvent,
  ReviewEvent,
  RevisedEvent,
  StatusEvent,
  StrippedEvent,
} from "./model";

export const EPOCH: IsoTime = "2026-01-01T00:00:00.000Z";

/** An ISO time `minutes` after `EPOCH` (or after `from`). */
export function minutesAfter(minutes: number, from: IsoTime = EPOCH): IsoTime {
  return new Date(Date.parse(from) + minutes * 60_000).toISOString();
}

type EntryInput = Partial<Omit<EvidenceEntry, "type" | "seq">> & { seq: number };

/** A verified, non-laundered `SUPPORTS` document entry unless told otherwise; effectiveTier defaults to `tier`. */
export function makeEntry(p: EntryInput): EvidenceEntry {
  const tier = p.tier ?? "document";
  return {
    type: "entry",
    seq: p.seq,
    sourceId: p.sourceId === undefined ? `src-${p.seq}` : p.sourceId,
    sourceKind: p.sourceKind === undefined ? "evidence" : p.sourceKind,
    relation: p.relation ?? "SUPPORTS",
    tier,
    weight: p.weight ?? 1,
    ess: p.ess ?? 1,
    verified: p.verified ?? true,
    effectiveTier: p.effectiveTier ?? tier,
    launderingReason: p.launderingReason ?? null,
    reasoning: p.reasoning ?? null,
    assessor: p.assessor ?? "caller",
    actor: p.actor ?? "agent",
    time: p.time ?? EPOCH,
    ...(p.observedAt !== undefined ? { observedAt: p.observedAt } : {}),
    changeSet: p.changeSet ?? `cs-${p.seq}`,
    contribution: p.contribution ?? 0,
    effectiveWeight: p.effectiveWeight ?? 0,
  };
}

interface EventBase {
  seq: number;
  time?: IsoTime;
  observedAt?: IsoTime;
  actor?: string;
  changeSet?: string;
}

function base(p: EventBase): { seq: number; time: IsoTime; observedAt?: IsoTime; actor: string; changeSet: string } {
  return {
    seq: p.seq,
    time: p.time ?? EPOCH,
    ...(p.observedAt !== undefined ? { observedAt: p.observedAt } : {}),
    actor: p.actor ?? "system",
    changeSet: p.changeSet ?? `cs-${p.seq}`,
  };
}

export function makeRetracted(p: EventBase & { targetSeq: number; sourceId?: string }): RetractedEvent {
  return { type: "retracted", ...base(p), targetSeq: p.targetSeq, sourceId: p.sourceId ?? "?" };
}

export function makeStripped(p: EventBase & { targetSeq: number; citedBeliefId?: string }): StrippedEvent {
  return { type: "stripped", ...base(p), targetSeq: p.targetSeq, citedBeliefId: p.citedBeliefId ?? "?" };
}

export function makeRevised(
  p: EventBase & { targetSeq: number; weight?: number; relation?: RevisedEvent["relation"]; reason?: string },
): RevisedEvent {
  const e: RevisedEvent = { type: "revised", ...base(p), targetSeq: p.targetSeq, reason: p.reason ?? "correction" };
  if (p.weight !== undefined) e.weight = p.weight;
  if (p.relation !== undefined) e.relation = p.relation;
  return e;
}

export function makeContraction(p: EventBase & { severity: number; reasoning?: string }): ContractionEvent {
  return { type: "contraction", ...base(p), severity: p.severity, reasoning: p.reasoning ?? "", assessor: "caller" };
}

export function makeStatusEvent(
  p: EventBase & { type: StatusEvent["type"]; byBeliefId?: string; note?: string },
): StatusEvent {
  const e: StatusEvent = { type: p.type, ...base(p) };
  if (p.byBeliefId !== undefined) e.byBeliefId = p.byBeliefId;
  if (p.note !== undefined) e.note = p.note;
  return e;
}

export function makeReview(p: EventBase & { action: ReviewEvent["action"]; mutationId?: string | null; note?: string }): ReviewEvent {
  return { type: "review", ...base(p), action: p.action, mutationId: p.mutationId ?? null, note: p.note ?? "" };
}

/** Renumber items 1..n in the given order, remapping `targetSeq` references. */
export function renumber(items: readonly HistoryItem[]): HistoryItem[] {
  const map = new Map<number, number>();
  items.forEach((item, i) => map.set(item.seq, i + 1));
  return items.map((item, i) => {
    const seq = i + 1;
    if ("targetSeq" in item) return { ...item, seq, targetSeq: map.get(item.targetSeq) ?? item.targetSeq };
    return { ...item, seq };
  });
}

/** An undecided reading of `src-<seq>` (document tier, guess SUPPORTS at 0.5) unless told otherwise. */
export function undecided(p: EventBase & Partial<Omit<UndecidedEvent, "type" | "seq" | "time" | "actor" | "changeSet">>): UndecidedEvent {
  const tier = p.tier ?? "document";
  return {
    type: "undecided",
    ...base(p),
    sourceId: p.sourceId ?? `src-${p.seq}`,
    sourceKind: p.sourceKind === undefined ? "evidence" : p.sourceKind,
    guess: p.guess ?? "SUPPORTS",
    confidence: p.confidence ?? 0.5,
    weight: p.weight ?? 0.6,
    tier,
    verified: p.verified ?? true,
    effectiveTier: p.effectiveTier ?? tier,
    ess: p.ess ?? 1,
    reasoning: p.reasoning ?? "",
    assessor: p.assessor ?? "caller",
  };
}

export function possibleDuplicate(p: EventBase & { otherBeliefId: string; score?: number; reasoning?: string }): PossibleDuplicateEvent {
  return { type: "possible_duplicate", ...base(p), otherBeliefId: p.otherBeliefId, score: p.score ?? 0.7, reasoning: p.reasoning ?? "", assessor: "caller" };
}

export function decided(p: EventBase & { targetSeq: number; decision: ReadingDecision; entrySeq?: number | null; reason?: string }): DecidedEvent {
  return { type: "decided", ...base(p), targetSeq: p.targetSeq, decision: p.decision, entrySeq: p.entrySeq ?? null, reason: p.reason ?? "decided" };
}
