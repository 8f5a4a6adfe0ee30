/**
 * Numeric and quantifier cues: quantities with their unit (the stemmed word after the number, `%`, or `time` for
 * clock times), number words, and universal versus partial quantifiers.
 */
import { stemWord } from "./tokenize";

export interface NumericQuantity {
  value: number;
  /** Stemmed unit word, `%`, `x` (a multiple), `time` (minutes since midnight) or `""`. */
  unit: string;
  /** A bound stated just before the number ("under 2 s", "before 6 a.m.", "at least 3"); absent for a plain value. */
  bound?: "<" | ">";
}

const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, hundred: 100, thousand: 1000,
};
const UNIT_SKIP = new Set(["of", "more", "less", "fewer", "additional", "extra", "new", "old", "full", "per", "a", "the"]);
const NOT_UNITS = new Set(["to", "and", "or", "in", "on", "at", "by", "for", "from", "with", "than", "is", "are", "was", "were"]);
const TIME_PATTERN = /\b(\d{1,2})(?::(\d{2}))?\s*(a\.?\s?m\.?|p\.?\s?m\.?)(?=\W|$)|\b(\d{1,2}):(\d{2})\b|\b(noon|midday|midnight)\b/gi;
const UPPER_BOUND = /\b(?:before|under|below|less than|fewer than|within|at most|up to|no more than|not more than|by|until|max(?:imum)?)\s*$/;
const LOWER_BOUND = /\b(?:after|over|above|more than|greater than|at least|no less than|past|exceed(?:s|ed|ing)?|beyond|min(?:imum)?)\s*$/;

function boundBefore(text: string, index: number): NumericQuantity["bound"] {
  const before = text.slice(Math.max(0, index - 24), index).toLowerCase();
  if (UPPER_BOUND.test(before)) return "<";
  if (LOWER_BOUND.test(before)) return ">";
  return undefined;
}

const withBound = (q: NumericQuantity, bound: NumericQuantity["bound"]): NumericQuantity => (bound ? { ...q, bound } : q);

/**
 * Quantities stated in `text`. Clock times (`2 a.m.`, `02:00`, `14:30`, `noon`) become `{value: minutes, unit:
 * "time"}`; other numbers take the next word (skipping "of", "more"…) as unit, stemmed, so `100 requests` and
 * `100 request` compare equal. Years (1900–2099 without a unit) are dates, not quantities. A bound word right before
 * the number ("under", "before", "at least") is kept as `bound`.
 * @example numericQuantities("limit is 1,000 requests at 2 a.m.") // → [{value:120,unit:"time"},{value:1000,unit:"request"}]
 */
export function numericQuantities(text: string): NumericQuantity[] {
  const out: NumericQuantity[] = [];
  let rest = text;
  for (const m of text.matchAll(TIME_PATTERN)) {
    let minutes: number;
    if (m[6] !== undefined) minutes = m[6].toLowerCase() === "midnight" ? 0 : 720;
    else if (m[1] !== undefined) {
      let hours = Number(m[1]) % 12;
      if ((m[3] ?? "").toLowerCase().startsWith("p")) hours += 12;
      minutes = hours * 60 + Number(m[2] ?? 0);
    } else minutes = Number(m[4]) * 60 + Number(m[5]);
    out.push(withBound({ value: minutes, unit: "time" }, boundBefore(text, m.index)));
    // Blank the time out without moving later offsets.
    rest = rest.slice(0, m.index) + " ".repeat(m[0].length) + rest.slice(m.index + m[0].length);
  }
  const words = [...rest.toLowerCase().matchAll(/\d+(?:[.,]\d+)*%?x?|[a-z]+(?:-[a-z]+)*/g)];
  for (let i = 0; i < words.length; i++) {
    const match = words[i];
    const w = match?.[0] ?? "";
    let value: number | undefined;
    let unit = "";
    if (/^\d/.test(w)) {
      const numeric = w.replace(/,(?=\d{3}\b)/g, "");
      value = Number.parseFloat(numeric);
      if (numeric.endsWith("%")) unit = "%";
      else if (numeric.endsWith("x")) unit = "x";
    } else if (NUMBER_WORDS[w] !== undefined) {
      value = NUMBER_WORDS[w];
    }
    if (value === undefined || Number.isNaN(value)) continue;
    if (unit === "") {
      let j = i + 1;
      while (j < words.length && UNIT_SKIP.has(words[j]?.[0] ?? "")) j++;
      const next = words[j]?.[0];
      if (next !== undefined && /^[a-z]/.test(next) && !NOT_UNITS.has(next)) unit = stemWord(next);
    }
    // A bare number word with no unit ("one of them") or a year carries no comparable quantity.
    if (unit === "" && (!/^\d/.test(w) || (value >= 1900 && value <= 2099))) continue;
    out.push(withBound({ value, unit }, boundBefore(rest, match?.index ?? 0)));
  }
  return out;
}

