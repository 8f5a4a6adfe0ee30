/**
 * Assimilation (docs/design.md §4.1–§4.2): the untrusted boundary where a caller's claim and evidence list become entries.
 *
 * For each piece of evidence the source is resolved once through the caller's authorised view and `verified`,
 * `effectiveTier`, `launderingReason` and `ess` are decided and stored; then the belief is replayed and a change-set
 * (belief upsert with expected version, history append, rewritten entry outputs) is returned. Nothing is written.
 */
import { z } from "zod";
import type { ChangeSet, BeliefUpsert, EntryOutputUpdate, HistoryAppend } from "./change-set";
import { emptyChangeSet } from "./change-set";
import {
  RELATIONS,
  TIERS,
  type Belief,
  type BeliefRecord,
  eventTime,
  type EvidenceEntry,
  type History,
  type HistoryItem,
  type IsoTime,
  type PossibleDuplicateEvent,
  type Quantity,
} from "./model";
import type { EngineParams } from "./params";
import type { AuthorisedResolver } from "./ports";
import { derivedFields, replay, replayIncremental, replayWithCheckpoint, sliceOfCheckpoint, type CheckpointSlice, type IncrementalFallback, type ReplayState } from "./replay";
import { beliefKey } from "./topic";
import { ResolutionCache, verifySource } from "./verification";

/** One piece of evidence as a caller states it. Time, actor, verification and outputs are never the caller's. */
export const evidenceInputSchema = z
  .object({
    /** The cited item's id; null (or omitted) for an anonymous model assertion. */
    sourceId: z.string().trim().min(1).max(512).nullable().default(null),
    relation: z.enum(RELATIONS).default("SUPPORTS"),
    tier: z.enum(TIERS),
    weight: z.number().min(0).max(1).default(1),
    reasoning: z.string().max(4000).nullable().default(null),
    /** Stamp of the assessor that decided relation and weight; `caller` when the request stated them. */
    assessor: z.string().min(1).max(200).default("caller"),
  })
  .strict();
export type EvidenceInput = z.input<typeof evidenceInputSchema>;

/** A belief to create when assimilation targets a claim with no live belief yet (id and topic come from the caller). */
export interface NewBeliefSpec {
  id: string;
  scope: string;
  topic: string;
  text: string;
  key?: string;
  quantity?: Quantity | null;
  contextTags?: readonly string[];
  supersedesId?: string | null;
}

/** Distributive Omit: a history item before its seq is assigned. */
export type UnsequencedItem = HistoryItem extends infer T ? (T extends HistoryItem ? Omit<T, "seq"> : never) : never;

/** The result of appending items to one belief: its new record and replay, and what a store writes. */
export interface BeliefWrite {
  before: BeliefRecord | null;
  record: BeliefRecord;
  state: ReplayState;
  upsert: BeliefUpsert;
  append: HistoryAppend;
  /** Stored entries (before this write) whose replay outputs changed. */
  outputs: EntryOutputUpdate[];
}

/** A fresh belief with the derived fields of an empty history. */
export function newBelief(spec: NewBeliefSpec, params: EngineParams, time: IsoTime): Belief {
  return {
    ...derivedFields(replay([], params)),
    id: spec.id,
    scope: spec.scope,
    topic: spec.topic,
    text: spec.text,
    key: spec.key ?? beliefKey(spec.text),
    quantity: spec.quantity ?? null,
    contextTags: [...new Set(spec.contextTags ?? [])],
    validFrom: time,
    supersedesId: spec.supersedesId ?? null,
    version: 0,
    createdAt: time,
    updatedAt: time,
  };
}

/**
 * Append items to a belief (assigning seqs after its last one), replay, and describe the write. `before` null means
 * the belief is new (`record.belief.version` 0): the upsert inserts it. Appended entries carry their replay outputs.
 */
