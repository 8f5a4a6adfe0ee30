/**
 * The offline default assessor (docs/design.md §6): deterministic heuristics over lexical overlap, negation and antonym cues,
 * numeric and quantifier conflicts, scope/context cues, weak-evidence cues and pressure cues. No network, no clock,
 * no randomness: the same input always yields the same result. The UI labels its results "heuristic".
 */
import {
  type DecidedRelation,
  type Assessor,
  type BeliefText,
  type ConflictAssessment,
  type ContractionAssessment,
  type EssAssessment,
  type ExtractedClaim,
  type RecallPhrasing,
  type RelationAssessment,
  type SynthesisProposal,
} from "@/lib/engine/assessor";
import { cosine, type Embedder, EmbeddingError, modelKey } from "@/lib/engine/embedder";
import { extractQuantity, splitSentences } from "@/lib/engine/harvest";
import { contextCues, contextTags, refersBack, type ContextCue } from "./signals/context-cues";
import { evidenceStrength } from "./signals/evidence-cues";
import { lexicalOverlap, textSimilarity } from "./signals/lexical-overlap";
import { beliefParts } from "./parse/belief-parts";
import { alignClauses, clauses, comparePolarity, sharedStems } from "./parse/clauses";
import { dayTimeClash, monthClash, namedValueClash, slotValues, substitution } from "./parse/slot-values";
import { antonymConflicts, changeCues, continuityCues, equalityAgainstComparison, negationCues } from "./signals/negation-cues";
import { compareQuantifiers, compareQuantities } from "./signals/numeric-cues";
import { pressureByShape, shapeReasoningType } from "./signals/message-shape";
import { pressureCues } from "./signals/pressure-cues";
import { loadManipulationModel, type ManipulationModel, readManipulation } from "./models/manipulation-model";
import { loadRelationModel, type PairVectors, predictRelation, readEvidenceKind, relationFeatures, type RelationModel } from "./models/relation-model";
import type { PartCosines, RelationSignals } from "./signals/relation-signals";
import { contentTokens } from "./parse/tokenize";
import { closestSwap, swapCandidates } from "./signals/word-swap";

export const HEURISTIC_STAMP = "heuristic@1";

/** A belief counts as touched when the evidence covers at least this share of its content stems. */
const MIN_COVERAGE = 0.3;

const round = (x: number) => Math.round(x * 1000) / 1000;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const quote = (words: readonly string[]) => words.map((w) => `"${w}"`).join(", ");

/** A negator before a bound phrase in one clause: "never more than", "no single run took longer than". */
const NEGATED_BOUND = /\b(?:never|not|no|none)\b[^,;.]{0,40}?\b(?:more|longer|over|above|exceed(?:s|ed)?|beyond|fewer|less|shorter|under|below)\b/i;

export type { PartCosines, RelationSignals };

