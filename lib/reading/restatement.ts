/**
 * Restatement: whether two statements make the same claim, as a score on the engine's similarity scale ∈ [0, 1].
 * Pure: the caller supplies the sentence vectors (`SemanticMatcher` embeds and caches them); nothing here does I/O.
 *
 * Four general signals, each of which only measures:
 *
 *   cosine    the cosine of the two whole texts' sentence vectors (the local model);
 *   coverage  the smaller of the two shares of a side's content words (stems) that the other side also uses; a word
 *             the other side writes as two ("chipmaker" / "chip maker") counts as used;
 *   values    each side states a value the other does not: a number (digits or number words: "two dogs" / "three
 *             dogs") or how often something repeats ("hourly" / "weekly");
 *   negation  one side is negated ("not", "never", "no", "nobody", "n't", "without" …) and the other is not.
 *
 * The decision: agreement = (cosine + coverage) / 2 (equal weights, not fitted), and
 *
 *   same                  ⇔ neither veto fires and agreement ≥ SAME_AGREEMENT
 *   possible duplicate    ⇔ neither veto fires and POSSIBLE_AGREEMENT ≤ agreement < SAME_AGREEMENT
 *
 * The two vetoes stay because each earns precision on two public development sets (docs/reading.md): a value on
 * each side that the other does not state marks a different claim in 60 % of MRPC pairs (base rate 32 %) and a
 * non-entailment in 96 % of SICK pairs (base rate 71 %); a one-sided negation in 63 % of MRPC pairs and 99 % of SICK
 * pairs. A role-swap check (same content words in another order) was measured and dropped: on SICK it fires on
 * entailments more often than not, on MRPC only on paraphrases. A substitution check (each side keeps exactly one
 * content word the other lacks, in the same place, and the two words' own vectors, or the two sentences, are further
 * apart than a threshold) was measured and dropped too: on SICK it marks a non-entailment in 84–86 % of the pairs it
 * fires on (base rate 71 %), on MRPC a different claim in 0–5 % (base rate 32 %); a one-word swap there is how a
 * paraphrase is written ("reported" / "disclosed"). So a one-word swap of a rival ("main branch" / "release branch") still
 * reads as the same claim when the sentences stay close (docs/reading.md, limits).
 *
 * Without sentence vectors (no embedding model), the caller's own similarity (words only, or another model's plain
 * cosine) stands in for the reading, and the two vetoes still apply to it (`vetoedSimilarity`).
 *
 * The thresholds are chosen on the public MRPC development half (research/measure-public-restatement.ts), precision
 * first: SAME_AGREEMENT is the lowest agreement at which "same" precision on a balanced sample stays at or above
 * 75 % (merging two different claims loses one of them; a missed duplicate only keeps both); POSSIBLE_AGREEMENT is
 * where accuracy over all pairs peaks, the point above which a pair is more likely the same claim than not.
 *
 * The score keeps the engine's thresholds' meanings (`twinSimilarity` 0.9 = "restates", `topicSimilarity` /
 * `conflictMinSimilarity` 0.7 = "same subject", `relatedSimilarity` 0.3 = "related"):
 *
 *   same                  0.9 … 1      (RESTATES …), rising with agreement
 *   possible duplicate    0.8 … 0.9    (POSSIBLE_DUPLICATE … RESTATES), rising with agreement
 *   otherwise             the cosine on the subject scale (COSINE_SCALE), below POSSIBLE_DUPLICATE: a near copy
 *                         with one number or a negation changed stays above 0.7, so the conflict check still sees it.
 */

import { contentTokens, type Token } from "./parse/tokenize";
import { MULTIPLIER_WORDS, numberFromWord } from "./parse/value-vocabulary";

/**
 * What a restatement reading needs of one text (its content tokens, the values it states, whether it is negated),
 * worked out once per text: a claim is read against each of its candidates, and the same candidates are read again
 * by the next claim. Pure functions of the text; the oldest text is dropped beyond TEXT_FACTS_LIMIT.
 */
interface TextFacts {
  readonly tokens: readonly Token[];
  readonly values: ReadonlySet<string>;
  readonly negated: boolean;
}
const TEXT_FACTS_LIMIT = 4096;
const textFacts = new Map<string, TextFacts>();

