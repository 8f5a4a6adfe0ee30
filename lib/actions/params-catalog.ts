/**
 * What each engine parameter means to an owner: its group, a plain description, its unit and its valid range. The form
 * shows it and both the form and the save action refuse a value outside the range (the engine would otherwise clamp
 * it silently: −5 became an ESS threshold of 0).
 */

export type ParamUnit = "probability" | "similarity" | "log-odds" | "count" | "ms" | "scale" | "switch";

export interface ParamSpec {
  group: string;
  label: string;
  description: string;
  unit: ParamUnit;
  min?: number;
  max?: number;
  integer?: boolean;
  /** Shown and entered in this unit instead of the stored one (ms shown as minutes or days). */
  display?: { unit: "minutes" | "days"; factor: number };
}

export const PARAM_GROUPS = ["Evidence strength", "Credence and confidence", "Ingest and topics", "Status rules", "Mutations and stability", "Recall and synthesis"] as const;

const unit01 = { min: 0, max: 1 } as const;
const TIER_TEXT: Readonly<Record<string, string>> = {
  model_assertion: "a model's say-so",
  observation: "an observation",
  document: "a document",
  measurement: "a measurement",
  executable_check: "an executable check",
  held_out_truth: "held-out ground truth",
};

const SPECS: Readonly<Record<string, ParamSpec>> = {
  modelAssertionCap: { group: "Credence and confidence", label: "Model say-so cap", description: "Model assertions alone keep credence within [1 − cap, cap].", unit: "probability", min: 0.5, max: 1 },
  modelMassCap: { group: "Credence and confidence", label: "Model say-so mass cap", description: "Model assertions together add at most this much evidence mass, however many there are.", unit: "scale", min: 0, max: 100 },
  coolingWindowMs: { group: "Credence and confidence", label: "Cooling window", description: "Repeated evidence within this window counts for less.", unit: "ms", min: 0, max: 10_080, display: { unit: "minutes", factor: 60_000 } },
  coolingFloor: { group: "Credence and confidence", label: "Cooling floor", description: "The least a cooled entry still counts for (fraction of its weight).", unit: "scale", ...unit01 },
  confidenceMassScale: { group: "Credence and confidence", label: "Confidence mass scale", description: "How much evidence it takes for confidence to approach 1 (larger: slower).", unit: "scale", min: 0.1, max: 1_000 },
  tensionMassScale: { group: "Credence and confidence", label: "Tension mass scale", description: "How much evidence on both sides it takes for tension to show in full.", unit: "scale", min: 0.1, max: 1_000 },
  essThreshold: { group: "Ingest and topics", label: "ESS threshold", description: "Evidence strength score at or above which a new claim becomes a belief.", unit: "probability", ...unit01 },
  contractionMinRebuttals: { group: "Status rules", label: "Contraction: least rebuttals", description: "Contraction is assessed only with at least this many live rebuttals outweighing the support.", unit: "count", min: 1, max: 100, integer: true },
  twinSimilarity: { group: "Ingest and topics", label: "Twin similarity", description: "A claim at least this similar to a live belief supports it instead of creating a twin.", unit: "similarity", ...unit01 },
  relatedSimilarity: { group: "Ingest and topics", label: "Related similarity", description: "Other live beliefs at least this similar get an assessed relation.", unit: "similarity", ...unit01 },
  relatedTopK: { group: "Ingest and topics", label: "Related beliefs assessed", description: "How many related beliefs get an assessed relation per claim.", unit: "count", min: 0, max: 50, integer: true },
  topicSimilarity: { group: "Ingest and topics", label: "Topic similarity", description: "A new belief joins the topic of the most similar live belief above this.", unit: "similarity", ...unit01 },
  disputedEnterTension: { group: "Status rules", label: "Disputed from tension", description: "A supported or canonical belief becomes disputed at this tension or more.", unit: "probability", ...unit01 },
  disputedExitTension: { group: "Status rules", label: "Disputed until tension", description: "A disputed belief stays disputed until tension falls below this.", unit: "probability", ...unit01 },
  canonicalMinCredence: { group: "Status rules", label: "Canonical: least credence", description: "Canonical needs at least this credence.", unit: "probability", ...unit01 },
  canonicalMinSupports: { group: "Status rules", label: "Canonical: least supports", description: "Canonical needs at least this many real supports.", unit: "count", min: 0, max: 100, integer: true },
  canonicalMaxTension: { group: "Status rules", label: "Canonical: tension below", description: "Canonical needs tension below this.", unit: "probability", ...unit01 },
  canonicalRebuttalStrength: { group: "Status rules", label: "Canonical: no rebuttal this strong", description: "Canonical needs no real rebuttal of assessed strength at or above this.", unit: "probability", ...unit01 },
  canonicalRequiresPromotion: { group: "Status rules", label: "Canonical needs a reviewer", description: "Canonical also needs a reviewer's promotion.", unit: "switch" },
  supportedMinCredence: { group: "Status rules", label: "Supported: least credence", description: "Supported needs at least this credence.", unit: "probability", ...unit01 },
  supportedMinSupports: { group: "Status rules", label: "Supported: least supports", description: "Supported needs at least this many real supports.", unit: "count", min: 0, max: 100, integer: true },
  supportedMaxTension: { group: "Status rules", label: "Supported: tension below", description: "Supported needs tension below this.", unit: "probability", ...unit01 },
  conflictMinCredence: { group: "Mutations and stability", label: "Conflict: existing credence above", description: "A mutation conflicts with a live belief held above this credence…", unit: "probability", ...unit01 },
  conflictMinSimilarity: { group: "Mutations and stability", label: "Conflict: similarity above", description: "…and at least this similar to the proposal.", unit: "similarity", ...unit01 },
  strongRebuttalStrength: { group: "Mutations and stability", label: "Strong rebuttal", description: "A real rebuttal of assessed strength at or above this counts as strong evidence against.", unit: "probability", ...unit01 },
  driftMaxMutations: { group: "Mutations and stability", label: "Drift: mutations per window", description: "More than this many mutations of one topic in the window raise a drift warning.", unit: "count", min: 1, max: 1_000, integer: true },
  driftWindowMs: { group: "Mutations and stability", label: "Drift window", description: "The window the drift count looks back over.", unit: "ms", min: 0.01, max: 365, display: { unit: "days", factor: 86_400_000 } },
  supersessionFlagCount: { group: "Mutations and stability", label: "Supersessions before review", description: "More supersessions of one topic than this flag it for architectural review.", unit: "count", min: 1, max: 1_000, integer: true },
  oscillationSimilarity: { group: "Mutations and stability", label: "Oscillation similarity", description: "Returning to an earlier belief this similar (A → B → A) stops the topic.", unit: "similarity", ...unit01 },
  contestedRebuttalStrength: { group: "Recall and synthesis", label: "Contested answer: rebuttal strength", description: "Recall answers \"contested\" when a relevant belief has a real rebuttal at least this strong.", unit: "probability", ...unit01 },
  dominanceTieMargin: { group: "Recall and synthesis", label: "Near-tie margin", description: "Credences closer than this are a near-tie, decided by the most recent real support.", unit: "probability", min: 0, max: 0.5 },
  recallMinConfidence: { group: "Recall and synthesis", label: "Insufficient answer: confidence", description: "Recall answers \"insufficient\" when the best answer's confidence is below this (or its credence below one half).", unit: "probability", ...unit01 },
  synthesisMinChangeSets: { group: "Recall and synthesis", label: "Synthesis: change-sets per side", description: "A synthesis is proposed when both sides keep real support across at least this many change-sets.", unit: "count", min: 1, max: 100, integer: true },
};