/** The cues behind a relation judgement, exported for tests and for the evaluation's error analysis. */
export function relationSignals(evidence: string, belief: BeliefText, semantic?: number, parts?: PartCosines): RelationSignals {
  const overlap = lexicalOverlap(evidence, belief.text);
  const beliefSide = `${belief.text} ${(belief.contextTags ?? []).join(" ")}`;
  // A scope the belief already states (half or more of the scope's words) does not narrow it; a separate part or an
  // exception names what lies outside the belief, so it always does. A scope that names a new or amended frame
  // ("under the amended law") is a change of state, not a narrowing.
  const context = contextCues(evidence).filter(
    (c) =>
      (c.scope === "" ||
        c.kind === "separate_part" ||
        lexicalOverlap(beliefSide, c.scope).beliefCoverage < (c.kind === "leading_scope" || c.kind === "restricted_subject" ? 1 : 0.5)) &&
      changeCues(c.match).length === 0,
  );
  const e = negationCues(evidence);
  const b = negationCues(belief.text);
  const rebut: string[] = [];
  const support: string[] = [];

  // Negation scoped to its clause, compared on aligned clauses. A negator that only turns a bound around ("never
  // more than fifty" for "at most 50", read by the numeric comparison) is not a denial.
  const numbers = compareQuantities(evidence, belief.text);
  // Only when the evidence value falls inside the belief's bound (a loose match across nouns is too weak to clear a flip).
  const boundKept = numbers.withinBound > 0 && NEGATED_BOUND.test(evidence);
  const polarity = boundKept ? { ...comparePolarity(evidence, belief.text), flips: [], crossed: [] } : comparePolarity(evidence, belief.text);
  const antonyms = antonymConflicts(evidence, belief.text);
  // A negated antonym restates the belief ("does not open" for "is closed"): the two flips cancel.
  const doubleNegation = polarity.flips.length > 0 && antonyms.length > 0;
  if (doubleNegation) {
    support.push(`negated antonym (${quote(antonyms)})`);
  } else if (polarity.flips.length > 0) {
    const f = polarity.flips[0];
    rebut.push(`negation on the same clause (${quote(f?.evidence.negated ? f.evidence.negators : (f?.belief.negators ?? []))})`);
  } else if (polarity.crossed.length > 0) {
    rebut.push(`asserts what the belief rules out (${quote(polarity.crossed)})`);
  }
  for (const a of polarity.bothNegated) support.push(`both negate "${a.shared.join(" ")}"`);
  const reversals = e.reversals.filter((r) => !b.reversals.includes(r));
  const equal = equalityAgainstComparison(evidence, belief.text);
  if (equal !== null && !reversals.some((r) => r.includes(equal))) reversals.push(equal);
  if (reversals.length > 0) rebut.push(`reversal (${quote(reversals)})`);
  const continuity = continuityCues(evidence);
  // A change the belief itself reports ("no longer sells") is not contradicted by another report of change.
  const changes = b.changes.length > 0 ? [] : e.changes;
  if (changes.length > 0 && continuity.length === 0) rebut.push(`change of state (${quote(changes)})`);
  if (continuity.length > 0) support.push(`continuity (${quote(continuity)})`);
  for (const c of numbers.conflicts) {
    rebut.push(`numeric conflict (${round(c.evidence.value)} vs ${round(c.belief.value)} ${c.belief.unit})`);
  }
  // A count against a bound the belief states, in another noun ("at most 8 lanes" / "12 checkouts open").
  if (numbers.looseOutsideBound > 0) rebut.push("count outside the belief's bound");
  for (const m of numbers.matches) support.push(`same quantity (${round(m.value)} ${m.unit})`);
  if (b.direction !== 0 && e.direction !== 0) {
    if (Math.sign(b.direction) !== Math.sign(e.direction)) rebut.push("opposite direction of effect");
    else support.push("same direction of effect");
  }
  if (antonyms.length > 0 && !doubleNegation) rebut.push(`antonym (${quote(antonyms)})`);
  const quantifiers = compareQuantifiers(evidence, belief.text);
  if (quantifiers.counterexample) rebut.push("counterexample to a universal claim");
  const named = namedValueClash(evidence, belief.text);
  if (named) rebut.push(`different value in the same slot (${quote(named[0])} vs ${quote(named[1])})`);
  const days = named ? null : (dayTimeClash(evidence, belief.text) ?? monthClash(evidence, belief.text));
  // The belief's own sentence with another word in one place ("from the release branch" for "from the main branch"),
  // unless the swap only restates what the belief already says elsewhere or a number the numeric check reads.
  const swapped = rebut.length === 0 && numbers.conflicts.length === 0 && numbers.matches.length === 0 ? substitution(evidence, belief.text, { slotOnly: true }) : null;
  if (swapped) rebut.push(`another value in the belief's own sentence ("${swapped[0]}" for "${swapped[1]}")`);

  // A different value under a named condition ("At weekends the shop opens at 10") says where the belief's value does
  // not hold; against a bound ("stays below 512 MB", "never more than 3") any exceeding value is a counterexample.
  const scopedValue =
    numbers.conflicts.length > 0 &&
    numbers.conflicts.every((c) => c.belief.bound === undefined) &&
    context.some((c) => c.kind === "leading_scope") &&
    rebut.every((r) => r.startsWith("numeric conflict") || r.startsWith("opposite direction"));
  return {
    scopedValue,
    quantities: {
      withinBound: numbers.withinBound,
      outsideBound: numbers.outsideBound,
      typed: numbers.typedConflicts,
      looseConflicts: numbers.looseConflicts,
      looseMatches: numbers.looseMatches,
      periodMatches: numbers.periodMatches,
      unanchored: numbers.unanchoredConflicts,
    },
    dayClash: days !== null,
    scoped: context.some((c) => c.kind !== "date" && c.kind !== "frame_of_reference"),
    partial: partialAgreement(evidence, belief.text),
    valueSplit: valueSplit(evidence, belief.text),
    sameDimension: numbers.sameDimension > 0,
    coverage: overlap.beliefCoverage,
    beliefTerms: overlap.shared.length === 0 ? contentTokens(belief.text).length : Math.round(overlap.shared.length / overlap.beliefCoverage),
    shared: overlap.shared,
    refersBack: refersBack(evidence),
    context,
    rebut,
    support,
    narrowing: quantifiers.narrowing,
    ...(semantic !== undefined ? { semantic } : {}),
    ...(parts !== undefined ? { parts } : {}),
  };
}