export function writeBelief(
  current: BeliefRecord,
  items: readonly UnsequencedItem[],
  params: EngineParams,
  time: IsoTime,
  isNew = current.belief.version === 0 && current.history.length === 0,
): BeliefWrite {
  let seq = current.history.reduce((m, it) => Math.max(m, it.seq), 0);
  const appended = items.map((it) => ({ ...it, seq: ++seq }) as HistoryItem);
  const history = [...current.history, ...appended];
  const { state, checkpoint } = replayWithCheckpoint(history, params);
  const outcome = new Map(state.entries.map((e) => [e.seq, e]));
  const outputs: EntryOutputUpdate[] = [];
  for (const it of current.history) {
    if (it.type !== "entry") continue;
    const o = outcome.get(it.seq);
    if (o && (o.contribution !== it.contribution || o.effectiveWeight !== it.effectiveWeight))
      outputs.push({ beliefId: current.belief.id, seq: it.seq, contribution: o.contribution, effectiveWeight: o.effectiveWeight });
  }
  const withOutputs = (it: HistoryItem): HistoryItem => {
    if (it.type !== "entry") return it;
    const o = outcome.get(it.seq);
    if (!o || (o.contribution === it.contribution && o.effectiveWeight === it.effectiveWeight)) return it;
    return { ...it, contribution: o.contribution, effectiveWeight: o.effectiveWeight };
  };
  const appendedOut = appended.map(withOutputs);
  const storedHistory = current.history.map(withOutputs);
  const belief: Belief = {
    ...current.belief,
    ...derivedFields(state),
    validFrom: validFromAfter(isNew ? null : current.belief.validFrom, appended, current.belief.validFrom),
    version: current.belief.version + 1,
    updatedAt: time,
  };
  return {
    before: isNew ? null : current,
    record: { belief, history: [...storedHistory, ...appendedOut] },
    state,
    upsert: { belief, expectedVersion: isNew ? null : current.belief.version, checkpoint: sliceOfCheckpoint(checkpoint) },
    append: { beliefId: belief.id, items: appendedOut },
    outputs,
  };
}

/**
 * A belief's `validFrom` after a write: the earliest event time of its history (an item observed before the belief's
 * first observation moves it back), so an `asOf` read shows the belief from when it was first true or seen. `fallback`
 * when neither the belief nor the items hold a time.
 */
function validFromAfter(current: IsoTime | null, items: readonly HistoryItem[], fallback: IsoTime): IsoTime {
  let best = current;
  let bestMs = best === null ? Number.POSITIVE_INFINITY : Date.parse(best);
  for (const it of items) {
    const at = eventTime(it);
    const ms = Date.parse(at);
    if (ms < bestMs) {
      best = at;
      bestMs = ms;
    }
  }
  return best ?? fallback;
}

/** Gather belief writes into one change-set. */
export function changeSetOf(writes: readonly BeliefWrite[], id: string, actor: string, time: IsoTime): ChangeSet {
  return {
    ...emptyChangeSet(id, actor, time),
    beliefs: writes.map((w) => w.upsert),
    history: writes.filter((w) => w.append.items.length > 0).map((w) => w.append),
    entryOutputs: writes.flatMap((w) => w.outputs),
  };
}

export interface AssimilateInput {
  /**
   * The belief to add evidence to, or the spec of a new one; a new one may carry the `possible_duplicate` link the
   * restatement policy asked for (`possibleDuplicateItem` in ./readings), appended after its entries.
   */
  target: { existing: BeliefRecord } | { create: NewBeliefSpec; possibleDuplicate?: Omit<PossibleDuplicateEvent, "seq"> };
  /** Parsed with `evidenceInputSchema`; a ZodError names each bad field. */
  evidence: readonly unknown[];
  /** The caller's authorised view: the only way the engine learns whether a source exists. */
  resolver: AuthorisedResolver;
  params: EngineParams;
  /** From the server's clock: when the entries are recorded. */
  time: IsoTime;
  /** When the evidence was true or seen, as the caller stated it (validated by the caller's boundary); default `time`. */
  observedAt?: IsoTime;
  actor: string;
  changeSetId: string;
}

