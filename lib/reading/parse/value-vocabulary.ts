/**
 * The one vocabulary of values that the readers of quantities share: number words and fractions, bound phrases,
 * units (time, money with ISO codes, SI and imperial measures, data sizes, shares, temperature, power, energy),
 * weekday, month, season and part-of-day names, calendar lengths and the tolerance between calendar lengths.
 * `numeric-cues` (quantities with a dimension and a bound) and `slot-values` (coded slot values) read values with
 * these tables and nothing of their own, so "£20", "20 pounds" and "GBP 20" are one amount everywhere, and a month is
 * one length. Pure data and small lookups; topic-free.
 */
import { stemWord } from "./tokenize";

// ---------------------------------------------------------------------------------------------------------------
// Numbers

/** Written-out cardinal numerals ("forty-five" joins two of them). */
export const CARDINAL_WORDS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
  thousand: 1000,
};

/** Words that scale the number before them ("five hundred", "2 thousand", "a dozen"). */
export const MULTIPLIER_WORDS: Readonly<Record<string, number>> = { dozen: 12, hundred: 100, thousand: 1000, million: 1_000_000 };

/** Counts of occurrences: "once", "twice", "thrice" (a frequency with "a day", "daily"…). */
export const COUNT_ADVERBS: Readonly<Record<string, number>> = { once: 1, twice: 2, thrice: 3 };

/** Other words that state a small number before a noun ("a single day", "a couple of hours", "double the dose"). */
export const NUMBER_LIKE_WORDS: Readonly<Record<string, number>> = { single: 1, couple: 2, double: 2, triple: 3, dozen: 12 };

/** The articles, which count one only before a unit ("an hour", "a month"). */
export const ARTICLE_ONE: Readonly<Record<string, number>> = { a: 1, an: 1 };

/**
 * A number written in digits ("1,000", "2.5", and with `decimalComma` also "2,5") or in words ("seven",
 * "forty-five"), or undefined. Number-like words and counts are read only when their table is passed in `also`.
 */
export function numberFromWord(word: string, also: ReadonlyArray<Readonly<Record<string, number>>> = [], decimalComma = false): number | undefined {
  if (/^\d/.test(word)) {
    if (!/^\d+(?:[.,]\d+)*$/.test(word)) return undefined;
    const thousands = word.replace(/,(?=\d{3}(?!\d))/g, "");
    const n = Number(decimalComma ? thousands.replace(",", ".") : thousands);
    return Number.isFinite(n) ? n : undefined;
  }
  if (word.includes("-")) {
    const parts = word.split("-").map((p) => CARDINAL_WORDS[p]);
    return parts.every((p) => p !== undefined) ? parts.reduce<number>((s, p) => s + (p ?? 0), 0) : undefined;
  }
  const cardinal = CARDINAL_WORDS[word];
  if (cardinal !== undefined) return cardinal;
  for (const table of also) if (table[word] !== undefined) return table[word];
  return undefined;
}

/** Denominators of a fraction in words ("a third", "three quarters", "two fifths"), as the share of one. */
const DENOMINATORS: Readonly<Record<string, number>> = {
  half: 2, halves: 2, third: 3, thirds: 3, quarter: 4, quarters: 4, fourth: 4, fourths: 4, fifth: 5, fifths: 5, tenth: 10, tenths: 10,
};

/** Fraction phrases in words, for a regular expression: "half", "a third", "two thirds", "three quarters"… */
export const FRACTION_PHRASE = `(?:half|(?:a|one)\\s+(?:half|third|quarter|fourth|fifth|tenth)|(?:two|three|four)\\s+(?:thirds|quarters|fourths|fifths|tenths))`;

