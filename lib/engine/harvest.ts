/**
 * Harvest (docs/design.md §4.7): split model output into atomic, sentence-level claims, each stamped with its producer and
 * any typed quantity it states. Harvested claims enter as `model_assertion` evidence unless sourced.
 *
 * Splitting uses `Intl.Segmenter` (ICU sentence rules: decimals such as `0.05`, `$3.50`, ellipses, lowercase
 * continuations) and repairs what ICU gets wrong for claims:
 * * title and Latin abbreviations (`Dr.`, `e.g.`, `vs.`, `Fig.`) and single initials (`J. Smith`) never end a claim;
 * * a sentence inside an open quotation or parenthesis stays with the sentence that quotes it;
 * * list items (`- x`, `* x`, `• x`, `1. x`, `2) x`, `a) x`) are claims of their own, their markers removed;
 * * a hard-wrapped paragraph is re-joined before segmentation, so a newline alone never splits a sentence.
 */
import { z } from "zod";
import type { Quantity } from "./model";

/** Who or what produced the text (mixle's `produced_by`): a model, an agent, a person, with optional self-reported confidence. */
export const producerSchema = z.object({
  name: z.string().trim().min(1).max(200),
  kind: z.enum(["model", "agent", "user", "import"]).default("model"),
  model: z.string().trim().min(1).max(200).optional(),
  confidence: z.number().min(0).max(1).optional(),
  /** A resolvable evidence id when the output is sourced; otherwise the claim enters as `model_assertion`. */
  sourceId: z.string().trim().min(1).max(500).optional(),
});
export type Producer = z.infer<typeof producerSchema>;
export type ProducerInput = z.input<typeof producerSchema>;

export interface HarvestedClaim {
  text: string;
  /** 0-based position of the claim in the output. */
  index: number;
  producedBy: Producer;
  quantity?: Quantity;
  /** The tier the claim may claim when assimilated: `model_assertion` unless the producer names a source. */
  tier: "model_assertion" | "sourced";
}

export interface HarvestOptions {
  /** Claims shorter than this many letters (after trimming) are dropped as fragments; default 3. */
  minLetters?: number;
  /** Hard cap on the number of claims returned; default 1 000. */
  maxClaims?: number;
  locale?: string;
}

/**
 * Split `text` into claims stamped with `producedBy`.
 * @example harvest("Dr. Smith measured 0.05. Deploys use main.", { name: "gpt" }).map((c) => c.text)
 * // → ["Dr. Smith measured 0.05.", "Deploys use main."]
 */
export function harvest(text: string, producedBy: ProducerInput, options: HarvestOptions = {}): HarvestedClaim[] {
  const producer = producerSchema.parse(producedBy);
  const minLetters = options.minLetters ?? 3;
  const maxClaims = options.maxClaims ?? 1000;
  const claims: HarvestedClaim[] = [];
  for (const split of splitSentences(text, options.locale)) {
    if (claims.length >= maxClaims) break;
    const sentence = withoutFraming(split);
    if (countLetters(sentence) < minLetters) continue;
    const quantity = extractQuantity(sentence);
    claims.push({
      text: sentence,
      index: claims.length,
      producedBy: producer,
      ...(quantity ? { quantity } : {}),
      tier: producer.sourceId ? "sourced" : "model_assertion",
    });
  }
  return claims;
}

/** Words a framing label may have before its colon ("Post-incident review, 28 November:"). */
const MAX_FRAMING_WORDS = 6;
/** Words the statement after the label needs, so "Backups: hourly." keeps its subject. */
const MIN_FRAMED_WORDS = 3;
/**
 * An article after the label's first word marks a clause with an object ("Data contradicts the claim:"), whose verb
 * is part of what is said, not a heading; headings are bare noun groups ("Standup notes", "Update from ops").
 */
const CLAUSE_LABEL = /^\S+\s.*\b(?:the|a|an)\b/iu;

/**
 * The claim without its narrative frame: a leading label, then a leading reporting frame ("The audit found that …",
 * `withoutReportingFrame`). The label: text up to the first colon-and-space when that label is short
 * (≤ 6 words) and the rest is a statement of its own (≥ 3 words), e.g. "Post-incident review, 28 November: Deploys
 * go out from the release branch." → "Deploys go out from the release branch." The first letter is upper-cased.
 * Times ("at 10:00") have no space after the colon and are never labels; nor is a clause ("Data contradicts the claim:").
 * @example withoutFraming("Update from ops: the cache is warm again.") // → "The cache is warm again."
 */
