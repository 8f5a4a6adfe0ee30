/**
 * Structural cues for restatement detection beyond `slot-values` (which the relation heuristic shares): value kinds
 * (a clash needs two values of comparable kinds), more notations of frequency and measure, bounds written as limits,
 * the direction of a change attached to what changes, two phrases trading roles around the same verb, an obligation
 * read as a permission, a person or thing excluded on one side and named on the other. Pure and topic-free: grammar
 * words, units and a small table of direction words only.
 */

import { matchesAny as sameValueIn, numeralize, slotValues } from "@/lib/reading/parse/slot-values";
import { contentTokens, isContentWord, stemWord, tokenize } from "@/lib/reading/parse/tokenize";
import {
  AMOUNT_BOUND_PHRASES,
  ARTICLE_ONE,
  boundSide,
  CALENDAR_MINUTES,
  CALENDAR_SAME_TOLERANCE,
  CURRENCY_PREFIX,
  currencyAfterAmount,
  DAY_PART_ALT,
  fractionShare,
  numberFromWord,
  phraseAlternation,
  season,
  TRAILING_BOUND_WORDS,
  unitOf,
  WEEKDAY_ALT,
  WORKING_WEEK_DAYS,
} from "@/lib/reading/parse/value-vocabulary";

/** Numbers in digits or words, "once", "twice", and "a" / "an" (one, before a unit). */
function numberWord(w: string | undefined): number | null {
  if (w === undefined || /^\d.*,/.test(w)) return null;
  return numberFromWord(w, [{ once: 1, twice: 2 }, ARTICLE_ONE]) ?? null;
}

/** Words before a time of day ("at half eleven", "until half two"). */
const CLOCK_PREPOSITIONS = new Set(["at", "by", "until", "till", "from", "before", "after", "around", "about", "to"]);

/** Calendar units in (whole) minutes, as `slot-values` codes them ("d43829" is a month). */
const UNIT_MINUTES = CALENDAR_MINUTES;
const DAY_PARTS = new RegExp(`^(?:${DAY_PART_ALT})s?$`);
const WEEKDAY = new RegExp(`^(?:${WEEKDAY_ALT})s?$`);
/** Occurrence nouns that count events in a period ("three nights a week", "two days each week"). */
const OCCURRENCES = /^(?:days?|nights?|evenings?|mornings?|afternoons?|times?|sessions?|occasions?|visits?)$/;

/** Periods a count of events is given in: the calendar units, and the minute and the second. */
const PERIOD_MINUTES: Readonly<Record<string, number>> = { ...UNIT_MINUTES, minute: 1, second: 1 / 60 };

/** A word that names counted events or things: an occurrence noun, or a content word that is no unit, number or period. */
function countedThing(w: string): boolean {
  if (OCCURRENCES.test(w)) return true;
  return isContentWord(w) && !/^\d/.test(w) && unitOf(w) === undefined && PERIOD_MINUTES[w.replace(/s$/, "")] === undefined && numberWord(w) === null;
}

/** A measure (not a time, a share or money), as [dimension, factor to its base unit] (./value-vocabulary). */
function measureUnit(w: string | undefined): [string, number] | undefined {
  const unit = w === undefined ? undefined : unitOf(w);
  if (unit === undefined || unit.dimension === "duration" || unit.dimension === "%" || unit.dimension.startsWith("money:")) return undefined;
  return [unit.dimension, unit.factor];
}

/** A currency's code, lower case ("pounds", "gbp" → "gbp"), or undefined. */
function currencyCode(w: string | undefined): string | undefined {
  const unit = w === undefined ? undefined : unitOf(w);
  return unit?.dimension.startsWith("money:") && unit.factor === 1 ? unit.dimension.slice("money:".length).toLowerCase() : undefined;
}