export interface AssimilateResult {
  changeSet: ChangeSet;
  write: BeliefWrite;
  /** The entries written, in order, with their stored decisions. */
  entries: EvidenceEntry[];
  /** Every id resolved, in lookup order (for no-oracle tests and audit). */
  lookups: string[];
}

/**
 * Assimilate evidence into a belief. Sources are resolved sequentially in input order (deterministic lookup
 * sequences); an entry whose Evidence is already retracted is written with a `retracted` event in the same change-set.
 */
export async function assimilate(input: AssimilateInput): Promise<AssimilateResult> {
  const current: BeliefRecord =
    "existing" in input.target
      ? input.target.existing
      : { belief: newBelief(input.target.create, input.params, input.time), history: [] };
  const { items, lookups } = await evidenceItems(input, current.belief.id, current.history.reduce((m, it) => Math.max(m, it.seq), 0));
  if ("create" in input.target && input.target.possibleDuplicate) items.push(input.target.possibleDuplicate);
  const write = writeBelief(current, items, input.params, input.time, !("existing" in input.target));
  const entries = write.append.items.filter((it): it is EvidenceEntry => it.type === "entry");
  return {
    changeSet: changeSetOf([write], input.changeSetId, input.actor, input.time),
    write,
    entries,
    lookups,
  };
}

/**
 * The entries for `input.evidence` on belief `citerId` whose last seq is `lastSeq`: each source resolved once through
 * the caller's view, sequentially in input order (deterministic lookup sequences); an entry whose Evidence is already
 * retracted is followed by a `retracted` event in the same change-set.
 */
async function evidenceItems(input: Pick<AssimilateInput, "evidence" | "resolver" | "actor" | "time" | "observedAt" | "changeSetId">, citerId: string, lastSeq: number): Promise<{ items: UnsequencedItem[]; lookups: string[] }> {
  const evidence = z.array(evidenceInputSchema).max(1000).parse(input.evidence);
  const cache = new ResolutionCache(input.resolver);
  const items: UnsequencedItem[] = [];
  let seq = lastSeq;
  const retractions: UnsequencedItem[] = [];
  for (const ev of evidence) {
    const verdict = await verifySource(citerId, ev.sourceId, ev.tier, cache);
    const entrySeq = ++seq;
    items.push({
      type: "entry",
      sourceId: ev.sourceId,
      sourceKind: verdict.sourceKind,
      relation: ev.relation,
      tier: ev.tier,
      weight: ev.weight,
      ess: verdict.ess,
      verified: verdict.verified,
      effectiveTier: verdict.effectiveTier,
      launderingReason: verdict.launderingReason,
      reasoning: ev.reasoning,
      assessor: ev.assessor,
      actor: input.actor,
      time: input.time,
      observedAt: input.observedAt ?? input.time,
      changeSet: input.changeSetId,
      contribution: 0,
      effectiveWeight: 0,
    });
    if (verdict.sourceRetracted && ev.sourceId !== null) {
      retractions.push({
        type: "retracted",
        targetSeq: entrySeq,
        sourceId: ev.sourceId,
        actor: input.actor,
        time: input.time,
        observedAt: input.observedAt ?? input.time,
        changeSet: input.changeSetId,
      });
    }
  }
  return { items: [...items, ...retractions], lookups: cache.lookedUp() };
}

// ---------------------------------------------------------------------------------------------------------------
// Writes on a checkpoint: the belief without its history (docs/design.md §4.1, incremental replay)
// ---------------------------------------------------------------------------------------------------------------

/**
 * A stored belief as a write needs it when its history is long: the belief, its last seq, the fold checkpoint stored
 * with it (null when none is stored), and the history itself only when the store chose to send it (short histories).
 */
export interface BeliefHead {
  belief: Belief;
  lastSeq: number;
  checkpoint: CheckpointSlice | null;
  history: History | null;
}