export function withoutFraming(sentence: string): string {
  return withoutReportingFrame(withoutLabel(sentence));
}

/** Words a reporting frame's source may have ("Last month's audit of the billing service"). */
const MAX_SOURCE_WORDS = 8;
/** Factive and reporting verbs that pass on what follows as found or said; hedges ("suggests", "claims") are not here. */
const REPORTING_VERB = String.raw`(?:shows?|showed|shown|finds?|found|confirms?|confirmed|reveals?|revealed|says?|said|reports?|reported|notes?|noted|states?|stated|establish(?:es|ed)?|demonstrates?|demonstrated|concludes?|concluded|proves?|proved|proven)`;
const REPORTING_FRAME = new RegExp(String.raw`^(.{1,120}?)\s+(?:(?:has|have|had)\s+)?${REPORTING_VERB}\s+that\s+(.+)$`, "isu");
const ACCORDING_TO = /^according to\s+([^,]{1,120}),\s+(.+)$/isu;
/** A source that negates, doubts or conditions the report: "The audit did not find that …" keeps its frame. */
const NOT_A_PLAIN_SOURCE = /\b(?:not|never|no|nobody|nothing|none|did|does|do|may|might|could|would|should|if|whether|unless)\b|n't\b/iu;

/**
 * The claim without a leading reporting frame, which names who found or said it rather than what holds: "Last
 * month's audit found that the nightly job skips Sundays." → "The nightly job skips Sundays." Also "X shows / has
 * confirmed / revealed / says that …" and "According to X, …". The source is short (≤ 8 words) and plain: a negated,
 * doubting or conditional one ("The audit did not find that …") and hedges ("suggests that") keep the sentence whole,
 * as does a statement too short to stand alone (< 3 words).
 */
