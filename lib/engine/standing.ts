/**
 * A belief's standing: what weighing it against another belief needs (recall's rivals, dominance and two-position
 * tension; synthesis's disputes). It is built alike from a replay of the belief's history (`replayWithStanding`) and
 * from the fold checkpoint stored beside the belief (`standingOfHead`), so a read that weighs beliefs loads neither
 * their histories nor replays them, however long the histories have grown.
 *
 * Per source, it keeps what the fold keeps: the standing real votes (one per source and relation; their
 * contributions after contraction scaling, as the belief's own support and rebuttal weights) and the live real
 * rebuttals (the strongest assessed strength and the latest event time among them, outvoted ones included).
 */
import type { Belief, BeliefStatus, History, IsoTime } from "./model";
import { paramsVersion, type EngineParams } from "./params";
import { replayWithCheckpoint, type CheckpointHead, type CheckpointSlice, type CheckpointSource, type ReplayState } from "./replay";

/** What weighing a belief shows of it: its text (phrasing, rivals by quantity) and its stored derived fields. */
export type StandingBelief = Pick<Belief, "id" | "text" | "contextTags" | "quantity" | "credence" | "confidence" | "tension" | "status" | "paramsVersion">;

/**
 * A belief as a store gives it for its standing (`GraphStore.beliefStandings`): the row's fields weighing needs, its
 * last seq, and its fold checkpoint's head fields and rows (a `BeliefHead` is one too).
 */
export interface StandingHead {
  belief: StandingBelief;
  lastSeq: number;
  checkpoint: {
    head: Pick<CheckpointHead, "format" | "foldedSeq" | "paramsVersion" | "lastSupportAt" | "supportSources" | "maxRebuttal">;
    sources: readonly CheckpointSource[];
    covered: CheckpointSlice["covered"];
  } | null;
}

export interface Standing {
  credence: number;
  confidence: number;
  tension: number;
  status: BeliefStatus;
  lastRealSupportAt: IsoTime | null;
  /** Distinct sources among live real supports. */
  independentRealSupports: number;
  maxRealRebuttalStrength: number;
  /** The sources of the live real supports. */
  supportSources: ReadonlySet<string>;
  /** Per source whose standing support vote is real: |its contribution|. */
  realSupportWeight: ReadonlyMap<string, number>;
  /** Per source whose standing rebuttal vote is real: |its contribution|. */
  realRebuttalWeight: ReadonlyMap<string, number>;
  /** Per source of live real rebuttals: the strongest assessed strength and the latest event time (epoch ms). */
  realRebuttals: ReadonlyMap<string, { strength: number; latestAt: number }>;
}

type Scalars = Pick<Standing, "credence" | "confidence" | "tension" | "status" | "lastRealSupportAt" | "independentRealSupports" | "maxRealRebuttalStrength">;

const numberOf = (x: number | "-0"): number => (x === "-0" ? -0 : x);

function standingOf(s: Scalars, sources: readonly CheckpointSource[]): Standing {
  const supportSources = new Set<string>();
  const realSupportWeight = new Map<string, number>();
  const realRebuttalWeight = new Map<string, number>();
  const realRebuttals = new Map<string, { strength: number; latestAt: number }>();
  for (const [source, support, rebut, , supportSource, , rebuttals] of sources) {
    if (supportSource) supportSources.add(source);
    if (support !== null && support[1]) realSupportWeight.set(source, Math.abs(numberOf(support[0])));
    if (rebut !== null && rebut[1]) realRebuttalWeight.set(source, Math.abs(numberOf(rebut[0])));
    if (rebuttals !== null) realRebuttals.set(source, { strength: numberOf(rebuttals[0]), latestAt: numberOf(rebuttals[1]) });
  }
  return {
    credence: s.credence,
    confidence: s.confidence,
    tension: s.tension,
    status: s.status,
    lastRealSupportAt: s.lastRealSupportAt,
    independentRealSupports: s.independentRealSupports,
    maxRealRebuttalStrength: s.maxRealRebuttalStrength,
    supportSources,
    realSupportWeight,
    realRebuttalWeight,
    realRebuttals,
  };
}

/** `replay(history, params)` and the belief's standing, in one pass. */
export function replayWithStanding(history: History, params: EngineParams): { state: ReplayState; standing: Standing } {
  const { state, checkpoint } = replayWithCheckpoint(history, params);
  return { state, standing: standingOf(state, checkpoint.sources) };
}

/**
 * A belief's standing from its stored head, without its history: null when the head cannot give it (no checkpoint,
 * one that does not end at the last seq, covers only some sources, or was made with other parameters). The stored
 * derived fields stand for the replay's (a store keeps them equal to it).
 */
export function standingOfHead(head: StandingHead, params: EngineParams): Standing | null {
  const cp = head.checkpoint;
  if (cp === null || cp.covered !== "all" || cp.head.format !== 3 || cp.head.foldedSeq !== head.lastSeq) return null;
  const version = paramsVersion(params);
  if (cp.head.paramsVersion !== version || head.belief.paramsVersion !== version) return null;
  const b = head.belief;
  return standingOf(
    {
      credence: b.credence,
      confidence: b.confidence,
      tension: b.tension,
      status: b.status,
      lastRealSupportAt: cp.head.lastSupportAt,
      independentRealSupports: cp.head.supportSources,
      maxRealRebuttalStrength: numberOf(cp.head.maxRebuttal),
    },
    cp.sources,
  );
}

/** A standing as plain data (its sets and maps as sorted entries), to compare two standings or print one. */
export function standingData(s: Standing) {
  const sorted = <T extends [string, unknown] | string>(xs: Iterable<T>): T[] => [...xs].sort((a, b) => ((typeof a === "string" ? a : a[0]) < (typeof b === "string" ? b : b[0]) ? -1 : 1));
  return {
    ...s,
    supportSources: sorted(s.supportSources),
    realSupportWeight: sorted(s.realSupportWeight),
    realRebuttalWeight: sorted(s.realRebuttalWeight),
    realRebuttals: sorted(s.realRebuttals),
  };
}
