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
  /** Half-width of a stated range ("9 to 11 minutes") or an approximation ("about an hour", ±15 %). */
  spread?: number;
}

export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
  thousand: 1000, dozen: 12, single: 1, double: 2, triple: 3,
};
const NUMBER_WORD_ALT = Object.keys(NUMBER_WORDS).join("|");

/** Length of one unit of time in days (frequencies are events per day, durations seconds). */
const UNIT_DAYS: Readonly<Record<string, number>> = {
  second: 1 / 86400, minute: 1 / 1440, hour: 1 / 24, day: 1, night: 1, morning: 1, evening: 1, afternoon: 1,
  week: 7, fortnight: 14, month: 30.44, quarter: 91.31, year: 365.25, weekday: 7 / 5,
  monday: 7, tuesday: 7, wednesday: 7, thursday: 7, friday: 7, saturday: 7, sunday: 7,
};
const TIME_UNIT_ALT = Object.keys(UNIT_DAYS).join("|");
const ADVERB_FREQUENCY: Readonly<Record<string, number>> = {
  hourly: 24, daily: 1, nightly: 1, weekly: 1 / 7, fortnightly: 1 / 14, biweekly: 1 / 14, monthly: 1 / 30.44,
  quarterly: 1 / 91.31, yearly: 1 / 365.25, annually: 1 / 365.25, annual: 1 / 365.25,
};
/** Stems of time units whose counted amounts are durations ("40 minutes", "two months"). */
const DURATION_STEMS: Readonly<Record<string, number>> = {
  second: 1, sec: 1, minut: 60, min: 60, hour: 3600, hr: 3600, dai: 86400, week: 604800, fortnight: 1209600,
  month: 2629746, year: 31556952, ms: 0.001, millisecond: 0.001,
};

const numberValue = (w: string): number | undefined => (/^\d/.test(w) ? Number.parseFloat(w.replace(/,(?=\d{3}\b)/g, "")) : NUMBER_WORDS[w]);

const FREQUENCY_PATTERNS: ReadonlyArray<{ pattern: RegExp; perDay: (m: RegExpMatchArray) => number | undefined }> = [
  {
    // "every six hours", "every other week", "each month", "every Monday"
    pattern: new RegExp(`\\b(?:every|each)\\s+(?:(other)\\s+|(\\d+(?:\\.\\d+)?|${NUMBER_WORD_ALT})\\s+)?(${TIME_UNIT_ALT})s?\\b`, "g"),
    perDay: (m) => {
      const n = m[1] !== undefined ? 2 : m[2] !== undefined ? numberValue(m[2]) : 1;
      const days = UNIT_DAYS[m[3] ?? ""];
      return n === undefined || days === undefined || n === 0 ? undefined : 1 / (n * days);
    },
  },
  {
    // "twice a week", "three times a day", "4 times per year"
    pattern: new RegExp(`\\b(once|twice|thrice|(\\d+|${NUMBER_WORD_ALT})\\s+times)\\s+(?:a|an|per|each|every)\\s+(${TIME_UNIT_ALT})\\b`, "g"),
    perDay: (m) => {
      const n = m[1] === "once" ? 1 : m[1] === "twice" ? 2 : m[1] === "thrice" ? 3 : numberValue(m[2] ?? "");
      const days = UNIT_DAYS[m[3] ?? ""];
      return n === undefined || days === undefined ? undefined : n / days;
    },
  },
  {
    // Used as an adverb ("flushed daily.", "paid quarterly to…"), not as an adjective before a noun ("the annual plan").
    pattern: new RegExp(
      `\\b(${Object.keys(ADVERB_FREQUENCY).join("|")})\\b(?=\\s*(?:[.,;:!?)]|$)|\\s+(?:at|on|in|for|from|to|and|or|but|by|since|until|with|before|after|during|basis|instead|now|again|anymore)\\b)`,
      "g",
    ),
    perDay: (m) => ADVERB_FREQUENCY[m[1] ?? ""],
  },
];

/**
 * Frequencies stated in `text` as events per day (unit `per_day`): "every six hours" → 4, "daily" → 1,
 * "three times a day" and "every eight hours" → 3, "twice a week" → 2/7.
 * Returns the quantities and the text with those spans blanked (offsets kept), so their numbers are not read again.
 */
