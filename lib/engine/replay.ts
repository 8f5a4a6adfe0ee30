/**
 * Credence is a replay (SPEC §4.1): a deterministic fold over a belief's stored history, from stored values only.
 *
 * Order of work:
 * 1. Events up to `asOf` of kind `retracted`, `stripped`, `revised` are applied first: a removed entry is skipped as
 *    if it had never arrived; a revised entry carries its revised weight/relation from the start.
 * 2. The remaining items fold in event-time order (`eventTime`: `observedAt`, else the recorded `time`), ties in `seq`
 *    order, so histories holding the same items in any record order replay alike. Live entries are grouped into change-sets (consecutive live entries
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
 * Undecided readings, possible duplicates and their decisions (`./readings`) are skipped: no weight, no group boundary,
 * no checkpoint. A reading decided as a relation counts through the entry its decision appends.
 */
import { z } from "zod";
import {
  BELIEF_STATUSES,
  REVIEW_STATES,
  TIERS,
  isRealTier,
  maxTier,
  type BeliefStatus,
  type DerivedBeliefFields,
  type EvidenceEntry,
  type History,
  type HistoryItem,
  type IsoTime,
  type ItemKind,
  type ReviewState,
  type Tier,
  eventTime,
  isLiveStatus,
  isReadingEvent,
} from "./model";
import { DECIDED_RELATIONS, type DecidedRelation } from "./assessor";
import { confidenceOf, deriveLiveStatus, initialStatusMemory, tension as tensionOf, type StatusMemory } from "./network";
import { logit, paramsVersion, sigmoid, type EngineParams } from "./params";
import type { SupportRef } from "./ports";

/** Why an entry contributes nothing in the replayed state (`unrelated`: a revision said it does not bear on the belief). */
export type ZeroReason = "contextualizes" | "unrelated" | "laundered" | "retracted" | "stripped" | "outvoted";

export interface EntryOutcome {
  seq: number;
  /** Relation and weight after `revised` events (UNRELATED only by a revision). */
  relation: DecidedRelation;
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
  /** Only items whose event time (`eventTime`) is ≤ asOf take part (ISO string or epoch ms). */
  asOf?: IsoTime | number;
  /** Record a checkpoint per change-set and per in-place event. */
  timeline?: boolean;
}

interface Vote {
  value: number;
  real: boolean;
  supports: boolean;
  active: boolean;
  /** One vote per (source, relation): it can be outvoted later. Anonymous votes (sourceId null) cannot. */
  keyed: boolean;
  outcome: EntryOutcome;
}

interface MassVote {
  value: number;
  /** From a model assertion: counts toward n only up to `modelMassCap`, with all other model masses. */
  model: boolean;
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
  const items = inFoldOrder(history);
  const fold = new Fold(params, options);
  fold.prepare(items);
  for (const item of items) fold.fold(item);
  fold.closeGroup();
  return fold.result();
}

// ---------------------------------------------------------------------------------------------------------------
// Incremental replay: fold only the new items onto a checkpoint of the fold state
// ---------------------------------------------------------------------------------------------------------------

/** A float as JSON: -0 (which JSON cannot carry) as the string "-0", so a checkpoint round-trips bit for bit. */
type Num = number | "-0";
function num(x: number): Num {
  return Object.is(x, -0) ? "-0" : x;
}
function unnum(x: Num): number {
  return x === "-0" ? -0 : x;
}

/** A standing keyed vote: its value, whether its tier is real, the seq of the entry that cast it. */
export type CheckpointVote = [value: Num, real: boolean, seq: number];
/** A source's live real rebuttals: the strongest assessed strength and the latest event time (epoch ms). */
export type CheckpointRebuttals = [strength: Num, latestAt: Num];

/**
 * The fold's state after a history, as JSON data: what a store keeps beside the belief so that a write folds only
 * its new items (`replayIncremental`). Its size grows with the distinct sources, actors and removed / revised entries,
 * not with the number of entries. Only valid for the parameters whose version it carries.
 */
export interface FoldCheckpoint {
  format: 3;
  paramsVersion: string;
  /** Highest seq folded. */
  foldedSeq: number;
  /** Latest event time folded (epoch ms), null before any item: a new item observed earlier needs a full replay. */
  foldedAt: Num | null;
  /** Removals and revisions of entries not folded yet (a rewrite of a folded entry needs a full replay). */
  removed: [number, "retracted" | "stripped"][];
  revisedWeight: [number, Num][];
  revisedRelation: [number, DecidedRelation][];
  /** real, model, S, R, n. */
  sums: Num[];
  /**
   * Per source (sorted): its standing support vote and rebuttal vote, its evidence mass, whether it is among the
   * live real supports' distinct sources, and its live real rebuttals (what a belief's standing needs: ./standing.ts).
   */
  sources: [
    source: string,
    support: CheckpointVote | null,
    rebut: CheckpointVote | null,
    mass: Num | null,
    realSupportSource: boolean,
    modelMass: boolean,
    realRebuttals: CheckpointRebuttals | null,
  ][];
  /** Standing anonymous votes (never outvoted): only their number counts. */
  anonSupports: number;
  anonRebuts: number;
  realSupports: number;
  realRebuttals: number;
  strongestTier: Tier | null;
  maxRebuttal: Num;
  lastSupportAt: IsoTime | null;
  lastRebuttalAt: IsoTime | null;
  lastMoving: [string, Num][];
  pendingMoving: [string, Num][];
  /** The open change-set group (the last entries' change-set, which a new entry may continue). */
  group: { id: string; time: Num; resistance: Num; lastSeq: number; lastTime: IsoTime } | null;
  terminal: BeliefStatus | null;
  validUntil: IsoTime | null;
  reviewState: ReviewState;
  promoted: boolean;
  memory: StatusMemory;
  status: BeliefStatus;
}

