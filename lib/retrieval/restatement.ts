/**
 * Restatement similarity: how far two statements say the same thing, in [0, 1], from sentence embeddings plus two
 * structural checks the embedding alone misses. Pure: the caller supplies the vectors (`SemanticMatcher` embeds and
 * caches them); nothing here does I/O.
 *
 *   cos        = max( cosine(a, b), max over clause pairs cosine(clause_a, clause_b) )
 *                (a belief that states two things — "X; Y" — is restated by a claim that restates X alone)
 *   slot clash = both texts state a value (a number, a duration, a frequency such as hourly / daily, a weekday) and
 *                each has one the other lacks after unit normalisation ("two days" = "48 hours", "a month" = "30 days")
 *   similarity = calibrate(cos) × (slot clash ? SLOT_CLASH_FACTOR : 1)
 *
 * `calibrate` is piecewise linear through the anchors below, chosen so that the engine's similarity thresholds keep
 * their meaning (`twinSimilarity` 0.9 = "restates", `topicSimilarity` / `conflictMinSimilarity` 0.7 = "same subject",
 * `relatedSimilarity` 0.3 = "related"). The cosine anchors were tuned on `lib/assess/eval/restatement-dev.jsonl` only.
 */

/** (cosine, calibrated similarity) anchors, increasing in both coordinates. */
export const RESTATEMENT_ANCHORS: readonly (readonly [number, number])[] = [
  [0, 0],
  [0.3, 0.3],
  [0.55, 0.7],
  [0.82, 0.9],
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

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, a: 1, an: 1, single: 1, two: 2, couple: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
  thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100, thousand: 1000,
};

/** Minutes per duration unit. */
const UNIT_MINUTES: Readonly<Record<string, number>> = {
  minute: 1, minutes: 1, min: 1, mins: 1, hour: 60, hours: 60, hr: 60, hrs: 60, day: 1440, days: 1440, week: 10080, weeks: 10080,
  fortnight: 20160, month: 43200, months: 43200, quarter: 129600, year: 525600, years: 525600,
};

/** Frequency words as the period they name, in minutes ("hourly" = every 60 minutes). */
const FREQUENCIES: Readonly<Record<string, number>> = {
  hourly: 60, nightly: 1440, daily: 1440, weekly: 10080, fortnightly: 20160, monthly: 43200, quarterly: 129600, yearly: 525600, annually: 525600,
  annual: 525600,
};

const NAMED = new Set(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "first", "second", "third", "last", "final"]);

function numberOf(word: string): number | null {
  const digits = /^\d+(?:[.,]\d+)?$/.test(word) ? Number(word.replace(",", ".")) : null;
  if (digits !== null && Number.isFinite(digits)) return digits;
  if (word.includes("-")) {
    const parts = word.split("-").map((p) => NUMBER_WORDS[p]);
    if (parts.every((p) => p !== undefined)) return parts.reduce<number>((s, p) => s + (p ?? 0), 0);
  }
  return NUMBER_WORDS[word] ?? null;
}

/**
 * The values a statement pins: durations in minutes ("two days" → "d2880"), frequencies as periods ("hourly" →
 * "d60"), bare numbers ("port 8443" → "n8443"), weekdays and ordinals ("monday", "first"). Units of the same
 * dimension compare equal after conversion ("a month" = "30 days", "a quarter of an hour" = "15 minutes").
 */
export function slotValues(text: string): Set<string> {
  const ws = text
    .toLowerCase()
    .replace(/(\d)([a-z°%])/g, "$1 $2")
    .replace(/half an hour/g, "30 minutes")
    .replace(/quarter of an hour/g, "15 minutes")
    .split(/[^a-z0-9.,-]+/)
    .map((w) => w.replace(/^[.,-]+|[.,-]+$/g, ""))
    .filter(Boolean);
  const out = new Set<string>();
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] as string;
    const freq = FREQUENCIES[w];
    if (freq !== undefined) {
      out.add(`d${freq}`);
      continue;
    }
    if (NAMED.has(w)) {
      out.add(w === "final" ? "last" : w);
      continue;
    }
    const n = numberOf(w);
    if (n === null) continue;
    // "a"/"an"/"couple" count only before a unit ("a month", "a couple of hours"), never as bare numbers.
    let j = i + 1;
    while (j < ws.length && ["of", "business", "working", "calendar", "more"].includes(ws[j] as string)) j++;
    const unit = UNIT_MINUTES[ws[j] ?? ""];
    if (unit !== undefined) {
      out.add(`d${Math.round(n * unit)}`);
      i = j;
    } else if (!["a", "an", "couple", "single"].includes(w)) {
      out.add(`n${n}`);
    }
  }
  return out;
}

/** True when both texts pin values and each pins one the other does not (a value conflict, not an omission). */
export function slotClash(a: string, b: string): boolean {
  const va = slotValues(a);
  const vb = slotValues(b);
  if (va.size === 0 || vb.size === 0) return false;
  const onlyA = [...va].some((v) => !vb.has(v));
  const onlyB = [...vb].some((v) => !va.has(v));
  return onlyA && onlyB;
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
  return slotClash(a.text, b.text) ? calibrated * SLOT_CLASH_FACTOR : calibrated;
}
