/**
 * Numeric and quantifier cues: quantities with their unit (the stemmed word after the number, `%`, or `time` for
 * clock times), number words, and universal versus partial quantifiers.
 */
import { contentTokens, stemWord } from "../parse/tokenize";
import {
  CALENDAR_DAYS,
  CALENDAR_NEAR_TOLERANCE,
  CARDINAL_WORDS,
  CURRENCY_PREFIX,
  currencyOf,
  DAY_PARTS,
  FRACTION_OF_UNIT,
  FRACTION_PHRASE,
  FREQUENCY_ADVERBS,
  fractionShare,
  hourOfDay,
  LOWER_BOUND_PHRASES,
  LOWER_COMPARATIVES,
  LOWER_TIME_BOUND_PHRASES,
  NUMBER_LIKE_WORDS,
  numberFromWord,
  phraseAlternation,
  TIME_UNITS,
  timeUnitSpellings,
  unitOfStem,
  UPPER_BOUND_PHRASES,
  UPPER_COMPARATIVES,
  UPPER_TIME_BOUND_PHRASES,
  WEEKDAY_STEM_ALT,
  WEEKDAYS,
  WORKING_WEEK_DAYS,
} from "../parse/value-vocabulary";

export interface NumericQuantity {
  value: number;
  /**
   * Stemmed unit word, `%`, `x` (a multiple), `time` (minutes since midnight) or `""`; after `normaliseQuantity`
   * `duration` (seconds), `per_day`, or `m:` and the dimension of a measure or currency (`m:length`, `m:money:GBP`).
   */
  unit: string;
  /** A bound stated just before the number ("under 2 s", "before 6 a.m.", "at least 3"); absent for a plain value. */
  bound?: "<" | ">";
  /** Half-width of a stated range ("9 to 11 minutes") or an approximation ("about an hour", ±15 %). */
  spread?: number;
  /** Character offset of the quantity in its text (where known): which words it attaches to. */
  at?: number;
}

/** Units that measure a dimension (time, frequency, share…; measures and money, `m:`): values in them compare across wordings. */
export const TYPED_UNITS: ReadonlySet<string> = new Set(["duration", "per_day", "time", "%", "x"]);
/** Whether a normalised unit measures a dimension (`TYPED_UNITS`, or a measure or currency: `m:length`, `m:money:GBP`). */
export const isTypedUnit = (unit: string): boolean => TYPED_UNITS.has(unit) || unit.startsWith("m:");

/** Number words read as numbers: the cardinals and "single", "couple", "double", "triple", "dozen" (./value-vocabulary). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = { ...CARDINAL_WORDS, ...NUMBER_LIKE_WORDS };
const NUMBER_WORD_ALT = Object.keys(NUMBER_WORDS).join("|");

/** Length of one unit of time in days (frequencies are events per day, durations seconds); a weekday comes once a week. */
const UNIT_DAYS: Readonly<Record<string, number>> = {
  second: 1 / 86400, minute: 1 / 1440, hour: 1 / 24, ...Object.fromEntries(DAY_PARTS.map((p) => [p, 1])), ...CALENDAR_DAYS, weekday: 7 / WORKING_WEEK_DAYS,
  ...Object.fromEntries(WEEKDAYS.map((d) => [d, 7])),
};
const TIME_UNIT_ALT = Object.keys(UNIT_DAYS).join("|");
/** Frequency adverbs as events per day ("hourly" → 24). */
const ADVERB_FREQUENCY: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(FREQUENCY_ADVERBS).map(([w, unit]) => [w, 1 / (UNIT_DAYS[unit] as number)]));
/**
 * Stems of time units whose counted amounts are durations ("40 minutes", "two months"), in seconds. A quarter is
 * left out: "three quarters of" is a share (read below), and "a quarter" a period only after "every" / "a".
 */
const DURATION_STEMS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(TIME_UNITS)
    .filter(([w]) => w !== "quarter")
    .map(([w, seconds]) => [stemWord(w), seconds]),
);

/** A measure or a currency (not a time unit) named by a stem: an amount in it is no count of events ("30 euros a month"). */
const isMeasureStem = (stem: string): boolean => {
  const unit = unitOfStem(stem);
  return unit !== undefined && unit.dimension !== "duration";
};
/** A currency symbol or code right before an amount ("£20", "GBP 20"). */
const CURRENCY_BEFORE = new RegExp(`${CURRENCY_PREFIX}\\s?$`, "i");