const numSchema = z.union([z.number(), z.literal("-0")]);
const voteSchema = z.tuple([numSchema, z.boolean(), z.number().int()]).nullable();
const rebuttalsSchema = z.tuple([numSchema, numSchema]).nullable();

/**
 * A stored checkpoint read back (store rows are a boundary). Tuples of the sources list are checked by shape; the
 * parse is linear in the sources, a few milliseconds for thousands of them.
 */
export const foldCheckpointSchema = z
  .object({
    format: z.literal(3),
    paramsVersion: z.string(),
    foldedSeq: z.number().int().nonnegative(),
    foldedAt: numSchema.nullable(),
    removed: z.array(z.tuple([z.number().int(), z.enum(["retracted", "stripped"])])),
    revisedWeight: z.array(z.tuple([z.number().int(), numSchema])),
    revisedRelation: z.array(z.tuple([z.number().int(), z.enum(DECIDED_RELATIONS)])),
    sums: z.array(numSchema),
    sources: z.array(z.tuple([z.string(), voteSchema, voteSchema, numSchema.nullable(), z.boolean(), z.boolean(), rebuttalsSchema])),
    anonSupports: z.number().int(),
    anonRebuts: z.number().int(),
    realSupports: z.number().int(),
    realRebuttals: z.number().int(),
    strongestTier: z.enum(TIERS).nullable(),
    maxRebuttal: numSchema,
    lastSupportAt: z.string().nullable(),
    lastRebuttalAt: z.string().nullable(),
    lastMoving: z.array(z.tuple([z.string(), numSchema])),
    pendingMoving: z.array(z.tuple([z.string(), numSchema])),
    group: z.object({ id: z.string(), time: numSchema, resistance: numSchema, lastSeq: z.number().int(), lastTime: z.string() }).strict().nullable(),
    terminal: z.enum(BELIEF_STATUSES).nullable(),
    validUntil: z.string().nullable(),
    reviewState: z.enum(REVIEW_STATES),
    promoted: z.boolean(),
    memory: z.object({ everSupported: z.boolean(), disputed: z.boolean() }).strict(),
    status: z.enum(BELIEF_STATUSES),
  })
  .strict();

