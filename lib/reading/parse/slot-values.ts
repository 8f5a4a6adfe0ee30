/**
 * The values a statement pins in its slots — durations, frequencies, times of day, bare numbers, shares and
 * quantifiers, weekdays and ordinals — normalised across notations, and whether two statements put different values
 * in them. Used to tell a restatement from a near-miss (lib/reading/restatement) and, for weekdays, a conflicting
 * report from a confirming one (the relation heuristic).
 */

import { isContentWord, stemWord, tokenize } from "./tokenize";
import {
  ARTICLE_ONE,
  CALENDAR_MINUTES,
  COUNT_ADVERBS,
  DAY_PART_ALT,
  DAY_PART_WORDS,
  FRACTION_OF_UNIT,
  fractionOfUnitMinutes,
  FREQUENCY_ADVERBS,
  hourOfDay,
  MONTH_ALT,
  MULTIPLIER_WORDS,
  NUMBER_LIKE_WORDS,
  numberFromWord,
  season,
  SEASON_ALT,
  unitOf,
  WEEKDAY_ALT,
  WEEKDAY_STEM_ALT,
  WEEKDAYS,
} from "./value-vocabulary";

/** Words besides the numerals that state a number here: the articles, counts of occurrences, "single", "couple". */
const NUMBER_WORDS: ReadonlyArray<Readonly<Record<string, number>>> = [
  ARTICLE_ONE,
  COUNT_ADVERBS,
  { single: NUMBER_LIKE_WORDS.single as number, couple: NUMBER_LIKE_WORDS.couple as number },
];

/**
 * Minutes in a duration unit ("hours" → 60, "a month" → 43200, the coded month), from a minute up (`slotValues` codes in whole
 * minutes; a "second" here is the ordinal). Undefined for any other word.
 */
function unitMinutes(word: string): number | undefined {
  const unit = unitOf(word);
  if (unit === undefined || unit.dimension !== "duration" || unit.factor < 60) return undefined;
  const calendar = CALENDAR_MINUTES[word.replace(/s$/, "")];
  return calendar ?? Math.round(unit.factor / 60);
}

const FRACTION_OF_UNIT_RE = new RegExp(FRACTION_OF_UNIT, "g");

/** Frequency words as the period they name, in minutes ("hourly" = every 60 minutes). */
const FREQUENCIES: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(FREQUENCY_ADVERBS).map(([w, unit]) => [w, CALENDAR_MINUTES[unit] as number]));

const NAMED = new Set([...WEEKDAYS, "first", "second", "third", "last", "final"]);
/** Weekdays in the plural ("mondays"): a routine on that day. */
const WEEKDAY_PLURAL = new RegExp(`^(?:${WEEKDAY_STEM_ALT})days$`);
/** After "every" / "each": a part of the day or the weekend, which carries no value of its own here. */
const DAY_PART_OR_WEEKEND = new RegExp(`^(?:${DAY_PART_ALT}|weekend)s?$`);

/**
 * Quantifiers as the share of a group they state: a universal ("all", "every", "each") and a partial one ("some",
 * "most", "half") put different values in the same slot. "every" / "each" / "per" / "a" before a unit or a weekday
 * mark a frequency, not a share of a group.
 */
const QUANTIFIERS: Readonly<Record<string, string>> = {
  all: "q:all", every: "q:all", each: "q:all", always: "q:all",
  some: "q:some", several: "q:some", few: "q:few", many: "q:many", most: "q:most", majority: "q:most", minority: "q:few",
  half: "p50", sometimes: "q:some", often: "q:many", rarely: "q:few", usually: "q:most",
};

function numberOf(word: string): number | null {
  return numberFromWord(word, NUMBER_WORDS, true) ?? null;
}

const DAY = 1440;
const WEEK = CALENDAR_MINUTES.week as number;
const MONTH = CALENDAR_MINUTES.month as number;
const YEAR = CALENDAR_MINUTES.year as number;

/**
 * One duration per calendar length, whatever unit says it: four weeks are "a month", twelve months or 52 weeks or 365
 * days "a year" ("two doses four weeks apart" = "a month between them", "for two years" = "for 24 months"). Months and
 * years are not fixed lengths, so people use these interchangeably; anything else is kept as it was written.
 */