/** The spec of a form field name (`tierStrength.document` or a parameter's own name). */
export function paramSpec(name: string): ParamSpec {
  if (name.startsWith("tierStrength.")) {
    const tier = name.slice("tierStrength.".length);
    return { group: "Evidence strength", label: `Strength of ${TIER_TEXT[tier] ?? tier.replaceAll("_", " ")}`, description: `How far one entry of ${TIER_TEXT[tier] ?? "this tier"} moves credence (log-odds per entry).`, unit: "log-odds", min: 0, max: 10 };
  }
  return SPECS[name] ?? { group: "Recall and synthesis", label: name, description: "Engine parameter.", unit: "scale" };
}

const UNIT_TEXT: Readonly<Record<ParamUnit, string>> = { probability: "0–1", similarity: "similarity 0–1", "log-odds": "log-odds", count: "count", ms: "", scale: "", switch: "" };

/** The unit and range shown beside the field, e.g. "0–1" or "minutes, 0–10080". */
export function unitText(spec: ParamSpec): string {
  const unitName = spec.display?.unit ?? UNIT_TEXT[spec.unit];
  const range = spec.min !== undefined && spec.max !== undefined && spec.unit !== "probability" && spec.unit !== "similarity" ? `${spec.min}–${spec.max}` : "";
  return [unitName, range].filter(Boolean).join(", ");
}

/** The message for a value (in the field's display unit) outside its spec, or null when valid. */
export function rangeError(spec: ParamSpec, value: number): string | null {
  if (!Number.isFinite(value)) return "Enter a number.";
  if (spec.integer && !Number.isInteger(value)) return "Enter a whole number.";
  if (spec.min !== undefined && value < spec.min) return `Must be at least ${spec.min}${spec.max !== undefined ? ` (valid: ${spec.min} to ${spec.max})` : ""}.`;
  if (spec.max !== undefined && value > spec.max) return `Must be at most ${spec.max}${spec.min !== undefined ? ` (valid: ${spec.min} to ${spec.max})` : ""}.`;
  return null;
}

/** Stored value → the value shown in the field (ms as minutes or days). */
export function toDisplay(spec: ParamSpec, stored: number): number {
  return spec.display ? Number((stored / spec.display.factor).toPrecision(12)) : stored;
}

/** Entered value → stored value. */
export function fromDisplay(spec: ParamSpec, shown: number): number {
  return spec.display ? Math.round(shown * spec.display.factor) : shown;
}