const numberValue = (w: string): number | undefined => numberFromWord(w, [NUMBER_LIKE_WORDS]);

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
    // A count of events per unit: "four checks a week", "two doses a day", "1.5 doses a day", "three visits per week"
    // (not "20 minutes a day", an amount of time per day, nor "30 euros a month" or "5 GB a month", an amount per
    // period). The lookbehind keeps the count from starting inside a longer number ("1,000", "1.5").
    pattern: new RegExp(
      `(?<![\\d.,])\\b(once|twice|thrice|\\d+(?:,\\d{3})*(?:\\.\\d+)?|${NUMBER_WORD_ALT})\\s+(?!(?:times?|${TIME_UNIT_ALT})s?\\b)([a-z]+(?:\\s+[a-z]+)?)\\s+(?:a|an|per|each)\\s+(${TIME_UNIT_ALT})\\b`,
      "g",
    ),
    perDay: (m) => {
      if (/\b(?:times?|of|the|and|or|in|for|to|is|are|was|were|minutes?|hours?|days?|weeks?|months?|years?|seconds?)\b/.test(m[2] ?? "")) return undefined;
      // An amount in a currency or a measure is not a count of events ("30 euros a month", "£5 extra per month").
      const noun = stemWord((m[2] ?? "").split(/\s+/)[0] ?? "");
      if (isMeasureStem(noun) || CURRENCY_BEFORE.test(m.input?.slice(Math.max(0, (m.index ?? 0) - 5), m.index) ?? "")) return undefined;
      const n = m[1] === "once" ? 1 : m[1] === "twice" ? 2 : m[1] === "thrice" ? 3 : numberValue(m[1] ?? "");
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
  // Weekdays in the plural after an opener name a weekly routine: "on Tuesdays and Thursdays" = twice a week,
  // "on alternate Wednesdays" = every other Wednesday. Without an opener ("Tuesdays are
  // quiet") the weekday is a topic, not a frequency.
  const WEEKDAY_PLURAL = `(alternate\\s+)?(${WEEKDAY_STEM_ALT})days\\b`;
  const plural: RegExpMatchArray[] = [];
  for (const lead of rest.matchAll(new RegExp(`\\b(?:on|every|each|most)\\s+(?=${WEEKDAY_PLURAL})`, "g"))) {
    const list = new RegExp(`${WEEKDAY_PLURAL}(?:\\s*,\\s*|\\s+(?:and|or)\\s+|\\s*,\\s*(?:and|or)\\s+)?`, "y");
    list.lastIndex = (lead.index ?? 0) + lead[0].length;
    for (let m = list.exec(rest); m !== null; m = list.exec(rest)) plural.push(m);
  }
  const days = new Set(plural.map((m) => m[2]));
  if (days.size > 0 && !/\bevery\s+other\b/.test(rest)) quantities.push({ value: days.size / (plural.some((m) => m[1] !== undefined) ? 14 : 7), unit: "per_day", at: plural[0]?.index ?? 0 });
  for (const { pattern, perDay } of FREQUENCY_PATTERNS) {
    for (const m of rest.matchAll(pattern)) {
      const value = perDay(m);
      if (value === undefined || !Number.isFinite(value)) continue;
      quantities.push({ value, unit: "per_day", at: m.index ?? 0 });
      rest = rest.slice(0, m.index) + " ".repeat(m[0].length) + rest.slice((m.index ?? 0) + m[0].length);
    }
  }
  return { quantities, rest };
}
const UNIT_SKIP = new Set([
  "of", "more", "less", "fewer", "additional", "extra", "new", "old", "full", "per", "a", "the", "working", "business", "calendar", "whole",
  "entire", "straight", "consecutive", "solid", "clear",
]);
const NOT_UNITS = new Set(["to", "and", "or", "in", "on", "at", "by", "for", "from", "with", "than", "is", "are", "was", "were"]);
const TIME_PATTERN = /\b(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?\s?m\.?|p\.?\s?m\.?)(?=\W|$)|\b(\d{1,2}):(\d{2})\b|\b(noon|midday|midnight)\b/gi;
const UPPER_BOUND = new RegExp(`\\b(?:${phraseAlternation([...UPPER_BOUND_PHRASES, ...UPPER_COMPARATIVES, ...UPPER_TIME_BOUND_PHRASES])})\\s*$`);
const LOWER_BOUND = new RegExp(`\\b(?:${phraseAlternation([...LOWER_BOUND_PHRASES, ...LOWER_COMPARATIVES, ...LOWER_TIME_BOUND_PHRASES])})\\s*$`);
/** A negator earlier in the same clause turns a bound around ("never more than 50" ≤ 50; "not less than 3" ≥ 3). */
const CLAUSE_NEGATOR = /\b(?:never|not|no|none|nobody|nothing|without)\b|n't\b/;