function calendarMinutes(minutes: number): number {
  if (minutes >= WEEK && minutes % WEEK === 0) {
    const weeks = minutes / WEEK;
    if (weeks % 52 === 0) return (weeks / 52) * YEAR;
    if (weeks % 4 === 0) return (weeks / 4) * MONTH;
  }
  if (minutes >= MONTH && minutes % MONTH === 0 && (minutes / MONTH) % 12 === 0) return (minutes / MONTH / 12) * YEAR;
  if (minutes >= YEAR && minutes % DAY === 0 && (minutes / DAY) % 365 === 0) return (minutes / DAY / 365) * YEAR;
  return minutes;
}

/** Words that count occurrences rather than quantities ("twice a day", "three times an hour"). */
const COUNT_WORDS = new Set(["once", "twice", "thrice"]);

/**
 * "N times a/an/per/each UNIT", "twice a day", "three times daily": a frequency, as the period between occurrences
 * ("four times an hour" = "every 15 minutes", "twice daily" = "every 12 hours").
 */
function countedFrequency(ws: readonly string[], i: number, n: number): { period: number } | null {
  let j = i + 1;
  if (ws[j] === "times" || ws[j] === "time") j++;
  else if (!COUNT_WORDS.has(ws[i] as string)) return null;
  if (n <= 0) return null;
  const freq = FREQUENCIES[ws[j] ?? ""];
  const unit = ["a", "an", "per", "each", "every"].includes(ws[j] ?? "") ? unitMinutes(ws[j + 1] ?? "") : undefined;
  const length = freq ?? unit;
  if (length === undefined) return null;
  // A year divided into whole months counts in months ("twice a year" = "every six months").
  if (length === YEAR && Number.isInteger(n) && 12 % n === 0) return { period: (12 / n) * MONTH };
  return { period: Math.round(length / n) };
}

/** Words that scale the number before them ("five hundred", "two thousand", "a dozen"). */
const MULTIPLIERS = MULTIPLIER_WORDS;
/** Number words that are counts of occurrences or articles, never part of a written-out numeral. */
const NOT_NUMERAL = new Set(["a", "an", "single", "once", "twice", "thrice", "couple"]);

/**
 * Numbers written out in words, as digits: "eight hundred and fifty" → "850", "seven and a half" → "7.5", "a dozen" →
 * "12", "12 thousand" → "12000". Single number words are left as they are (`numberOf` reads them).
 */
export function numeralize(ws: readonly string[]): string[] {
  const out: string[] = [];
  const isWord = (w: string | undefined): w is string => w !== undefined && /^[a-z-]+$/.test(w) && !NOT_NUMERAL.has(w) && MULTIPLIERS[w] === undefined && numberOf(w) !== null;
  const start = (w: string | undefined) => w !== undefined && !NOT_NUMERAL.has(w) && MULTIPLIERS[w] === undefined && numberOf(w) !== null;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] as string;
    const article = (w === "a" || w === "an") && MULTIPLIERS[ws[i + 1] ?? ""] !== undefined;
    if (!start(w) && !article) {
      out.push(w);
      continue;
    }
    let total = 0;
    let current = article ? 1 : (numberOf(w) as number);
    let prev = w;
    let j = i + 1;
    let joined = false;
    // English joins numerals in a few ways only: a multiplier ("five hundred", "12 thousand"), tens then units
    // ("twenty five"), "and" after a multiplier ("eight hundred and fifty"), and "and a half" after any number.
    for (; j < ws.length; j++) {
      const x = ws[j] as string;
      const multiplier = MULTIPLIERS[x];
      if (multiplier !== undefined) {
        if (multiplier >= 1000) {
          total += (current || 1) * multiplier;
          current = 0;
        } else current = (current || 1) * multiplier;
      } else if (isWord(x) && isWord(prev) && (numberOf(prev) as number) >= 20 && (numberOf(prev) as number) % 10 === 0 && (numberOf(x) as number) < 10) {
        current += numberOf(x) as number;
      } else if (isWord(x) && MULTIPLIERS[prev] !== undefined && (numberOf(x) as number) < (MULTIPLIERS[prev] as number) && (MULTIPLIERS[prev] as number) >= 100) {
        // "three thousand two hundred", "two hundred fifty": a smaller number after a multiplier adds to it.
        current += numberOf(x) as number;
      } else if (x === "and" && ws.slice(j + 1, j + 3).join(" ") === "a half") {
        current += 0.5;
        j += 3;
        joined = true;
        break;
      } else if (x === "and" && MULTIPLIERS[prev] !== undefined && isWord(ws[j + 1])) {
        current += numberOf(ws[j + 1] as string) as number;
        prev = ws[j + 1] as string;
        j++;
        joined = true;
        continue;
      } else break;
      prev = x;
      joined = true;
    }
    if (!joined) {
      out.push(w);
      continue;
    }
    out.push(String(total + current));
    i = j - 1;
  }
  return out;
}