function words(text: string): string[] {
  const raw = currencyAfterAmount(text.toLowerCase().replace(/[’‘]/g, "'"))
    .replace(/(\d),(\d{3})\b/g, "$1$2")
    .replace(/(\d)([a-z°%])/g, "$1 $2")
    .split(/[^a-z0-9.']+/)
    .map((w) => w.replace(/^[.']+|[.']+$/g, "").replace(/'s$/, ""))
    .filter(Boolean);
  return numeralize(raw);
}

/**
 * Values `slotValues` leaves unread: "every evening" (daily), "every Friday" (weekly), "each new quarter" (quarterly),
 * "two days each week" (every 3.5 days), seconds, measures in a base unit ("m:len:12.2") and prices ("c:eur:3"), each
 * with an "x:" marker on the bare number it reads (`allValues` drops that number), "a handful" (few).
 */
export function extraValues(text: string): Set<string> {
  const ws = words(text);
  const out = new Set<string>();
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] as string;
    const next = ws[i + 1];
    if (w === "every" || w === "each") {
      const k = next === "new" || next === "single" ? i + 2 : i + 1;
      const after = ws[k] ?? "";
      if (DAY_PARTS.test(after)) out.add("d1440");
      else if (WEEKDAY.test(after)) out.add("d10080");
      else if (UNIT_MINUTES[after] !== undefined && k === i + 2) out.add(`d${UNIT_MINUTES[after]}`);
    }
    const n = numberWord(w);
    // N events in a period is one every period / N: "three nights a week", and of anything counted, "four buses an
    // hour" = "a bus every 15 minutes", "120 bottles per minute" = "two bottles every second". Measures and money are
    // amounts, not events ("40 hours a week", "30 euros a month"). The count and the period stay read as well.
    if (n !== null && n > 0 && next !== undefined && countedThing(next) && ["a", "an", "per", "each", "every"].includes(ws[i + 2] ?? "")) {
      const unit = PERIOD_MINUTES[(ws[i + 3] ?? "").replace(/s$/, "")];
      if (unit !== undefined && w !== "a" && w !== "an") out.add(`d${unit / n >= 1 ? Math.round(unit / n) : Number((unit / n).toPrecision(3))}`);
    }
    if (n !== null && w !== "a" && w !== "an" && /^seconds?$/.test(next ?? "")) out.add(`d${n / 60}`).add(`x:n${n}`);
    // "a month and a half", "two weeks and a half": one length, not a month and a share of one half.
    const halfUnit = n !== null ? UNIT_MINUTES[(next ?? "").replace(/s$/, "")] : undefined;
    if (n !== null && halfUnit !== undefined && ws.slice(i + 2, i + 5).join(" ") === "and a half") {
      out.add(`d${Math.round((n + 0.5) * halfUnit)}`).add(`x:d${Math.round(n * halfUnit)}`).add("x:p50");
    }
    const measure = n !== null && w !== "a" && w !== "an" ? measureUnit(next) : undefined;
    if (measure) out.add(`m:${measure[0]}:${Number((n! * measure[1]).toPrecision(3))}`).add(`x:n${n}`);
    if ((w === "a" || w === "one") && (next === "full" || next === "whole" || next === "entire") && UNIT_MINUTES[ws[i + 2] ?? ""] !== undefined) out.add(`d${UNIT_MINUTES[ws[i + 2] as string]}`);
    const named = season(w);
    if (named !== undefined && ["every", "each", "in", "during", "this", "next", "last", "per"].includes(ws[i - 1] ?? "")) out.add(`season:${named}`);
    const currency = n !== null && w !== "a" && w !== "an" ? currencyCode(next) : undefined;
    if (currency) out.add(`c:${currency}:${n}`).add(`x:n${n}`);
    if ((w === "every" || w === "each") && (next === "other" || next === "second" || next === "third")) {
      const unit = UNIT_MINUTES[(ws[i + 2] ?? "").replace(/s$/, "")];
      if (unit !== undefined) out.add(`d${unit * (next === "third" ? 3 : 2)}`);
    }
    // Fractions of a group, as a whole percentage ("a quarter of the staff" = "25 % of the staff").
    const fraction = w === "half" ? undefined : fractionShare(`${w} ${next ?? ""}`);
    if (fraction !== undefined && (ws[i + 2] === "of" || ws[i + 2] === "the")) out.add(`p${Math.round(fraction)}`);
    const ratio = n !== null && w !== "a" && w !== "an" && next === "in" ? numberWord(ws[i + 2]) : null;
    if (ratio !== null && n !== null && ratio > n) out.add(`p${Math.round((100 * n) / ratio)}`);
    if (w === "handful" || (w === "hardly" && next === "any")) out.add("q:few");
    // "every hour and a half": one period of 90 minutes, not an hour and a share of one half.
    const everyHalf = (w === "every" || w === "each") && next !== undefined ? UNIT_MINUTES[next] : undefined;
    if (everyHalf !== undefined && ws.slice(i + 2, i + 5).join(" ") === "and a half") out.add(`d${Math.round(1.5 * everyHalf)}`).add(`x:d${everyHalf}`).add("x:p50");
    // A fraction of a calendar unit is a length ("three quarters of an hour" = 45 minutes), not a share and a unit.
    const share = fractionShare(`${w} ${next ?? ""}`);
    const ofUnit = ws[i + 2] === "of" && (ws[i + 3] === "a" || ws[i + 3] === "an") ? UNIT_MINUTES[ws[i + 4] ?? ""] : undefined;
    if (share !== undefined && ofUnit !== undefined) out.add(`d${Math.round((share * ofUnit) / 100)}`).add(`x:p${Math.round(share)}`).add(`x:d${ofUnit}`).add(`x:n${numberWord(w) ?? ""}`);
    // "at half eleven" (said in Britain for 11:30): a time of day after a preposition of time, not a half and a number.
    const halfHour = w === "half" && CLOCK_PREPOSITIONS.has(ws[i - 1] ?? "") ? numberWord(next) : null;
    if (halfHour !== null && halfHour >= 1 && halfHour <= 12 && !/^\d+\.\d/.test(next ?? "")) out.add(`t${halfHour * 60 + 30}`).add("x:p50").add(`x:n${halfHour}`);
    // "a working week" is five working days, not seven calendar ones ("within one working week" / "within five working days").
    const weeks = numberWord(ws[i - 1]);
    if ((w === "working" || w === "business" || w === "work") && /^weeks?$/.test(next ?? "") && weeks !== null && weeks > 0) {
      out.add(`d${weeks * WORKING_WEEK_DAYS * 1440}`).add(`x:d${weeks * (UNIT_MINUTES.week as number)}`);
    }
  }
  return out;
}

/**
 * Whether both statements pin values, the values of one are all among the other's, and they share at least one that
 * is more than "all" / "some" (a number, a duration, a time, a share): positive evidence that they state the same thing.
 */
export function valuesAgree(a: string, b: string): boolean {
  const va = allValues(a);
  const vb = allValues(b);
  if (va.size === 0 || vb.size === 0) return false;
  // "all" / "some" are said of nearly anything: agreeing on them alone is no evidence.
  if (![...va].some((v) => !WEAK_VALUES.has(v) && matchesAny(v, vb))) return false;
  return [...va].every((v) => matchesAny(v, vb)) || [...vb].every((v) => matchesAny(v, va));
}

const WEAK_VALUES = new Set(["q:all", "q:some"]);

/** All the values a statement pins: `slotValues` and `extraValues`. */
export function allValues(text: string): Set<string> {
  const known = VALUES_MEMO.get(text);
  if (known) return known;
  // A number read with its unit ("x:n40" beside "m:len:40") is compared as the measure, not as a bare number.
  const read = valueText(text);
  const extra = extraValues(read);
  const out = new Set([...slotValues(read), ...extra].filter((v) => !v.startsWith("x:") && !extra.has(`x:${v}`)));
  if (VALUES_MEMO.size >= VALUES_MEMO_LIMIT) VALUES_MEMO.clear();
  VALUES_MEMO.set(text, out);
  return out;
}

/**
 * The text as the value readers should see it: "no one" is nobody, not the number one; an age ("18 years old", "an
 * 18-year-old") is a bare number of years, as "under 18" says it, not a length of time.
 */
function valueText(text: string): string {
  return clockPhrases(
    text
      .replace(/\bno[ -]one\b/gi, "nobody")
      .replace(/\b([a-z0-9]+)[ -]years?[ -]old\b/gi, "$1")
      // "half a minute" is 30 seconds, "half a day" 12 hours: one length, not a half and a unit.
      .replace(/\bhalf an? (minute|hour|day)\b/gi, (_all, unit: string) => (unit.toLowerCase() === "minute" ? "30 seconds" : unit.toLowerCase() === "hour" ? "30 minutes" : "12 hours"))
      // An amount with a multiplier after it ("$40 million", "€2.5 billion") is one amount.
      .replace(new RegExp(`(${CURRENCY_PREFIX})\\s?(\\d+(?:\\.\\d+)?)\\s+(thousand|million|billion)\\b`, "gi"), (_all, prefix: string, amount: string, scale: string) => `${prefix}${Math.round(Number(amount) * SCALES[scale.toLowerCase()]!)}`)
      // A fraction of a group ("three-fifths of", "a nine tenths majority") is a share; "majority" after it is no quantifier.
      .replace(/\b(one|two|three|four|five|seven|nine)[- ](halves|thirds|quarters|fifths|sixths|eighths|tenths)\b(?!\s+of\s+(?:an?|one)\s)/gi, (all, n: string, part: string) => {
        const share = fractionShare(`${n} ${part}`);
        return share === undefined ? all : `${Math.round(share)} percent`;
      })
      .replace(/\b(\d+ percent)\s+(majority|minority)\b/gi, "$1 share"),
  );
}

const SCALES: Readonly<Record<string, number>> = { thousand: 1e3, million: 1e6, billion: 1e9 };

/** Minutes before or after the hour, in words ("ten to eight", "five past midnight"); "4 to 6" is a range. */
const CLOCK_MINUTES: Readonly<Record<string, number>> = { five: 5, ten: 10, twenty: 20, "twenty five": 25 };

/**
 * "ten to eight in the evening" (19:50), "five past midnight" (00:05), "twenty past seven a.m.": a time of day as
 * "HH:MM" (with its part of the day), which the value readers read. Without a part of the day, midnight or noon, only
 * after a preposition of time ("at ten past six"): "ten to fifteen people" is a range.
 */
function clockPhrases(text: string): string {
  return text.replace(
    /\b(?:(at|by|until|till|from|before|after|around|about)\s+)?(twenty[- ]five|twenty|ten|five)(?:\s+minutes)?\s+(to|past)\s+(midnight|noon|midday|[a-z]+|\d{1,2})\b(\s*(?:a\.?m\.?|p\.?m\.?|in the (?:morning|afternoon|evening)|at night))?/gi,
    (all, prep: string | undefined, m: string, dir: string, h: string, part: string | undefined) => {
      const minutes = CLOCK_MINUTES[m.toLowerCase().replace("-", " ")];
      const named = h.toLowerCase() === "midnight" ? 0 : /^(?:noon|midday)$/i.test(h) ? 12 : undefined;
      const hour = named ?? numberWord(h.toLowerCase());
      if (minutes === undefined || hour === null || hour > 12 || (named === undefined && part === undefined && prep === undefined)) return all;
      const evening = /p\.?m|afternoon|evening|night/i.test(part ?? "") && hour !== 12 ? 12 : 0;
      const total = ((hour + evening) * 60 + (dir.toLowerCase() === "to" ? -minutes : minutes) + 1440) % 1440;
      const clock = `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
      return `${prep ? `${prep} ` : ""}${clock}`;
    },
  );
}

/** Values per text, kept for the statements compared repeatedly (a belief against each new claim); cleared when full. */
const VALUES_MEMO = new Map<string, Set<string>>();
const VALUES_MEMO_LIMIT = 2000;

/** Numbers read as years: after a preposition of time ("since 1950", "in 2021"). */
function yearsOf(text: string): Set<string> {
  return new Set([...text.matchAll(/\b(?:in|since|until|till|by|from|before|after|during|of)\s+(1\d{3}|20\d{2})\b/gi)].map((m) => `n${m[1]}`));
}

/** The kind of a value: which other values it can contradict. */
function kindOf(v: string, years: ReadonlySet<string>): string {
  if (v.startsWith("season:")) return "season";
  if (v.startsWith("c:")) return "cur";
  if (v.startsWith("m:")) return v.split(":").slice(0, 2).join(":");
  if (v.startsWith("t")) return "t";
  if (v.startsWith("d")) return "d";
  if (v.startsWith("p") || v.startsWith("q:")) return "share";
  if (v.startsWith("n")) return years.has(v) ? "year" : "n";
  return /day$/.test(v) ? "weekday" : "ordinal";
}

/**
 * Kinds that can put different values in the same slot: the same kind, a clock time and a bare hour, a count and a
 * share ("every match" / "one match"), a weekday and a period ("every Friday" / "every month"). A year against an
 * era ("since 1950" / "since the middle of the last century") or an ordinal against a duration ("the first week" /
 * "within a week") are two ways of saying one thing, not two values.
 */
function comparable(x: string, y: string): boolean {
  if (x === y) return true;
  const pair = new Set([x, y]);
  return (pair.has("t") && pair.has("n")) || (pair.has("share") && (pair.has("n") || pair.has("d"))) || (pair.has("weekday") && pair.has("d"));
}

/** Calendar durations this close are one length said two ways ("six weeks" / "a month and a half"). */
const CALENDAR_TOLERANCE = CALENDAR_SAME_TOLERANCE;
const WEEK_MINUTES = UNIT_MINUTES.week as number;

/** The same value on the other side (./slot-values' `matchesAny`), or a calendar length within CALENDAR_TOLERANCE. */
function matchesAny(value: string, others: ReadonlySet<string>): boolean {
  if (/^d\d/.test(value)) {
    const x = Number(value.slice(1));
    if (x >= WEEK_MINUTES && [...others].some((o) => /^d\d/.test(o) && Number(o.slice(1)) >= WEEK_MINUTES && Math.abs(Number(o.slice(1)) - x) <= CALENDAR_TOLERANCE * Math.max(x, Number(o.slice(1))))) return true;
  }
  return sameValueIn(value, others);
}

/**
 * A value one statement pins that the other does not restate, when their values do not agree (`valuesAgree`) — or
 * null: "harvests twice a week" / "grows its crop on straw", "after five attempts" / "kept for fourteen days". A
 * restatement carries its values over, so a value left behind is evidence against it (the converse of `valuesAgree`);
 * not a clash, since the other side may say it in words the value readers miss.
 */
export function valueOnOneSide(a: string, b: string): string | null {
  if (valuesAgree(a, b)) return null;
  const [onlyA, onlyB] = unmatchedValues(a, b);
  return onlyA[0] ?? onlyB[0] ?? null;
}

/**
 * The values each statement pins that the other does not (`allValues`, matched as `valueClash` matches them), leaving
 * out quantifiers ("all", "some", "usually", "a few": said of nearly anything, and a restatement may drop them):
 * [only in a, only in b].
 */
export function unmatchedValues(a: string, b: string): [string[], string[]] {
  const va = allValues(a);
  const vb = allValues(b);
  return [[...va].filter((v) => !v.startsWith("q:") && !matchesAny(v, vb)), [...vb].filter((v) => !v.startsWith("q:") && !matchesAny(v, va))];
}

/**
 * Whether the two statements pin different values in the same slot: each pins a value the other does not, and the two
 * unmatched values are of comparable kinds (`comparable`). Values read by `allValues`.
 */
export function valueClash(a: string, b: string): [string, string] | null {
  const va = allValues(a);
  const vb = allValues(b);
  if (va.size === 0 || vb.size === 0) return null;
  const onlyA = [...va].filter((v) => !matchesAny(v, vb));
  const onlyB = [...vb].filter((v) => !matchesAny(v, va));
  const years = new Set([...yearsOf(a), ...yearsOf(b)]);
  for (const x of onlyA) for (const y of onlyB) if (comparable(kindOf(x, years), kindOf(y, years))) return [x, y];
  return null;
}

/** Bounds written as a limit or a trailing "or more" / "or fewer", beside the usual "at most" / "at least". */
const BOUND_BEFORE = new RegExp(`\\b(${phraseAlternation(AMOUNT_BOUND_PHRASES)})\\s+([a-z0-9.-]+)`, "g");
const TRAILING = Object.keys(TRAILING_BOUND_WORDS).join("|");
const BOUND_AFTER = new RegExp(`\\b([a-z0-9.-]+)\\s+(?:[a-z]+\\s+)?or (${TRAILING})\\b`, "g");

/** A cheap test for any bound phrase, before the numerals are read. */
const ANY_BOUND = new RegExp(`\\b(?:${phraseAlternation(AMOUNT_BOUND_PHRASES)}|or (?:${TRAILING}))\\b`, "i");

function boundsOf(text: string): Map<number, "upper" | "lower"> {
  const out = new Map<number, "upper" | "lower">();
  if (!ANY_BOUND.test(text)) return out;
  const lower = words(text).join(" ");
  for (const m of lower.matchAll(BOUND_BEFORE)) {
    const n = numberWord(m[2]) ?? (/^\d/.test(m[2] as string) ? Number(m[2]) : null);
    const side = boundSide(m[1] as string);
    if (n !== null && Number.isFinite(n) && m[2] !== "a" && m[2] !== "an" && side !== undefined) out.set(n, side);
  }
  for (const m of lower.matchAll(BOUND_AFTER)) {
    const n = numberWord(m[1]) ?? null;
    if (n !== null && m[1] !== "a" && m[1] !== "an") out.set(n, TRAILING_BOUND_WORDS[m[2] as string] ?? "upper");
  }
  return out;
}

/** Words that negate what follows them in a clause. */
const NEGATION_WORD = /^(?:no|not|never|nobody|none|nothing|cannot|nor)$|n't$/;

/** A bound phrase followed by a number, in the words `words` reads. */
const BOUND_PHRASE_THEN_NUMBER = new RegExp(`\\b(?:${phraseAlternation(AMOUNT_BOUND_PHRASES)})\\s+([a-z0-9.-]+)`, "g");

/**
 * Whether the bound on `n` sits under a negation within the four words before it ("no one under 18", "never drops
 * below 15"): a negated bound points the other way ("nobody under 18" = "at least 18"), so two statements that bound
 * the same number from opposite sides, one of them negated, agree.
 */
export function negatedBound(text: string, n: number): boolean {
  const ws = words(valueText(text));
  const joined = ws.join(" ");
  for (const m of joined.matchAll(BOUND_PHRASE_THEN_NUMBER)) {
    const value = numberWord(m[1]) ?? (/^\d/.test(m[1] as string) ? Number(m[1]) : null);
    if (value !== n) continue;
    const before = joined.slice(0, m.index).trim().split(" ").slice(-4);
    if (before.some((w) => NEGATION_WORD.test(w))) return true;
  }
  return false;
}

/** The number both statements bound from opposite sides ("limited to ten" / "at least ten"), or null. */
export function limitClash(a: string, b: string): number | null {
  const ba = boundsOf(a);
  const bb = boundsOf(b);
  for (const [n, dir] of ba) if (bb.has(n) && bb.get(n) !== dir) return n;
  return null;
}

const UP = /^(?:rise|rises|rose|risen|rising|increase|increases|increased|grow|grows|grew|grown|climb|climbs|climbed|double|doubles|doubled|triple|tripled|soar|soared|surge|surged|jump|jumped|advance|advanced|forward|expand|expanded|dearer|pricier)$/;
const DOWN = /^(?:fall|falls|fell|fallen|drop|drops|dropped|decline|declines|declined|decrease|decreases|decreased|shrink|shrinks|shrank|halve|halved|cheaper|retreat|retreats|retreated|reduce|reduces|reduced|lowered|slump|slumped|plunge|plunged|shrunk)$/;

/** Content stems near each direction word (the four tokens before it), with the direction they move in. */
function directions(text: string): Map<string, number> {
  const ts = tokenize(text.toLowerCase().replace(/\b(?:pulled|moved|went|fell|stepped) back\b/g, "retreated").replace(/\bby half\b/g, "halved").replace(/\b(?:twice|three times|four times) as (?:many|much)\b/g, "doubled").replace(/\bhalf as (?:many|much)\b/g, "halved").replace(/\b(?:went|go|goes|gone|going) up\b/g, "rose").replace(/\b(?:went|go|goes|gone|going) down\b/g, "fell").replace(/\bmore expensive\b/g, "dearer").replace(/\bless expensive\b/g, "cheaper"));
  const out = new Map<string, number>();
  ts.forEach((t, i) => {
    const dir = UP.test(t.word) ? 1 : DOWN.test(t.word) ? -1 : 0;
    if (dir === 0) return;
    for (const u of ts.slice(Math.max(0, i - 4), i)) {
      if (!isContentWord(u.word) || UP.test(u.word) || DOWN.test(u.word)) continue;
      out.set(u.stem, (out.get(u.stem) ?? 0) + dir);
    }
  });
  return out;
}

/** A thing said to move one way on one side and the other way on the other ("prices rose" / "got cheaper"), or null. */
export function directionClash(a: string, b: string): string | null {
  const da = directions(a);
  const db = directions(b);
  for (const [stem, x] of da) {
    const y = db.get(stem);
    if (y !== undefined && x !== 0 && y !== 0 && Math.sign(x) !== Math.sign(y)) return stem;
  }
  return null;
}

/** A passive clause ("is taught", "were bought by", "gets paid"), with or without its agent. */
const PASSIVE = /\b(?:is|are|was|were|be|been|being|gets?|got)\s+(?:\w+ly\s+)?(?:\w+(?:ed|en|wn)|taught|bought|sold|sent|lent|paid|led|kept|held|told|brought|caught|built|spent|left|lost|meant|met|read|set|put|cut|hit|let|shut|run|won|hung|fed)\b/;

/**
 * Two phrases trading places around the same verb ("A reports to B" / "B reports to A"): the same content words, the
 * same verb, what comes before it on one side after it on the other. Not read when either side is passive (the passive
 * moves the roles on purpose).
 */
export function phraseRolesSwapped(a: string, b: string): string | null {
  if (PASSIVE.test(a.toLowerCase()) || PASSIVE.test(b.toLowerCase())) return null;
  const sa = tokenize(a).filter((t) => isContentWord(t.word)).map((t) => t.stem);
  const sb = tokenize(b).filter((t) => isContentWord(t.word)).map((t) => t.stem);
  const setA = new Set(sa);
  const setB = new Set(sb);
  if (setA.size < 3 || setA.size !== setB.size || ![...setA].every((s) => setB.has(s))) return null;
  const same = (x: readonly string[], y: readonly string[]) => x.length > 0 && new Set(x).size === new Set(y).size && x.every((s) => y.includes(s));
  for (let i = 0; i < sa.length; i++) {
    const pivot = sa[i] as string;
    const j = sb.indexOf(pivot);
    if (j < 0 || sa.indexOf(pivot) !== i || sb.lastIndexOf(pivot) !== j) continue;
    const beforeA = sa.slice(0, i);
    const afterA = sa.slice(i + 1);
    const beforeB = sb.slice(0, j);
    const afterB = sb.slice(j + 1);
    if (same(beforeA, afterB) && same(afterA, beforeB) && !same(beforeA, afterA)) return pivot;
  }
  return null;
}

const ADVICE = /\b(?:recommend|recommends|recommended|advised|advisable|encouraged|suggested|ideally|preferably)\b/;
const CONDITION = /\b(?:only|if|unless|provided|providing|as long as|so long as|on condition)\b(?! they wish| they want| you wish| you want)/;
const OBLIGATION = /\b(?:must|has to|have to|had to|required|requires|require|mandatory|obliged|obligatory|needs? to)\b/;
const PERMISSION = /\b(?:may|can|could|allowed|permitted|optional|if they wish|if they want|if you wish|if you want|free to)\b/;
const NEGATED = /\b(?:not|no|never|nobody|none|cannot|can't|mustn't|don't|doesn't|isn't|aren't|without|n't)\b|n't\b/;

/**
 * One side states an obligation, a recommendation or a permission and the other another of the three ("must sign in"
 * / "may sign in", "helmets are recommended" / "helmets are required"); neither side negated.
 */
export function modalClash(a: string, b: string): boolean {
  // "May" with a capital after a word is the month ("held in May"), not a permission.
  const month = (t: string) => t.replace(/(?<=\w[\s,]+)May\b/g, "month");
  const la = month(a).toLowerCase().replace(/[’]/g, "'");
  const lb = month(b).toLowerCase().replace(/[’]/g, "'");
  if (NEGATED.test(la) || NEGATED.test(lb)) return false;
  // A permission granted only on a condition ("may enter only with an adult", "are welcome if kept on a lead") is
  // the condition's obligation.
  const mode = (t: string) =>
    ADVICE.test(t) ? "advice" : OBLIGATION.test(t) ? "obligation" : PERMISSION.test(t) ? (CONDITION.test(t) ? "obligation" : "permission") : null;
  const ma = mode(la);
  const mb = mode(lb);
  return ma !== null && mb !== null && ma !== mb;
}

const EXCLUDING = /(?:,\s*not\s+(?:to |in |on |at |for |by |from |with )?|\b(?:other than|except(?: for)?|apart from|excluding|but not|besides|anyone but|anybody but|everyone but|instead of|rather than)\s+)((?:the |a |an |their |its |his |her )?[a-z'-]+)/g;

/** The content stems a statement excludes ("someone other than X", "everyone except X", "A rather than X"). */
export function excludedStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().replace(/[’]/g, "'").matchAll(EXCLUDING)) {
    for (const t of tokenize(m[1] as string)) if (isContentWord(t.word)) out.add(t.stem);
  }
  return out;
}

/** A word one side excludes and the other names as it is (not also excluding it, not negated), or null. */
export function exclusionClash(a: string, b: string): string | null {
  const check = (x: string, y: string): string | null => {
    const excluded = excludedStems(x);
    if (excluded.size === 0 || NEGATED.test(y.toLowerCase())) return null;
    const yExcluded = excludedStems(y);
    const yStems = new Set(tokenize(y).map((t) => t.stem));
    for (const s of excluded) if (yStems.has(s) && !yExcluded.has(s)) return s;
    return null;
  };
  return check(a, b) ?? check(b, a);
}

/** One side names a weekday and the other none (nor "week", "weekday", "weekend"): a narrower claim, or null. */
export function weekdayOnOneSide(a: string, b: string): boolean {
  const days = (t: string) => t.toLowerCase().match(new RegExp(`\\b(?:${WEEKDAY_ALT})s?\\b`, "g")) ?? [];
  const weekWords = (t: string) => /\bweek(?:s|ly|day|days|end|ends)?\b/i.test(t);
  const da = days(a);
  const db = days(b);
  return (da.length > 0 && db.length === 0 && !weekWords(b)) || (db.length > 0 && da.length === 0 && !weekWords(a));
}

const RELATION_PAIRS: readonly (readonly [string, string])[] = [["before", "after"], ["above", "below"], ["over", "under"], ["inside", "outside"], ["earlier", "later"]];

/**
 * The same anchor placed on the other side of a relation ("before signature" / "after signature", "above the line" /
 * "below the line"): one side says "before X", the other "after X" and not "before X". A reversal that keeps the
 * meaning swaps the anchor too ("A before B" = "B after A"), so the word after the preposition must be the same.
 */
const RELATION_ANCHOR = new Map(RELATION_PAIRS.flat().map((rel) => [rel, new RegExp(`\\b${rel}\\s+(?:(?:the|a|an|its|their|this|that)\\s+)?([a-z]+)`, "g")]));

export function relationFlip(a: string, b: string): string | null {
  // The anchor must be a content word: "later than X" / "earlier than Y" anchor on "than", which says nothing.
  const anchors = (t: string, rel: string) => new Set([...t.toLowerCase().matchAll(RELATION_ANCHOR.get(rel) as RegExp)].map((m) => m[1] as string).filter(isContentWord).map(stemWord));
  for (const [x, y] of RELATION_PAIRS) {
    if (!(a.toLowerCase().includes(x) || b.toLowerCase().includes(x)) || !(a.toLowerCase().includes(y) || b.toLowerCase().includes(y))) continue;
    for (const [p, q] of [[a, b], [b, a]] as const) {
      const ax = anchors(p, x);
      const by = anchors(q, y);
      const bx = anchors(q, x);
      for (const s of ax) if (by.has(s) && !bx.has(s)) return `${x}/${y} ${s}`;
    }
  }
  return null;
}

/** Verbs that state one relation from its two ends ("A teaches B" = "B learns from A"). */
const CONVERSES: readonly (readonly [string, string])[] = [
  ["teach", "learn"], ["taught", "learn"], ["sell", "buy"], ["sold", "bought"], ["lend", "borrow"], ["lent", "borrow"],
  ["give", "receiv"], ["gave", "receiv"], ["send", "receiv"], ["sent", "receiv"], ["employ", "work for"], ["hire", "work for"],
  ["pay", "paid by"], ["own", "belong"], ["precede", "follow"], ["lead", "report to"], ["manag", "report to"],
];

/** Each converse verb as it appears in a stemmed text (" stem" or " stem particle"). */
const CONVERSE_KEYS = new Map(CONVERSES.flat().map((v) => [v, ` ${stemWord(v.split(" ")[0] as string)}${v.includes(" ") ? ` ${v.split(" ").slice(1).join(" ")}` : ""}`]));

/**
 * The same subject with a verb and its converse ("A taught B" / "A learned from B"): the converse needs the ends
 * swapped, so keeping the subject reverses the relation. Subject = the first content word; not read when either side
 * is passive. Null when no such pair.
 */
export function converseWithSameSubject(a: string, b: string): string | null {
  // A passive moves the ends already ("Ravi's bike was bought by Lena").
  if (PASSIVE.test(a.toLowerCase()) || PASSIVE.test(b.toLowerCase())) return null;
  const first = (t: string) => tokenize(t).find((x) => isContentWord(x.word))?.stem;
  if (first(a) === undefined || first(a) !== first(b)) return null;
  const stems = (t: string) => " " + tokenize(t).map((x) => x.stem).join(" ") + " ";
  const sa = stems(a);
  const sb = stems(b);
  // Whole stems only: " own " is not " owner ", " lead " not " leader ".
  const has = (s: string, v: string) => s.includes(`${CONVERSE_KEYS.get(v) as string} `);
  for (const [x, y] of CONVERSES) {
    if ((has(sa, x) && has(sb, y) && !has(sa, y) && !has(sb, x)) || (has(sb, x) && has(sa, y) && !has(sb, y) && !has(sa, x))) return `${x}/${y}`;
  }
  return null;
}

/** Words a restatement adds without narrowing the claim. */
const LOOSE_INSERTS = new Set(["exactly", "precisely", "sharp", "promptly", "about", "around", "roughly", "approximately", "officially", "certainly", "definitely", "clearly", "simply", "already", "still", "also", "always", "really", "actually", "now", "currently", "normally", "usually", "generally", "typically", "just", "indeed", "all", "each", "every", "both", "too", "either", "there", "here", "then", "so", "very"]);

/**
 * One side is the other with one to three words, one of them a content word, added in one place and nothing else
 * changed ("every morning" / "every Saturday morning", "members can book" / "only members can book", "all staff" /
 * "all senior staff", "takes an hour" / "takes an hour longer in winter"): a narrower (or a restricted) claim.
 * Returns the added words, or null. (Up to three words: allowing the third changed no pair of the restatement or
 * relation pools but the one it was read from.)
 */
export function narrowingInsert(a: string, b: string): string | null {
  const toks = (t: string) => t.toLowerCase().replace(/[’‘]/g, "'").match(/[a-z0-9']+/g) ?? [];
  const check = (short: string[], long: string[]): string | null => {
    const extra = long.length - short.length;
    if (extra < 1 || extra > 3 || short.length < 3) return null;
    let i = 0;
    while (i < short.length && short[i] === long[i]) i++;
    const inserted = long.slice(i, i + extra);
    if (short.slice(i).join(" ") !== long.slice(i + extra).join(" ")) return null;
    if (inserted.some((w) => LOOSE_INSERTS.has(w))) return null;
    return inserted.some((w) => w === "only" || isContentWord(w)) ? inserted.join(" ") : null;
  };
  const x = toks(a);
  const y = toks(b);
  return check(x, y) ?? check(y, x);
}

/** A passive participle followed, later in the sentence, by its agent ("is checked before launch by …"). */
const PASSIVE_WITH_AGENT = new RegExp(`${PASSIVE.source}.*\\bby\\b`);

/**
 * One side in the passive with the verb the other side uses in the active, the same content words on both sides but
 * one each ("The instructors check every harness" / "Every harness is checked by the students"): the verb is kept, so
 * the odd word out is a participant, and a participant swapped changes the claim (`substitution` reads the same
 * swap only in one word order). A paraphrase that turns the sentence round swaps the verb instead ("Bob leads the
 * team" / "The team is headed by Bob"), which is not read here. Returns the two words, or null.
 */
export function participantSwap(a: string, b: string): [string, string] | null {
  const pa = PASSIVE_WITH_AGENT.exec(a.toLowerCase());
  const pb = PASSIVE_WITH_AGENT.exec(b.toLowerCase());
  if ((pa === null) === (pb === null)) return null;
  const clause = ((pa ?? pb) as RegExpExecArray)[0];
  const participle = stemWord((PASSIVE.exec(clause) as RegExpExecArray)[0].split(/\s+/).pop() as string);
  const ta = contentTokens(a);
  const tb = contentTokens(b);
  if (!ta.some((t) => t.stem === participle) || !tb.some((t) => t.stem === participle)) return null;
  const count = (ts: readonly { stem: string }[]) => ts.reduce((m, t) => m.set(t.stem, (m.get(t.stem) ?? 0) + 1), new Map<string, number>());
  const ca = count(ta);
  const cb = count(tb);
  const onlyA = ta.filter((t) => (ca.get(t.stem) ?? 0) > (cb.get(t.stem) ?? 0));
  const onlyB = tb.filter((t) => (cb.get(t.stem) ?? 0) > (ca.get(t.stem) ?? 0));
  if (onlyA.length !== 1 || onlyB.length !== 1) return null;
  return [(onlyA[0] as { word: string }).word, (onlyB[0] as { word: string }).word];
}

/**
 * The same subject and the same verb, active on one side and passive with an agent on the other ("Ravi mentors the
 * new staff" / "Ravi is mentored by the new staff"): turning a sentence into the passive moves its subject to the
 * "by" phrase, so a passive that keeps the subject in front reverses who does what. Returns the verb's stem, or null.
 * Subject = the first content word; the other content words must be the same on both sides.
 */
export function voiceFlipWithSameSubject(a: string, b: string): string | null {
  const pa = PASSIVE_WITH_AGENT.exec(a.toLowerCase());
  const pb = PASSIVE_WITH_AGENT.exec(b.toLowerCase());
  if ((pa === null) === (pb === null)) return null;
  const [passive, active] = pa ? [a, b] : [b, a];
  if (PASSIVE.test(active.toLowerCase())) return null;
  const participle = stemWord((PASSIVE.exec(((pa ?? pb) as RegExpExecArray)[0]) as RegExpExecArray)[0].split(/\s+/).pop() as string);
  const ta = contentTokens(passive);
  const tb = contentTokens(active);
  if (ta[0] === undefined || ta[0].stem !== tb[0]?.stem) return null;
  if (!tb.some((t) => t.stem === participle)) return null;
  const sa = new Set(ta.map((t) => t.stem));
  const sb = new Set(tb.map((t) => t.stem));
  return sa.size === sb.size && [...sa].every((x) => sb.has(x)) ? participle : null;
}

/**
 * One side bounds a value ("on orders over €50", "for stays of more than a week") that the other side does not
 * state at all: the bound narrows the claim to part of what the other says. Returns the value, or null.
 */
export function boundOnOneSide(a: string, b: string): string | null {
  const [onlyA, onlyB] = unmatchedValues(a, b);
  // The value left behind must be the bounded number itself; "below zero" is a temperature, not a bound.
  const bounded = (text: string, values: readonly string[]) => {
    const ns = [...boundsOf(text).keys()].filter((n) => n !== 0);
    return values.find((v) => ns.some((n) => v === `n${n}` || v.endsWith(`:${n}`))) ?? null;
  };
  if (onlyB.length === 0) return bounded(a, onlyA);
  if (onlyA.length === 0) return bounded(b, onlyB);
  return null;
}

/** "Nobody else", "no other", "not anyone else": a negation that says "only". */
const NOBODY_ELSE = /\b(?:(?:nobody|no one|no-one|nothing|none|not anyone|not anybody|not anything)\s+else|no other|none other)\b/;

/**
 * One side says "only X" and the other says X and "nobody else" ("Only members can book" / "Members book the
 * rooms; nobody else can"): the negation restates the "only", so it is no one-sided negation. Whether the two name
 * the same X is left to the rest of the reading.
 */
export function onlyRestatedByNegation(a: string, b: string): boolean {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  const only = (t: string) => /\bonly\b/.test(t) && !NOBODY_ELSE.test(t);
  return (only(la) && NOBODY_ELSE.test(lb)) || (only(lb) && NOBODY_ELSE.test(la));
}

/** Focus words: what they stand next to is what the claim restricts ("only guests may park" / "guests may park only overnight"). */
const FOCUS_WORDS = new Set(["only", "just", "even", "solely", "exclusively", "merely", "alone"]);

/**
 * The same words in the same order but for one focus word that stands in another place ("Only licensed pilots may
 * fly the glider" / "Licensed pilots may fly only the glider"): the restriction moved to another part of the claim.
 * Returns the word, or null. A restatement that rewords keeps the focus next to the same phrase or changes the words.
 */
export function focusMoved(a: string, b: string): string | null {
  const toks = (t: string): string[] => t.toLowerCase().replace(/[’‘]/g, "'").match(/[a-z0-9']+/g) ?? [];
  const x = toks(a);
  const y = toks(b);
  if (x.length !== y.length || x.length < 4) return null;
  for (const f of FOCUS_WORDS) {
    const i = x.indexOf(f);
    const j = y.indexOf(f);
    if (i < 0 || j < 0 || i === j || x.lastIndexOf(f) !== i || y.lastIndexOf(f) !== j) continue;
    if (x.filter((w) => w !== f).join(" ") === y.filter((w) => w !== f).join(" ")) return f;
  }
  return null;
}

/**
 * The stems of the content words right after each number (up to three, in the same clause), by number ("300
 * red roses, …" → 300: red, rose; "12 % of the staff" → nothing).
 */
function countedNouns(text: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const piece of text.split(/[,;:()]|\.(?:\s|$)/)) countedNounsIn(words(piece), out);
  return out;
}

function countedNounsIn(ws: readonly string[], out: Map<number, string[]>): void {
  for (let i = 0; i < ws.length; i++) {
    const n = numberWord(ws[i]);
    if (n === null || ws[i] === "a" || ws[i] === "an" || ws[i] === "once" || ws[i] === "twice") continue;
    const after: string[] = [];
    // The noun phrase right after the number: consecutive content words, no unit, period or ordinal suffix.
    for (let j = i + 1; j < ws.length && after.length < 3; j++) {
      const w = ws[j] as string;
      if (!isContentWord(w) || /^(?:st|nd|rd|th|percent)$/.test(w) || numberWord(w) !== null || unitOf(w) !== undefined || PERIOD_MINUTES[w.replace(/s$/, "")] !== undefined || OCCURRENCES.test(w)) break;
      after.push(stemWord(w));
    }
    if (after.length > 0 && !out.has(n)) out.set(n, after);
  }
}

/**
 * The same number counting another thing, where that thing is named on both sides ("stocks 300 roses" / "stocks
 * 300 plants, roses included", "each pupil reads two poems" / "each poem is read by two pupils"): the
 * count moved to another noun of the claim. Returns the two nouns, or null. A noun named on one side only is a
 * rewording ("40 singers" / "a choir of 40"), left to the rest of the reading.
 */
export function countedNounSwap(a: string, b: string): [string, string] | null {
  const na = countedNouns(a);
  const nb = countedNouns(b);
  const sa = new Set(contentTokens(a).map((t) => t.stem));
  const sb = new Set(contentTokens(b).map((t) => t.stem));
  for (const [n, after] of na) {
    const other = nb.get(n);
    if (other === undefined) continue;
    const [ha, hb] = [after[0] as string, other[0] as string];
    if (other.includes(ha) || after.includes(hb)) continue;
    if (sb.has(ha) || sa.has(hb)) return [ha, hb];
  }
  return null;
}

/** A duration as a limit ("within an hour", "in under a week") or a span ("for an hour", "lasting a week"). */
const DURATION_ROLE = new RegExp(
  `\\b(within|in under|in less than|no later than|inside|for|lasting)\\s+((?:an?|one|\\d+(?:\\.\\d+)?|[a-z]+)(?:\\s+(?:more|full|whole))?)\\s+((?:${Object.keys(CALENDAR_MINUTES).join("|")}|minute|second)s?)\\b`,
  "g",
);

/** The durations a statement gives as a limit or as a span, as "limit:minutes" / "span:minutes". */
function durationRoles(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of numeralize(text.toLowerCase().split(/\s+/)).join(" ").matchAll(DURATION_ROLE)) {
    const n = numberWord((m[2] as string).split(/\s+/)[0]);
    const unit = PERIOD_MINUTES[(m[3] as string).replace(/s$/, "")];
    if (n === null || unit === undefined) continue;
    out.add(`${m[1] === "for" || m[1] === "lasting" ? "span" : "limit"}:${n * unit}`);
  }
  return out;
}

/**
 * The same length of time given as a limit on one side and as a span on the other ("treated within a day of
 * the injury" / "rested for a day after the injury"): how soon something happens against how long it lasts.
 * Returns the length in minutes, or null.
 */
export function durationRoleClash(a: string, b: string): number | null {
  const ra = durationRoles(a);
  const rb = durationRoles(b);
  for (const r of ra) {
    const [role, minutes] = r.split(":") as [string, string];
    const other = `${role === "span" ? "limit" : "span"}:${minutes}`;
    if (rb.has(other) && !rb.has(r) && !ra.has(other)) return Number(minutes);
  }
  return null;
}

/** Words that make the number after them an estimate. */
const ESTIMATE = /\b(?:about|around|roughly|approximately|some|nearly|almost|close to)\s+([a-z0-9.,-]+)/g;

/**
 * The same number bounded on one side ("can seat up to 60 diners") and given as an estimate on the other ("usually
 * seats about 60 diners"): a limit is not a typical value. Returns the number, or null.
 */
export function boundAgainstEstimate(a: string, b: string): number | null {
  const estimates = (t: string) => {
    const out = new Set<number>();
    for (const m of words(t).join(" ").matchAll(ESTIMATE)) {
      const n = numberWord((m[1] as string).replace(/[.,]+$/, ""));
      if (n !== null) out.add(n);
    }
    return out;
  };
  const [ba, bb] = [boundsOf(a), boundsOf(b)];
  const [ea, eb] = [estimates(a), estimates(b)];
  for (const n of ba.keys()) if (eb.has(n) && !bb.has(n)) return n;
  for (const n of bb.keys()) if (ea.has(n) && !ba.has(n)) return n;
  return null;
}

/** Seasons: a part of the year a claim can be narrowed to ("fall" left out: mostly the verb). */
const SEASON_WORD = /\b(?:spring|summer|autumn|winter)s?\b/i;
/** Months, capitalised ("May" the month, not "may" the modal). */
const MONTH_WORD = /\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b/;

/**
 * A season named on one side only, the other naming no season and no month ("The ski lift runs all year round" /
 * "The ski lift runs daily through the summer"): a claim narrowed to part of the year (as
 * `weekdayOnOneSide` reads it for a day of the week). Returns the season, or null.
 */
export function seasonOnOneSide(a: string, b: string): string | null {
  const sa = SEASON_WORD.exec(a);
  const sb = SEASON_WORD.exec(b);
  if ((sa === null) === (sb === null)) return null;
  const other = sa === null ? a : b;
  return MONTH_WORD.test(other) ? null : ((sa ?? sb) as RegExpExecArray)[0].toLowerCase();
}

/** Periods a habit recurs in and an occasion happens in. */
const PERIOD_NOUN = `(?:${WEEKDAY_ALT}|spring|summer|autumn|fall|winter|week|weekend|month|year|night|morning|afternoon|evening|season|term|quarter)`;
const OCCASION = new RegExp(`\\b(?:last|yesterday's|this past)\\s+(${PERIOD_NOUN})\\b`, "gi");
const HABIT = new RegExp(`\\b(?:every|each|most|many|all|usually|often|some)\\s+(${PERIOD_NOUN})s?\\b`, "gi");

/**
 * One occasion on one side ("sold out last Friday") and a habit over the same period on the other ("sells out most
 * Fridays"): what happened once is not what usually happens. Returns the period, or null.
 */
export function occasionAgainstHabit(a: string, b: string): string | null {
  const periods = (re: RegExp, t: string) => new Set([...t.matchAll(re)].map((m) => (m[1] as string).toLowerCase().replace(/s$/, "")));
  for (const [x, y] of [[a, b], [b, a]] as const) {
    const once = periods(OCCASION, x);
    const habit = periods(HABIT, y);
    for (const p of once) if (habit.has(p) && !periods(HABIT, x).has(p)) return p;
  }
  return null;
}

/**
 * Connectives that order two events, and which clause comes first in time: "P because Q", "P after Q", "P once Q"
 * put Q first; "P before Q", "P so Q" put P first ("since", "when", "until" are left out: they do not say which).
 */
const EVENT_ORDER: Readonly<Record<string, "second-first" | "first-first">> = { because: "second-first", after: "second-first", once: "second-first", before: "first-first", so: "first-first" };
// "so that" states a purpose, not a consequence.
const EVENT_CONNECTIVE = new RegExp(`\\b(${Object.keys(EVENT_ORDER).join("|")})\\b(?! that\\b)`, "i");

/** The content stems of the earlier and of the later event of a two-event sentence, or null. */
function eventsInOrder(text: string): [Set<string>, Set<string>] | null {
  const m = EVENT_CONNECTIVE.exec(text);
  if (m === null) return null;
  const order = EVENT_ORDER[(m[1] as string).toLowerCase()] as "second-first" | "first-first";
  const stems = (t: string) => new Set(contentTokens(t).map((x) => x.stem));
  const before = text.slice(0, m.index);
  const after = text.slice(m.index + m[0].length);
  // "After Q, P": the connective opens the sentence and its clause ends at the comma.
  if (before.trim() === "") {
    const comma = after.indexOf(",");
    if (comma < 0) return null;
    const [q, p] = [stems(after.slice(0, comma)), stems(after.slice(comma + 1))];
    return order === "second-first" ? [q, p] : [p, q];
  }
  const [p, q] = [stems(before), stems(after)];
  if (p.size === 0 || q.size === 0) return null;
  return order === "second-first" ? [q, p] : [p, q];
}

/**
 * The same two events in the other order ("The server was rebooted because it kept freezing" / "The server kept freezing
 * after it was rebooted"): cause and effect, or earlier and later, trade places. Returns true when the two earlier
 * events share no content word and each side's earlier event shares one with the other side's later event (the later
 * events may share the subject).
 */
export function eventOrderFlip(a: string, b: string): boolean {
  const ea = eventsInOrder(a);
  const eb = eventsInOrder(b);
  if (ea === null || eb === null) return false;
  const shared = (x: Set<string>, y: Set<string>) => [...x].filter((s) => y.has(s)).length;
  const [a1, a2] = ea;
  const [b1, b2] = eb;
  // The earlier events share nothing, and each side's earlier event reappears in the other side's later one.
  return shared(a1, b1) === 0 && shared(a1, b2) > 0 && shared(a2, b1) > 0;
}

/** Words that put a thing inside an amount or a group ("including bills"), and words that leave it outside ("bills extra"). */
const INCLUDED = /^(?:including|includes|include|included|inclusive|incl)$/;
const EXCLUDED = /^(?:excluding|excludes|exclude|excluded|exclusive|excl|plus|extra|additional|separately|top)$/;

/**
 * The same thing inside the amount on one side and outside it on the other ("$35 a head including drinks" /
 * "$35 a head, drinks extra"): the same figure, another claim. Returns the thing's stem, or null. A thing counts as
 * marked when a marker stands within three words of it in the same clause; "not included" is outside.
 */
export function inclusionClash(a: string, b: string): string | null {
  const marked = (text: string) => {
    const inside = new Set<string>();
    const outside = new Set<string>();
    for (const piece of text.toLowerCase().split(/[,;:()]|\.(?:\s|$)/)) {
      const ws = piece.match(/[a-z0-9']+/g) ?? [];
      ws.forEach((w, i) => {
        const included = INCLUDED.test(w) && !["not", "never"].includes(ws[i - 1] ?? "");
        const excluded = EXCLUDED.test(w) || (INCLUDED.test(w) && !included);
        if (!included && !excluded) return;
        for (let j = Math.max(0, i - 3); j <= Math.min(ws.length - 1, i + 3); j++) {
          const x = ws[j] as string;
          if (j === i || !isContentWord(x) || INCLUDED.test(x) || EXCLUDED.test(x)) continue;
          (included ? inside : outside).add(stemWord(x));
        }
      });
    }
    return { inside, outside };
  };
  const ma = marked(a);
  const mb = marked(b);
  for (const [x, y] of [[ma, mb], [mb, ma]] as const) for (const s of x.inside) if (y.outside.has(s) && !y.inside.has(s) && !x.outside.has(s)) return s;
  return null;
}

const AUXILIARY = new Set(["is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"]);

/**
 * Who does it, for each verb stem: in the active voice the content word right before the verb ("Omar signs"), in
 * the passive the content words of the "by" phrase ("is signed by the night shift").
 */
function agents(text: string): Map<string, Set<string>> {
  const ts = tokenize(text);
  const out = new Map<string, Set<string>>();
  ts.forEach((t, i) => {
    if (!isContentWord(t.word) || i === 0) return;
    const prev = ts[i - 1] as (typeof ts)[number];
    if (AUXILIARY.has(prev.word) && ts[i + 1]?.word === "by") {
      const by = new Set<string>();
      for (let j = i + 2; j < ts.length && j <= i + 5; j++) {
        const w = ts[j] as (typeof ts)[number];
        if (["and", "with", "in", "on", "at", "for", "from", "before", "after", "every", "each"].includes(w.word)) break;
        if (isContentWord(w.word)) by.add(w.stem);
      }
      if (by.size > 0) out.set(t.stem, by);
    } else if (/s$/.test(t.word) && isContentWord(prev.word) && !AUXILIARY.has(prev.word) && prev.index === t.index - 1 && i === 1 + (ts[0]?.word === "the" ? 1 : 0)) {
      out.set(t.stem, new Set([prev.stem]));
    }
  });
  return out;
}

/**
 * The same verb done by another participant, both named on both sides ("Omar signs every rota from the night
 * shift" / "Every rota Omar drafts is signed by the night shift"): the roles moved across the sentence.
 * Active agents are read only from a sentence that opens with "[the] Agent verb-s". Returns the verb's stem, or null.
 */
export function agentSwap(a: string, b: string): string | null {
  const ga = agents(a);
  const gb = agents(b);
  const sa = new Set(contentTokens(a).map((t) => t.stem));
  const sb = new Set(contentTokens(b).map((t) => t.stem));
  for (const [verb, x] of ga) {
    const y = gb.get(verb);
    if (y === undefined || [...x].some((s) => y.has(s))) continue;
    if ([...x].every((s) => sb.has(s)) && [...y].every((s) => sa.has(s))) return verb;
  }
  return null;
}