function boundBefore(text: string, index: number): NumericQuantity["bound"] {
  const before = text.slice(Math.max(0, index - 24), index).toLowerCase();
  const upper = UPPER_BOUND.exec(before);
  const lower = upper ? null : LOWER_BOUND.exec(before);
  const found = upper ?? lower;
  if (!found) return undefined;
  // The rest of the clause before the bound phrase ("no single run ever took" + "more than").
  const lead = text.slice(Math.max(0, index - 24 - 60), Math.max(0, index - 24) + found.index).toLowerCase().split(/[,;:.!?]/).pop() ?? "";
  const flipped = CLAUSE_NEGATOR.test(lead);
  return (upper !== null) !== flipped ? "<" : ">";
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
  return locatedQuantities(text).map(({ at: _at, ...q }) => q);
}

/** `numericQuantities` with each quantity's character offset (`at`) where it is known. */
export function locatedQuantities(text: string): NumericQuantity[] {
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
    out.push(withBound({ value: minutes, unit: "time", at: m.index }, boundBefore(text, m.index)));
    // Blank the time out without moving later offsets.
    rest = rest.slice(0, m.index) + " ".repeat(m[0].length) + rest.slice(m.index + m[0].length);
  }
  // Hours in words with a part of the day: "seven in the morning", "ten at night", "half five in the evening" is left out.
  for (const m of rest.toLowerCase().matchAll(new RegExp(`\\b(\\d{1,2}|${NUMBER_WORD_ALT})\\s+(?:o'clock\\s+)?(?:in the (morning|afternoon|evening)|at (night))\\b`, "g"))) {
    const hours = hourOfDay(numberValue(m[1] ?? "") ?? 0, m[2] ?? m[3] ?? "");
    if (hours === undefined) continue;
    out.push(withBound({ value: hours * 60, unit: "time", at: m.index ?? 0 }, boundBefore(rest, m.index ?? 0)));
    rest = rest.slice(0, m.index) + " ".repeat(m[0].length) + rest.slice((m.index ?? 0) + m[0].length);
  }
  // A fraction of one time unit is a duration ("a quarter of an hour" is 15 minutes, "three quarters of a year" nine
  // months), not a count of quarters nor a share of a group: read here and blanked out for the readers below.
  for (const m of rest.toLowerCase().matchAll(FRACTION_OF_UNIT_RE)) {
    const share = fractionShare(m[1] ?? "");
    if (share === undefined) continue;
    // "after a quarter of an hour" is when it happens, as "after 15 minutes" is: no bound.
    const at = m.index ?? 0;
    const pointInTime = /\bafter\s*$/.test(rest.slice(Math.max(0, at - 8), at).toLowerCase());
    out.push(withBound({ value: share / 100, unit: stemWord(m[2] ?? ""), at }, pointInTime ? undefined : boundBefore(rest, at)));
    rest = rest.slice(0, m.index) + " ".repeat(m[0].length) + rest.slice((m.index ?? 0) + m[0].length);
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
    const at = match?.index ?? 0;
    // A digit inside a name ("v2", "c6i", "x86") is no quantity.
    if (/^\d/.test(w) && /[a-z]$/i.test(rest.slice(Math.max(0, at - 1), at))) continue;
    // An amount after a currency symbol or code ("£20", "GBP 20") is in that currency, as "20 pounds" is.
    const prefix = unit === "" && /^\d/.test(w) ? CURRENCY_BEFORE.exec(rest.slice(Math.max(0, at - 5), at))?.[0] : undefined;
    const currency = prefix !== undefined ? currencyOf(prefix) : undefined;
    // Read as its ISO code, a unit word like "pounds" ("money:GBP" → "gbp").
    if (currency !== undefined) unit = currency.slice("money:".length).toLowerCase();
    // "three hundred kilometres", "2 thousand users": the multiplier joins the number.
    const multiplier = { hundred: 100, thousand: 1000, million: 1e6 }[words[i + 1]?.[0] ?? ""];
    if (multiplier !== undefined && unit === "") {
      value *= multiplier;
      i++;
    }
    // "9 to 11 minutes": the lower end takes the upper end's unit and both become one range.
    // Also written out and with "or": "five or six months", "two to three weeks".
    const range = new RegExp(`^\\s*(?:to|or|-|–)\\s*(\\d+(?:\\.\\d+)?|${NUMBER_WORD_ALT})\\s+(?:(?:more|full|whole|working|business|calendar)\\s+)?([a-z]+)`).exec(
      rest.slice(at + w.length).toLowerCase(),
    );
    const high = range ? numberValue(range[1] ?? "") : undefined;
    if (range && high !== undefined && high > value && !NOT_UNITS.has(range[2] ?? "") && !UNIT_SKIP.has(range[2] ?? "") && NUMBER_WORDS[range[2] ?? ""] === undefined) {
      out.push({ value: (value + high) / 2, unit: stemWord(range[2] ?? ""), spread: Math.abs(high - value) / 2, at });
      i += 2;
      continue;
    }
    if (unit === "" && /^\d+-[a-z]+$/.test(words[i + 1]?.[0] ?? "") === false && /^\d[\d.,]*-[a-z]+$/.test(w)) {
      unit = stemWord(w.replace(/^[\d.,]+-/, ""));
    }
    // "two and a half days": the half joins the number, the unit follows it.
    let skipHalf = 0;
    if (unit === "" && words.slice(i + 1, i + 4).map((x) => x[0]).join(" ") === "and a half") {
      value += 0.5;
      skipHalf = 3;
    }
    if (unit === "") {
      let j = i + 1 + skipHalf;
      while (j < words.length && UNIT_SKIP.has(words[j]?.[0] ?? "")) j++;
      const next = words[j]?.[0];
      if (next !== undefined && /^[a-z]/.test(next) && !NOT_UNITS.has(next)) unit = stemWord(next);
    }
    // A bare number word with no unit ("one of them") or a year carries no comparable quantity.
    if (unit === "" && (!/^\d/.test(w) || (value >= 1900 && value <= 2099))) continue;
    const bound = boundBefore(rest, at);
    const pointInTime = DURATION_STEMS[unit] !== undefined && /\bafter\s*$/.test(rest.slice(Math.max(0, at - 8), at).toLowerCase());
    if (unit === "dai" && /^\s*(?:working|business)\s/.test(rest.slice(at + w.length).toLowerCase())) value *= 7 / WORKING_WEEK_DAYS;
    const q = withBound({ value, unit, at }, pointInTime ? undefined : bound);
    out.push(APPROX.test(rest.slice(Math.max(0, at - 16), at).toLowerCase()) ? { ...q, spread: 0.15 * Math.abs(value) } : q);
  }
  // "an hour", "half an hour", "an hour and a quarter", "a month", "a full week"
  // ("a single day" is left to the number loop, which reads "single" as one.)
  const rateBefore = new RegExp(`(?:\\d[\\d.,]*|\\b(?:${NUMBER_WORD_ALT}))[\\s-]+[a-z]+\\s+$`);
  for (const m of rest.toLowerCase().matchAll(/\b(half an|half a|an|a|one) (?:(?:full|whole|entire|good|solid|clear|calendar|working|business) )?(minute|hour|day|week|fortnight|month|year)( and a (?:half|quarter))?\b/g)) {
    if (m[1] === "one") continue;
    // "N units a X" is a rate ("45 minutes a week", "3 litres a day"), not a duration of one X.
    if (m[1] === "a" || m[1] === "an") {
      if (rateBefore.test(rest.slice(Math.max(0, (m.index ?? 0) - 40), m.index ?? 0).toLowerCase())) continue;
    }
    const base = m[1]?.startsWith("half") ? 0.5 : 1;
    const extra = m[3] === undefined ? 0 : m[3].endsWith("half") ? 0.5 : 0.25;
    out.push(withBound({ value: base + extra, unit: stemWord(m[2] ?? ""), at: m.index ?? 0 }, boundBefore(rest, m.index ?? 0)));
  }
  // A year stated as the date of the claim: "in 1989", "in June 1990", "since 2015".
  for (const m of rest.toLowerCase().matchAll(/\b(?:in|since|until|by)\s+(?:(?:early|late|mid)\s+)?(?:[a-z]+\s+)?((?:1[5-9]|20)\d{2})\b/g)) {
    out.push({ value: Number(m[1]), unit: "year_ce" });
  }
  // A share of a group in words: "half of the users", "barely a third of", "three quarters of the sites" (percent).
  for (const m of rest.toLowerCase().matchAll(SHARE_OF)) {
    const share = fractionShare(m[1] ?? "");
    if (share !== undefined) out.push({ value: share, unit: "%", spread: 0.05 * share, at: m.index ?? 0 });
  }
  // "the next day", "the next working day": a duration of one day from the event before it.
  for (const m of rest.toLowerCase().matchAll(/\bthe\s+(?:next|following)\s+(?:(?:working|business|calendar)\s+)?(day)\b/g)) {
    out.push({ value: 1, unit: stemWord(m[1] ?? ""), at: m.index ?? 0 });
  }
  return out.concat(freq.quantities).map(asPeriod(text.toLowerCase()));
}