/** A checkpoint from its stored JSON text; null for no text or text that is not a checkpoint (the write then replays). */
export function parseFoldCheckpoint(text: string | null | undefined): FoldCheckpoint | null {
  if (text === null || text === undefined || text === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = foldCheckpointSchema.safeParse(value);
  return parsed.success ? (parsed.data as FoldCheckpoint) : null;
}

/** One row of a checkpoint's `sources`: what the fold keeps of one source. */
export type CheckpointSource = FoldCheckpoint["sources"][number];

/**
 * A checkpoint without its per-source rows (`CheckpointSlice.head`): the scalars and the counts of the rows a fold
 * reads without holding them — the standing keyed support and rebuttal votes and the live real supports' distinct
 * sources. Small whatever the number of sources, so a store can keep it with the belief and the rows apart.
 */
export interface CheckpointHead extends Omit<FoldCheckpoint, "sources"> {
  keyedSupports: number;
  keyedRebuts: number;
  supportSources: number;
}

/**
 * A checkpoint as a write reads and writes it: the head, and the rows of the sources it covers (`covered`: "all",
 * or the listed sources — a listed source without a row has none). A fold onto a slice touches only the rows of the
 * sources its new items cite, so a store that keeps rows per (belief, source) reads and writes O(new items) per write.
 */
export interface CheckpointSlice {
  head: CheckpointHead;
  /** Sorted by source (JavaScript string order). */
  sources: readonly CheckpointSource[];
  covered: "all" | readonly string[];
}

const { sources: _sourcesShape, ...headShape } = foldCheckpointSchema.shape;
/** A stored head read back (store rows are a boundary). */
export const checkpointHeadSchema = z
  .object({ ...headShape, keyedSupports: z.number().int().nonnegative(), keyedRebuts: z.number().int().nonnegative(), supportSources: z.number().int().nonnegative() })
  .strict();
/** A stored source row read back: the row without its source name (`[support, rebut, mass, realSupportSource, modelMass, realRebuttals]`). */
export const checkpointSourceDataSchema = z.tuple([voteSchema, voteSchema, numSchema.nullable(), z.boolean(), z.boolean(), rebuttalsSchema]);

const bySource = (a: CheckpointSource, b: CheckpointSource) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The head of a whole checkpoint (its rows counted). */
export function checkpointHeadOf(cp: FoldCheckpoint): CheckpointHead {
  const { sources, ...rest } = cp;
  let keyedSupports = 0;
  let keyedRebuts = 0;
  let supportSources = 0;
  for (const [, support, rebut, , supportSource] of sources) {
    if (support !== null) keyedSupports++;
    if (rebut !== null) keyedRebuts++;
    if (supportSource) supportSources++;
  }
  return { ...rest, keyedSupports, keyedRebuts, supportSources };
}

/** A whole checkpoint as a slice covering every source. */
export function sliceOfCheckpoint(cp: FoldCheckpoint): CheckpointSlice {
  return { head: checkpointHeadOf(cp), sources: cp.sources, covered: "all" };
}

/** The whole checkpoint of a slice that covers every source; null for a partial one. */
export function joinCheckpoint(slice: CheckpointSlice): FoldCheckpoint | null {
  if (slice.covered !== "all") return null;
  const { keyedSupports: _a, keyedRebuts: _b, supportSources: _c, ...rest } = slice.head;
  return { ...rest, sources: [...slice.sources].sort(bySource) };
}

/** Stored rows (the whole set, in any order) updated with a slice's rows: what a store holds after writing the slice. */
export function mergeCheckpointSources(stored: readonly CheckpointSource[], slice: CheckpointSlice): CheckpointSource[] {
  if (slice.covered === "all") return [...slice.sources].sort(bySource);
  const rows = new Map(stored.map((r) => [r[0], r]));
  for (const name of slice.covered) rows.delete(name);
  for (const r of slice.sources) rows.set(r[0], r);
  return [...rows.values()].sort(bySource);
}

/** The later of two slices of one belief (b computed on a's result): b's head, rows and coverage over a's. */
export function mergeCheckpointSlices(a: CheckpointSlice, b: CheckpointSlice): CheckpointSlice {
  if (b.covered === "all") return b;
  const rows = new Map(a.sources.map((r) => [r[0], r]));
  for (const name of b.covered) rows.delete(name);
  for (const r of b.sources) rows.set(r[0], r);
  const covered = a.covered === "all" ? "all" : [...new Set([...a.covered, ...b.covered])].sort();
  return { head: b.head, sources: [...rows.values()].sort(bySource), covered };
}

/** The checkpoint of a whole history (the full fold). */
export function foldCheckpoint(history: History, params: EngineParams): FoldCheckpoint {
  return replayWithCheckpoint(history, params).checkpoint;
}

/** `replay(history, params)` and the checkpoint of the same fold, in one pass (what a write stores beside the belief). */
export function replayWithCheckpoint(history: History, params: EngineParams): { state: ReplayState; checkpoint: FoldCheckpoint } {
  const items = inFoldOrder(history);
  const fold = new Fold(params, {});
  fold.prepare(items);
  for (const item of items) fold.fold(item);
  const checkpoint = fold.toCheckpoint();
  fold.closeGroup();
  return { state: fold.result(), checkpoint };
}

/** What folding new items onto a checkpoint gives: the state's scalar fields, the new entries' outcomes, the next checkpoint. */
export interface IncrementalReplay {
  derived: DerivedBeliefFields;
  n: number;
  realLogOdds: number;
  modelLogOdds: number;
  /** Live real supports after the new items (as `replay(…).realSupports.length`). */
  realSupportCount: number;
  /** Outcomes of the new entries, in seq order. */
  entries: readonly EntryOutcome[];
  /** Earlier entries whose stored outputs change (outvoted by a new entry: contribution and effectiveWeight become 0). */
  changedEntries: readonly { seq: number; contribution: number; effectiveWeight: number }[];
  /** The next fold state: the head and the rows of the covered sources (the input's and the new items'). */
  slice: CheckpointSlice;
  /** The next whole checkpoint, when the input covered every source; else null. */
  checkpoint: FoldCheckpoint | null;
}

/**
 * Why `replayIncremental` needs a full replay instead (`out_of_order`: an item observed before one already folded, or
 * not after the checkpoint's last seq).
 */
export type IncrementalFallback = "params_changed" | "rewrites_history" | "out_of_order" | "sources_not_loaded";

/**
 * Folds `newItems` onto `checkpoint` (the fold state of the belief's stored history): equal, bit for bit, to replaying
 * the whole history with the new items appended (the property suite holds them equal). Items that change earlier
 * entries (`retracted`, `stripped`, `revised`) — or a checkpoint made with other parameters, or items that do not come
 * after the checkpoint — need a full replay: the answer is then `{ fallback }`.
 */
export function replayIncremental(
  checkpoint: FoldCheckpoint | CheckpointSlice,
  newItems: readonly HistoryItem[],
  params: EngineParams,
): IncrementalReplay | { fallback: IncrementalFallback } {
  const slice = "head" in checkpoint ? checkpoint : sliceOfCheckpoint(checkpoint);
  const head = slice.head;
  if (head.format !== 3 || head.paramsVersion !== versionOf(params)) return { fallback: "params_changed" };
  const covered = slice.covered === "all" ? null : new Set(slice.covered);
  let last = head.foldedSeq;
  let lastAt = head.foldedAt === null ? Number.NEGATIVE_INFINITY : unnum(head.foldedAt);
  for (const item of newItems) {
    if (item.type === "retracted" || item.type === "stripped" || item.type === "revised") return { fallback: "rewrites_history" };
    // The fold continues only with items that come after everything folded: a later seq and no earlier event time.
    const at = Date.parse(eventTime(item));
    if (item.seq <= last || !(at >= lastAt)) return { fallback: "out_of_order" };
    last = item.seq;
    lastAt = at;
    // A contraction scales every standing vote; an entry reads its source's row: both need the rows at hand.
    if (covered !== null && ((item.type === "entry" && item.sourceId !== null && !covered.has(item.sourceId)) || item.type === "contraction"))
      return { fallback: "sources_not_loaded" };
  }
  const fold = Fold.fromCheckpoint(params, slice);
  for (const item of newItems) fold.fold(item);
  const next = fold.toSlice(slice.covered === "all" ? "all" : [...new Set([...slice.covered, ...sourcesOf(newItems)])].sort());
  fold.closeGroup();
  const state = fold.result();
  return {
    derived: derivedFields(state),
    n: state.n,
    realLogOdds: state.realLogOdds,
    modelLogOdds: state.modelLogOdds,
    realSupportCount: fold.realSupportCount(),
    entries: state.entries,
    changedEntries: fold.outvotedPrefixEntries().map((o) => ({ seq: o.seq, contribution: o.contribution, effectiveWeight: o.effectiveWeight })),
    slice: next,
    checkpoint: joinCheckpoint(next),
  };
}

/** The distinct sources the entries among `items` cite. */
export function sourcesOf(items: readonly { type: string; sourceId?: string | null }[]): string[] {
  const out = new Set<string>();
  for (const item of items) if (item.type === "entry" && typeof item.sourceId === "string") out.add(item.sourceId);
  return [...out];
}

/**
 * The order a fold reads a history in: by event time, ties by seq (record order). Stores hand items in seq order; a
 * history whose event times follow its seqs (every history written without `observedAt`) is returned as is.
 */
export function inFoldOrder(history: History): History {
  const n = history.length;
  const keys = new Float64Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const item = history[i] as HistoryItem;
    keys[i] = Date.parse(eventTime(item));
    if (i > 0 && sorted) {
      const prev = history[i - 1] as HistoryItem;
      const dt = (keys[i] as number) - (keys[i - 1] as number);
      if (dt < 0 || (dt === 0 && item.seq < prev.seq)) sorted = false;
    }
  }
  if (sorted) return history;
  const index = Array.from({ length: n }, (_, i) => i);
  index.sort((a, b) => (keys[a] as number) - (keys[b] as number) || (history[a] as HistoryItem).seq - (history[b] as HistoryItem).seq);
  return index.map((i) => history[i] as HistoryItem);
}