/** Times of day as minutes after midnight ("t1320"): "22:00", "10 p.m.", "ten in the evening", "a quarter to eight". */
function clockTimes(lower: string): { text: string; times: string[] } {
  const times: string[] = [];
  const at = (h: number, m: number) => times.push(`t${(((h % 24) + 24) % 24) * 60 + m}`);
  // The hour a part of the day makes of an hour of the clock ("ten in the evening" → 22, "two at night" → 2).
  const partKey = (part: string) => part.replace(/[^a-z ]/g, "").split(" ").pop() as string;
  // "11.30am" (a point for the colon, British style) only with a.m. / p.m.: "7.30" alone may be a decimal.
  let text = lower.replace(/\b(\d{1,2})(?::(\d{2})\s*(a\.?m\.?|p\.?m\.?)?|\.(\d{2})\s*(a\.?m\.?|p\.?m\.?))(?![a-z])/g, (_all, h: string, colon?: string, colonPart?: string, point?: string, pointPart?: string) => {
    const part = colonPart ?? pointPart;
    at(Number(h) + (part?.startsWith("p") && Number(h) < 12 ? 12 : 0), Number(colon ?? point));
    return " ";
  });
  text = text.replace(/\b(?:(a )?quarter|half) (to|past) ([a-z]+|\d{1,2})\b(?:\s*(a\.?m\.?|p\.?m\.?|in the (?:morning|afternoon|evening)|at night))?/g, (all, _q, dir: string, h: string, part?: string) => {
    const hour = numberOf(h);
    if (hour === null) return all;
    const base = part === undefined ? hour : (hourOfDay(hour, partKey(part)) ?? hour);
    const quarter = all.includes("quarter");
    if (dir === "to") at(base - 1, quarter ? 45 : 30);
    else at(base, quarter ? 15 : 30);
    return " ";
  });
  text = text.replace(/\b([a-z]+|\d{1,2})\s*(?:o'clock\s*)?(a\.?m\.?|p\.?m\.?|in the (?:morning|afternoon|evening)|at night)(?![a-z])/g, (all, h: string, part: string) => {
    const hour = hourOfDay(numberOf(h) ?? 0, partKey(part));
    if (hour === undefined) return all;
    at(hour, 0);
    return " ";
  });
  return { text, times };
}

/**
 * The values a statement pins: durations in minutes ("two days" → "d2880"), frequencies as periods ("hourly", "every
 * hour", "per hour" → "d60"), times of day ("t1320"), bare numbers ("port 8443" → "n8443"), shares ("half", "50 %"
 * → "p50"; "all", "some", "most" → "q:…"), weekdays and ordinals ("monday", "first"). Units of the same dimension
 * compare equal after conversion ("a month" = "30 days", "a quarter of an hour" = "15 minutes").
 */