const FRACTION_OF_UNIT_RE = new RegExp(FRACTION_OF_UNIT, "g");

/** A fraction of a group ("a third of", "three quarters of the"), not a part of a thing ("the first half of"). */
const SHARE_OF = new RegExp(
  `(?<!\\b(?:the|first|second|third|last|other|latter|former|later|earlier|early|late|upper|lower|back|front|top|bottom)\\s+)\\b(${FRACTION_PHRASE})\\s+(?:of|the)\\b`,
  "g",
);

/** Words after a duration that make it the gap between repeats ("at twenty-minute intervals", "four weeks apart"). */
const PERIOD_AFTER = /^\s*(?:[a-z]+\s+)?(?:intervals?|apart|cycles?|gaps?|rotation)\b/;

/** Surface forms of each duration stem, to find a quantity's unit word right after its number ("minut" → "minutes?"). */
const DURATION_SURFACE: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(DURATION_STEMS).map((stem) => [stem, timeUnitSpellings(stem).map((w) => `${w}s?`).join("|")]),
);

/**
 * A duration stated as the gap between repeats reads as a frequency: "at 15-minute intervals" = "every 15 minutes".
 * Only the quantity's own unit word (at most three words after its number) is tested for the period word after it.
 */
function asPeriod(lower: string): (q: NumericQuantity) => NumericQuantity {
  return (q) => {
    const seconds = DURATION_STEMS[q.unit];
    const surface = DURATION_SURFACE[q.unit];
    if (seconds === undefined || surface === undefined || q.bound !== undefined || q.at === undefined || !(q.value > 0)) return q;
    const own = new RegExp(`^[\\w.,]*?(?:[\\s-]+[\\w.,]+){0,3}?[\\s-]+(?:${surface})\\b`).exec(lower.slice(q.at, q.at + 60));
    if (own === null || !PERIOD_AFTER.test(lower.slice(q.at + own[0].length))) return q;
    const perDay = 86400 / (q.value * seconds);
    // A spread on the gap becomes one on the rate (first order: d(1/v) = dv / v²).
    const spread = q.spread !== undefined ? (perDay * q.spread) / q.value : undefined;
    return { value: perDay, unit: "per_day", at: q.at, ...(spread !== undefined ? { spread } : {}) };
  };
}