/**
 * Partial agreement: one evidence clause restates a belief clause with the same polarity and another evidence clause,
 * tied to the belief or to that clause by a shared word, carries the opposite polarity.
 */
export function partialAgreement(evidence: string, belief: string): boolean {
  const e = clauses(evidence);
  if (e.length < 2) return false;
  const b = clauses(belief);
  const agreeing = alignClauses(e, b).filter((a) => a.evidence.negated === a.belief.negated && a.coverage >= 0.5);
  return agreeing.some((a) =>
    e.some(
      (other) =>
        other !== a.evidence &&
        other.negated !== a.belief.negated &&
        (sharedStems(other.stems, a.belief.stems).length > 0 || sharedStems(other.stems, a.evidence.stems).length > 0),
    ),
  );
}

/** The kind of a pinned value (./slot-values): a duration or period, a time of day, a number, a share, a quantifier, a name. */
const valueKind = (v: string) => (/^[dtnp]\d/.test(v) ? v.charAt(0) : v.startsWith("q:") ? "q" : "name");

/**
 * Values split across clauses: one clause of the evidence states the belief's value (a quantity inside the belief's,
 * or a value the belief pins) and another clause a different value of the same kind (a conflicting quantity; another
 * number, time, period, day): "Two weeks' notice is for part-time staff; full-time staff give four weeks". The
 * evidence draws where the belief's value holds, as `partialAgreement` does with polarity, rather than denying it.
 */
export function valueSplit(evidence: string, belief: string): boolean {
  const parts = clauses(evidence).map((c) => c.text);
  if (parts.length < 2) return false;
  const quantities = parts.map((c) => compareQuantities(c, belief));
  const agrees = quantities.findIndex((q) => q.matches.length > 0 && q.conflicts.length === 0);
  if (agrees >= 0 && quantities.some((q, i) => i !== agrees && (q.conflicts.length > 0 || q.looseConflicts > 0))) return true;
  const pinned = slotValues(belief);
  const kinds = new Set([...pinned].map(valueKind));
  const values = parts.map((c) => [...slotValues(c)]);
  const restates = values.findIndex((vs) => vs.some((v) => pinned.has(v)));
  return restates >= 0 && values.some((vs, i) => i !== restates && vs.some((v) => !pinned.has(v) && kinds.has(valueKind(v))));
}

/**
 * Embedding similarity bands (all-MiniLM-L6-v2 cosines; sentences that only share a subject score about 0.5 on the dev
 * set, paraphrases 0.6 and up): at or above RELATED_COSINE two sentences are about the same
 * thing even with no shared word; below UNRELATED_COSINE they are not, unless they share half the belief's words.
 */
export const RELATED_COSINE = 0.6;
export const UNRELATED_COSINE = 0.2;

/** The committed fitted relation model (null when its weight file is stale: the rule order alone decides). */
export const RELATION_MODEL: RelationModel | null = loadRelationModel();

/**
 * Relation of `evidence` to `belief`, decided in this order:
 * 1. UNRELATED unless the evidence covers ≥ 30 % of the belief's content stems (a restated quantity counts as a
 *    stem), refers back to it ("It…", "This limit…"), shares a word and names a scope, or covers ≥ 15 % and
 *    carries a conflict cue; with an embedder, a cosine ≥ RELATED_COSINE also relates them and one below
 *    UNRELATED_COSINE unrelates them unless they share half the belief's words;
 * 2. CONTEXTUALIZES on a strong scope cue (only for / holds for / exempt / limited to / not studied / "When…," /
 *    "In regions where…," / for the X team / weaker when / a separate X), or on a different value for the belief's
 *    (unbounded) quantity stated under a leading condition ("At weekends the shop opens at 10");
 * 3. REBUTS on a negation flip between aligned clauses, a word the belief only uses under its negation, reversal,
 *    change of state (without "still"; "since the new X"), numeric conflict on the same dimension (or a count in
 *    another noun outside a bound the belief states: "at most 20 X" / "running 45 Y"), another weekday,
 *    another noun-phrase filler in the belief's own sentence ("from the release branch" for "from the main branch"),
 *    opposite effect, antonym or counterexample;
 * 4. CONTEXTUALIZES when the evidence agrees in one clause and denies in another, on a weak scope cue (a bounding
 *    date, a time zone, a leading frame without a comma) or a quantifier that narrows a universal claim;
 * 5. otherwise SUPPORTS.
 * A quantity in the belief's unit (a measurement of the same slot) also relates the two.
 * strength = clamp(base + 0.35·coverage + 0.1·min(2, cues)) with base 0.35 (supports), 0.4 (rebuts), 0.3 (contextualizes).
 */