/** The fold's running state. A class (not closures) so a replay allocates no functions. */
class Fold {
  private readonly asOfMs: number;
  private readonly wantTimeline: boolean;
  private readonly strength: EngineParams["tierStrength"];
  private readonly docStrength: number;
  private readonly cap: number;
  private lastTimeStr = "";
  private lastTimeMs = 0;

  private readonly removed = new Map<number, "retracted" | "stripped">();
  private readonly revisedWeight = new Map<number, number>();
  private readonly revisedRelation = new Map<number, DecidedRelation>();

  // Running sums (contraction scales them in place).
  private real = 0;
  private model = 0;
  private S = 0;
  private R = 0;
  /** Evidence mass of real (non-model) sources; model assertions' mass is kept apart in `nModel`. */
  private n = 0;
  private nModel = 0;
  // Every vote ever cast (contraction scales them all); keyed ones also by source, per relation.
  private readonly votes: Vote[] = [];
  private readonly supportVotes = new Map<string, Vote>();
  private readonly rebutVotes = new Map<string, Vote>();
  private readonly masses: MassVote[] = [];
  private readonly massBySource = new Map<string, MassVote>();
  private readonly outcomes: EntryOutcome[] = [];
  private readonly realSupports: RealEntryRef[] = [];
  private readonly realRebuttals: RealEntryRef[] = [];
  private readonly supportSources = new Set<string>();
  /** Per source of live real rebuttals: the strongest assessed strength and the latest event time (epoch ms). */
  private readonly rebuttalSources = new Map<string, { strength: number; latestAt: number }>();
  private strongestTier: Tier | null = null;
  private maxRebuttal = 0;
  private lastSupportAt: IsoTime | null = null;
  private lastRebuttalAt: IsoTime | null = null;

  // Cooling clock: per actor, the time of their last change-set that moved the belief.
  private readonly lastMoving = new Map<string, number>();
  private readonly pendingMoving = new Map<string, number>();

  // Group state.
  private groupId: string | null = null;
  private groupTime = 0;
  private resistance = 1;
  private lastSeq = 0;
  private lastTime: IsoTime = "";

  // Status state.
  private terminal: BeliefStatus | null = null;
  private validUntil: IsoTime | null = null;
  private reviewState: ReviewState = "none";
  private promoted = false;
  private memory: StatusMemory = initialStatusMemory;
  private status: BeliefStatus = "provisional";
  private readonly timeline: Checkpoint[] = [];