/**
 * Durations in seconds (unit `duration`), so "sixty minutes" meets "one hour"; measures and currencies in the base
 * unit of their dimension (./value-vocabulary: `m:length` in metres, `m:mass` in grams, `m:money:GBP`…), so "1.5 kg"
 * meets "1500 g" and "£20" meets "20 pounds"; shares in percent; other quantities unchanged.
 */
export function normaliseQuantity(q: NumericQuantity): NumericQuantity {
  const seconds = DURATION_STEMS[q.unit];
  const unit = seconds === undefined ? unitOfStem(q.unit) : undefined;
  const [name, factor] = seconds !== undefined ? ["duration", seconds] : unit !== undefined && unit.dimension !== "duration" ? [unit.dimension === "%" ? "%" : `m:${unit.dimension}`, unit.factor] : [q.unit, 1];
  if (name === q.unit && factor === 1) return q;
  return { ...q, value: q.value * factor, unit: name, ...(q.spread !== undefined ? { spread: q.spread * factor } : {}) };
}

export interface NumericComparison {
  /** Belief quantities that the evidence restates, or satisfies when the belief states a bound. */
  matches: NumericQuantity[];
  /** Belief quantities that the evidence contradicts: same unit, and a value (or range) outside the belief's. */
  conflicts: Array<{ belief: NumericQuantity; evidence: NumericQuantity }>;
  /** Belief quantities the evidence states a value for in the same unit (whether it matches, conflicts or is near). */
  sameDimension: number;
  /** Belief bounds ("at most 50", "within a month") that an evidence value in the same unit falls inside. */
  withinBound: number;
  /** Belief bounds that an evidence value in the same unit falls outside ("at most 20" vs "running 45"). */
  outsideBound: number;
  /** Conflicts in a measured dimension (duration, frequency, time of day, share, length, mass, size). */
  typedConflicts: number;
  /**
   * Counts compared across nouns: a belief count ("no more than 12 seats") with no evidence value in its unit, and an
   * evidence count in another noun or none ("30 chairs", "raised to 80") outside the belief's interval. Weaker than a
   * conflict (the two numbers may count different things).
   */
  looseConflicts: number;
  /** The same, inside the belief's interval (or bound). */
  looseMatches: number;
  /** Loose conflicts against a bound the belief states ("no more than 12 seats" vs "30 chairs"). */
  looseOutsideBound: number;
  /** A belief frequency whose period the evidence states as a duration ("every six weeks" / "a cycle of forty days"). */
  periodMatches: number;
  /**
   * Conflicts whose evidence value attaches to none of the belief's words: no content word within four words of it
   * is one the belief uses ("rinsed for 15 seconds" against "the dough rests for 15 minutes"). Another slot, most likely.
   */
  unanchoredConflicts: number;
}