export function slotValues(text: string): Set<string> {
  const clock = clockTimes(text.toLowerCase().replace(/[’]/g, "'"));
  const words = clock.text
    .replace(/(\d)([a-z°%])/g, "$1 $2")
    .replace(/half an hour/g, "30 minutes")
    .replace(FRACTION_OF_UNIT_RE, (phrase, fraction: string, unit: string) => {
      const minutes = fractionOfUnitMinutes(fraction, unit);
      // Durations are coded in whole minutes: "a third of a minute" keeps its words.
      return minutes === undefined || !Number.isInteger(minutes) ? phrase : `${minutes} minutes`;
    })
    .replace(/(\d)\s*%/g, "$1 percent")
    .split(/[^a-z0-9.,-]+/)
    .map((w) => w.replace(/^[.,-]+|[.,-]+$/g, ""))
    .filter(Boolean);
  const ws = numeralize(words);
  const out = new Set<string>(clock.times);
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] as string;
    const next = ws[i + 1] ?? "";
    const freq = FREQUENCIES[w];
    if (freq !== undefined) {
      out.add(`d${freq}`);
      continue;
    }
    const named = WEEKDAY_PLURAL.test(w) ? w.slice(0, -1) : w;
    if (NAMED.has(named)) {
      out.add(named === "final" ? "last" : named);
      continue;
    }
    // "every hour", "per minute", "each day": a frequency; "every Monday": the weekday carries the value.
    if (["every", "each", "per"].includes(w) || ((w === "a" || w === "an") && unitMinutes(next) !== undefined && i > 0 && !["for", "in", "within", "after", "of"].includes(ws[i - 1] as string))) {
      const unit = unitMinutes(next);
      if (unit !== undefined) {
        out.add(`d${unit}`);
        i++;
        continue;
      }
      if (w === "per" || w === "a" || NAMED.has(next) || numberOf(next) !== null || DAY_PART_OR_WEEKEND.test(next)) continue;
    }
    const quantifier = QUANTIFIERS[w];
    if (quantifier !== undefined) {
      out.add(quantifier);
      continue;
    }
    const n = numberOf(w);
    if (n === null) continue;
    // A counted frequency also pins its period, beside the count and the unit read as usual: "twice daily" matches
    // both "every 12 hours" and "two departures each day".
    const counted = countedFrequency(ws, i, n);
    if (counted) out.add(`d${calendarMinutes(counted.period)}`);
    // "a"/"an"/"couple" count only before a unit ("a month", "a couple of hours"), never as bare numbers.
    let j = i + 1;
    const half = ws.slice(j, j + 3).join(" ") === "and a half" ? 0.5 : 0;
    if (half > 0) j += 3;
    while (j < ws.length && ["of", "business", "working", "calendar", "more"].includes(ws[j] as string)) j++;
    // "three quarters of the staff" is a share, not nine months.
    const unit = /^quarters?$/.test(ws[j] ?? "") && ws[j + 1] === "of" ? undefined : unitMinutes(ws[j] ?? "");
    if (unit !== undefined) {
      out.add(`d${calendarMinutes(Math.round((n + half) * unit))}`);
      i = j;
    } else if (ws[i + 1] === "percent" || ws[i + 1] === "per" && ws[i + 2] === "cent") {
      out.add(`p${n}`);
      i++;
    } else if (ws[j] === "times" && (half > 0 || !Number.isInteger(n) || ws[j + 1] === "the" || ws[j + 1] === "as")) {
      out.add(`p${(n + half) * 100}`);
      i = j;
    } else if (!["a", "an", "couple", "single"].includes(w)) {
      out.add(`n${n}`);
    }
  }
  return out;
}

/** Phrases that bound the number after them from above or from below (./value-vocabulary, longest first). */
/** A time of day matches a bare hour on the other side ("at 1 am" = "at one"). */
export function matchesAny(value: string, others: ReadonlySet<string>): boolean {
  if (others.has(value)) return true;
  if (value.startsWith("t")) {
    const minutes = Number(value.slice(1));
    if (minutes % 60 !== 0) return false;
    const hour = minutes / 60;
    return others.has(`n${hour}`) || others.has(`n${hour % 12 === 0 ? 12 : hour % 12}`);
  }
  if (value.startsWith("n")) {
    const n = Number(value.slice(1));
    return Number.isInteger(n) && n >= 0 && n <= 24 && [...others].some((o) => o.startsWith("t") && matchesAny(o, new Set([value])));
  }
  return false;
}

const NAMED_VALUE = new RegExp(`^(?:${WEEKDAY_ALT})$`);