export function classifyRelation(
  evidence: string,
  belief: BeliefText,
  semantic?: number,
  bands: { related: number; unrelated: number } = { related: RELATED_COSINE, unrelated: UNRELATED_COSINE },
  model: RelationModel | null = RELATION_MODEL,
  parts?: PartCosines,
  vectors?: PairVectors,
): Omit<RelationAssessment, "assessor"> {
  const s = relationSignals(evidence, belief, semantic, parts);
  const byRules = classifyBySignals(s, semantic, bands);
  // Confidence: the fitted model's probability of its label where it reads the pair, else the rules' strength.
  if (model === null) return { ...byRules, confidence: byRules.strength };
  // The fitted model decides the label from the same signals (./relation-model); the rules' reading explains it when
  // both agree, and the cues found are listed when they do not.
  const mode = semantic === undefined ? (model.wordsOnlyMode ?? model.mode) : model.mode;
  if (mode === "hybrid" && byRules.relation !== "UNRELATED" && decisiveCue(s)) return { ...byRules, confidence: byRules.strength };
  const set = semantic === undefined ? model.wordsOnly : model.semantic;
  // What kind of statement the evidence is, from its embedding (zeros, the pool's average, without one).
  const kind = semantic === undefined ? undefined : readEvidenceKind(model.evidenceKinds, vectors);
  const predicted = predictRelation(set, relationFeatures(evidence, belief, s, kind));
  const confidence = round(predicted.probability);
  if (predicted.relation === byRules.relation) return { ...byRules, confidence };
  return { ...explainModelLabel(s, predicted.relation, predicted.probability, semantic), confidence };
}

type RuleReading = Omit<RelationAssessment, "assessor" | "confidence" | "guess">;

/**
 * A structural cue that decides the rule reading on its own: a scope cue that names where the belief holds, another
 * value under a condition, or a conflict (negation on an aligned clause, number, slot, change of state…). In the
 * "hybrid" mode of the fitted model, these keep the rules' label; the model reads the rest.
 */
export function decisiveCue(s: RelationSignals): boolean {
  return s.context.some((c) => c.strong) || s.scopedValue || s.rebut.length > 0;
}

/** Reasoning and strength for a label the fitted model chose where the rule order would have chosen another. */
function explainModelLabel(s: RelationSignals, relation: DecidedRelation, probability: number, semantic?: number): RuleReading {
  const touched = `shares ${s.shared.length > 0 ? quote(s.shared) : "no content word"} with the belief`;
  const meaning = semantic === undefined ? "" : ` (meaning similarity ${round(semantic)})`;
  const closeness = Math.max(s.coverage, semantic ?? 0);
  const p = `fitted model, p ${round(probability)}`;
  const cues = [...s.rebut.map((r) => `against: ${r}`), ...s.support.map((r) => `for: ${r}`), ...s.context.map((c) => `scope: "${c.match}"`)];
  const listed = cues.length > 0 ? `; cues: ${cues.join("; ")}` : "";
  switch (relation) {
    case "UNRELATED":
      return { relation, strength: 0, reasoning: `Heuristic (${p}): the evidence ${touched}${meaning}; it does not bear on it${listed}.` };
    case "REBUTS":
      return { relation, strength: round(clamp(0.4 + 0.35 * closeness, 0.1, 0.95)), reasoning: `Heuristic (${p}): the evidence ${touched}${meaning} and contradicts it${listed}.` };
    case "CONTEXTUALIZES":
      return { relation, strength: round(clamp(0.3 + 0.35 * closeness, 0.1, 0.9)), reasoning: `Heuristic (${p}): the evidence ${touched}${meaning} and narrows or qualifies where it holds${listed}.` };
    default:
      return { relation, strength: round(clamp(0.35 + 0.35 * closeness, 0.1, 0.95)), reasoning: `Heuristic (${p}): the evidence ${touched}${meaning} and agrees with it${listed}.` };
  }
}

