/**
 * Every threshold of docs/design.md §3–§4 in one object, with its documented default.
 *
 * A scope's parameter set is versioned by content: `paramsVersion(params)` is a stable hash of the resolved values,
 * recorded on each belief so its replay always uses the same numbers.
 */
import { z } from "zod";
import { TIERS, type Tier } from "./model";

export interface TierStrengths {
  readonly model_assertion: number;
  readonly observation: number;
  readonly document: number;
  readonly measurement: number;
  readonly executable_check: number;
  readonly held_out_truth: number;
}

export interface EngineParams {
  /** Log-odds strength per tier (§3). Defaults 0.25 · 0.5 · 1.0 · 1.25 · 1.5 · 2.0. */
  readonly tierStrength: TierStrengths;
  /** MODEL_ASSERTION_CAP (§4.1): model say-so alone stays within [1−cap, cap]. Default 0.65. */
  readonly modelAssertionCap: number;
  /**
   * MODEL_MASS_CAP (§4.1): model assertions together add at most this much to the evidence mass n, however many there
   * are, so say-so alone never builds confidence. Default 1.
   */
  readonly modelMassCap: number;
  /** Cooling window in ms (§4.1). Default 10 min. */
  readonly coolingWindowMs: number;
  /** Lowest cooling factor (§4.1). Default 0.25. */
  readonly coolingFloor: number;
  /** confidence = (1 − e^(−n/massScale))·(1 − tension/2) (§4.1). Default 6. */
  readonly confidenceMassScale: number;
  /** tension = (2·min(S,R)/(S+R))·(1 − e^(−(S+R)/tensionMassScale)) (§4.5). Default 2. */
  readonly tensionMassScale: number;

  /** ESS at or above which a new claim becomes a belief (§4.3). Default 0.3. */
  readonly essThreshold: number;
  /** Contraction is assessed only with at least this many live rebuttals and R ≥ S (§4.3). Default 3. */
  readonly contractionMinRebuttals: number;
  /** Ingest: a claim this similar to a live belief supports it instead of creating a twin (§4.3). Default 0.9. */
  readonly twinSimilarity: number;
  /** Ingest: other live beliefs at least this similar get an assessed relation (§4.3). Default 0.3. */
  readonly relatedSimilarity: number;
  /** Ingest: how many related beliefs get an assessed relation (§4.3). Default 5. */
  readonly relatedTopK: number;
  /** A new belief takes the topic of the most similar live belief above this similarity (§3). Default 0.7. */
  readonly topicSimilarity: number;

  /** Status (§4.5): disputed is entered at tension ≥ this (once supported or canonical). Default 0.5. */
  readonly disputedEnterTension: number;
  /** Status (§4.5): disputed is left when tension falls below this. Default 0.25. */
  readonly disputedExitTension: number;
  readonly canonicalMinCredence: number;
  readonly canonicalMinSupports: number;
  /** Canonical needs tension below this. Default 0.25. */
  readonly canonicalMaxTension: number;
  /** Canonical needs no real rebuttal of assessed strength ≥ this. Default 0.5. */
  readonly canonicalRebuttalStrength: number;
  /** Canonical also needs a reviewer's `promoted` event. Default false. */
  readonly canonicalRequiresPromotion: boolean;
  readonly supportedMinCredence: number;
  readonly supportedMinSupports: number;
  /** Supported needs tension below this. Default 0.5. */
  readonly supportedMaxTension: number;

  /** Mutation conflict check (§4.4): an existing live belief with credence above this… Default 0.7. */
  readonly conflictMinCredence: number;
  /** …and similarity above this. Default 0.7. */
  readonly conflictMinSimilarity: number;
  /** "Contradicted by strong evidence": a real rebuttal of assessed strength ≥ this. Default 0.5. */
  readonly strongRebuttalStrength: number;
  /** Stability monitor: more than this many mutations per topic in the window → drift warning. Default 5. */
  readonly driftMaxMutations: number;
  /** Stability monitor window in ms. Default 7 days. */
  readonly driftWindowMs: number;
  /** More than this many supersessions of one topic → architectural-review flag. Default 3. */
  readonly supersessionFlagCount: number;
  /** A→B→A detection: returning to a belief with this similarity (or the same key) is a hard stop. Default 0.9. */
  readonly oscillationSimilarity: number;

