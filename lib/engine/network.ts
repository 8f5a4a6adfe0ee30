/**
 * The belief network's status layer (docs/design.md §4.5): tension from support and rebuttal weight, and the status rules
 * (canonization, demotion to `disputed`) that replay evaluates at every checkpoint of the fold.
 */
import type { BeliefStatus } from "./model";
import type { EngineParams } from "./params";

/**
 * tension = (2·min(S,R)/(S+R)) · (1 − e^(−(S+R)/m)), m = `tensionMassScale` (default 2).
 * In [0,1]; 0 when either side is 0; non-decreasing in the minority side while it stays the minority, and in total
 * mass at a fixed ratio.
 * @example tension(1, 1) ≈ 0.632; tension(3, 0) = 0; tension(2, 1) ≈ 0.518
 */
export function tension(supportWeight: number, rebuttalWeight: number, params: EngineParams): number {
  const s = Math.max(0, supportWeight);
  const r = Math.max(0, rebuttalWeight);
  const total = s + r;
  if (total <= 0 || s === 0 || r === 0) return 0;
  const balance = (2 * Math.min(s, r)) / total;
  const mass = 1 - Math.exp(-total / params.tensionMassScale);
  return Math.min(1, Math.max(0, balance * mass));
}

/**
 * confidence = (1 − e^(−n/k)) · (1 − tension/2), k = `confidenceMassScale` (default 6). In [0,1).
 * @example confidence(1, 0) ≈ 0.154 (one document); confidence(8, 0) ≈ 0.736
 */
export function confidenceOf(n: number, tensionValue: number, params: EngineParams): number {
  const mass = 1 - Math.exp(-Math.max(0, n) / params.confidenceMassScale);
  return mass * (1 - Math.min(1, Math.max(0, tensionValue)) / 2);
}

/** What the status rules read at one checkpoint of the fold. */
export interface StatusInputs {
  credence: number;
  tension: number;
  /** Distinct sources among live real supports. */
  independentRealSupports: number;
  /** Largest assessed strength (weight × ess) among live real rebuttals; 0 when there is none. */
  maxRealRebuttalStrength: number;
  /** A reviewer's `promoted` event is in the history. */
  promoted: boolean;
}

/** The hysteresis the fold carries between checkpoints. */
export interface StatusMemory {
  /** The belief was `supported` or `canonical` at some earlier checkpoint. */
  everSupported: boolean;
  /** It was `disputed` at the previous checkpoint. */
  disputed: boolean;
}

export const initialStatusMemory: StatusMemory = { everSupported: false, disputed: false };

export type LiveStatus = Exclude<BeliefStatus, "superseded" | "retired" | "contracted">;

/**
 * Status of a live belief, first match wins (§4.5):
 * disputed — was once supported/canonical and tension ≥ enter (0.5); stays until tension < exit (0.25);
 * canonical — credence ≥ 0.85, ≥ 3 independent real supports, tension < 0.25, no real rebuttal of assessed
 *   strength ≥ 0.5, and `promoted` when the parameters require it;
 * supported — credence ≥ 0.7, ≥ 2 independent real supports, tension < 0.5;
 * provisional otherwise.
 * Demotion is by rule: a canonical belief whose conditions fail becomes supported, disputed or provisional.
 */
export function deriveLiveStatus(
  inputs: StatusInputs,
  memory: StatusMemory,
  params: EngineParams,
): { status: LiveStatus; memory: StatusMemory } {
  let status: LiveStatus;
  if (memory.disputed && inputs.tension >= params.disputedExitTension) status = "disputed";
  else if (memory.everSupported && inputs.tension >= params.disputedEnterTension) status = "disputed";
  else if (
    inputs.credence >= params.canonicalMinCredence &&
    inputs.independentRealSupports >= params.canonicalMinSupports &&
    inputs.tension < params.canonicalMaxTension &&
    inputs.maxRealRebuttalStrength < params.canonicalRebuttalStrength &&
    (!params.canonicalRequiresPromotion || inputs.promoted)
  )
    status = "canonical";
  else if (
    inputs.credence >= params.supportedMinCredence &&
    inputs.independentRealSupports >= params.supportedMinSupports &&
    inputs.tension < params.supportedMaxTension
  )
    status = "supported";
  else status = "provisional";
  return {
    status,
    memory: {
      everSupported: memory.everSupported || status === "supported" || status === "canonical",
      disputed: status === "disputed",
    },
  };
}

/** True when a status change between two checkpoints is a demotion (canonical → anything lower, supported → disputed/provisional). */
export function isDemotion(from: BeliefStatus, to: BeliefStatus): boolean {
  const rank: Record<BeliefStatus, number> = {
    canonical: 3,
    supported: 2,
    provisional: 1,
    disputed: 0,
    superseded: -1,
    retired: -1,
    contracted: -1,
  };
  return rank[to] < rank[from];
}