/** The rule order over the signals (the reading before the fitted model, and its explanation). */
function classifyBySignals(
  s: RelationSignals,
  semantic: number | undefined,
  bands: { related: number; unrelated: number },
): RuleReading {
  const strong = s.context.filter((c) => c.strong);
  const weak = s.context.filter((c) => !c.strong);
  const touched = `shares ${s.shared.length > 0 ? quote(s.shared) : "no content word"} with the belief`;
  // A restated quantity ("02:00" for "2 a.m.") counts as one more shared term.
  const matchedQuantities = s.support.filter((x) => x.startsWith("same quantity")).length;
  const coverage = s.coverage + matchedQuantities / Math.max(1, s.beliefTerms);
  const lexicallyRelated =
    coverage >= MIN_COVERAGE ||
    s.refersBack ||
    (s.sameDimension && (s.shared.length > 0 || (semantic ?? 0) >= bands.unrelated)) ||
    (s.shared.length > 0 && (strong.length > 0 || s.context.some((c) => c.kind === "leading_scope") || (s.rebut.some((r) => !r.startsWith("change of state")) && coverage >= MIN_COVERAGE / 2)));
  // With meaning: close enough alone, or not far apart and tied by shared words, a scope cue or a pointer back.
  const related =
    semantic === undefined
      ? lexicallyRelated
      : semantic >= bands.related ||
        (semantic >= bands.unrelated && (lexicallyRelated || strong.length > 0 || s.refersBack)) ||
        (lexicallyRelated && coverage >= 0.5);
  const meaning = semantic === undefined ? "" : ` (meaning similarity ${round(semantic)})`;
  if (!related) {
    return { relation: "UNRELATED", strength: 0, reasoning: `Heuristic: the evidence ${touched}${meaning}; it does not bear on it.` };
  }
  const describe = (cues: readonly ContextCue[]) => cues.map((c) => (c.tag ? `"${c.match}" → ${c.tag}` : `"${c.match}"`)).join("; ");
  const closeness = Math.max(s.coverage, semantic ?? 0);
  if (strong.length > 0) {
    return {
      relation: "CONTEXTUALIZES",
      strength: round(clamp(0.3 + 0.35 * closeness + 0.1 * Math.min(2, strong.length - 1), 0.1, 0.9)),
      reasoning: `Heuristic: the evidence ${touched}${meaning} and narrows where it holds (${describe(strong)}).`,
    };
  }
  if (s.scopedValue) {
    return {
      relation: "CONTEXTUALIZES",
      strength: round(clamp(0.3 + 0.35 * closeness, 0.1, 0.9)),
      reasoning: `Heuristic: the evidence ${touched}${meaning} and gives another value under a condition (${describe(weak)}): ${s.rebut.join("; ")}.`,
    };
  }
  if (s.rebut.length > 0) {
    return {
      relation: "REBUTS",
      strength: round(clamp(0.4 + 0.35 * closeness + 0.1 * Math.min(2, s.rebut.length - 1), 0.1, 0.95)),
      reasoning: `Heuristic: the evidence ${touched}${meaning} and contradicts it: ${s.rebut.join("; ")}.`,
    };
  }
  if (s.partial) {
    return {
      relation: "CONTEXTUALIZES",
      strength: round(clamp(0.3 + 0.35 * closeness, 0.1, 0.9)),
      reasoning: `Heuristic: the evidence ${touched}${meaning}, agrees with it in one part and denies it in another: it draws where it holds.`,
    };
  }
  if (weak.length > 0 || s.narrowing) {
    const why = weak.length > 0 ? describe(weak) : "a partial quantifier narrows a universal claim";
    return {
      relation: "CONTEXTUALIZES",
      strength: round(clamp(0.25 + 0.35 * closeness, 0.1, 0.8)),
      reasoning: `Heuristic: the evidence ${touched}${meaning} and qualifies it (${why}).`,
    };
  }
  return {
    relation: "SUPPORTS",
    strength: round(clamp(0.35 + 0.35 * closeness + 0.1 * Math.min(2, s.support.length), 0.1, 0.95)),
    reasoning: `Heuristic: the evidence ${touched}${meaning} without negation, conflict or scope cues${s.support.length > 0 ? `; ${s.support.join("; ")}` : ""}.`,
  };
}