/** A write folded onto a checkpoint: what the store writes, and the belief after it. No full history is involved. */
export interface CheckpointWrite {
  belief: Belief;
  /** Live real supports after the write (as `replay(…).realSupports.length`): grounded = live and at least one. */
  realSupportCount: number;
  upsert: BeliefUpsert;
  append: HistoryAppend;
  /** Stored entries whose outputs change (earlier votes outvoted by the new entries). */
  outputs: EntryOutputUpdate[];
}

/** Whether a write can fold onto `head`'s checkpoint: there is one, and it ends at the belief's last seq. */
export function checkpointUsable(head: BeliefHead): head is BeliefHead & { checkpoint: CheckpointSlice } {
  return head.checkpoint !== null && head.checkpoint.head.foldedSeq === head.lastSeq;
}

/**
 * Appends `items` to the belief of `head` by folding them onto its checkpoint (`replayIncremental`, equal bit for bit
 * to a full replay). The answer is `{ fallback }` when that is not possible — no checkpoint, one that does not end at
 * the belief's last seq, other parameters, or items that rewrite earlier entries (retraction, stripping, revision) —
 * and the caller then writes with the whole history (`writeBelief`).
 */
export function writeBeliefOnCheckpoint(
  head: BeliefHead,
  items: readonly UnsequencedItem[],
  params: EngineParams,
  time: IsoTime,
): CheckpointWrite | { fallback: IncrementalFallback | "no_checkpoint" } {
  if (!checkpointUsable(head)) return { fallback: "no_checkpoint" };
  const cp = head.checkpoint;
  let seq = head.lastSeq;
  const appended = items.map((it) => ({ ...it, seq: ++seq }) as HistoryItem);
  const folded = replayIncremental(cp, appended, params);
  if ("fallback" in folded) return folded;
  const outcome = new Map(folded.entries.map((e) => [e.seq, e]));
  const appendedOut = appended.map((it): HistoryItem => {
    if (it.type !== "entry") return it;
    const o = outcome.get(it.seq);
    return o ? { ...it, contribution: o.contribution, effectiveWeight: o.effectiveWeight } : it;
  });
  const belief: Belief = { ...head.belief, ...folded.derived, validFrom: validFromAfter(head.belief.validFrom, appended, head.belief.validFrom), version: head.belief.version + 1, updatedAt: time };
  return {
    belief,
    realSupportCount: folded.realSupportCount,
    upsert: { belief, expectedVersion: head.belief.version, checkpoint: folded.slice },
    append: { beliefId: belief.id, items: appendedOut },
    outputs: folded.changedEntries.map((c) => ({ beliefId: belief.id, seq: c.seq, contribution: c.contribution, effectiveWeight: c.effectiveWeight })),
  };
}

export interface AssimilateOnCheckpointResult {
  changeSet: ChangeSet;
  write: CheckpointWrite;
  entries: EvidenceEntry[];
  lookups: string[];
}

/**
 * `assimilate` into an existing belief known by its head: the same entries and the same stored state as `assimilate`
 * with the whole history (`replayIncremental` is property-tested equal to the replay), or `{ fallback }` when the
 * write needs the history (see `writeBeliefOnCheckpoint`; a citation of retracted evidence is one such write).
 */
export async function assimilateOnCheckpoint(
  input: Omit<AssimilateInput, "target"> & { head: BeliefHead },
): Promise<AssimilateOnCheckpointResult | { fallback: IncrementalFallback | "no_checkpoint" }> {
  const { head } = input;
  if (!checkpointUsable(head)) return { fallback: "no_checkpoint" };
  const { items, lookups } = await evidenceItems(input, head.belief.id, head.lastSeq);
  const write = writeBeliefOnCheckpoint(head, items, input.params, input.time);
  if ("fallback" in write) return write;
  return {
    changeSet: {
      ...emptyChangeSet(input.changeSetId, input.actor, input.time),
      beliefs: [write.upsert],
      history: write.append.items.length > 0 ? [write.append] : [],
      entryOutputs: write.outputs,
    },
    write,
    entries: write.append.items.filter((it): it is EvidenceEntry => it.type === "entry"),
    lookups,
  };
}