export interface NumericComparison {
  /** Belief quantities that the evidence restates, or satisfies when the belief states a bound. */
  matches: NumericQuantity[];
  /** Belief quantities that the evidence contradicts: same unit, and a value (or range) outside the belief's. */
  conflicts: Array<{ belief: NumericQuantity; evidence: NumericQuantity }>;
}

type Interval = readonly [number, number];

/** A quantity as an interval: `= v` → [v ± 1 %], `< v` → (−∞, v], `> v` → [v, ∞). */
function interval(q: NumericQuantity): Interval {
  const slack = 0.01 * Math.abs(q.value);
  if (q.bound === "<") return [Number.NEGATIVE_INFINITY, q.value + slack];
  if (q.bound === ">") return [q.value - slack, Number.POSITIVE_INFINITY];
  return [q.value - slack, q.value + slack];
}

const within = (inner: Interval, outer: Interval) => inner[0] >= outer[0] && inner[1] <= outer[1];
const disjoint = (a: Interval, b: Interval) => a[1] < b[0] || b[1] < a[0];

/**
 * Compare the quantities of `evidence` with those of `belief`, unit by unit: an evidence interval inside the
 * belief's is a match, a disjoint one a conflict, an overlapping one says nothing.
 * @example compareQuantities("the limit is 1000 requests", "the limit is 100 requests").conflicts.length // → 1
 * @example compareQuantities("it ends around 4:30", "it finishes before 6 a.m.").matches.length // → 1
 */
export function compareQuantities(evidence: string, belief: string): NumericComparison {
  const bq = numericQuantities(belief).filter((q) => q.unit !== "");
  const eq = numericQuantities(evidence);
  const matches: NumericQuantity[] = [];
  const conflicts: NumericComparison["conflicts"] = [];
  for (const b of bq) {
    const sameUnit = eq.filter((e) => e.unit === b.unit);
    if (sameUnit.length === 0) continue;
    const range = interval(b);
    if (sameUnit.some((e) => within(interval(e), range))) matches.push(b);
    else {
      const clash = sameUnit.find((e) => disjoint(interval(e), range));
      if (clash) conflicts.push({ belief: b, evidence: clash });
    }
  }
  return { matches, conflicts };
}

const UNIVERSAL = /\b(?:all|every|each|always|never|none|nobody|nothing|everyone|everything|any)\b/i;
const PARTIAL = /\b(?:some|most|mostly|mainly|many|often|usually|sometimes|occasionally|partly|partially|few|certain|rarely|seldom|in some cases|typically|generally)\b/i;
const NEGATED_UNIVERSAL = /\bnot\s+(?:all|every|always|everyone|everything|each)\b/i;

export interface QuantifierComparison {
  /** The belief is universal and the evidence says "not all" / "not always": a counterexample. */
  counterexample: boolean;
  /** The belief is universal (or unquantified) and the evidence limits it to some / most cases. */
  narrowing: boolean;
}

/**
 * @example compareQuantifiers("Not all deploys use main.", "All deploys use main.").counterexample // → true
 */
export function compareQuantifiers(evidence: string, belief: string): QuantifierComparison {
  const beliefPartial = PARTIAL.test(belief);
  const counterexample = NEGATED_UNIVERSAL.test(evidence) && !NEGATED_UNIVERSAL.test(belief);
  const narrowing = !counterexample && !beliefPartial && UNIVERSAL.test(belief) && PARTIAL.test(evidence);
  return { counterexample, narrowing };
}