  /** Recall (§4.6): contested when a relevant belief has a real rebuttal of assessed strength ≥ this. Default 0.3. */
  readonly contestedRebuttalStrength: number;
  /** Recall dominance: credences within this are a near-tie, decided by recency of real support. Default 0.05. */
  readonly dominanceTieMargin: number;
  /** Recall: a best answer below this confidence is `insufficient`, not `settled` (as is one with credence < ½). Default 0.1. */
  readonly recallMinConfidence: number;
  /** Synthesis (§4.5): both sides keep real support across at least this many change-sets each. Default 2. */
  readonly synthesisMinChangeSets: number;
}

export const defaultParams: EngineParams = Object.freeze({
  tierStrength: Object.freeze({
    model_assertion: 0.25,
    observation: 0.5,
    document: 1.0,
    measurement: 1.25,
    executable_check: 1.5,
    held_out_truth: 2.0,
  }),
  modelAssertionCap: 0.65,
  modelMassCap: 1,
  coolingWindowMs: 10 * 60 * 1000,
  coolingFloor: 0.25,
  confidenceMassScale: 6,
  tensionMassScale: 2,
  essThreshold: 0.3,
  contractionMinRebuttals: 3,
  twinSimilarity: 0.9,
  relatedSimilarity: 0.3,
  relatedTopK: 5,
  topicSimilarity: 0.7,
  disputedEnterTension: 0.5,
  disputedExitTension: 0.25,
  canonicalMinCredence: 0.85,
  canonicalMinSupports: 3,
  canonicalMaxTension: 0.25,
  canonicalRebuttalStrength: 0.5,
  canonicalRequiresPromotion: false,
  supportedMinCredence: 0.7,
  supportedMinSupports: 2,
  supportedMaxTension: 0.5,
  conflictMinCredence: 0.7,
  conflictMinSimilarity: 0.7,
  strongRebuttalStrength: 0.5,
  driftMaxMutations: 5,
  driftWindowMs: 7 * 24 * 60 * 60 * 1000,
  supersessionFlagCount: 3,
  oscillationSimilarity: 0.9,
  contestedRebuttalStrength: 0.3,
  dominanceTieMargin: 0.05,
  recallMinConfidence: 0.1,
  synthesisMinChangeSets: 2,
});

const finite = z.number().finite();

/** Partial parameters as an owner or a request may give them; unknown keys are refused. */
export const engineParamsInputSchema = z
  .object({
    tierStrength: z.object(Object.fromEntries(TIERS.map((t) => [t, finite.optional()])) as Record<Tier, z.ZodOptional<typeof finite>>).strict().partial().optional(),
    modelAssertionCap: finite.optional(),
    modelMassCap: finite.optional(),
    coolingWindowMs: finite.optional(),
    coolingFloor: finite.optional(),
    confidenceMassScale: finite.optional(),
    tensionMassScale: finite.optional(),
    essThreshold: finite.optional(),
    contractionMinRebuttals: finite.optional(),
    twinSimilarity: finite.optional(),
    relatedSimilarity: finite.optional(),
    relatedTopK: finite.optional(),
    topicSimilarity: finite.optional(),
    disputedEnterTension: finite.optional(),
    disputedExitTension: finite.optional(),
    canonicalMinCredence: finite.optional(),
    canonicalMinSupports: finite.optional(),
    canonicalMaxTension: finite.optional(),
    canonicalRebuttalStrength: finite.optional(),
    canonicalRequiresPromotion: z.boolean().optional(),
    supportedMinCredence: finite.optional(),
    supportedMinSupports: finite.optional(),
    supportedMaxTension: finite.optional(),
    conflictMinCredence: finite.optional(),
    conflictMinSimilarity: finite.optional(),
    strongRebuttalStrength: finite.optional(),
    driftMaxMutations: finite.optional(),
    driftWindowMs: finite.optional(),
    supersessionFlagCount: finite.optional(),
    oscillationSimilarity: finite.optional(),
    contestedRebuttalStrength: finite.optional(),
    dominanceTieMargin: finite.optional(),
    recallMinConfidence: finite.optional(),
    synthesisMinChangeSets: finite.optional(),
  })
  .strict();
export type EngineParamsInput = z.input<typeof engineParamsInputSchema>;

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
const unit = (x: number): number => clamp(x, 0, 1);
const count = (x: number, lo = 0): number => Math.max(lo, Math.round(x));

/**
 * Fill defaults and clamp into safe ranges: probabilities to [0,1] (the cap to [0.5, 0.99] so logit(cap) is a
 * finite, non-negative bound), strengths to ≥ 0 and made non-decreasing in tier order, scales to > 0, counts to
 * non-negative integers, and the disputed exit threshold to at most its entry threshold. Throws a ZodError on
 * input of the wrong shape.
 */