/**
 * ESS: pressure cues, or pressure read from the message's shape (./message-shape), make the text manipulative
 * (ESS ≤ 0.05); otherwise the weakest honest reasoning kind decides.
 */
export function assessEss(text: string): Omit<EssAssessment, "assessor"> {
  const pressure = pressureCues(text);
  const shape = pressure.length === 0 ? pressureByShape(text) : null;
  if (shape !== null) {
    return {
      ess: 0.05,
      reasoningType: shapeReasoningType(shape),
      manipulative: true,
      reasoning: `Heuristic: pressure rather than evidence, by its shape (aimed at the reader, ${shape}, nothing observed or cited).`,
    };
  }
  const first = pressure[0];
  if (first !== undefined) {
    return {
      ess: 0.05,
      reasoningType: first.kind,
      manipulative: true,
      reasoning: `Heuristic: pressure rather than evidence (${pressure.map((p) => `${p.kind.replace(/_/g, " ")}: "${p.match}"`).join("; ")}).`,
    };
  }
  const strength = evidenceStrength(text);
  const cue = strength.cues[0];
  return {
    ess: strength.ess,
    reasoningType: strength.type,
    manipulative: false,
    reasoning:
      `Heuristic: ${strength.type.replace(/_/g, " ")} evidence${cue ? ` ("${cue.match}")` : ""}` +
      `${strength.hedges.length > 0 ? `, hedged (${quote(strength.hedges)})` : ""}; ESS ${strength.ess}.`,
  };
}

/** The committed fitted manipulation model (null when its weight file is stale: the cues alone decide). */
export const MANIPULATION_MODEL: ManipulationModel | null = loadManipulationModel();

/**
 * ESS with meaning: the cues of `assessEss` first; where they find no pressure, the fitted model
 * (./manipulation-model) reads the message's embedding and shape, and at or above its threshold marks it manipulative,
 * naming the pressure kind whose prototype is nearest. The model's reading is set aside for a message that hands over
 * checkable evidence, asks an open question or reports someone else's words with no push of its own (manipulation-model
 * `setAside`): there the cues alone decide. `vector` is the message's normalised embedding from the model's
 * own embedding model.
 */
export function assessEssWithMeaning(text: string, vector: ArrayLike<number>, model: ManipulationModel): Omit<EssAssessment, "assessor"> {
  const words = assessEss(text);
  if (words.manipulative) return words;
  const reading = readManipulation(model, text, vector);
  if (!reading.manipulative) return words;
  return {
    ess: 0.05,
    reasoningType: reading.kind,
    manipulative: true,
    reasoning: `Heuristic (fitted model, p ${round(reading.probability)}): pressure rather than evidence, read from the message's meaning and shape (nearest kind: ${reading.kind.replace(/_/g, " ")}).`,
  };
}

function tagsOf(belief: BeliefText | string): string[] {
  if (typeof belief === "string") return contextTags(belief);
  return [...new Set([...(belief.contextTags ?? []), ...contextTags(belief.text)])];
}

const stripEnd = (s: string) => s.trim().replace(/[.!?]+$/, "");
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0]?.toLowerCase() + s.slice(1) : s);

export interface HeuristicAssessorOptions {
  /**
   * Sentence embeddings for telling related from unrelated text by meaning (and for `similarity`). Without one the
   * assessor reads words only. An embedding failure falls back to the lexical reading for that call.
   */
  embedder?: Embedder | null;
  /** Cosine bands for related / unrelated (defaults RELATED_COSINE, UNRELATED_COSINE). */
  cosineBands?: { related: number; unrelated: number };
  /** The fitted relation model (default RELATION_MODEL); null reads by the rule order alone. */
  relationModel?: RelationModel | null;
  /** The fitted manipulation model (default MANIPULATION_MODEL); null reads pressure by the cues alone. */
  manipulationModel?: ManipulationModel | null;
}

/** What the embeddings say about one (evidence, belief) pair: the reading `classifyRelation` takes beside the words. */
export interface PairMeaning {
  semantic?: number;
  parts?: PartCosines;
  /** The two sentence vectors (a `PairVectors`), as the embedder made them. */
  vectors?: PairVectors & { evidence: Float32Array; belief: Float32Array };
}