/**
 * Named values in conflict: both texts name a weekday and each names one the other does not ("on Mondays" vs "on
 * Thursdays"). Ordinals are too often adverbs ("was first made") and clock times carry bounds ("before 6 a.m."), which
 * the numeric comparison reads. Returns the two sides' values, or null.
 */
export function namedValueClash(a: string, b: string): [string[], string[]] | null {
  const va = [...slotValues(a)].filter((v) => NAMED_VALUE.test(v));
  const vb = [...slotValues(b)].filter((v) => NAMED_VALUE.test(v));
  if (va.length === 0 || vb.length === 0) return null;
  const sa = new Set(va);
  const sb = new Set(vb);
  const onlyA = va.filter((v) => !matchesAny(v, sb));
  const onlyB = vb.filter((v) => !matchesAny(v, sa));
  return onlyA.length > 0 && onlyB.length > 0 ? [onlyA, onlyB] : null;
}

/**
 * The same sentence frame with a different filler in one place: the two texts share an ordered run of words (their
 * longest common subsequence covers ≥ 60 % of the shorter one, at least three words) and at some gap of that alignment
 * both sides put a different content word ("migrations are approved by X" / "migrations are written by X"). A
 * paraphrase reorders or rewords throughout; a near-miss keeps the frame and swaps the value. Gaps that differ only in
 * notation of the same value ("30 days" / "a month") or in word form (stems equal) are not substitutions.
 * Returns the first substituted pair, or null.
 */
export interface SubstitutionOptions {
  /**
   * Only a noun-phrase filler counts: a short swap (≤ 3 words a side, no negator) inside the shared frame, right after
   * a determiner or a preposition ("from the [release] branch" / "from the [main] branch"). A swapped verb ("Leo
   * [coaches] the team" / "Leo [runs] the team") is too often a synonym to read as another value.
   */
  slotOnly?: boolean;
}

const SLOT_OPENERS = new Set(["the", "a", "an", "from", "in", "on", "at", "by", "to", "for", "of", "with", "into", "onto", "via", "its", "their", "our", "his", "her"]);
const NEGATING = new Set(["not", "no", "never", "none", "without", "cannot", "nor", "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "cant", "wont", "hasnt", "havent"]);
export function substitution(a: string, b: string, options: SubstitutionOptions = {}): [string, string] | null {
  const words = (t: string) => tokenize(t).map((x) => x.word);
  const x = words(a);
  const y = words(b);
  const n = x.length;
  const m = y.length;
  if (Math.min(n, m) < 3) return null;
  const stem = (w: string) => stemWord(w);
  const eq = (i: number, j: number) => stem(x[i] as string) === stem(y[j] as string);
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      (lcs[i] as number[])[j] = eq(i, j) ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, lcs[i]?.[j + 1] ?? 0);
    }
  }
  const common = lcs[0]?.[0] ?? 0;
  if (common < 3 || common < 0.6 * Math.min(n, m)) return null;
  // Walk the alignment, collecting each gap's words on both sides.
  let i = 0;
  let j = 0;
  let gapA: string[] = [];
  let gapB: string[] = [];
  let previous: string | null = null;
  const check = (atEnd = false): [string, string] | null => {
    const ca = gapA.filter(isContentWord);
    const cb = gapB.filter(isContentWord);
    const slot =
      !options.slotOnly ||
      (!atEnd &&
        previous !== null &&
        SLOT_OPENERS.has(previous) &&
        gapA.length <= 3 &&
        gapB.length <= 3 &&
        ![...gapA, ...gapB].some((w) => NEGATING.has(w)));
    const found: [string, string] | null =
      slot && ca.length > 0 && cb.length > 0 && !ca.every((w) => cb.some((v) => stem(v) === stem(w))) && !sameValues(gapA.join(" "), gapB.join(" "))
        ? [gapA.join(" "), gapB.join(" ")]
        : null;
    gapA = [];
    gapB = [];
    return found;
  };
  while (i < n || j < m) {
    if (i < n && j < m && eq(i, j)) {
      const found = check();
      if (found) return found;
      previous = x[i] as string;
      i++;
      j++;
    } else if (j >= m || (i < n && (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
      gapA.push(x[i++] as string);
    } else {
      gapB.push(y[j++] as string);
    }
  }
  return check(true);
}

function sameValues(a: string, b: string): boolean {
  const va = slotValues(a);
  const vb = slotValues(b);
  return va.size > 0 && va.size === vb.size && [...va].every((v) => vb.has(v));
}

const WEEKDAY = new RegExp(`^(${WEEKDAY_ALT})s?$`);
const DAY_PART = new RegExp(`^(${DAY_PART_ALT}|${Object.keys(DAY_PART_WORDS).join("|")})s?$`);
/** Words that make the weekday after them the time a thing happens ("on Friday", "every Monday", "by Tuesday noon"). */
const DAY_SLOT_OPENERS = new Set(["on", "every", "each", "by", "until", "till", "from", "before", "after", "over", "through", "until", "late", "early"]);

/** The weekdays (with a part of the day when one follows) a text names as when something happens. */
export function dayTimeSlots(text: string): string[] {
  const ws = tokenize(text).map((t) => t.word);
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const day = WEEKDAY.exec(ws[i] as string)?.[1];
    if (day === undefined) continue;
    let k = i - 1;
    while (k >= 0 && ["the", "a", "this", "next", "last"].includes(ws[k] as string)) k--;
    if (k < 0 || !DAY_SLOT_OPENERS.has(ws[k] as string)) continue;
    const part = DAY_PART.exec(ws[i + 1] ?? "")?.[1];
    out.push(part === undefined ? day : `${day} ${DAY_PART_WORDS[part] ?? part}`);
  }
  return out;
}