  // Restored from a FoldCheckpoint: what the folded prefix left that is not kept item by item.
  private baseAnonSupports = 0;
  private baseAnonRebuts = 0;
  private baseRealSupports = 0;
  private baseRealRebuttals = 0;
  /** Standing keyed votes and live real supports' distinct sources of the rows a partial slice left out. */
  private baseKeyedSupports = 0;
  private baseKeyedRebuts = 0;
  private baseSupportSources = 0;
  /** Outcomes of prefix entries that still hold a vote (stubs: only `seq` and the outputs matter). */
  private readonly restoredOutcomes: EntryOutcome[] = [];
  /** Highest seq folded so far. */
  private foldedSeq = 0;
  /** Latest event time folded so far (epoch ms). */
  private foldedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly params: EngineParams,
    options: ReplayOptions,
  ) {
    this.asOfMs = options.asOf === undefined ? Number.POSITIVE_INFINITY : toMs(options.asOf);
    this.wantTimeline = options.timeline === true;
    this.strength = params.tierStrength;
    this.docStrength = this.strength.document > 0 ? this.strength.document : 1;
    this.cap = logit(params.modelAssertionCap);
  }

  private timeMs(t: IsoTime): number {
    if (t !== this.lastTimeStr) {
      this.lastTimeStr = t;
      this.lastTimeMs = Date.parse(t);
    }
    return this.lastTimeMs;
  }

  inWindow(item: HistoryItem): boolean {
    return this.asOfMs === Number.POSITIVE_INFINITY || this.timeMs(eventTime(item)) <= this.asOfMs;
  }

  /** Pass 1: removals and revisions. */
  prepare(items: History): void {
    for (const item of items) {
      if (item.type === "entry" || !this.inWindow(item)) continue;
      if (item.type === "retracted" || item.type === "stripped") {
        if (!this.removed.has(item.targetSeq)) this.removed.set(item.targetSeq, item.type);
      } else if (item.type === "revised") {
        if (item.weight !== undefined) this.revisedWeight.set(item.targetSeq, Math.min(1, Math.max(0, item.weight)));
        if (item.relation !== undefined) this.revisedRelation.set(item.targetSeq, item.relation);
      }
    }
  }

  private credence(): number {
    return sigmoid(this.real + Math.max(-this.cap, Math.min(this.cap, this.model)));
  }

  checkpoint(seq: number, time: IsoTime): void {
    const t = tensionOf(this.S, this.R, this.params);
    const credence = this.credence();
    if (this.terminal !== null) this.status = this.terminal;
    else {
      const next = deriveLiveStatus(
        {
          credence,
          tension: t,
          independentRealSupports: this.supportSourceCount(),
          maxRealRebuttalStrength: this.maxRebuttal,
          promoted: this.promoted,
        },
        this.memory,
        this.params,
      );
      this.status = next.status;
      this.memory = next.memory;
    }
    if (this.wantTimeline)
      this.timeline.push({ seq, time, credence, confidence: confidenceOf(this.massN(), t, this.params), tension: t, status: this.status });
  }

  closeGroup(): void {
    if (this.groupId === null) return;
    for (const [actor, t] of this.pendingMoving) this.lastMoving.set(actor, t);
    this.pendingMoving.clear();
    this.groupId = null;
    this.checkpoint(this.lastSeq, this.lastTime);
  }

  entry(entry: EvidenceEntry): void {
    const removal = this.removed.get(entry.seq);
    const relation = this.revisedRelation.get(entry.seq) ?? entry.relation;
    const weight = this.revisedWeight.get(entry.seq) ?? Math.min(1, Math.max(0, entry.weight));
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
    this.outcomes.push(outcome);
    if (removal !== undefined) {
      outcome.zeroReason = removal;
      return;
    }
    if (entry.launderingReason !== null) {
      outcome.zeroReason = "laundered";
      return;
    }
    if (relation === "CONTEXTUALIZES") {
      outcome.zeroReason = "contextualizes";
      return;
    }
    if (relation === "UNRELATED") {
      outcome.zeroReason = "unrelated";
      return;
    }

    if (entry.changeSet !== this.groupId) {
      this.closeGroup();
      this.groupId = entry.changeSet;
      this.groupTime = this.timeMs(eventTime(entry));
      const t = tensionOf(this.S, this.R, this.params);
      this.resistance = 1 / (confidenceOf(this.massN(), t, this.params) + 1);
    }
    this.lastSeq = entry.seq;
    this.lastTime = eventTime(entry);

    const params = this.params;
    const prevMove = this.lastMoving.get(entry.actor);
    let cooling = 1;
    if (prevMove !== undefined && params.coolingWindowMs > 0) {
      const elapsed = this.groupTime - prevMove;
      if (elapsed < params.coolingWindowMs) cooling = Math.max(params.coolingFloor, Math.max(0, elapsed) / params.coolingWindowMs);
    }

    // An unverified entry is a model assertion whatever its stored tier says.
    const tier: Tier = entry.verified ? entry.effectiveTier : "model_assertion";
    const isReal = isRealTier(tier);
    const supports = relation === "SUPPORTS";
    const effectiveWeight = assessed * this.resistance * cooling;
    const contribution = (supports ? 1 : -1) * this.strength[tier] * effectiveWeight;

    // One vote per (source, relation); anonymous entries always vote.
    const keyed = entry.sourceId === null ? null : supports ? this.supportVotes : this.rebutVotes;
    const prior = keyed === null ? undefined : keyed.get(entry.sourceId as string);
    if (prior === undefined || Math.abs(contribution) > Math.abs(prior.value)) {
      if (prior !== undefined) {
        prior.active = false;
        this.addToSums(prior, -1);
        const prevOutcome = prior.outcome;
        prevOutcome.counted = false;
        prevOutcome.contribution = 0;
        prevOutcome.effectiveWeight = 0;
        prevOutcome.zeroReason = "outvoted";
      }
      const vote: Vote = { value: contribution, real: isReal, supports, active: true, keyed: keyed !== null, outcome };
      this.votes.push(vote);
      if (keyed !== null) keyed.set(entry.sourceId as string, vote);
      this.addToSums(vote, 1);
      outcome.counted = true;
      outcome.contribution = contribution;
      outcome.effectiveWeight = effectiveWeight;
      this.pendingMoving.set(entry.actor, this.groupTime);
    } else {
      outcome.zeroReason = "outvoted";
    }

    // Evidence mass: one per distinct source, the largest.
    const mass = assessed * cooling * Math.min(1, this.strength[tier] / this.docStrength);
    // Model assertions add to a separate mass, which counts only up to modelMassCap (massN).
    const isModel = tier === "model_assertion";
    const priorMass = entry.sourceId === null ? undefined : this.massBySource.get(entry.sourceId);
    if (priorMass === undefined) {
      const m: MassVote = { value: mass, model: isModel };
      this.masses.push(m);
      if (entry.sourceId !== null) this.massBySource.set(entry.sourceId, m);
      if (isModel) this.nModel += mass;
      else this.n += mass;
    } else if (mass > priorMass.value) {
      if (priorMass.model) this.nModel -= priorMass.value;
      else this.n -= priorMass.value;
      if (isModel) this.nModel += mass;
      else this.n += mass;
      priorMass.value = mass;
      priorMass.model = isModel;
    }

    if (isReal && assessed > 0 && entry.sourceId !== null) {
      const ref: RealEntryRef = {
        seq: entry.seq,
        sourceId: entry.sourceId,
        sourceKind: entry.sourceKind,
        effectiveTier: tier,
        assessedStrength: assessed,
        time: eventTime(entry),
        changeSet: entry.changeSet,
        actor: entry.actor,
      };
      if (supports) {
        this.realSupports.push(ref);
        this.supportSources.add(entry.sourceId);
        this.strongestTier = this.strongestTier === null ? tier : maxTier(this.strongestTier, tier);
        this.lastSupportAt = eventTime(entry);
      } else {
        this.realRebuttals.push(ref);
        const at = this.timeMs(ref.time);
        const held = this.rebuttalSources.get(entry.sourceId);
        if (held === undefined) this.rebuttalSources.set(entry.sourceId, { strength: assessed, latestAt: at });
        else this.rebuttalSources.set(entry.sourceId, { strength: Math.max(held.strength, assessed), latestAt: Math.max(held.latestAt, at) });
        if (assessed > this.maxRebuttal) this.maxRebuttal = assessed;
        this.lastRebuttalAt = eventTime(entry);
      }
    }
  }

  private addToSums(v: Vote, sign: 1 | -1): void {
    if (v.real) this.real += sign * v.value;
    else this.model += sign * v.value;
    if (v.supports) this.S += sign * Math.abs(v.value);
    else this.R += sign * Math.abs(v.value);
  }

  event(item: Exclude<HistoryItem, EvidenceEntry>): void {
    switch (item.type) {
      case "contraction": {
        const s = Math.min(1, Math.max(0, item.severity));
        const k = 1 - s;
        this.real *= k;
        this.model *= k;
        this.S *= k;
        this.R *= k;
        this.n *= k;
        this.nModel *= k;
        for (const v of this.votes) v.value *= k;
        for (const m of this.masses) m.value *= k;
        if (s >= 1 && this.terminal === null) {
          this.terminal = "contracted";
          this.validUntil = eventTime(item);
        }
        break;
      }
      case "superseded":
      case "retired":
        if (this.terminal === null) {
          this.terminal = item.type;
          this.validUntil = eventTime(item);
        }
        break;
      case "promoted":
        this.promoted = true;
        break;
      case "reinstated":
        if (this.terminal === "superseded" || this.terminal === "retired") {
          this.terminal = null;
          this.validUntil = null;
        }
        break;
      case "review":
        if (item.action === "requested") this.reviewState = "pending_review";
        else {
          this.reviewState = "none";
          if (item.action === "rejected" && this.terminal === null) {
            this.terminal = "retired";
            this.validUntil = eventTime(item);
          }
        }
        break;
      default:
        break;
    }
  }

  /** Folds one item (pass 2 of `replay`). */
  fold(item: HistoryItem): void {
    if (!this.inWindow(item)) return;
    if (item.seq > this.foldedSeq) this.foldedSeq = item.seq;
    const at = this.timeMs(eventTime(item));
    if (at > this.foldedAt) this.foldedAt = at;
    // Undecided readings, possible duplicates and their decisions carry no weight: no group boundary, no checkpoint.
    if (isReadingEvent(item)) return;
    if (item.type === "entry") this.entry(item);
    else if (item.type !== "retracted" && item.type !== "stripped" && item.type !== "revised") {
      this.closeGroup();
      this.event(item);
      this.checkpoint(item.seq, eventTime(item));
    }
  }

  /** The state as data, before the final `closeGroup` (a later entry of the same change-set continues the group). */
  toCheckpoint(): FoldCheckpoint {
    const whole = joinCheckpoint(this.toSlice("all"));
    if (whole === null) throw new Error("unreachable: a slice covering all sources joins");
    return whole;
  }

  /** The state as a slice: the head and the rows of every source this fold holds (restored or new). */
  toSlice(covered: CheckpointSlice["covered"]): CheckpointSlice {
    // One row per source, sorted (the fold never depends on the order of its maps); removals and revisions of entries
    // already folded are done with and left out.
    const names = new Set<string>([...this.supportVotes.keys(), ...this.rebutVotes.keys(), ...this.massBySource.keys(), ...this.supportSources, ...this.rebuttalSources.keys()]);
    const vote = (v: Vote | undefined): CheckpointVote | null => (v === undefined ? null : [num(v.value), v.real, v.outcome.seq]);
    const sources: CheckpointSource[] = [...names].sort().map((source) => {
      const m = this.massBySource.get(source);
      const r = this.rebuttalSources.get(source);
      return [
        source,
        vote(this.supportVotes.get(source)),
        vote(this.rebutVotes.get(source)),
        m === undefined ? null : num(m.value),
        this.supportSources.has(source),
        m?.model ?? false,
        r === undefined ? null : [num(r.strength), num(r.latestAt)],
      ];
    });
    const pending = <V>(map: Map<number, V>): [number, V][] => [...map].filter(([seq]) => seq > this.foldedSeq).sort((a, b) => a[0] - b[0]);
    let anonSupports = this.baseAnonSupports;
    let anonRebuts = this.baseAnonRebuts;
    for (const v of this.votes) {
      if (!v.active || v.keyed) continue;
      if (v.supports) anonSupports++;
      else anonRebuts++;
    }
    const head: CheckpointHead = {
      format: 3,
      paramsVersion: versionOf(this.params),
      foldedSeq: this.foldedSeq,
      foldedAt: this.foldedAt === Number.NEGATIVE_INFINITY ? null : num(this.foldedAt),
      removed: pending(this.removed),
      revisedWeight: pending(this.revisedWeight).map(([seq, w]) => [seq, num(w)]),
      revisedRelation: pending(this.revisedRelation),
      sums: [num(this.real), num(this.model), num(this.S), num(this.R), num(this.n), num(this.nModel)],
      anonSupports,
      anonRebuts,
      realSupports: this.baseRealSupports + this.realSupports.length,
      realRebuttals: this.baseRealRebuttals + this.realRebuttals.length,
      strongestTier: this.strongestTier,
      maxRebuttal: num(this.maxRebuttal),
      lastSupportAt: this.lastSupportAt,
      lastRebuttalAt: this.lastRebuttalAt,
      lastMoving: [...this.lastMoving].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([actor, t]) => [actor, num(t)]),
      pendingMoving: [...this.pendingMoving].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([actor, t]) => [actor, num(t)]),
      group: this.groupId === null ? null : { id: this.groupId, time: num(this.groupTime), resistance: num(this.resistance), lastSeq: this.lastSeq, lastTime: this.lastTime },
      terminal: this.terminal,
      validUntil: this.validUntil,
      reviewState: this.reviewState,
      promoted: this.promoted,
      memory: { everSupported: this.memory.everSupported, disputed: this.memory.disputed },
      status: this.status,
      keyedSupports: this.baseKeyedSupports + this.supportVotes.size,
      keyedRebuts: this.baseKeyedRebuts + this.rebutVotes.size,
      supportSources: this.supportSourceCount(),
    };
    return { head, sources, covered };
  }

  /** A fold that continues from `slice` (no asOf, no timeline); the rows it does not hold count through the head. */
  static fromCheckpoint(params: EngineParams, slice: CheckpointSlice): Fold {
    const cp = slice.head;
    const f = new Fold(params, {});
    f.foldedSeq = cp.foldedSeq;
    f.foldedAt = cp.foldedAt === null ? Number.NEGATIVE_INFINITY : unnum(cp.foldedAt);
    for (const [seq, kind] of cp.removed) f.removed.set(seq, kind);
    for (const [seq, w] of cp.revisedWeight) f.revisedWeight.set(seq, unnum(w));
    for (const [seq, rel] of cp.revisedRelation) f.revisedRelation.set(seq, rel);
    const sums = cp.sums.map(unnum);
    [f.real, f.model, f.S, f.R, f.n] = sums as [number, number, number, number, number];
    f.nModel = sums[5] ?? 0;
    const restore = (source: string, v: CheckpointVote | null, supports: boolean) => {
      if (v === null) return;
      const [value, real, seq] = v;
      const outcome: EntryOutcome = {
        seq,
        relation: supports ? "SUPPORTS" : "REBUTS",
        weight: 0,
        assessedStrength: 0,
        contribution: 0,
        effectiveWeight: 0,
        counted: true,
        zeroReason: null,
      };
      f.restoredOutcomes.push(outcome);
      const vote: Vote = { value: unnum(value), real, supports, active: true, keyed: true, outcome };
      f.votes.push(vote);
      (supports ? f.supportVotes : f.rebutVotes).set(source, vote);
    };
    let heldSupports = 0;
    let heldRebuts = 0;
    let heldSupportSources = 0;
    for (const [source, support, rebut, mass, supportSource, modelMass, rebuttals] of slice.sources) {
      if (support !== null) heldSupports++;
      if (rebut !== null) heldRebuts++;
      if (supportSource) heldSupportSources++;
      restore(source, support, true);
      restore(source, rebut, false);
      if (mass !== null) {
        const m: MassVote = { value: unnum(mass), model: modelMass };
        f.masses.push(m);
        f.massBySource.set(source, m);
      }
      if (supportSource) f.supportSources.add(source);
      if (rebuttals !== null) f.rebuttalSources.set(source, { strength: unnum(rebuttals[0]), latestAt: unnum(rebuttals[1]) });
    }
    f.baseKeyedSupports = cp.keyedSupports - heldSupports;
    f.baseKeyedRebuts = cp.keyedRebuts - heldRebuts;
    f.baseSupportSources = cp.supportSources - heldSupportSources;
    f.baseAnonSupports = cp.anonSupports;
    f.baseAnonRebuts = cp.anonRebuts;
    f.baseRealSupports = cp.realSupports;
    f.baseRealRebuttals = cp.realRebuttals;
    f.strongestTier = cp.strongestTier;
    f.maxRebuttal = unnum(cp.maxRebuttal);
    f.lastSupportAt = cp.lastSupportAt;
    f.lastRebuttalAt = cp.lastRebuttalAt;
    for (const [actor, t] of cp.lastMoving) f.lastMoving.set(actor, unnum(t));
    for (const [actor, t] of cp.pendingMoving) f.pendingMoving.set(actor, unnum(t));
    if (cp.group !== null) {
      f.groupId = cp.group.id;
      f.groupTime = unnum(cp.group.time);
      f.resistance = unnum(cp.group.resistance);
      f.lastSeq = cp.group.lastSeq;
      f.lastTime = cp.group.lastTime;
    }
    f.terminal = cp.terminal;
    f.validUntil = cp.validUntil;
    f.reviewState = cp.reviewState;
    f.promoted = cp.promoted;
    f.memory = { everSupported: cp.memory.everSupported, disputed: cp.memory.disputed };
    f.status = cp.status;
    return f;
  }

  /** Prefix entries (restored) that lost their vote in this fold: their stored outputs become 0. */
  outvotedPrefixEntries(): EntryOutcome[] {
    return this.restoredOutcomes.filter((o) => o.zeroReason === "outvoted");
  }

  /** n = real mass + min(modelMassCap, model mass): say-so alone never adds more than the cap (§4.1). */
  private massN(): number {
    return this.n + Math.min(this.params.modelMassCap, this.nModel);
  }

  private supportSourceCount(): number {
    return this.baseSupportSources + this.supportSources.size;
  }

  realSupportCount(): number {
    return this.baseRealSupports + this.realSupports.length;
  }

  result(): ReplayState {
    const params = this.params;
    const t = tensionOf(this.S, this.R, params);
    const credence = this.credence();
    const confidence = confidenceOf(this.massN(), t, params);
    let supportCount = this.baseAnonSupports + this.baseKeyedSupports;
    let contradictCount = this.baseAnonRebuts + this.baseKeyedRebuts;
    for (const v of this.votes) {
      if (!v.active) continue;
      if (v.supports) supportCount++;
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
      supportWeight: this.S,
      rebuttalWeight: this.R,
      tension: t,
      status: this.status,
      reviewState: this.reviewState,
      validUntil: this.validUntil,
      paramsVersion: versionOf(params),
      n: this.massN(),
      realLogOdds: this.real,
      modelLogOdds: this.model,
      independentRealSupports: this.supportSourceCount(),
      realSupports: this.realSupports,
      realRebuttals: this.realRebuttals,
      strongestRealSupportTier: this.strongestTier,
      maxRealRebuttalStrength: this.maxRebuttal,
      lastRealSupportAt: this.lastSupportAt,
      lastRealRebuttalAt: this.lastRebuttalAt,
      promoted: this.promoted,
      entries: this.outcomes,
      timeline: this.timeline,
    };
  }
}