function withoutReportingFrame(sentence: string): string {
  const m = REPORTING_FRAME.exec(sentence) ?? ACCORDING_TO.exec(sentence);
  if (!m) return sentence;
  const [, source = "", rest = ""] = m;
  if (wordCount(source) > MAX_SOURCE_WORDS || wordCount(rest) < MIN_FRAMED_WORDS || NOT_A_PLAIN_SOURCE.test(source) || /["“(]/.test(source)) return sentence;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

const wordCount = (s: string): number => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** The claim without a leading framing label (see `withoutFraming`). */
function withoutLabel(sentence: string): string {
  const m = /^([^:]{1,80}?):\s+(.+)$/su.exec(sentence);
  if (!m) return sentence;
  const [, label = "", rest = ""] = m;
  const words = (s: string) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  if (words(label) > MAX_FRAMING_WORDS || words(rest) < MIN_FRAMED_WORDS || /["“(]/.test(label) || CLAUSE_LABEL.test(label)) {
    return sentence;
  }
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** Sentence-level split with the repairs listed in the module comment; returns trimmed, non-empty sentences. */
export function splitSentences(text: string, locale = "en"): string[] {
  const segmenter = new Intl.Segmenter(locale, { granularity: "sentence" });
  const out: string[] = [];
  for (const block of blocksOf(text)) {
    const pieces = [...segmenter.segment(block)].map((s) => s.segment);
    let pending = "";
    for (const piece of pieces) {
      pending += piece;
      if (continuesAfter(pending)) continue;
      pushTrimmed(out, pending);
      pending = "";
    }
    pushTrimmed(out, pending);
  }
  return out;
}

function pushTrimmed(out: string[], s: string): void {
  const t = s.replace(/\s+/g, " ").trim();
  if (t) out.push(t);
}

// Lettered items only as `a)` or `(a)`: "a." at a line start is as likely a word ("a. k. a.") as a marker.
const LIST_MARKER = /^\s*(?:[-*•‣◦–]|\(?\d{1,3}[.)]|[a-z]\)|\([a-zA-Z]\))\s+/;

/**
 * Paragraphs (blank-line separated, hard wraps re-joined) and list items, markers stripped. A line that starts
 * with a list marker starts a new block; following indented or plain lines continue the item until a blank line.
 */
function blocksOf(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) blocks.push(current.join(" "));
    current = [];
  };
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (!line.trim()) {
      flush();
      continue;
    }
    const marker = LIST_MARKER.exec(line);
    if (marker) {
      flush();
      current.push(line.slice(marker[0].length).trim());
    } else {
      current.push(line.trim());
    }
  }
  flush();
  return blocks;
}

/** Abbreviations after which a period never ends a claim (lower-cased, without the final period). */
const ABBREVIATIONS = new Set([
  "dr", "mr", "mrs", "ms", "prof", "sr", "jr", "st", "gen", "col", "capt", "lt", "sgt", "rev", "hon", "mt",
  "fig", "figs", "no", "nos", "vol", "vols", "pp", "p", "ch", "sec", "eq", "ref", "approx", "est", "vs", "cf",
  "e.g", "i.e", "viz", "al", "ca", "resp", "dept", "univ",
]);

/** True when the accumulated text must continue into the next ICU segment. */
function continuesAfter(s: string): boolean {
  const trimmed = s.trimEnd();
  const lastWord = /(?:^|[\s(“"'‘])([A-Za-z](?:\.[A-Za-z])*|[A-Za-z]+)\.$/.exec(trimmed);
  if (lastWord?.[1]) {
    const word = lastWord[1];
    if (ABBREVIATIONS.has(word.toLowerCase())) return true;
    if (/^[A-Z]$/.test(word)) return true;
  }
  return openQuote(trimmed) || openParen(trimmed);
}

function openQuote(s: string): boolean {
  const curlyOpen = (s.match(/“/g) ?? []).length;
  const curlyClose = (s.match(/”/g) ?? []).length;
  if (curlyOpen > curlyClose) return true;
  // Straight double quotes: an odd count means one is still open.
  return (s.match(/"/g) ?? []).length % 2 === 1;
}

function openParen(s: string): boolean {
  return (s.match(/\(/g) ?? []).length > (s.match(/\)/g) ?? []).length;
}

function countLetters(s: string): number {
  return (s.match(/\p{L}/gu) ?? []).length;
}

const UNIT_WORD = /^(%|[A-Za-zµ°][A-Za-z0-9µ°/²³-]*)/;
const NUMBER = /(^|[^\p{L}\p{N}.])([-−]?\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-−]?\$?\d+(?:\.\d+)?)(?![.\d]*\d)/gu;
/** Units that make a year-like integer a measurement (`2000 ms`), not a date. */
const MEASURE_UNITS = new Set(["ms", "s", "sec", "min", "h", "hr", "hours", "days", "m", "km", "kg", "g", "mb", "gb", "tb", "kb", "usd", "eur", "x", "rps", "qps"]);
const STOP_UNITS = new Set(["and", "or", "the", "a", "an", "of", "to", "in", "on", "at", "is", "was", "are", "were", "for", "by", "with", "from"]);

/**
 * The first typed quantity a claim states: a number and the unit that follows it (`3.2x`, `45%`, `500 CVEs`,
 * `10 min`, `$3.50` → unit `USD`). Years (1900–2100 with no unit) and version strings (`3.2.1`) are not quantities.
 */
/** A quantity's `unit` is `""` when the number carries none. */
export function extractQuantity(sentence: string): Quantity | undefined {
  for (const m of sentence.matchAll(NUMBER)) {
    const raw = m[2];
    if (raw === undefined) continue;
    const end = (m.index ?? 0) + (m[1]?.length ?? 0) + raw.length;
    const after = sentence.slice(end);
    if (/^\.\d/.test(after)) continue;
    const dollars = raw.includes("$");
    const value = Number(raw.replace(/[$,]/g, "").replace("−", "-"));
    if (!Number.isFinite(value)) continue;
    const unitMatch = dollars ? null : UNIT_WORD.exec(after.replace(/^ (?=[A-Za-zµ°])/, ""));
    let unit = dollars ? "USD" : (unitMatch?.[1] ?? "");
    if (STOP_UNITS.has(unit.toLowerCase())) unit = "";
    const yearLike = Number.isInteger(value) && value >= 1900 && value <= 2100 && !raw.includes(",");
    if (yearLike && unit !== "%" && !MEASURE_UNITS.has(unit.toLowerCase())) continue;
    return { value, unit };
  }
  return undefined;
}