export function frequencies(text: string): { quantities: NumericQuantity[]; rest: string } {
  let rest = text.toLowerCase();
  const quantities: NumericQuantity[] = [];
  for (const { pattern, perDay } of FREQUENCY_PATTERNS) {
    for (const m of rest.matchAll(pattern)) {
      const value = perDay(m);
      if (value === undefined || !Number.isFinite(value)) continue;
      quantities.push({ value, unit: "per_day" });
      rest = rest.slice(0, m.index) + " ".repeat(m[0].length) + rest.slice((m.index ?? 0) + m[0].length);
    }
  }
  return { quantities, rest };
}
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

/** Approximation words widen a value's interval to ±15 %. */
const APPROX = /\b(?:about|around|roughly|approximately|nearly|almost|some|circa|~)\s*$/;

const withBound = (q: NumericQuantity, bound: NumericQuantity["bound"]): NumericQuantity => (bound ? { ...q, bound } : q);

/**
 * Quantities stated in `text`. Clock times (`2 a.m.`, `02:00`, `14:30`, `noon`) become `{value: minutes, unit:
 * "time"}`; other numbers take the next word (skipping "of", "more"…) as unit, stemmed, so `100 requests` and
 * `100 request` compare equal. Years (1900–2099 without a unit) are dates, not quantities. A bound word right before
 * the number ("under", "before", "at least") is kept as `bound`.
 * @example numericQuantities("limit is 1,000 requests at 2 a.m.") // → [{value:120,unit:"time"},{value:1000,unit:"request"}]
 */
export function numericQuantities(text: string): NumericQuantity[] {
  const freq = frequencies(text);
  const out: NumericQuantity[] = [];
  // Lower-case copy with frequency spans blanked; `text` keeps its case for clock-time parsing.
  let rest = [...text].map((ch, i) => (freq.rest[i] === " " && ch !== " " ? " " : ch)).join("");
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
    } else if (w.includes("-")) {
      // "forty-five" is a number; "two-hour", "30-minute", "forty-five-minute" a number with its unit.
      const parts = w.split("-");
      const numeric = parts.map((p) => NUMBER_WORDS[p]);
      const k = numeric.findIndex((n) => n === undefined);
      if (k === 0) continue;
      value = numeric.slice(0, k === -1 ? parts.length : k).reduce<number>((a, n) => a + (n ?? 0), 0);
      if (k !== -1 && k === parts.length - 1) unit = stemWord(parts[k] as string);
      else if (k !== -1) continue;
    }
    if (value === undefined || Number.isNaN(value)) continue;
    if (unit === "" && /^\d+-[a-z]+$/.test(words[i + 1]?.[0] ?? "") === false && /^\d[\d.,]*-[a-z]+$/.test(w)) {
      unit = stemWord(w.replace(/^[\d.,]+-/, ""));
    }
    if (unit === "") {
      let j = i + 1;
      while (j < words.length && UNIT_SKIP.has(words[j]?.[0] ?? "")) j++;
      const next = words[j]?.[0];
      if (next !== undefined && /^[a-z]/.test(next) && !NOT_UNITS.has(next)) unit = stemWord(next);
    }
    // A bare number word with no unit ("one of them") or a year carries no comparable quantity.
    if (unit === "" && (!/^\d/.test(w) || (value >= 1900 && value <= 2099))) continue;
    const at = match?.index ?? 0;
    // "9 to 11 minutes": the lower end takes the upper end's unit and both become one range.
    const range = /^\s*(?:to|-|–)\s*(\d+(?:\.\d+)?)\s+([a-z]+)/.exec(rest.slice(at + w.length).toLowerCase());
    if (range && /^\d/.test(w)) {
      const high = Number(range[1]);
      out.push({ value: (value + high) / 2, unit: stemWord(range[2] ?? ""), spread: Math.abs(high - value) / 2 });
      i += 2;
      continue;
    }
    const q = withBound({ value, unit }, boundBefore(rest, at));
    out.push(APPROX.test(rest.slice(Math.max(0, at - 16), at).toLowerCase()) ? { ...q, spread: 0.15 * Math.abs(value) } : q);
  }
  // "an hour", "half an hour", "an hour and a quarter"
  for (const m of rest.toLowerCase().matchAll(/\b(half an|an|one) (hour|minute|day|week|month|year)( and a (?:half|quarter))?\b/g)) {
    if (m[1] === "one") continue;
    const base = m[1] === "half an" ? 0.5 : 1;
    const extra = m[3] === undefined ? 0 : m[3].endsWith("half") ? 0.5 : 0.25;
    out.push({ value: base + extra, unit: stemWord(m[2] ?? "") });
  }
  // A year stated as the date of the claim: "in 1989", "in June 1990", "since 2015".
  for (const m of rest.toLowerCase().matchAll(/\b(?:in|since|until|by)\s+(?:(?:early|late|mid)\s+)?(?:[a-z]+\s+)?((?:1[5-9]|20)\d{2})\b/g)) {
    out.push({ value: Number(m[1]), unit: "year_ce" });
  }
  return out.concat(freq.quantities);
}

