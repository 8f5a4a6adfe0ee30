/**
 * The offline default assessor (docs/design.md §6): deterministic heuristics over lexical overlap, negation and antonym cues,
 * numeric and quantifier conflicts, scope/context cues, weak-evidence cues and pressure cues. No network, no clock,
 * no randomness: the same input always yields the same result. The UI labels its results "heuristic".
 */
import { createHash } from "node:crypto";
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
import { alignClauses, clauses, comparePolarity, sharedStems } from "./parse/clauses";
import { changeCues } from "./signals/negation-cues";
import { compareQuantifiers, compareQuantities, writtenQuantity } from "./signals/numeric-cues";
import { plainReport, pressureByShape, shapeReasoningType } from "./signals/message-shape";
import { pressureCues } from "./signals/pressure-cues";
import { loadManipulationModel, type ManipulationModel, readManipulation } from "./models/manipulation-model";
import { COMMIT_AT, PARAPHRASE, relationConfidence } from "./models/relation-confidence";
import confidenceWeights from "./models/relation-confidence.json";
import manipulationWeights from "./models/manipulation-model.json";
import type { RelationSignals } from "./signals/relation-signals";
import { contentTokens } from "./parse/tokenize";
import { type WordAlignment, wordAlignment } from "./signals/word-alignment";

/** Bumped whenever a rule of this reader changes what it reads; the stamp hashes it with every model's weights. */
const RULES_VERSION = "rules-3";

/** `heuristic@<hash>`: the rules version and the fitted weights, hashed once at load (stable across runs). */
export const HEURISTIC_STAMP = `heuristic@${createHash("sha256").update(JSON.stringify([RULES_VERSION, COMMIT_AT, PARAPHRASE, confidenceWeights, manipulationWeights])).digest("hex").slice(0, 12)}`;

/** A belief counts as touched when the evidence covers at least this share of its content stems. */
const MIN_COVERAGE = 0.3;

const round = (x: number) => Math.round(x * 1000) / 1000;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const quote = (words: readonly string[]) => words.map((w) => `"${w}"`).join(", ");

/** A negator before a bound phrase in one clause: "never more than", "no single run took longer than". */
const NEGATED_BOUND = /\b(?:never|not|no|none)\b[^,;.]{0,40}?\b(?:more|longer|over|above|exceed(?:s|ed)?|beyond|fewer|less|shorter|under|below)\b/i;

export type { RelationSignals };