/**
 * The cosine of the evidence to the belief and to the belief's subject and predicate (two more embeddings, which tell
 * "same subject, another matter" from evidence on what it asserts), and the closest word swap between the two
 * (./word-swap: the single words only one side uses, in a second batch; a cached embedder pays for each word once). One place for the assessor, the fitting script and the measurement scripts. Throws what the embedder throws.
 */
export async function readPairMeaning(embedder: Embedder, evidence: string, belief: string): Promise<PairMeaning> {
  const split = beliefParts(belief);
  const words = swapCandidates(evidence, belief);
  const texts = split === null ? [evidence, belief] : [evidence, belief, split.subject, split.predicate];
  const [ve, vb, vs, vp] = await embedder.embed(texts);
  if (!ve || !vb) return {};
  // The words in a batch of their own: batched with the sentences, each would be padded to a sentence's length.
  const vectors = words.belief.length > 0 && words.evidence.length > 0 ? await embedder.embed([...words.belief, ...words.evidence]) : [];
  const wordVectors = (from: number, count: number) => vectors.slice(from, from + count).filter((v): v is Float32Array => v !== undefined);
  const wordSwap = closestSwap(wordVectors(0, words.belief.length), wordVectors(words.belief.length, words.evidence.length));
  const semantic = cosine(ve, vb);
  const pair = { model: modelKey(embedder.model), evidence: ve, belief: vb };
  // Without a split both parts read as the whole belief (as relationFeatures reads a missing part).
  return { semantic, vectors: pair, parts: { subject: vs ? cosine(ve, vs) : semantic, predicate: vp ? cosine(ve, vp) : semantic, wordSwap } };
}