/**
 * Two texts put a different day or part of a day in their "when" slot ("on Thursday at noon" vs "on Sunday
 * at dusk"; "on Monday morning" vs "on Monday evening"). A weekday used as a name ("the Friday market") is not a
 * slot. Returns the two sides' slots, or null.
 */
export function dayTimeClash(a: string, b: string): [string[], string[]] | null {
  const sa = dayTimeSlots(a);
  const sb = dayTimeSlots(b);
  if (sa.length === 0 || sb.length === 0) return null;
  const day = (s: string) => s.split(" ")[0] as string;
  const part = (s: string) => s.split(" ")[1];
  const matches = (x: string, ys: readonly string[]) => ys.some((y) => day(y) === day(x) && (part(x) === undefined || part(y) === undefined || part(x) === part(y)));
  const onlyA = sa.filter((x) => !matches(x, sb));
  const onlyB = sb.filter((y) => !matches(y, sa));
  return onlyA.length > 0 && onlyB.length > 0 ? [onlyA, onlyB] : null;
}

const MONTH_OR_SEASON = new RegExp(`^(${MONTH_ALT}|${SEASON_ALT})$`);
const MONTH_SLOT_OPENERS = new Set(["in", "during", "by", "until", "till", "from", "before", "after", "since", "through", "early", "late", "mid", "each", "every", "over"]);

/** The months or seasons a text names as when something happens ("planted in February", "by early November", "every spring"). */
export function monthSlots(text: string): string[] {
  const ws = tokenize(text).map((t) => t.word);
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    const m = MONTH_OR_SEASON.exec(ws[i] as string)?.[1];
    if (m === undefined) continue;
    let k = i - 1;
    while (k >= 0 && ["the", "this", "next", "last", "early", "late", "mid"].includes(ws[k] as string) && !MONTH_SLOT_OPENERS.has(ws[k - 1] ?? "")) k--;
    if (k < 0 || !MONTH_SLOT_OPENERS.has(ws[k] as string)) continue;
    out.push(season(m) ?? m);
  }
  return out;
}

/** Two texts put a different month or season in their "when" slot ("planted in February" / "by early November"). */
export function monthClash(a: string, b: string): [string[], string[]] | null {
  const sa = monthSlots(a);
  const sb = monthSlots(b);
  if (sa.length === 0 || sb.length === 0) return null;
  const onlyA = sa.filter((x) => !sb.includes(x));
  const onlyB = sb.filter((y) => !sa.includes(y));
  return onlyA.length > 0 && onlyB.length > 0 ? [onlyA, onlyB] : null;
}