export function resolveParams(partial: unknown = {}): EngineParams {
  const p = engineParamsInputSchema.parse(partial ?? {});
  const d = defaultParams;
  const strengths: Record<Tier, number> = { ...d.tierStrength };
  let floor = 0;
  for (const t of TIERS) {
    const v = Math.max(floor, Math.max(0, p.tierStrength?.[t] ?? d.tierStrength[t]));
    strengths[t] = v;
    floor = v;
  }
  const disputedEnter = unit(p.disputedEnterTension ?? d.disputedEnterTension);
  return Object.freeze({
    tierStrength: Object.freeze(strengths),
    modelAssertionCap: clamp(p.modelAssertionCap ?? d.modelAssertionCap, 0.5, 0.99),
    modelMassCap: Math.max(0, p.modelMassCap ?? d.modelMassCap),
    coolingWindowMs: Math.max(0, p.coolingWindowMs ?? d.coolingWindowMs),
    coolingFloor: unit(p.coolingFloor ?? d.coolingFloor),
    confidenceMassScale: Math.max(1e-6, p.confidenceMassScale ?? d.confidenceMassScale),
    tensionMassScale: Math.max(1e-6, p.tensionMassScale ?? d.tensionMassScale),
    essThreshold: unit(p.essThreshold ?? d.essThreshold),
    contractionMinRebuttals: count(p.contractionMinRebuttals ?? d.contractionMinRebuttals, 2),
    twinSimilarity: unit(p.twinSimilarity ?? d.twinSimilarity),
    relatedSimilarity: unit(p.relatedSimilarity ?? d.relatedSimilarity),
    relatedTopK: count(p.relatedTopK ?? d.relatedTopK),
    topicSimilarity: unit(p.topicSimilarity ?? d.topicSimilarity),
    disputedEnterTension: disputedEnter,
    disputedExitTension: Math.min(disputedEnter, unit(p.disputedExitTension ?? d.disputedExitTension)),
    canonicalMinCredence: unit(p.canonicalMinCredence ?? d.canonicalMinCredence),
    canonicalMinSupports: count(p.canonicalMinSupports ?? d.canonicalMinSupports, 1),
    canonicalMaxTension: unit(p.canonicalMaxTension ?? d.canonicalMaxTension),
    canonicalRebuttalStrength: unit(p.canonicalRebuttalStrength ?? d.canonicalRebuttalStrength),
    canonicalRequiresPromotion: p.canonicalRequiresPromotion ?? d.canonicalRequiresPromotion,
    supportedMinCredence: unit(p.supportedMinCredence ?? d.supportedMinCredence),
    supportedMinSupports: count(p.supportedMinSupports ?? d.supportedMinSupports, 1),
    supportedMaxTension: unit(p.supportedMaxTension ?? d.supportedMaxTension),
    conflictMinCredence: unit(p.conflictMinCredence ?? d.conflictMinCredence),
    conflictMinSimilarity: unit(p.conflictMinSimilarity ?? d.conflictMinSimilarity),
    strongRebuttalStrength: unit(p.strongRebuttalStrength ?? d.strongRebuttalStrength),
    driftMaxMutations: count(p.driftMaxMutations ?? d.driftMaxMutations),
    driftWindowMs: Math.max(0, p.driftWindowMs ?? d.driftWindowMs),
    supersessionFlagCount: count(p.supersessionFlagCount ?? d.supersessionFlagCount),
    oscillationSimilarity: unit(p.oscillationSimilarity ?? d.oscillationSimilarity),
    contestedRebuttalStrength: unit(p.contestedRebuttalStrength ?? d.contestedRebuttalStrength),
    dominanceTieMargin: unit(p.dominanceTieMargin ?? d.dominanceTieMargin),
    recallMinConfidence: unit(p.recallMinConfidence ?? d.recallMinConfidence),
    synthesisMinChangeSets: count(p.synthesisMinChangeSets ?? d.synthesisMinChangeSets, 1),
  });
}

/** Canonical JSON: keys sorted at every level, so equal parameter sets serialise identically. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
    .join(",")}}`;
}

/** 64-bit FNV-1a over UTF-16 code units, as 16 hex digits (two 32-bit halves with different offsets). */
function fnv1a64(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 7), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
}

/**
 * Content version of a resolved parameter set, e.g. `p1-3f0c…`: equal values give equal versions, any change a new one.
 * `defaultParamsVersion` is the version of `defaultParams`.
 */
export function paramsVersion(params: EngineParams): string {
  return `p1-${fnv1a64(canonicalJson(params))}`;
}

export const defaultParamsVersion: string = paramsVersion(defaultParams);

/** logit(p) = ln(p / (1 − p)). */
export function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/** σ(x) = 1 / (1 + e^(−x)). */
export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