export function createHeuristicAssessor(options: HeuristicAssessorOptions = {}): Assessor {
  const embedder = options.embedder ?? null;
  const meaningOf = async (evidence: string, belief: string): Promise<PairMeaning> => {
    if (embedder === null) return {};
    try {
      return await readPairMeaning(embedder, evidence, belief);
    } catch (error) {
      if (error instanceof EmbeddingError) return {};
      throw error;
    }
  };
  const assessEvidence: Assessor["assessEvidence"] = async (text) => {
    const model = options.manipulationModel === undefined ? MANIPULATION_MODEL : options.manipulationModel;
    if (embedder === null || model === null || modelKey(embedder.model) !== model.embeddingModel) return { ...assessEss(text), assessor: HEURISTIC_STAMP };
    try {
      const [vector] = await embedder.embed([text]);
      if (vector) return { ...assessEssWithMeaning(text, vector, model), assessor: HEURISTIC_STAMP };
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
    }
    return { ...assessEss(text), assessor: HEURISTIC_STAMP };
  };
  const assessRelation: Assessor["assessRelation"] = async (evidence, belief) => {
    const model = options.relationModel === undefined ? RELATION_MODEL : options.relationModel;
    const meaning = await meaningOf(evidence, belief.text);
    return { ...classifyRelation(evidence, belief, meaning.semantic, options.cosineBands, model, meaning.parts, meaning.vectors), assessor: HEURISTIC_STAMP };
  };
  return {
    name: HEURISTIC_STAMP,
    heuristic: true,

    assessEvidence,
    assessRelation,

    async assessContraction(belief, rebuttals, supports): Promise<ContractionAssessment> {
      // R, S = Σ ESS · (relation strength when the reading agrees with the stated direction, else half of it), each
      // text read as assessEvidence and assessRelation read it (with the embedding model and fitted models when loaded).
      const weigh = async (texts: readonly string[], expected: "REBUTS" | "SUPPORTS") => {
        let sum = 0;
        for (const t of texts) {
          const [e, r] = await Promise.all([assessEvidence(t), assessRelation(t, belief)]);
          sum += e.ess * (r.relation === expected ? r.strength : 0.5 * Math.max(r.strength, 0.3));
        }
        return sum;
      };
      const R = await weigh(rebuttals, "REBUTS");
      const S = await weigh(supports, "SUPPORTS");
      const contract = rebuttals.length >= 3 && R > 0 && R >= S;
      // severity = clamp((R − S)/(R + S) + 0.25, 0.1, 0.9); 1 (retire) only when nothing supports the belief.
      const severity = !contract ? 0 : S === 0 && R >= 1 ? 1 : round(clamp((R - S) / (R + S) + 0.25, 0.1, 0.9));
      return {
        contract,
        severity,
        reasoning: `Heuristic: ${rebuttals.length} rebuttal(s) weigh ${round(R)} against ${supports.length} support(s) weighing ${round(S)}; ${contract ? `contract with severity ${severity}` : "no contraction"}.`,
        assessor: HEURISTIC_STAMP,
      };
    },

    async analyseConflict(proposed, existing): Promise<ConflictAssessment> {
      const overlap = lexicalOverlap(proposed, existing.text);
      const proposedTerms = new Set(contentTokens(proposed).map((t) => t.stem));
      const existingTerms = new Set(contentTokens(existing.text).map((t) => t.stem));
      const extra = [...proposedTerms].filter((t) => !existingTerms.has(t));
      const signals = relationSignals(proposed, existing);
      const conflicting = signals.rebut.length > 0;
      const pTags = tagsOf(proposed);
      const eTags = tagsOf(existing);
      const sharedTag = pTags.some((p) => eTags.some((e) => textSimilarity(p, e) >= 0.7));
      const moreSpecific = !conflicting && overlap.beliefCoverage >= 0.75 && extra.length > 0 && proposedTerms.size > existingTerms.size;
      const differentContext = !moreSpecific && (pTags.length > 0 || eTags.length > 0) && !sharedTag;
      const proposedContextTags = differentContext ? (pTags.length > 0 ? pTags : eTags.map((t) => `outside ${t}`)) : [];
      const existingContextTags = differentContext ? (eTags.length > 0 ? eTags : pTags.map((t) => `outside ${t}`)) : [];
      const reasoning = moreSpecific
        ? `Heuristic: the proposal restates ${Math.round(overlap.beliefCoverage * 100)}% of the existing belief and adds ${quote(extra.slice(0, 5))}.`
        : differentContext
          ? `Heuristic: the two name different scopes (${proposedContextTags.join(", ")} vs ${existingContextTags.join(", ")}).`
          : `Heuristic: neither more specific nor scoped differently${conflicting ? `; conflict cues: ${signals.rebut.join("; ")}` : ""}.`;
      return { moreSpecific, differentContext, proposedContextTags, existingContextTags, reasoning, assessor: HEURISTIC_STAMP };
    },

    async similarity(a, b) {
      return textSimilarity(a, b);
    },

    async extractClaims(text): Promise<ExtractedClaim[]> {
      const claims: ExtractedClaim[] = [];
      for (const sentence of splitSentences(text)) {
        const trimmed = sentence.trim();
        // Questions and pure pressure assert nothing about the world.
        if (trimmed.endsWith("?") || contentTokens(trimmed).length < 2 || pressureCues(trimmed).length > 0) continue;
        const quantity = extractQuantity(trimmed);
        claims.push(quantity ? { text: trimmed, quantity } : { text: trimmed });
      }
      return claims;
    },

    async phraseRecall(_question, dominant, competing): Promise<RecallPhrasing> {
      const dTags = tagsOf(dominant);
      const dominantAnswer = dTags.length > 0 && !dominant.text.toLowerCase().includes(dTags[0] ?? "")
        ? `${stripEnd(dominant.text)} (in ${dTags.join(", ")}).`
        : `${stripEnd(dominant.text)}.`;
      const competingInterpretation = competing === null ? null : `A competing view holds that ${lowerFirst(stripEnd(competing.text))}.`;
      return {
        dominantAnswer,
        competingInterpretation,
        reasoning: competing === null
          ? "Heuristic: the dominant belief restated; no competing belief."
          : "Heuristic: the dominant belief restated, the competing one kept visible beside it.",
        assessor: HEURISTIC_STAMP,
      };
    },

    async proposeSynthesis(a, b): Promise<SynthesisProposal> {
      const aTags = tagsOf(a);
      const bTags = tagsOf(b);
      const aText = lowerFirst(stripEnd(a.text));
      const bText = lowerFirst(stripEnd(b.text));
      const scoped = aTags.length > 0 && bTags.length > 0;
      const text = scoped
        ? `In ${aTags.join(" and ")}, ${aText}, whereas in ${bTags.join(" and ")}, ${bText}.`
        : `Whether ${aText} or ${bText} depends on the context in which each was observed.`;
      const contextTags = scoped ? [...new Set([...aTags, ...bTags])] : ["context-dependent"];
      return {
        text,
        contextTags,
        reasoning: scoped
          ? "Heuristic: each side keeps the scope its own text names."
          : "Heuristic: neither side names a scope, so the synthesis only marks the claim as context-dependent.",
        assessor: HEURISTIC_STAMP,
      };
    },
  };
}