/**
 * Content stems within `reach` words of a character offset (number words and units included; digits left out).
 * Built once per text: word starts and tokens are indexed, so each lookup costs one binary search and a small window.
 */
function stemsNearIn(text: string, reach = 4): (at: number | undefined) => Set<string> {
  const tokens = contentTokens(text).filter((t) => !/^\d/.test(t.word) && NUMBER_WORDS[t.word] === undefined && DURATION_STEMS[t.stem] === undefined);
  const starts = [...text.toLowerCase().matchAll(/\S+/g)].map((m) => m.index ?? 0);
  // Number of words starting before `offset`.
  const position = (offset: number) => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] as number) < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const positions = tokens.map((t) => position(t.offset));
  return (at) => {
    if (at === undefined) return new Set();
    const here = position(at);
    const out = new Set<string>();
    tokens.forEach((t, i) => {
      if (Math.abs((positions[i] as number) - here) <= reach) out.add(t.stem);
    });
    return out;
  };
}

type Interval = readonly [number, number];


/** A matched quantity is reported as a value, not a place (the belief's offset matters only for quoting a conflict). */
const withoutOffset = ({ at: _at, ...q }: NumericQuantity): NumericQuantity => q;

const UNITS_PER_DAY: ReadonlyArray<readonly [string, number]> = [["per second", 86400], ["per minute", 1440], ["per hour", 24], ["per day", 1], ["per week", 1 / 7]];
const SECONDS_IN: ReadonlyArray<readonly [string, number]> = [["weeks", 604800], ["days", 86400], ["hours", 3600], ["minutes", 60], ["seconds", 1]];
const plain = (x: number): string => String(Math.round(x * 100) / 100);

/**
 * A quantity as a person wrote it: the words of `text` from the quantity's offset to the end of its clause (at most
 * four words, up to a linking word after the first two, so "50 requests per minute" and "every six hours" come back as
 * written). Without an offset, the value
 * in the largest unit that keeps it at least 1 ("72000 per_day" → "50 per minute", 7200 s → "2 hours").
 */