function factsOf(text: string): TextFacts {
  const known = textFacts.get(text);
  if (known !== undefined) return known;
  const facts: TextFacts = { tokens: contentTokens(text), values: valuesIn(text), negated: negated(text) };
  textFacts.set(text, facts);
  if (textFacts.size > TEXT_FACTS_LIMIT) {
    const oldest = textFacts.keys().next().value;
    if (oldest !== undefined) textFacts.delete(oldest);
  }
  return facts;
}

/** The score at and above which two statements are read as the same claim (the engine's `twinSimilarity`). */
export const RESTATES = 0.9;

/**
 * The score at and above which (below RESTATES) two statements are a possible duplicate: kept apart, and linked as
 * such for a reviewer. Callers record the link for `POSSIBLE_DUPLICATE ≤ score < RESTATES`.
 */
export const POSSIBLE_DUPLICATE = 0.8;

/** Agreement ((cosine + coverage) / 2) at and above which a pair with no veto is the same claim (module comment). */
export const SAME_AGREEMENT = 0.71;

/** Agreement at and above which a pair with no veto is a possible duplicate (module comment). */
export const POSSIBLE_AGREEMENT = 0.57;

/**
 * (cosine, score) anchors for pairs that are not read as duplicates: the engine's "related" (0.3) and "same subject"
 * (0.7) levels at the cosines where they held before the score had a duplicate band; capped below POSSIBLE_DUPLICATE.
 */
export const COSINE_SCALE: readonly (readonly [number, number])[] = [
  [0, 0],
  [0.3, 0.3],
  [0.55, 0.7],
  [1, 1],
];

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

/** Cosine of two unit vectors (dot product), clamped to [-1, 1]. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += (a[i] as number) * (b[i] as number);
  return Math.max(-1, Math.min(1, s));
}

/**
 * The content tokens of `xs` that `ys` does not have: neither the same stem, nor a compound `ys` writes as two words,
 * nor one of two words `ys` writes as one ("toymaker" / "toy maker").
 */
export function unmatchedTokens(xs: readonly Token[], ys: readonly Token[]): Token[] {
  const stems = new Set(ys.map((t) => t.stem));
  const words = new Set(ys.map((t) => t.word));
  const joined = new Set(ys.slice(1).map((t, i) => `${(ys[i] as Token).word}${t.word}`));
  return xs.filter((t, i) => {
    const before = xs[i - 1];
    const after = xs[i + 1];
    return !(stems.has(t.stem) || joined.has(t.word) || (after !== undefined && words.has(`${t.word}${after.word}`)) || (before !== undefined && words.has(`${before.word}${t.word}`)));
  });
}

/**
 * A one-word swap: the one content word each side keeps that the other lacks (`unmatchedTokens`), when each keeps
 * exactly one and both sit in the same place (the matched word before it, or the one after it, has the same stem on
 * both sides): "The night train stops at Lyon" / "The night train stops at Dijon" → ["lyon", "dijon"]; null
 * otherwise. It measures only. Read as the same claim, such a pair is a rival as often as a rewording (docs/reading.md),
 * so the write policy (`./merge-policy`) does not merge on it, and the restatement score does not read it.
 */
export function oneWordSwap(a: string, b: string): [string, string] | null {
  const [ta, tb] = [contentTokens(a), contentTokens(b)];
  const [ua, ub] = [unmatchedTokens(ta, tb), unmatchedTokens(tb, ta)];
  const [wa, wb] = [ua[0], ub[0]];
  if (ua.length !== 1 || ub.length !== 1 || wa === undefined || wb === undefined) return null;
  const around = (ts: readonly Token[], w: Token) => {
    const i = ts.indexOf(w);
    return [ts[i - 1]?.stem ?? "^", ts[i + 1]?.stem ?? "$"];
  };
  const [pa, na] = around(ta, wa);
  const [pb, nb] = around(tb, wb);
  return pa === pb || na === nb ? [wa.word, wb.word] : null;
}

/**
 * The smaller of the two shares of a side's content stems that the other side also has (1 when a side has none), a
 * token counting as had unless it is one of `unmatchedTokens`.
 */
