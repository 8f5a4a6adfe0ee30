/**
 * The one vocabulary for a belief's figures, wherever a person reads them (recall, the belief page, the graph panel,
 * the review queue). Bands are half-open where a boundary is stated as "≥"; every band is named once here.
 *
 * - credence c ∈ [0,1] is the probability the scope gives the claim; its bands are symmetric around ½.
 * - confidence ∈ [0,1] is how settled the estimate is (how much evidence stands behind it), not which way it points.
 *   Below `INSUFFICIENT_CONFIDENCE` (recall's `recallMinConfidence` default, docs/design.md §4.6) there is not enough
 *   evidence to answer from; one piece of evidence stays below `THIN_CONFIDENCE_BELOW` (§4.1); 6–10 documents' worth
 *   reaches `WELL_ESTABLISHED_FROM` and above.
 * - tension ∈ [0,1] is how strongly live evidence disagrees, whatever the credence; the status rules read 0.25 and 0.5.
 *
 * Imports nothing, so client components can use it without the rest of the engine.
 */

export const CREDENCE_BANDS = [
  "almost_certainly_false",
  "likely_false",
  "leaning_false",
  "toss_up",
  "leaning_true",
  "likely_true",
  "almost_certainly_true",
] as const;
export type CredenceBand = (typeof CREDENCE_BANDS)[number];

const CREDENCE_WORDS: Readonly<Record<CredenceBand, string>> = {
  almost_certainly_false: "almost certainly false",
  likely_false: "likely false",
  leaning_false: "leaning false",
  toss_up: "a toss-up",
  leaning_true: "leaning true",
  likely_true: "likely true",
  almost_certainly_true: "almost certainly true",
};

/** [0.9, 1] almost certainly true · [0.7, 0.9) likely · (0.55, 0.7) leaning · [0.45, 0.55] toss-up · and the mirror images. */
export function credenceBand(credence: number): CredenceBand {
  if (credence >= 0.9) return "almost_certainly_true";
  if (credence >= 0.7) return "likely_true";
  if (credence > 0.55) return "leaning_true";
  if (credence >= 0.45) return "toss_up";
  if (credence > 0.3) return "leaning_false";
  if (credence > 0.1) return "likely_false";
  return "almost_certainly_false";
}

export function credenceWords(credence: number): string {
  return CREDENCE_WORDS[credenceBand(credence)];
}

/** Below this confidence a belief is no answer (recall says `insufficient`): the default of `recallMinConfidence`. */
export const INSUFFICIENT_CONFIDENCE = 0.1;
/** Below this, thinly evidenced: a belief resting on one piece of evidence stays under it. */
export const THIN_CONFIDENCE_BELOW = 0.4;
/** From this, well established: 6–10 documents' worth of evidence. */
export const WELL_ESTABLISHED_FROM = 0.6;

export const CONFIDENCE_BANDS = ["insufficient", "thin", "moderate", "well_established"] as const;
export type ConfidenceBand = (typeof CONFIDENCE_BANDS)[number];

const CONFIDENCE_WORDS: Readonly<Record<ConfidenceBand, string>> = {
  insufficient: "not enough evidence",
  thin: "thinly evidenced",
  moderate: "moderately established",
  well_established: "well established",
};

/** How much is unknown, worded from the same bands (uncertainty = 1 − confidence). */
const UNCERTAINTY_WORDS: Readonly<Record<ConfidenceBand, string>> = {
  insufficient: "almost everything is unknown",
  thin: "much is unknown",
  moderate: "some is unknown",
  well_established: "little is unknown",
};

export function confidenceBand(confidence: number): ConfidenceBand {
  if (confidence < INSUFFICIENT_CONFIDENCE) return "insufficient";
  if (confidence < THIN_CONFIDENCE_BELOW) return "thin";
  if (confidence < WELL_ESTABLISHED_FROM) return "moderate";
  return "well_established";
}

export function confidenceWords(confidence: number): string {
  return CONFIDENCE_WORDS[confidenceBand(confidence)];
}

/** The uncertainty of a belief with this confidence, in words. */
export function uncertaintyWords(confidence: number): string {
  return UNCERTAINTY_WORDS[confidenceBand(confidence)];
}

export const TENSION_BANDS = ["none", "minor", "contested", "sharp"] as const;
export type TensionBand = (typeof TENSION_BANDS)[number];

/** Worded as disagreement (not "settled"), so it never contradicts the credence reading beside it. */
const TENSION_WORDS: Readonly<Record<TensionBand, string>> = {
  none: "no disagreement: nothing live rebuts it",
  minor: "minor disagreement: a weaker rebuttal stands",
  contested: "contested: real evidence on both sides",
  sharp: "sharply contested: the two sides are close",
};

/** 0 none · (0, 0.25) minor · [0.25, 0.5) contested · [0.5, 1] sharp (the status rules' thresholds). */
export function tensionBand(tension: number): TensionBand {
  if (tension <= 0) return "none";
  if (tension < 0.25) return "minor";
  if (tension < 0.5) return "contested";
  return "sharp";
}

export function tensionWords(tension: number): string {
  return TENSION_WORDS[tensionBand(tension)];
}

/** Credence and confidence in one phrase: "leaning false, thinly evidenced". */
export function beliefReading(credence: number, confidence: number): string {
  return `${credenceWords(credence)}, ${confidenceWords(confidence)}`;
}
