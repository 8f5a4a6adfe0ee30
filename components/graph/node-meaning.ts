/** Plain-language readings of a belief's figures for the side panel. Bands are half-open: [low, high). */

/** credence c ∈ [0,1]: the probability the scope assigns to the claim being true. */
export function credenceMeaning(credence: number): string {
  if (credence >= 0.9) return "almost certainly true";
  if (credence >= 0.7) return "likely true";
  if (credence > 0.55) return "leaning true";
  if (credence >= 0.45) return "a toss-up";
  if (credence > 0.3) return "leaning false";
  if (credence > 0.1) return "likely false";
  return "almost certainly false";
}

/** confidence ∈ [0,1]: how settled the estimate is (how much evidence stands behind it), not which way it points. */
export function confidenceMeaning(confidence: number): string {
  if (confidence >= 0.75) return "well established";
  if (confidence >= 0.4) return "moderately established";
  return "thinly evidenced";
}

/**
 * tension ∈ [0,1] (docs/design.md §4.5): how strongly live evidence disagrees about the claim, whatever its credence; the status
 * rules read 0.25 and 0.5 as thresholds. Worded as disagreement (not "settled"), so it never contradicts the credence
 * reading beside it.
 */
export function tensionMeaning(tension: number): string {
  if (tension <= 0) return "no disagreement: nothing live rebuts it";
  if (tension < 0.25) return "minor disagreement: a weaker rebuttal stands";
  if (tension < 0.5) return "contested: real evidence on both sides";
  return "sharply contested: the two sides are close";
}