export function coverage(a: string, b: string): number {
  const ta = factsOf(a).tokens;
  const tb = factsOf(b).tokens;
  const share = (xs: readonly Token[], ys: readonly Token[]) => (xs.length === 0 ? 1 : (xs.length - unmatchedTokens(xs, ys).length) / xs.length);
  return Math.min(share(ta, tb), share(tb, ta));
}

/** Number words beyond the cardinals and their multipliers ("twice a week", "two billion"). */
const MORE_NUMBER_WORDS: Readonly<Record<string, number>> = { twice: 2, billion: 1e9 };

/** Frequency words, as the period they repeat in. */
const PERIOD_WORDS: Readonly<Record<string, string>> = {
  hourly: "hour", daily: "day", nightly: "day", weekly: "week", fortnightly: "fortnight", monthly: "month", quarterly: "quarter", yearly: "year", annually: "year",
};

/**
 * The values a text states, each with how many times it states it: numbers as digit strings ("1,200" → "1200",
 * "two" → "2", "3.5" → "3.5") and how often something repeats ("hourly" and "every hour" → "every hour"; "nightly"
 * and "each night" → "every day").
 */
export function valueCounts(text: string): Map<string, number> {
  const lower = text.toLowerCase().replace(/(\d),(?=\d{3}\b)/g, "$1");
  const out = new Map<string, number>();
  const add = (v: string) => out.set(v, (out.get(v) ?? 0) + 1);
  for (const m of lower.matchAll(/\d+(?:\.\d+)?/g)) add(String(Number(m[0])));
  for (const w of lower.match(/[a-z]+/g) ?? []) {
    const n = numberFromWord(w, [MULTIPLIER_WORDS, MORE_NUMBER_WORDS]);
    if (n !== undefined) add(String(n));
    if (PERIOD_WORDS[w] !== undefined) add(`every ${PERIOD_WORDS[w]}`);
  }
  for (const m of lower.matchAll(/\b(?:every|each|per|a|an)\s+(hour|day|night|week|fortnight|month|quarter|year)\b/g)) add(`every ${m[1] === "night" ? "day" : m[1]}`);
  return out;
}

/** The values a text states (`valueCounts`), once each. */
export function valuesIn(text: string): Set<string> {
  return new Set(valueCounts(text).keys());
}

/**
 * Each side states a value (`valuesIn`) the other does not: the pair of such values, or null. Compared as sets: a
 * value one side also states elsewhere ("build 7f1a: runner 1" / "build 7f1a: runner 7") hides the value it changes.
 * Counting them (`valueCounts`) was measured and left out: on MRPC it adds 7 firings (3 of them different claims),
 * on SICK none.
 */
export function valuesDiffer(a: string, b: string): [string, string] | null {
  const va = factsOf(a).values;
  const vb = factsOf(b).values;
  const onlyA = [...va].find((n) => !vb.has(n));
  const onlyB = [...vb].find((n) => !va.has(n));
  return onlyA !== undefined && onlyB !== undefined ? [onlyA, onlyB] : null;
}