/** Unit spellings and multiples that measure the same thing, as [canonical unit, factor] ("km" and "kilometres"). */
const UNIT_ALIASES: Readonly<Record<string, readonly [string, number]>> = {
  km: ["metr", 1000], kilometr: ["metr", 1000], kilomet: ["metr", 1000], metr: ["metr", 1], meter: ["metr", 1], m: ["metr", 1],
  mile: ["metr", 1609.344], kg: ["gram", 1000], kilogram: ["gram", 1000], g: ["gram", 1], gram: ["gram", 1],
  kb: ["byte", 1e3], mb: ["byte", 1e6], megabyt: ["byte", 1e6], gb: ["byte", 1e9], gigabyt: ["byte", 1e9], tb: ["byte", 1e12],
  percent: ["%", 1], "°c": ["degre", 1], c: ["degre", 1], w: ["watt", 1], kw: ["watt", 1e3], kilowatt: ["watt", 1e3],
};

/** Durations in seconds (unit `duration`), so "sixty minutes" meets "one hour"; other quantities unchanged. */
export function normaliseQuantity(q: NumericQuantity): NumericQuantity {
  const alias = UNIT_ALIASES[q.unit];
  if (alias !== undefined) q = { ...q, unit: alias[0], value: q.value * alias[1], ...(q.spread !== undefined ? { spread: q.spread * alias[1] } : {}) };
  const seconds = DURATION_STEMS[q.unit];
  if (seconds === undefined) return q;
  return { ...q, value: q.value * seconds, unit: "duration", ...(q.spread !== undefined ? { spread: q.spread * seconds } : {}) };
}

export interface NumericComparison {
  /** Belief quantities that the evidence restates, or satisfies when the belief states a bound. */
  matches: NumericQuantity[];
  /** Belief quantities that the evidence contradicts: same unit, and a value (or range) outside the belief's. */
  conflicts: Array<{ belief: NumericQuantity; evidence: NumericQuantity }>;
  /** Belief quantities the evidence states a value for in the same unit (whether it matches, conflicts or is near). */
  sameDimension: number;
}

type Interval = readonly [number, number];

/** A quantity as an interval: `= v` → [v ± 1 %], `< v` → (−∞, v], `> v` → [v, ∞). */
function interval(q: NumericQuantity): Interval {
  const slack = q.unit === "year_ce" ? 0.5 : Math.max(0.01 * Math.abs(q.value), q.spread ?? 0);
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
  const bq = numericQuantities(belief).filter((q) => q.unit !== "" && q.unit !== "year_ce").map(normaliseQuantity);
  const eq = numericQuantities(evidence).map(normaliseQuantity);
  const years = (t: string) => numericQuantities(t).filter((q) => q.unit === "year_ce");
  // A year compares only when the belief states exactly one (the date of its claim).
  const beliefYears = years(belief);
  if (beliefYears.length === 1) bq.push(...beliefYears);
  const matches: NumericQuantity[] = [];
  const conflicts: NumericComparison["conflicts"] = [];
  let sameDimension = 0;
  for (const b of bq) {
    const sameUnit = eq.filter((e) => e.unit === b.unit);
    if (sameUnit.length === 0) continue;
    sameDimension++;
    const range = interval(b);
    if (sameUnit.some((e) => within(interval(e), range))) matches.push(b);
    else {
      // A value within 5 % of a plain belief value is a measurement of it, neither a match nor a conflict.
      const near = (e: NumericQuantity) =>
        b.unit !== "year_ce" && b.unit !== "time" && b.bound === undefined && e.bound === undefined && Math.abs(e.value - b.value) <= 0.05 * Math.abs(b.value);
      const clash = sameUnit.find((e) => disjoint(interval(e), range) && !near(e));
      if (clash) conflicts.push({ belief: b, evidence: clash });
    }
  }
  return { matches, conflicts, sameDimension };
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