/** Live: not superseded, retired or contracted. */
export function isLive(state: Pick<ReplayState, "status">): boolean {
  return isLiveStatus(state.status);
}

/** Grounded: live and holding at least one live real support. Losing this triggers the stripping cascade (§4.2). */
export function isGrounded(state: Pick<ReplayState, "status" | "realSupports">): boolean {
  return isLive(state) && state.realSupports.length > 0;
}

/**
 * What a resolver reports about a belief's support: every live, verified, non-laundered `SUPPORTS` entry with a
 * resolved source, after the history's `retracted`, `stripped` and `revised` (relation) events, in seq order. A scan,
 * not a replay, so stores can answer it from the history they hold (the SQL store keeps it as an indexed projection;
 * the contract suite holds every store to this definition, and a property test holds it to the replay's outcomes).
 */
export function supportRefsOf(history: History): SupportRef[] {
  const removed = new Set<number>();
  const relation = new Map<number, DecidedRelation>();
  for (const item of history) {
    if (item.type === "retracted" || item.type === "stripped") removed.add(item.targetSeq);
    else if (item.type === "revised" && item.relation !== undefined) relation.set(item.targetSeq, item.relation);
  }
  const refs: SupportRef[] = [];
  for (const item of history) {
    if (item.type !== "entry" || removed.has(item.seq)) continue;
    if ((relation.get(item.seq) ?? item.relation) !== "SUPPORTS") continue;
    if (!item.verified || item.launderingReason !== null || item.sourceId === null || item.sourceKind === null) continue;
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