const NEGATION = /\b(?:not|no|never|nobody|nothing|none|neither|nor|nowhere|without|cannot)\b|n['’]t\b/i;

/** Whether a text is negated anywhere. */
export function negated(text: string): boolean {
  return NEGATION.test(text);
}

/** A reason two statements make different claims whatever their wording shares, or null. */
export function restatementVeto(a: string, b: string): string | null {
  const values = valuesDiffer(a, b);
  if (values) return `values differ (${values[0]} / ${values[1]})`;
  if (factsOf(a).negated !== factsOf(b).negated) return "negated on one side";
  return null;
}

/** Every signal the restatement decision weighs (`restatementReading` reads them, `restatementScore` decides). */
export interface RestatementReading {
  identical: boolean;
  cosine: number;
  coverage: number;
  /** `restatementVeto`. */
  veto: string | null;
}

/** The signals of two statements, from their whole-text unit vectors. */
export function restatementReading(a: string, b: string, va: ArrayLike<number>, vb: ArrayLike<number>): RestatementReading {
  return { identical: a.trim() === b.trim(), cosine: dot(va, vb), coverage: coverage(a, b), veto: restatementVeto(a, b) };
}

/** (cosine + coverage) / 2: how far the two statements agree in meaning and in wording. */
export function agreement(r: RestatementReading): number {
  return (r.cosine + r.coverage) / 2;
}

/** THE restatement decision, as a score ∈ [0, 1] (the module comment's bands). */
export function restatementScore(r: RestatementReading): number {
  if (r.identical) return 1;
  const g = agreement(r);
  if (r.veto === null && g >= SAME_AGREEMENT) return RESTATES + ((1 - RESTATES) * (g - SAME_AGREEMENT)) / (1 - SAME_AGREEMENT);
  if (r.veto === null && g >= POSSIBLE_AGREEMENT) return POSSIBLE_DUPLICATE + ((RESTATES - POSSIBLE_DUPLICATE) * (g - POSSIBLE_AGREEMENT)) / (SAME_AGREEMENT - POSSIBLE_AGREEMENT);
  return Math.min(piecewise(r.cosine, COSINE_SCALE), BELOW_DUPLICATE);
}

/** The highest score of a pair that is neither the same claim nor a possible duplicate. */
const BELOW_DUPLICATE = POSSIBLE_DUPLICATE - 0.01;

/**
 * A similarity measured without a restatement reading (words only, or another model's plain cosine), with the
 * vetoes applied as `restatementScore` applies them: when `restatementVeto` fires, at most just below
 * POSSIBLE_DUPLICATE, so "runner 0 is healthy" / "runner 1 is healthy" (one bag of words, numbers aside) are never
 * merged, while a high similarity still reads as "same subject" for the conflict check.
 */
export function vetoedSimilarity(a: string, b: string, similarity: number): number {
  if (a.trim() === b.trim() || restatementVeto(a, b) === null) return similarity;
  return Math.min(similarity, BELOW_DUPLICATE);
}

/** Whether a reading is the same claim: `restatementScore` ≥ RESTATES. */
export function readsAsRestatement(r: RestatementReading): boolean {
  return restatementScore(r) >= RESTATES;
}

/** Whether a reading is a possible duplicate: POSSIBLE_DUPLICATE ≤ `restatementScore` < RESTATES. */
export function readsAsPossibleDuplicate(r: RestatementReading): boolean {
  const s = restatementScore(r);
  return s >= POSSIBLE_DUPLICATE && s < RESTATES;
}

/**
 * The claims a statement lists with semicolons ("X; Y"), each of three words or more; none when it lists one. Splits
 * at ":" and ", but" (`clausesOf`) were measured and left out here: on MRPC they let a clause carry a pair that the
 * whole sentences do not restate, and "same" precision fell.
 */
export function claimsOf(text: string): string[] {
  const pieces = text.split(/\s*;\s+/).map((p) => p.trim().replace(/[.!?]+$/, "")).filter((p) => p.split(/\s+/).length >= 3);
  return pieces.length > 1 ? pieces : [];
}

/**
 * The pairs of texts a restatement is read on: the two whole statements and, when exactly one side lists several
 * claims (`claimsOf`), each of them against the other side: a claim restates a statement of two when it restates one
 * of them. The decision is the best score over these pairs, unless one of the claims denies the other statement
 * (`deniesStatement`): then only the whole pair's reading counts.
 */
export function restatementPairs(a: string, b: string): [string, string][] {
  const pairs: [string, string][] = [[a, b]];
  const [ca, cb] = [claimsOf(a), claimsOf(b)];
  if (ca.length > 0 && cb.length === 0) for (const c of ca) pairs.push([c, b]);
  if (cb.length > 0 && ca.length === 0) for (const c of cb) pairs.push([a, c]);
  return pairs;
}

/**
 * The clauses a statement makes, for retrieval's clause-level cosine: split at `;`, `:`, and at ", but" /
 * " whereas " / " while "; pieces with fewer than three words are merged into their neighbour. The whole text is not
 * included.
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
 * Whether a claim of a list denies the other statement: the pair would be at least a possible duplicate
 * (agreement ≥ POSSIBLE_AGREEMENT) but for a veto. "The night train stops at Dijon; it never stops at Lyon" against
 * "The night train stops at Lyon": its second claim denies the statement, so its first (a near copy with another
 * town named) does not make the list a restatement of it.
 */
export function deniesStatement(r: RestatementReading): boolean {
  return r.veto !== null && agreement(r) >= POSSIBLE_AGREEMENT;
}