/** A fraction phrase as a percentage: "half" → 50, "a third" → 33.33…, "three quarters" → 75; undefined otherwise. */
export function fractionShare(phrase: string): number | undefined {
  const ws = phrase.trim().toLowerCase().split(/\s+/);
  if (ws.length === 1) return ws[0] === "half" ? 50 : undefined;
  if (ws.length !== 2) return undefined;
  const numerator = ws[0] === "a" || ws[0] === "an" ? 1 : CARDINAL_WORDS[ws[0] as string];
  const denominator = DENOMINATORS[ws[1] as string];
  if (numerator === undefined || denominator === undefined || numerator >= denominator) return undefined;
  // "a thirds" / "two third" are not fractions.
  if ((numerator === 1) !== !/s$/.test(ws[1] as string)) return undefined;
  return (100 * numerator) / denominator;
}

// ---------------------------------------------------------------------------------------------------------------
// Bounds

/** Phrases that bound an amount from above ("no more than ten", "limited to 5 GB", "under 2 s"). */
export const UPPER_BOUND_PHRASES: readonly string[] = [
  "no more than", "not more than", "no higher than", "no greater than", "no larger than", "no longer than", "at most", "up to", "a maximum of",
  "maximum of", "max of", "maximum", "max", "less than", "fewer than", "under", "below", "within", "inside", "limited to", "capped at",
  "restricted to", "not exceeding", "not exceed", "never exceed", "never exceeds",
];

/** Phrases that bound an amount from below ("at least ten", "upwards of 30", "over an hour"). */
export const LOWER_BOUND_PHRASES: readonly string[] = [
  "no fewer than", "no less than", "not less than", "no shorter than", "no lower than", "no smaller than", "at least", "a minimum of",
  "minimum of", "min of", "minimum", "min", "upwards of", "more than", "over", "above", "exceeding", "exceeds", "exceeded", "exceed", "beyond",
];

/**
 * Comparatives that bound an amount ("longer than 42", "shorter than a week"), which a negation earlier in the clause
 * commonly turns round ("no line may be longer than 42" ≤ 42): for readers that read the clause's negator
 * (numeric-cues), not for those that take the phrase as it stands.
 */
export const UPPER_COMPARATIVES: readonly string[] = ["lower than", "shorter than", "smaller than"];
export const LOWER_COMPARATIVES: readonly string[] = ["greater than", "longer than", "higher than", "larger than"];

/** The amount bounds of both sides (no comparatives), for readers that take the side from `boundSide`. */
export const AMOUNT_BOUND_PHRASES: readonly string[] = [...UPPER_BOUND_PHRASES, ...LOWER_BOUND_PHRASES];

/** Phrases that bound a point in time from above or below ("before 6 a.m.", "no later than noon", "after 9"). */
export const UPPER_TIME_BOUND_PHRASES: readonly string[] = ["no later than", "not later than", "before", "by", "until", "till"];
export const LOWER_TIME_BOUND_PHRASES: readonly string[] = ["no earlier than", "not earlier than", "after", "past"];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");

/** Phrases as one alternation for a regular expression, longest first ("no more than" before "more than"). */
export function phraseAlternation(phrases: readonly string[]): string {
  return [...phrases].sort((a, b) => b.length - a.length).map(escape).join("|");
}