/** The cues behind a relation judgement, exported for tests and for the evaluation's error analysis. */
export function relationSignals(evidence: string, belief: BeliefText, semantic?: number): RelationSignals {
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
  const rebut: string[] = [];
  const support: string[] = [];

  // Negation scoped to its clause, compared on aligned clauses. A negator that only turns a bound around ("never
  // more than fifty" for "at most 50", read by the numeric comparison) is not a denial.
  const numbers = compareQuantities(evidence, belief.text);
  // Only when the evidence value falls inside the belief's bound (a loose match across nouns is too weak to clear a flip).
  const boundKept = numbers.withinBound > 0 && NEGATED_BOUND.test(evidence);
  const polarity = boundKept ? { ...comparePolarity(evidence, belief.text), flips: [] } : comparePolarity(evidence, belief.text);
  const flip = polarity.flips[0];
  if (flip) rebut.push(`negation on the same clause (${quote(flip.evidence.negated ? flip.evidence.negators : flip.belief.negators)})`);
  for (const a of polarity.bothNegated) support.push(`both negate "${a.shared.join(" ")}"`);
  for (const c of numbers.conflicts) {
    // As written in each text ("50 requests per minute" vs "100 requests per minute"), not in the normalised unit.
    rebut.push(`numeric conflict (“${writtenQuantity(evidence, c.evidence)}” against “${writtenQuantity(belief.text, c.belief)}”)`);
  }
  for (const m of numbers.matches) support.push(`same quantity (${round(m.value)} ${m.unit})`);
  const quantifiers = compareQuantifiers(evidence, belief.text);

  // A different value under a named condition ("At weekends the shop opens at 10") says where the belief's value does
  // not hold; against a bound ("stays below 512 MB", "never more than 3") any exceeding value is a counterexample.
  const scopedValue =
    numbers.conflicts.length > 0 &&
    numbers.conflicts.every((c) => c.belief.bound === undefined) &&
    context.some((c) => c.kind === "leading_scope") &&
    rebut.every((r) => r.startsWith("numeric conflict"));
  return {
    scopedValue,
    partial: partialAgreement(evidence, belief.text),
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

/**
 * Embedding similarity bands (all-MiniLM-L6-v2 cosines; sentences that only share a subject score about 0.5 on the dev
 * set, paraphrases 0.6 and up): at or above RELATED_COSINE two sentences are about the same
 * thing even with no shared word; below UNRELATED_COSINE they are not, unless they share half the belief's words.
 */
export const RELATED_COSINE = 0.6;
export const UNRELATED_COSINE = 0.2;

/**
 * Relation of `evidence` to `belief`: the rule order (`classifyBySignals`) reads a label, the confidence model
 * (./models/relation-confidence) gives the probability that the label is right, and a side (SUPPORTS or REBUTS: the
 * readings that move a credence) is committed only at or above its threshold in COMMIT_AT. Below it the reading is
 * UNDECIDED with the side as its guess: a wrong SUPPORTS or REBUTS moves a credence, an undecided link moves nothing.
 */
export function classifyRelation(
  evidence: string,
  belief: BeliefText,
  semantic?: number,
  bands: { related: number; unrelated: number } = { related: RELATED_COSINE, unrelated: UNRELATED_COSINE },
  alignment?: WordAlignment,
): Omit<RelationAssessment, "assessor"> {
  return commitOrUndecide(readRelation(evidence, belief, semantic, bands), semantic, alignment);
}

/** The rule order's label and the confidence model's probability that it is right, before the commit decision. */
export interface UncommittedReading {
  read: RuleReading;
  confidence: number;
}

/** The rule order's reading of a pair and its confidence (`classifyRelation` without the commit decision). */
export function readRelation(
  evidence: string,
  belief: BeliefText,
  semantic: number | undefined,
  bands: { related: number; unrelated: number } = { related: RELATED_COSINE, unrelated: UNRELATED_COSINE },
): UncommittedReading {
  const s = relationSignals(evidence, belief, semantic);
  const read = classifyBySignals(s, semantic, bands);
  return { read, confidence: round(relationConfidence(read.relation, s.coverage, semantic)) };
}

/**
 * Whether the paraphrase test could still commit a reading, so that the pair's word vectors are worth reading: a
 * SUPPORTS reading below its threshold, close enough by cosine.
 */
export function paraphraseCouldCommit({ read, confidence }: UncommittedReading, semantic: number | undefined): boolean {
  return read.relation === "SUPPORTS" && confidence < COMMIT_AT.SUPPORTS && semantic !== undefined && semantic >= PARAPHRASE.cosine;
}

/**
 * The commit decision: a side at or above its threshold in COMMIT_AT is committed, a SUPPORTS reading below it that
 * passes the paraphrase test (PARAPHRASE) too; any other side is UNDECIDED, with the side as its guess.
 */
function commitOrUndecide({ read, confidence }: UncommittedReading, semantic: number | undefined, alignment: WordAlignment | undefined): Omit<RelationAssessment, "assessor"> {
  if (alignment !== undefined && paraphraseCouldCommit({ read, confidence }, semantic) && alignment.weakest >= PARAPHRASE.alignment) {
    // Committed at the threshold: the alignment, not the confidence model, is what makes it sure enough.
    return {
      ...read,
      confidence: COMMIT_AT.SUPPORTS,
      reasoning: `${read.reasoning} Every content word on each side has a counterpart on the other (weakest: "${alignment.word}", ${round(alignment.weakest)}): the same claim in other words.`,
    };
  }
  if ((read.relation === "SUPPORTS" || read.relation === "REBUTS") && confidence < COMMIT_AT[read.relation]) {
    return {
      relation: "UNDECIDED",
      guess: read.relation,
      strength: 0,
      confidence,
      reasoning: `${read.reasoning} Not sure enough to commit (confidence ${confidence} below ${COMMIT_AT[read.relation]}): undecided, leaning ${read.relation}.`,
    };
  }
  return { ...read, confidence };
}

type RuleReading = Omit<RelationAssessment, "assessor" | "confidence" | "guess"> & { relation: DecidedRelation };

/** The rule order over the signals (the reading before the fitted model, and its explanation). */
export function classifyBySignals(
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
  // A plain report asks nothing of the reader: its shape (an exclamation, a crowd, a feeling) presses nothing.
  const shape = pressure.length === 0 && !plainReport(text) ? pressureByShape(text) : null;
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
  if (words.manipulative || plainReport(text)) return words;
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
  /** The fitted manipulation model (default MANIPULATION_MODEL); null reads pressure by the cues alone. */
  manipulationModel?: ManipulationModel | null;
}

/** What the embeddings say about one (evidence, belief) pair: the cosine `classifyRelation` takes beside the words. */
export interface PairMeaning {
  semantic?: number;
}

/** The cosine of the evidence to the belief. Throws what the embedder throws. */
export async function readPairMeaning(embedder: Embedder, evidence: string, belief: string): Promise<PairMeaning> {
  const [ve, vb] = await embedder.embed([evidence, belief]);
  if (!ve || !vb) return {};
  return { semantic: cosine(ve, vb) };
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
  const alignmentOf = async (evidence: string, belief: string): Promise<WordAlignment | undefined> => {
    if (embedder?.words === undefined) return undefined;
    try {
      const [we, wb] = await embedder.words([evidence, belief]);
      return we && wb ? wordAlignment(we, wb) : undefined;
    } catch (error) {
      if (error instanceof EmbeddingError) return undefined;
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
    const { semantic } = await meaningOf(evidence, belief.text);
    const reading = readRelation(evidence, belief, semantic, options.cosineBands);
    // Only a close SUPPORTS reading below its threshold needs the words (the local model kept them from the pair).
    const alignment = paraphraseCouldCommit(reading, semantic) ? await alignmentOf(evidence, belief.text) : undefined;
    return { ...commitOrUndecide(reading, semantic, alignment), assessor: HEURISTIC_STAMP };
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
        template: true,
      };
    },
  };
}