export function writtenQuantity(text: string, q: NumericQuantity): string {
  if (q.at !== undefined && q.at >= 0 && q.at < text.length) {
    const clause = text.slice(q.at).split(/,(?=\s|$)|[;:!?]|\.(?=\s|$)/)[0] ?? "";
    const words = clause.trim().split(/\s+/).slice(0, 4);
    // A linking word after the number and its unit starts the next phrase ("100 requests at 2 a.m.").
    const next = words.findIndex((w, i) => i >= 2 && NOT_UNITS.has(w.toLowerCase()));
    const phrase = (next === -1 ? words : words.slice(0, next)).join(" ");
    if (phrase) return phrase;
  }
  if (q.unit === "per_day") {
    const [name, per] = UNITS_PER_DAY.find(([, k]) => q.value / k >= 1) ?? UNITS_PER_DAY[UNITS_PER_DAY.length - 1] ?? ["per day", 1];
    return `${plain(q.value / per)} ${name}`;
  }
  if (q.unit === "duration") {
    const [name, s] = SECONDS_IN.find(([, k]) => q.value / k >= 1) ?? ["seconds", 1];
    return `${plain(q.value / s)} ${name}`;
  }
  return `${plain(q.value)}${q.unit ? ` ${q.unit}` : ""}`;
}

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
  const bq = locatedQuantities(belief).filter((q) => q.unit !== "" && q.unit !== "year_ce").map(normaliseQuantity);
  const eq = locatedQuantities(evidence).map(normaliseQuantity);
  const years = (t: string) => numericQuantities(t).filter((q) => q.unit === "year_ce");
  // A year compares only when the belief states exactly one (the date of its claim).
  const beliefYears = years(belief);
  if (beliefYears.length === 1) bq.push(...beliefYears);
  const matches: NumericQuantity[] = [];
  const conflicts: NumericComparison["conflicts"] = [];
  let sameDimension = 0;
  let withinBound = 0;
  let outsideBound = 0;
  let looseConflicts = 0;
  let looseMatches = 0;
  let looseOutsideBound = 0;
  let periodMatches = 0;
  // Evidence counts with no measured unit, compared across nouns when the belief's noun is not restated.
  const counts = eq.filter((e) => !isTypedUnit(e.unit) && e.unit !== "year_ce");
  const eUnits = new Set(eq.map((e) => e.unit));
  for (const b of bq) {
    const sameUnit = eq.filter((e) => e.unit === b.unit);
    const range = interval(b);
    if (sameUnit.length === 0) {
      if (b.unit === "per_day" && !eUnits.has("per_day")) {
        const periodDays = 1 / b.value;
        if (eq.some((e) => e.unit === "duration" && Math.abs(e.value / 86400 - periodDays) <= CALENDAR_NEAR_TOLERANCE * periodDays)) periodMatches++;
      }
      if (isTypedUnit(b.unit) || counts.length === 0) continue;
      const inside = counts.some((e) => within(interval(e), range));
      if (inside) looseMatches++;
      else if (counts.some((e) => disjoint(interval(e), range) && Math.abs(e.value - b.value) > 0.05 * Math.abs(b.value))) {
        looseConflicts++;
        if (b.bound !== undefined) looseOutsideBound++;
      }
      continue;
    }
    sameDimension++;
    if (sameUnit.some((e) => within(interval(e), range))) {
      matches.push(withoutOffset(b));
      if (b.bound !== undefined) withinBound++;
    } else {
      // A value within 5 % of a plain belief value is a measurement of it, neither a match nor a conflict.
      // Calendar lengths are fuzzy ("twelve weeks" ≈ "three months", "every twelve weeks" ≈ "every three months"):
      // CALENDAR_NEAR_TOLERANCE for frequencies and for durations of a week or more.
      const fuzzy = b.unit === "per_day" || (b.unit === "duration" && b.value >= 604800);
      const near = (e: NumericQuantity) =>
        b.unit !== "year_ce" && b.unit !== "time" && b.bound === undefined && e.bound === undefined && Math.abs(e.value - b.value) <= (fuzzy ? CALENDAR_NEAR_TOLERANCE : 0.05) * Math.abs(b.value);
      const clash = sameUnit.find((e) => disjoint(interval(e), range) && !near(e));
      if (clash) {
        conflicts.push({ belief: b, evidence: clash });
        if (b.bound !== undefined) outsideBound++;
      }
    }
  }
  const typedConflicts = conflicts.filter((c) => isTypedUnit(c.belief.unit)).length;
  const beliefStems = new Set(contentTokens(belief).map((t) => t.stem));
  const stemsNear = conflicts.length > 0 ? stemsNearIn(evidence) : undefined;
  const unanchoredConflicts = conflicts.filter((c) => {
    const near = stemsNear?.(c.evidence.at) ?? new Set<string>();
    return c.evidence.at !== undefined && ![...near].some((x) => beliefStems.has(x));
  }).length;
  return { matches, conflicts, sameDimension, withinBound, outsideBound, typedConflicts, looseConflicts, looseMatches, looseOutsideBound, periodMatches, unanchoredConflicts };
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