/** The side a bound phrase bounds from: "upper" ("at most", "before") or "lower" ("at least", "after"), or undefined. */
export function boundSide(phrase: string): "upper" | "lower" | undefined {
  const p = phrase.trim().toLowerCase().replace(/\s+/g, " ");
  if (UPPER_BOUND_PHRASES.includes(p) || UPPER_COMPARATIVES.includes(p) || UPPER_TIME_BOUND_PHRASES.includes(p)) return "upper";
  if (LOWER_BOUND_PHRASES.includes(p) || LOWER_COMPARATIVES.includes(p) || LOWER_TIME_BOUND_PHRASES.includes(p)) return "lower";
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Calendar

/**
 * A month and a year have two lengths, each with its use:
 *
 * - MEASURED: the mean Gregorian year (365.2425 days) and month (a twelfth of it, 30.44 days), what a duration or a
 *   frequency is measured in (numeric-cues: "every month" is 1/30.44 a day, "two months" 5.26 million seconds);
 * - CODED: the whole-day month (30 days) and year (365 days) of coded slot values ("d43200"), which are compared
 *   exactly: "a month" codes as "30 days", and four weeks are snapped to it (slot-values `calendarMinutes`), the way
 *   people say them for one another; "a month and a half" is then 45 days, nearer six weeks than seven, as it is said.
 */
export const YEAR_DAYS = 365.2425;
export const MONTH_DAYS = YEAR_DAYS / 12;
export const CODED_MONTH_DAYS = 30;
export const CODED_YEAR_DAYS = 365;

/** Length of each calendar unit in days. */
export const CALENDAR_DAYS: Readonly<Record<string, number>> = {
  day: 1, week: 7, fortnight: 14, month: MONTH_DAYS, quarter: 3 * MONTH_DAYS, year: YEAR_DAYS,
};

/**
 * Calendar lengths are said loosely: a count of weeks stands for months at four weeks a month ("six weeks" / "a month
 * and a half", "twelve weeks" / "three months"). Two readers compare calendar lengths, with two needs:
 *
 * - two coded lengths this close are ONE value (CALENDAR_SAME_TOLERANCE), so the tolerance
 *   must cover weeks said as months (six weeks / 45 days: 6.7 %) and still keep neighbouring months apart up to a year
 *   ("eleven months" / "a year": 8.3 %) and seven weeks from a month and a half (8.2 %): it sits between;
 * - a relation takes a measured value this close to a calendar length (a week or more, or a frequency) as NO
 *   CONFLICT, though not as a match (numeric-cues `compareQuantities`): looser, since measured months (30.44 days)
 *   sit 8 % from four weeks ("every four weeks" / "monthly"), and a conflict on a calendar length must be clear.
 */
export const CALENDAR_SAME_TOLERANCE = 0.08;
export const CALENDAR_NEAR_TOLERANCE = 0.1;

/** Working days in a working week ("a working week" = "five working days"; a working day is 7/5 of a calendar one). */
export const WORKING_WEEK_DAYS = 5;

export const WEEKDAYS: readonly string[] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
export const MONTHS: readonly string[] = [
  "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
];
/** Seasons; "fall" is read as "autumn" (`season`). */
export const SEASONS: readonly string[] = ["spring", "summer", "autumn", "fall", "winter"];
/** Parts of the day that name when something happens ("in the morning", "on Monday evening"). */
export const DAY_PARTS: readonly string[] = ["morning", "afternoon", "evening", "night"];
/** Further words for a part of the day, with the part they name. */
export const DAY_PART_WORDS: Readonly<Record<string, string>> = { overnight: "night", lunchtime: "lunchtime", midday: "midday" };

/** Alternations for regular expressions (no group, no anchors): "monday|tuesday|…". */
export const WEEKDAY_ALT = WEEKDAYS.join("|");
/** Weekday names without their "day" ("mon|tues|…"), for plurals and stems: `(?:${WEEKDAY_STEM_ALT})days?`. */
export const WEEKDAY_STEM_ALT = WEEKDAYS.map((d) => d.slice(0, -3)).join("|");
export const MONTH_ALT = MONTHS.join("|");
/** The usual abbreviations of the month names ("Jan", "Sept"), as written in dates ("3 Sept", "Jan. 14"). */
export const MONTH_ABBREVIATIONS: Readonly<Record<string, string>> = {
  jan: "january", feb: "february", mar: "march", apr: "april", jun: "june", jul: "july", aug: "august", sep: "september", sept: "september",
  oct: "october", nov: "november", dec: "december",
};
/** Month names or their abbreviations, longest first (so "sept" is not read as "sep" and a stray "t"). */
export const MONTH_OR_ABBREVIATION_ALT = [...MONTHS, ...Object.keys(MONTH_ABBREVIATIONS)].sort((x, y) => y.length - x.length).join("|");
export const SEASON_ALT = SEASONS.join("|");
export const DAY_PART_ALT = DAY_PARTS.join("|");

/** A season in its one spelling ("fall" → "autumn", "winters" → "winter"), or undefined. */
export function season(word: string): string | undefined {
  const w = word.toLowerCase().replace(/s$/, "");
  if (!SEASONS.includes(w)) return undefined;
  return w === "fall" ? "autumn" : w;
}

/** Calendar lengths of coded durations, in whole minutes (CODED_MONTH_DAYS: "d43200" is a month). */
export const CALENDAR_MINUTES: Readonly<Record<string, number>> = {
  hour: 60, day: 1440, week: 7 * 1440, fortnight: 14 * 1440, month: CODED_MONTH_DAYS * 1440, quarter: 3 * CODED_MONTH_DAYS * 1440, year: CODED_YEAR_DAYS * 1440,
};

/**
 * A fraction of one time unit, for a regular expression: "a quarter of an hour", "three quarters of a year", "half of
 * a day" (group 1 the fraction, group 2 the unit). It is a length ("a quarter of an hour" is 15 minutes), not a count
 * of quarters nor a share of a group.
 */
export const FRACTION_OF_UNIT = `\\b(${FRACTION_PHRASE})\\s+of\\s+(?:an?|one)\\s+(minute|hour|day|week|fortnight|month|year)\\b`;

/** The length in minutes of a fraction of a unit ("three quarters", "hour" → 45); undefined if either is unknown. */
export function fractionOfUnitMinutes(fraction: string, unit: string): number | undefined {
  const share = fractionShare(fraction);
  const minutes = unit === "minute" ? 1 : CALENDAR_MINUTES[unit];
  return share === undefined || minutes === undefined ? undefined : (share * minutes) / 100;
}

/**
 * The hour (0–23) an hour of the clock names with a part of the day: "7 a.m." → 7, "10 p.m." → 22, "seven in the
 * morning" → 7, "ten in the evening" → 22; at night twelve is midnight and one to four are small hours ("two at
 * night" → 2, "eleven at night" → 23). Undefined for an hour outside 1–12 or an unknown part.
 */
export function hourOfDay(hour: number, part: string): number | undefined {
  if (!Number.isInteger(hour) || hour < 1 || hour > 12) return undefined;
  switch (part) {
    case "am":
    case "morning":
      return hour % 12;
    case "pm":
    case "afternoon":
    case "evening":
      return hour === 12 ? 12 : hour + 12;
    case "night":
      return hour === 12 ? 0 : hour <= 4 ? hour : hour + 12;
    default:
      return undefined;
  }
}

/** Frequency words with the period they name ("hourly" = every hour, "quarterly" = every quarter). */
export const FREQUENCY_ADVERBS: Readonly<Record<string, "hour" | "day" | "week" | "fortnight" | "month" | "quarter" | "year">> = {
  hourly: "hour", daily: "day", nightly: "day", weekly: "week", fortnightly: "fortnight", biweekly: "fortnight", monthly: "month",
  quarterly: "quarter", yearly: "year", annually: "year", annual: "year",
};

// ---------------------------------------------------------------------------------------------------------------
// Units

/**
 * What a unit measures, with the base unit its values are converted to: durations in seconds, lengths in metres,
 * masses in grams, volumes in litres, data in bytes, data rates in bits per second, shares in percent ("%"),
 * temperatures in °C, power in watts, energy in joules, and money in its currency (`money:GBP`; amounts in two
 * currencies are not converted).
 */
export type Dimension = "duration" | "length" | "mass" | "volume" | "data" | "data_rate" | "%" | "temperature" | "power" | "energy" | `money:${string}`;

export interface Unit {
  dimension: Dimension;
  /** Base units in one of this unit. */
  factor: number;
}

const SECOND = 1;
const DAY_SECONDS = 86_400;

/** Units of time by their spellings, in seconds. */
export const TIME_UNITS: Readonly<Record<string, number>> = {
  millisecond: 0.001, ms: 0.001, msec: 0.001, second: SECOND, sec: SECOND, secs: SECOND, minute: 60, min: 60, mins: 60, hour: 3600, hr: 3600,
  hrs: 3600, h: 3600, day: DAY_SECONDS, week: 7 * DAY_SECONDS, fortnight: 14 * DAY_SECONDS, month: MONTH_DAYS * DAY_SECONDS,
  quarter: 3 * MONTH_DAYS * DAY_SECONDS, year: YEAR_DAYS * DAY_SECONDS,
};

/** Currencies: ISO 4217 code → the symbols, names and minor unit that say it. */
const CURRENCIES: Readonly<Record<string, { symbols: readonly string[]; names: readonly string[]; minor?: readonly string[] }>> = {
  GBP: { symbols: ["£"], names: ["pound", "pounds", "quid", "sterling"], minor: ["penny", "pence"] },
  // "$" and "cent" are read as US dollars and cents, the commonest; other dollars are told by their code.
  USD: { symbols: ["$", "us$"], names: ["dollar", "dollars", "buck", "bucks"], minor: ["cent", "cents"] },
  EUR: { symbols: ["€"], names: ["euro", "euros"] },
  JPY: { symbols: ["¥"], names: ["yen"] },
  CHF: { symbols: [], names: ["franc", "francs"] },
  INR: { symbols: ["₹"], names: ["rupee", "rupees"] },
  CNY: { symbols: [], names: ["yuan", "renminbi"] },
  AUD: { symbols: ["a$"], names: [] },
  CAD: { symbols: ["c$"], names: [] },
  SEK: { symbols: [], names: ["krona", "kronor"] },
};

/** Measures: spelling → [dimension, base units in one]. British and American spellings, singular; plurals are read. */
const MEASURES: Readonly<Record<string, readonly [Dimension, number]>> = {
  mm: ["length", 0.001], millimetre: ["length", 0.001], millimeter: ["length", 0.001], cm: ["length", 0.01], centimetre: ["length", 0.01],
  centimeter: ["length", 0.01], m: ["length", 1], metre: ["length", 1], meter: ["length", 1], km: ["length", 1000], kilometre: ["length", 1000],
  kilometer: ["length", 1000], inch: ["length", 0.0254], inches: ["length", 0.0254], foot: ["length", 0.3048], feet: ["length", 0.3048],
  ft: ["length", 0.3048], yard: ["length", 0.9144], yd: ["length", 0.9144], mile: ["length", 1609.344],
  mg: ["mass", 0.001], milligram: ["mass", 0.001], g: ["mass", 1], gram: ["mass", 1], gramme: ["mass", 1], kg: ["mass", 1000], kilo: ["mass", 1000],
  kilogram: ["mass", 1000], tonne: ["mass", 1e6], ton: ["mass", 1e6], lb: ["mass", 453.592], lbs: ["mass", 453.592], ounce: ["mass", 28.3495],
  oz: ["mass", 28.3495],
  ml: ["volume", 0.001], millilitre: ["volume", 0.001], milliliter: ["volume", 0.001], cl: ["volume", 0.01], l: ["volume", 1], litre: ["volume", 1],
  liter: ["volume", 1], gallon: ["volume", 3.785],
  byte: ["data", 1], kb: ["data", 1e3], kilobyte: ["data", 1e3], mb: ["data", 1e6], megabyte: ["data", 1e6], gb: ["data", 1e9],
  gigabyte: ["data", 1e9], tb: ["data", 1e12], terabyte: ["data", 1e12], kib: ["data", 1024], mib: ["data", 1024 ** 2], gib: ["data", 1024 ** 3],
  kbps: ["data_rate", 1e3], mbps: ["data_rate", 1e6], gbps: ["data_rate", 1e9],
  percent: ["%", 1], "%": ["%", 1], percentage: ["%", 1],
  "°c": ["temperature", 1], c: ["temperature", 1], celsius: ["temperature", 1], degree: ["temperature", 1],
  w: ["power", 1], watt: ["power", 1], kw: ["power", 1e3], kilowatt: ["power", 1e3],
  joule: ["energy", 1], wh: ["energy", 3600], kwh: ["energy", 3.6e6], calorie: ["energy", 4184], kcal: ["energy", 4184],
};

/** Every unit by its spelling (lower case, singular; some plurals that no rule makes are listed). */
const UNITS: ReadonlyMap<string, Unit> = (() => {
  const out = new Map<string, Unit>();
  for (const [word, seconds] of Object.entries(TIME_UNITS)) out.set(word, { dimension: "duration", factor: seconds });
  for (const [word, [dimension, factor]] of Object.entries(MEASURES)) out.set(word, { dimension, factor });
  for (const [code, c] of Object.entries(CURRENCIES)) {
    const dimension: Dimension = `money:${code}`;
    for (const w of [code.toLowerCase(), ...c.symbols, ...c.names]) out.set(w, { dimension, factor: 1 });
    for (const w of c.minor ?? []) out.set(w, { dimension, factor: 0.01 });
  }
  return out;
})();

/** The unit a word names ("kilometres", "GBP", "£", "hrs"), reading plurals; undefined for any other word. */
export function unitOf(word: string): Unit | undefined {
  const w = word.toLowerCase();
  const known = UNITS.get(w);
  if (known !== undefined || w.length <= 2 || !w.endsWith("s")) return known;
  // "inches", "boxes": -es after a sibilant; otherwise -s ("hours", "kgs").
  return /(?:s|x|z|ch|sh)es$/.test(w) ? UNITS.get(w.slice(0, -2)) : UNITS.get(w.slice(0, -1));
}

/** Units by the stem of their spelling (`tokenize.stemWord`: "kilometres" → "kilometr"), for readers that keep stems. */
const UNITS_BY_STEM: ReadonlyMap<string, Unit> = (() => {
  const out = new Map<string, Unit>();
  for (const [word, unit] of UNITS) if (/^[a-z]+$/.test(word)) out.set(stemWord(word), unit);
  // Spellings whose stem is another unit's spelling keep the spelling's own reading ("min" minutes, "m" metres).
  for (const [word, unit] of UNITS) if (/^[a-z°%]+$/.test(word) && !out.has(word)) out.set(word, unit);
  return out;
})();

/** The unit a stemmed word names ("kilometr", "penc", "dai"), or undefined. */
export function unitOfStem(stem: string): Unit | undefined {
  return UNITS_BY_STEM.get(stem);
}

/** The stems of the time units (for readers that find a duration's unit word by its stem: "minut" → "minutes?"). */
export function timeUnitSpellings(stem: string): string[] {
  return Object.keys(TIME_UNITS).filter((w) => stemWord(w) === stem);
}

/** The currency symbols and ISO codes that stand before an amount ("£20", "GBP 20", "US$ 5"), for a regular expression. */
export const CURRENCY_PREFIX = (() => {
  const symbols = Object.values(CURRENCIES).flatMap((c) => c.symbols);
  const codes = Object.keys(CURRENCIES).map((c) => c.toLowerCase());
  return `(?<![a-z0-9])(?:${phraseAlternation(symbols)}|(?:${codes.join("|")})\\b)`;
})();

/** The currency (`money:GBP`…) a symbol or code before an amount names, or undefined. */
export function currencyOf(prefix: string): Dimension | undefined {
  const unit = unitOf(prefix.trim());
  return unit?.dimension.startsWith("money:") ? unit.dimension : undefined;
}

/**
 * Amounts written with a currency symbol or a code in front ("£20", "€3.50", "GBP 20") rewritten as the amount and
 * the code after it ("20 gbp"), the way a unit is written; other text unchanged. Changes offsets.
 */
export function currencyAfterAmount(text: string): string {
  return text.replace(new RegExp(`(${CURRENCY_PREFIX})\\s?(\\d+(?:[.,]\\d+)*)`, "gi"), (all, prefix: string, amount: string) => {
    const money = currencyOf(prefix);
    return money === undefined ? all : ` ${amount} ${money.slice(6).toLowerCase()} `;
  });
}

/** A value in one unit as its base unit and dimension: 1.5 kg → {1500, mass}; undefined for a word that is no unit. */
export function toBase(value: number, unitWord: string): { value: number; dimension: Dimension } | undefined {
  const unit = unitOf(unitWord);
  return unit === undefined ? undefined : { value: value * unit.factor, dimension: unit.dimension };
}
