/**
 * Restatement similarity: how far two statements say the same thing, in [0, 1], from sentence embeddings plus the
 * structural checks the embedding alone misses (a sentence with one number, negation or word changed embeds almost
 * exactly like the original). Pure: the caller supplies the vectors (`SemanticMatcher` embeds and caches them);
 * nothing here does I/O.
 *
 *   cos        = max( cosine(a, b), max over clause pairs cosine(clause_a, clause_b) )
 *                (a belief that states two things — "X; Y" — is restated by a claim that restates X alone)
 *   mismatch   = `structuralMismatch(a, b)`: pinned values clash (numbers, durations, frequencies, times of day,
 *                quantifiers, weekdays — after unit normalisation: "two days" = "48 hours", "half" = "50 %"), an
 *                aligned clause is negated on one side only, an antonym or a ruled-out word, the same sentence
 *                frame with a different content word in one place, or the same sentence with any one word replaced
 *   similarity = calibrate(cos) × (mismatch ? SLOT_CLASH_FACTOR : 1)
 *
 * `calibrate` is piecewise linear through the anchors below, chosen so that the engine's similarity thresholds keep
 * their meaning (`twinSimilarity` 0.9 = "restates", `topicSimilarity` / `conflictMinSimilarity` 0.7 = "same subject",
 * `relatedSimilarity` 0.3 = "related"). A mismatched near-copy stays above 0.7, so the conflict check still sees it.
 * The cosine anchors were set on `lib/assess/eval/restatement-dev.jsonl` only: with the structural checks in place,
 * dev accuracy is flat (≈ 92 %) for a "restates" cosine between 0.60 and 0.64; the anchor takes the top of that
 * plateau (merging two different claims is worse than keeping a duplicate).
 */

import { comparePolarity } from "@/lib/assess/heuristic/clauses";
import { antonymConflicts } from "@/lib/assess/heuristic/negation-cues";
import { slotClash, slotValues, substitution } from "@/lib/assess/heuristic/slot-values";
import { stemWord } from "@/lib/assess/heuristic/tokenize";

export { slotClash, slotValues, substitution };

/** (cosine, calibrated similarity) anchors, increasing in both coordinates. */
export const RESTATEMENT_ANCHORS: readonly (readonly [number, number])[] = [
  [0, 0],
  [0.3, 0.3],
  [0.55, 0.7],
  [0.64, 0.9],
  [1, 1],
];

/** A restatement whose values clash keeps at most this share of its similarity (below every "restates" threshold). */
export const SLOT_CLASH_FACTOR = 0.8;

/** Piecewise-linear map of `x` through increasing `anchors`; clamped to the first / last anchor outside them. */
export function piecewise(x: number, anchors: readonly (readonly [number, number])[]): number {
  const first = anchors[0];
  const last = anchors[anchors.length - 1];
  if (!first || !last) return x;
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < anchors.length; i++) {
    const [x1, y1] = anchors[i] as readonly [number, number];
    const [x0, y0] = anchors[i - 1] as readonly [number, number];
    if (x <= x1) return y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
  }
  return last[1];
}

/**
 * The clauses a statement makes, for clause-level comparison: split at `;`, `:`, and at ", but" / " whereas " /
 * " while "; pieces with fewer than three words are merged into their neighbour. The whole text is not included.
 */
export function clausesOf(text: string): string[] {
  const pieces = text
    .split(/\s*[;:]\s+|,?\s+(?:but|whereas|while)\s+/i)
    .map((p) => p.trim().replace(/[.!?]+$/, ""))
    .filter(Boolean);
  const out: string[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if (last !== undefined && (p.split(/\s+/).length < 3 || last.split(/\s+/).length < 3)) out[out.length - 1] = `${last} ${p}`;
    else out.push(p);
  }
  return out.length > 1 ? out : [];
}

/**
 * Why two statements that read alike do not say the same thing, or null: their pinned values clash (`slotClash`), an
 * aligned clause is negated on one side only (and no antonym cancels it: "does not open" = "is closed"), one side
 * uses a word the other rules out, an antonym replaces a word, or the same frame carries a different filler
 * (`substitution`). Numbers, negation and quantifiers must agree for a restatement.
 */
export function structuralMismatch(a: string, b: string): string | null {
  if (slotClash(a, b)) return "values differ";
  const polarity = comparePolarity(a, b, { implicit: false });
  const antonyms = antonymConflicts(a, b);
  if (polarity.flips.length > 0 && antonyms.length === 0) return "negated on one side";
  if (polarity.flips.length === 0 && antonyms.length > 0) return `antonym (${antonyms[0]})`;
  if (polarity.crossed.length > 0) return "asserts what the other rules out";
  const swapped = substitution(a, b);
  if (swapped) return `"${swapped[0]}" in place of "${swapped[1]}"`;
  const word = oneWordSwap(a, b);
  if (word) return `"${word[0]}" in place of "${word[1]}"`;
  return null;
}

/**
 * The same sentence (four words or more) with exactly one word replaced, whatever kind of word it is ("switched on" /
 * "switched off", "before" / "after", "most" / "few"), or null. `substitution` only reads content words; a swapped
 * particle, preposition or quantifier changes the claim just as much, and a restatement rewords more than one word.
 */
export function oneWordSwap(a: string, b: string): [string, string] | null {
  const words = (t: string) => t.toLowerCase().replace(/[’‘]/g, "'").match(/[a-z0-9']+/g) ?? [];
  const x = words(a);
  const y = words(b);
  if (x.length !== y.length || x.length < 4) return null;
  const diff = x.map((w, i) => [w, y[i] as string] as const).filter(([p, q]) => p !== q);
  if (diff.length !== 1) return null;
  const [p, q] = diff[0] as readonly [string, string];
  return stemWord(p) === stemWord(q) ? null : [p, q];
}

/** Cosine of two unit vectors (dot product), clamped to [-1, 1]. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += (a[i] as number) * (b[i] as number);
  return Math.max(-1, Math.min(1, s));
}

/** A statement's vectors: the whole text and each of its clauses (none when it has one clause). */
export interface StatementVectors {
  text: string;
  whole: Float32Array;
  clauses: readonly Float32Array[];
}

/** The best cosine between the two statements, whole or clause by clause (see the module comment). */
export function restatementCosine(a: StatementVectors, b: StatementVectors): number {
  let best = dot(a.whole, b.whole);
  const as = [a.whole, ...a.clauses];
  const bs = [b.whole, ...b.clauses];
  for (const x of as) for (const y of bs) best = Math.max(best, dot(x, y));
  return best;
}

/** Restatement similarity ∈ [0, 1] (the module comment's formula); symmetric. */
export function restatementSimilarity(a: StatementVectors, b: StatementVectors): number {
  if (a.text.trim() === b.text.trim()) return 1;
  const calibrated = piecewise(restatementCosine(a, b), RESTATEMENT_ANCHORS);
  return structuralMismatch(a.text, b.text) !== null ? calibrated * SLOT_CLASH_FACTOR : calibrated;
}
