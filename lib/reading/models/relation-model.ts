/**
 * A small fitted model over the heuristic's general signals: multinomial logistic regression from a fixed
 * feature vector (`relationFeatures`) to SUPPORTS / REBUTS / CONTEXTUALIZES / UNRELATED, in place of hand-set
 * thresholds and rule order. The weights live in `relation-model.json`, written by `npm run fit:relation-model`
 * (research/fit-relation-model.ts: fitted on the development pool — dev plus the retired held-out sets —
 * deterministic, with its grouped cross-validated and leave-one-set-out accuracies recorded in the file). Two weight
 * sets: one with the sentence embeddings (cosines, and the evidence-kind reading of `EvidenceKinds`, whose prototypes
 * the file also holds), one for words only.
 *
 * Every feature reads structure or meaning, never a topic: how much of the belief the evidence covers, the cosine of
 * the two sentences, negation / numeric / slot / change-of-state conflicts on aligned clauses, scope frames and
 * qualifiers, whether the evidence adds a frame (time, place, group, condition) that the belief does not state,
 * length ratio and the share of new content words, and the cosines of the evidence to the belief's subject and to its
 * predicate (./belief-parts: same subject but another matter reads as unrelated), the closest pair of words only one
 * side uses (./word-swap: another value in another frame), whether the evidence reports a first-person
 * observation, and whether it joins two statements. Quantities read with their dimension and bound (./numeric-cues):
 * an evidence value inside or outside a bound the belief states, conflicts in a measured dimension, counts compared
 * across nouns, a frequency's period restated as a duration, a conflict whose value sits among none of the belief's
 * words; another day or part of day in the "when" slot; a subject narrowed to a subset, a scope word inside the
 * sentence, two parts set against each other, a value conflict under a named scope (where the belief holds, not
 * a denial), and the belief's value in one clause with another value of its kind in the next. Pure: no I/O (the JSON is imported), no clock.
 */
import { z } from "zod";
import type { BeliefText, DecidedRelation } from "@/lib/engine/assessor";
import { beliefParts } from "../parse/belief-parts";
import { contentTokens, tokenize } from "../parse/tokenize";
import type { RelationSignals } from "../signals/relation-signals";
import weights from "./relation-model.json";

export const MODEL_LABELS = ["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED"] as const satisfies readonly DecidedRelation[];

/** A clause opening on a frame: a preposition or subordinator before the main clause ("In winter, …", "When …"). */
const FRAME_OPENERS = new Set([
  "in", "on", "at", "during", "for", "between", "from", "when", "whenever", "if", "unless", "under", "after", "before",
  "within", "outside", "except", "apart", "besides", "once", "while", "until", "throughout", "among", "across", "where",
]);
/** Words that adjust a stated value or practice rather than deny it ("an extra week", "instead", "also"). */
const ADJUSTERS = new Set([
  "instead", "extra", "additional", "also", "too", "more", "less", "fewer", "longer", "shorter", "higher", "lower",
  "earlier", "later", "sometimes", "occasionally", "usually", "mostly", "partly", "some", "certain", "particular",
  "specific", "depending", "depends", "whereas", "while", "though", "although", "however", "except", "only",
]);
const UNIVERSALS = new Set(["all", "every", "each", "always", "never", "any", "none", "no", "everyone", "everything", "entirely", "altogether"]);
const PRONOUN_START = /^(?:it|its|this|that|these|those|they|he|she|such)\b/i;
/**
 * A first-person pronoun the belief does not use: the evidence reports the speaker's own observation or case ("I rang
 * at 3 a.m.", "our last three orders"), a single instance rather than a general claim.
 */
const FIRST_PERSON = new Set(["i", "me", "my", "mine", "we", "us", "our", "ours"]);
/**
 * Two statements joined by a semicolon or colon, or a second sentence: the shape of "holds here; elsewhere it is …",
 * where the evidence draws a line rather than simply agreeing or denying.
 */
const TWO_PART = /[;:]\s|[.!?]\s+[A-Z]/;
/**
 * Words inside the sentence that hold its claim to a condition, a period or a part ("if", "as long as", "during",
 * "applies to", "covers", "excludes", "between … and …"): the evidence says where or when, not whether.
 */
const EMBEDDED_QUALIFIER =
  /\b(?:if|unless|as long as|provided|only|whenever|during|applies to|apply to|applied to|covers?|covered|excludes?|excluded|except|between\s+\w+\s+and|until|from\s+\w+\s+to|depending on|(?:is|are)\s+(?:only\s+|just\s+|meant\s+|intended\s+)?for\s+(?!example|instance|now|years|a\b|an\b)|valid\s+(?:only\s+)?(?:for|in|on|at|when|while|until)|kicks?\s+in)\b/gi;
/** Two parts set against each other: "…; …", "… but …", "… whereas …", "… rather than …", "… instead". */
const CONTRAST = /;\s|\bbut\b|\bwhereas\b|\bwhile\b|\brather than\b|\binstead\b|\bnot\s+(?:for|in|on|at|between|to)\b/i;

/** Names of the features, in vector order (kept in the JSON to catch a stale weight file). */
export const FEATURE_NAMES = [
  "bias",
  "semantic",
  "semantic_sq",
  "coverage",
  "coverage_sq",
  "shared_log",
  "no_shared",
  "refers_back",
  "same_dimension",
  "rebut_any",
  "rebut_count",
  "negation_flip",
  "crossed",
  "reversal",
  "change_of_state",
  "numeric_conflict",
  "opposite_direction",
  "antonym",
  "counterexample",
  "slot_clash",
  "substitution",
  "support_count",
  "both_negated",
  "same_quantity",
  "continuity",
  "context_strong",
  "context_weak",
  "leading_scope",
  "scoped_value",
  "partial",
  "narrowing",
  "frame_opener",
  "adjusters",
  "universal_in_belief",
  "universal_in_evidence",
  "new_content_share",
  "length_ratio_log",
  "evidence_has_number",
  "belief_has_number",
  "evidence_clauses",
  "pronoun_start",
  "subject_cosine",
  "predicate_cosine",
  "predicate_over_subject",
  "first_person_report",
  "two_part",
  "within_bound",
  "outside_bound",
  "typed_conflict",
  "loose_conflict",
  "loose_match",
  "period_match",
  "day_clash",
  "restricted_subject",
  "scoped_conflict",
  "embedded_qualifier",
  "contrast",
  "unanchored_conflict",
  "subject_words_kept",
  "predicate_words_kept",
  "evidence_like_supports",
  "evidence_like_rebuts",
  "evidence_like_contextualizes",
  "evidence_like_unrelated",
  "word_swap",
  "value_split",
] as const;

/** The four evidence-kind features, in MODEL_LABELS order (read from the evidence's embedding, ./EvidenceKinds). */
export const EVIDENCE_KIND_FEATURES = ["evidence_like_supports", "evidence_like_rebuts", "evidence_like_contextualizes", "evidence_like_unrelated"] as const;

const has = (xs: readonly string[], prefix: string) => (xs.some((x) => x.startsWith(prefix)) ? 1 : 0);

/**
 * What kind of statement the evidence is, read from its sentence embedding: the part of the evidence
 * vector the belief does not already say (`beyondBelief`: the evidence minus its projection on the belief), centred on
 * the development pool's mean, and its cosine to each label's prototype direction (that label's mean minus the pool
 * mean, normalised). Across the pool every belief comes with one evidence of each label on its own topic, so these
 * directions cannot learn topics: they carry the shape of what the evidence adds — a log line or a measured reading
 * (supports), a report of a change or a contrary setting (rebuts), a rule stated for a part or a condition
 * (contextualizes), a fact about something else (unrelated). Fitted with the model, stored in its JSON, only for the
 * embedding model they were computed with.
 */
export interface EvidenceKinds {
  /** `modelKey` of the embedding model the prototypes were computed with. */
  embeddingModel: string;
  /** The pool's mean evidence vector. */
  mean: number[];
  /** One unit direction per label, MODEL_LABELS order. */
  directions: number[][];
}

/**
 * What the evidence says beyond the belief: the evidence vector minus its projection on the belief's, normalised (the
 * zero vector when the evidence is the belief).
 */
export function beyondBelief(evidence: ArrayLike<number>, belief: ArrayLike<number>): number[] {
  let eb = 0;
  let bb = 0;
  for (let j = 0; j < evidence.length; j++) {
    eb += (evidence[j] ?? 0) * (belief[j] ?? 0);
    bb += (belief[j] ?? 0) ** 2;
  }
  const along = bb > 0 ? eb / bb : 0;
  const rest = Array.from({ length: evidence.length }, (_, j) => (evidence[j] ?? 0) - along * (belief[j] ?? 0));
  const norm = Math.sqrt(rest.reduce((s, x) => s + x * x, 0));
  return norm > 1e-9 ? rest.map((x) => x / norm) : rest.map(() => 0);
}

/** Prototype directions from labelled vectors (`beyondBelief` of each pair) and their labels (MODEL_LABELS indices). */
export function evidenceKinds(vectors: readonly ArrayLike<number>[], labels: readonly number[], embeddingModel: string): EvidenceKinds {
  const dims = vectors[0]?.length ?? 0;
  const meanOf = (rows: readonly ArrayLike<number>[]) => Array.from({ length: dims }, (_, j) => rows.reduce((s, v) => s + (v[j] ?? 0), 0) / Math.max(1, rows.length));
  const mean = meanOf(vectors);
  const directions = MODEL_LABELS.map((_, c) => {
    const centre = meanOf(vectors.filter((_, i) => labels[i] === c));
    const diff = centre.map((x, j) => x - (mean[j] ?? 0));
    const norm = Math.sqrt(diff.reduce((s, x) => s + x * x, 0)) || 1;
    return diff.map((x) => x / norm);
  });
  const r = (x: number) => Math.round(x * 1e6) / 1e6;
  return { embeddingModel, mean: mean.map(r), directions: directions.map((d) => d.map(r)) };
}

/** The embeddings of one pair and the `modelKey` of the model that made them. */
export interface PairVectors {
  model: string;
  evidence: ArrayLike<number>;
  belief: ArrayLike<number>;
}

/**
 * The evidence-kind features of one pair (MODEL_LABELS order): cosines of its centred `beyondBelief` vector to each
 * prototype direction. Zeros (the pool's average reading) without vectors or for another embedding model's vectors.
 */
export function readEvidenceKind(kinds: EvidenceKinds | undefined, vectors: PairVectors | undefined): number[] {
  if (kinds === undefined || vectors === undefined || vectors.model !== kinds.embeddingModel || vectors.evidence.length !== kinds.mean.length || vectors.belief.length !== kinds.mean.length) {
    return MODEL_LABELS.map(() => 0);
  }
  const beyond = beyondBelief(vectors.evidence, vectors.belief);
  const centred = kinds.mean.map((m, j) => (beyond[j] ?? 0) - m);
  const norm = Math.sqrt(centred.reduce((s, x) => s + x * x, 0)) || 1;
  return kinds.directions.map((d) => d.reduce((s, x, j) => s + x * (centred[j] ?? 0), 0) / norm);
}

/**
 * The feature vector for one (evidence, belief) pair from the rule signals, in FEATURE_NAMES order. `kind` is the
 * evidence-kind reading (`readEvidenceKind`), zeros when absent.
 */
export function relationFeatures(evidence: string, belief: BeliefText, s: RelationSignals, kind: readonly number[] = [0, 0, 0, 0]): number[] {
  const eWords = tokenize(evidence).map((t) => t.word);
  const bWords = tokenize(belief.text).map((t) => t.word);
  const eContent = contentTokens(evidence);
  const bStems = new Set(contentTokens(belief.text).map((t) => t.stem));
  const newContent = eContent.filter((t) => !bStems.has(t.stem)).length / Math.max(1, eContent.length);
  const semantic = s.semantic ?? 0;
  const clauseCount = evidence.split(/[,;:]\s+|\s+(?:but|while|whereas|and then)\s+/i).filter((c) => c.trim().length > 0).length;
  const first = eWords[0] ?? "";
  // Word overlap with the belief's subject and with its predicate, apart: the same subject with another predicate
  // ("The club trains on Tuesdays" for "The club admits children from five") is about another matter.
  const split = beliefParts(belief.text);
  const eStems = new Set(eContent.map((t) => t.stem));
  const kept = (part: string | undefined) => {
    const stems = part === undefined ? [] : contentTokens(part).map((t) => t.stem);
    return stems.length === 0 ? s.coverage : stems.filter((x) => eStems.has(x)).length / stems.length;
  };
  const f: Record<(typeof FEATURE_NAMES)[number], number> = {
    bias: 1,
    semantic,
    semantic_sq: semantic * semantic,
    coverage: s.coverage,
    coverage_sq: s.coverage * s.coverage,
    shared_log: Math.log1p(s.shared.length),
    no_shared: s.shared.length === 0 ? 1 : 0,
    refers_back: s.refersBack ? 1 : 0,
    same_dimension: s.sameDimension ? 1 : 0,
    rebut_any: s.rebut.length > 0 ? 1 : 0,
    rebut_count: Math.min(3, s.rebut.length),
    negation_flip: has(s.rebut, "negation on the same clause"),
    crossed: has(s.rebut, "asserts what the belief rules out"),
    reversal: has(s.rebut, "reversal"),
    change_of_state: has(s.rebut, "change of state"),
    numeric_conflict: has(s.rebut, "numeric conflict"),
    opposite_direction: has(s.rebut, "opposite direction"),
    antonym: has(s.rebut, "antonym"),
    counterexample: has(s.rebut, "counterexample"),
    slot_clash: has(s.rebut, "different value in the same slot"),
    substitution: has(s.rebut, "another value in the belief's own sentence"),
    support_count: Math.min(3, s.support.length),
    both_negated: has(s.support, "both negate"),
    same_quantity: has(s.support, "same quantity"),
    continuity: has(s.support, "continuity"),
    context_strong: Math.min(2, s.context.filter((c) => c.strong).length),
    context_weak: Math.min(2, s.context.filter((c) => !c.strong).length),
    leading_scope: s.context.some((c) => c.kind === "leading_scope") ? 1 : 0,
    scoped_value: s.scopedValue ? 1 : 0,
    partial: s.partial ? 1 : 0,
    narrowing: s.narrowing ? 1 : 0,
    frame_opener: FRAME_OPENERS.has(first) ? 1 : 0,
    adjusters: Math.min(2, eWords.filter((w) => ADJUSTERS.has(w) && !bWords.includes(w)).length),
    universal_in_belief: bWords.some((w) => UNIVERSALS.has(w)) ? 1 : 0,
    universal_in_evidence: eWords.some((w) => UNIVERSALS.has(w)) ? 1 : 0,
    new_content_share: newContent,
    length_ratio_log: Math.log((eWords.length + 1) / (bWords.length + 1)),
    evidence_has_number: /\d/.test(evidence) ? 1 : 0,
    belief_has_number: /\d/.test(belief.text) ? 1 : 0,
    evidence_clauses: Math.min(3, clauseCount) - 1,
    pronoun_start: PRONOUN_START.test(evidence.trim()) ? 1 : 0,
    // Without a split (or an embedder) both parts read as the whole belief.
    subject_cosine: s.parts?.subject ?? semantic,
    predicate_cosine: s.parts?.predicate ?? semantic,
    predicate_over_subject: (s.parts?.predicate ?? semantic) - (s.parts?.subject ?? semantic),
    first_person_report: eWords.some((w) => FIRST_PERSON.has(w) && !bWords.includes(w)) ? 1 : 0,
    two_part: TWO_PART.test(evidence.trim()) ? 1 : 0,
    within_bound: s.quantities.withinBound > 0 ? 1 : 0,
    outside_bound: s.quantities.outsideBound > 0 ? 1 : 0,
    typed_conflict: s.quantities.typed > 0 ? 1 : 0,
    loose_conflict: s.quantities.looseConflicts > 0 && s.quantities.looseMatches === 0 ? 1 : 0,
    loose_match: s.quantities.looseMatches > 0 ? 1 : 0,
    period_match: s.quantities.periodMatches > 0 ? 1 : 0,
    day_clash: s.dayClash ? 1 : 0,
    restricted_subject: s.context.some((c) => c.kind === "restricted_subject") ? 1 : 0,
    // A conflict of values under a named subset or condition: where the belief holds, not a denial.
    embedded_qualifier: Math.min(2, (evidence.match(EMBEDDED_QUALIFIER) ?? []).length - (belief.text.match(EMBEDDED_QUALIFIER) ?? []).length > 0 ? (evidence.match(EMBEDDED_QUALIFIER) ?? []).length : 0),
    subject_words_kept: kept(split?.subject),
    predicate_words_kept: kept(split?.predicate),
    unanchored_conflict: s.quantities.unanchored > 0 ? 1 : 0,
    contrast: CONTRAST.test(evidence) && !CONTRAST.test(belief.text) ? 1 : 0,
    scoped_conflict: s.scoped && (s.rebut.length > 0 || s.dayClash || s.quantities.looseConflicts > 0) ? 1 : 0,
    evidence_like_supports: kind[0] ?? 0,
    evidence_like_rebuts: kind[1] ?? 0,
    evidence_like_contextualizes: kind[2] ?? 0,
    evidence_like_unrelated: kind[3] ?? 0,
    // The closest pair of words only one side uses (./word-swap): another value for the slot in another frame, or,
    // when far, another matter. 0 without an embedder.
    word_swap: s.parts?.wordSwap ?? 0,
    value_split: s.valueSplit ? 1 : 0,
  };
  return FEATURE_NAMES.map((n) => f[n]);
}

const weightSetSchema = z.object({
  /** Feature means and standard deviations (standardisation), then one weight row per label. */
  mean: z.array(z.number()),
  scale: z.array(z.number()),
  weights: z.array(z.array(z.number())).length(MODEL_LABELS.length),
  /**
   * Grouped k-fold cross-validated accuracy on the development pool (all pairs of one belief in one fold), and the
   * pool's size.
   */
  cvAccuracy: z.number(),
  /** Accuracy leaving one source file of the pool out at a time (absent in files written before it was measured). */
  losoAccuracy: z.number().optional(),
  trainAccuracy: z.number(),
  cases: z.number().int(),
  /** The L2 strength chosen by cross-validation. */
  l2: z.number(),
});
export type WeightSet = z.infer<typeof weightSetSchema>;

export const relationModelSchema = z.object({
  features: z.array(z.string()),
  /**
   * "model": the fitted model decides every pair; "hybrid": a decisive structural cue (heuristic-assessor
   * `decisiveCue`) keeps the rules' label and the model reads the rest. Chosen by the fitting script: hybrid only
   * when it wins leaving out the source files the rules were not written on.
   */
  mode: z.enum(["model", "hybrid"]),
  /** The same choice for the words-only weight set (absent: `mode`), made on its own estimates. */
  wordsOnlyMode: z.enum(["model", "hybrid"]).optional(),
  /** Grouped cross-validated accuracy of the hybrid on the pool (with embeddings). */
  hybridCvAccuracy: z.number(),
  folds: z.number().int(),
  /** The evidence-kind prototypes (`EvidenceKinds`) the semantic weight set reads. */
  evidenceKinds: z.object({ embeddingModel: z.string(), mean: z.array(z.number()), directions: z.array(z.array(z.number())).length(MODEL_LABELS.length) }),
  semantic: weightSetSchema,
  wordsOnly: weightSetSchema,
});
export type RelationModel = z.infer<typeof relationModelSchema>;

/** The committed model, or null when its feature list no longer matches FEATURE_NAMES (refit needed). */
export function loadRelationModel(raw: unknown = weights): RelationModel | null {
  const parsed = relationModelSchema.safeParse(raw);
  if (!parsed.success) return null;
  const same = parsed.data.features.length === FEATURE_NAMES.length && parsed.data.features.every((n, i) => n === FEATURE_NAMES[i]);
  return same ? parsed.data : null;
}

/** Softmax of a score vector. */
export function softmax(scores: readonly number[]): number[] {
  const max = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** Class probabilities of one feature vector under a weight set (MODEL_LABELS order). */
export function predictProbabilities(set: WeightSet, features: readonly number[]): number[] {
  const x = features.map((v, i) => (i === 0 ? 1 : (v - (set.mean[i] ?? 0)) / (set.scale[i] || 1)));
  return softmax(set.weights.map((row) => row.reduce((sum, w, i) => sum + w * (x[i] ?? 0), 0)));
}

/** The most probable label and its probability. */
export function predictRelation(set: WeightSet, features: readonly number[]): { relation: DecidedRelation; probability: number } {
  const p = predictProbabilities(set, features);
  let best = 0;
  for (let i = 1; i < p.length; i++) if ((p[i] ?? 0) > (p[best] ?? 0)) best = i;
  return { relation: MODEL_LABELS[best] as DecidedRelation, probability: p[best] ?? 0 };
}

/**
 * Fit a multinomial logistic regression with L2 (not on the bias): minimise the mean cross-entropy plus
 * l2/2 · Σ w² by L-BFGS (ten pairs of memory, backtracking line search) from zero weights, until the objective moves
 * by less than 1e-9 or after `iterations` steps: deterministic for the same inputs. Features are standardised on `xs`
 * (mean / scale stored with the weights). Typed arrays and plain loops: the fitting script refits it a few hundred
 * times (grouped folds × L2 grid × held-out sets), and L-BFGS reaches the optimum in a few hundred gradient
 * evaluations where plain gradient descent took thousands.
 */
export function fitSoftmax(xs: readonly number[][], ys: readonly number[], options: { l2: number; iterations?: number }): Omit<WeightSet, "cvAccuracy" | "trainAccuracy" | "cases" | "l2"> {
  const d = xs[0]?.length ?? 0;
  const k = MODEL_LABELS.length;
  const n = xs.length;
  const mean = Array.from({ length: d }, (_, j) => (j === 0 ? 0 : xs.reduce((s, x) => s + (x[j] ?? 0), 0) / n));
  const scale = Array.from({ length: d }, (_, j) => {
    if (j === 0) return 1;
    const v = xs.reduce((s, x) => s + ((x[j] ?? 0) - (mean[j] ?? 0)) ** 2, 0) / n;
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  // Row-major standardised inputs (n × d) and weights (k × d).
  const z = new Float64Array(n * d);
  xs.forEach((x, i) => {
    for (let j = 0; j < d; j++) z[i * d + j] = j === 0 ? 1 : ((x[j] ?? 0) - (mean[j] ?? 0)) / (scale[j] ?? 1);
  });
  const size = k * d;
  const p = new Float64Array(k);
  /** Objective at w; its gradient into g. */
  const objective = (w: Float64Array, g: Float64Array): number => {
    g.fill(0);
    let loss = 0;
    for (let i = 0; i < n; i++) {
      const row = i * d;
      let max = -Infinity;
      for (let c = 0; c < k; c++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += (w[c * d + j] as number) * (z[row + j] as number);
        p[c] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let c = 0; c < k; c++) {
        p[c] = Math.exp((p[c] as number) - max);
        sum += p[c] as number;
      }
      loss -= Math.log((p[ys[i] ?? 0] as number) / sum);
      for (let c = 0; c < k; c++) {
        const err = (p[c] as number) / sum - (ys[i] === c ? 1 : 0);
        for (let j = 0; j < d; j++) g[c * d + j] = (g[c * d + j] as number) + err * (z[row + j] as number);
      }
    }
    loss /= n;
    for (let c = 0; c < k; c++) {
      for (let j = 0; j < d; j++) {
        const at = c * d + j;
        g[at] = (g[at] as number) / n;
        if (j === 0) continue;
        g[at] = (g[at] as number) + options.l2 * (w[at] as number);
        loss += 0.5 * options.l2 * (w[at] as number) ** 2;
      }
    }
    return loss;
  };
  const dot = (a: Float64Array, b: Float64Array) => {
    let s = 0;
    for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
    return s;
  };
  let w = new Float64Array(size);
  let g = new Float64Array(size);
  let f = objective(w, g);
  const steps: Float64Array[] = [];
  const changes: Float64Array[] = [];
  const iterations = options.iterations ?? 500;
  for (let it = 0; it < iterations; it++) {
    // Two-loop recursion: q ≈ H⁻¹ g.
    const q = Float64Array.from(g);
    const alpha: number[] = [];
    for (let m = steps.length - 1; m >= 0; m--) {
      const a = dot(steps[m] as Float64Array, q) / dot(changes[m] as Float64Array, steps[m] as Float64Array);
      alpha[m] = a;
      const y = changes[m] as Float64Array;
      for (let i = 0; i < size; i++) q[i] = (q[i] as number) - a * (y[i] as number);
    }
    const last = steps.length - 1;
    if (last >= 0) {
      const gamma = dot(steps[last] as Float64Array, changes[last] as Float64Array) / dot(changes[last] as Float64Array, changes[last] as Float64Array);
      for (let i = 0; i < size; i++) q[i] = (q[i] as number) * gamma;
    }
    for (let m = 0; m < steps.length; m++) {
      const s = steps[m] as Float64Array;
      const b = dot(changes[m] as Float64Array, q) / dot(changes[m] as Float64Array, s);
      for (let i = 0; i < size; i++) q[i] = (q[i] as number) + ((alpha[m] as number) - b) * (s[i] as number);
    }
    const slope = dot(g, q);
    if (!(slope > 0)) break;
    let rate = steps.length === 0 ? 0.5 : 1;
    const next = new Float64Array(size);
    const nextGrad = new Float64Array(size);
    let nextF = f;
    for (let tries = 0; tries < 40; tries++) {
      for (let i = 0; i < size; i++) next[i] = (w[i] as number) - rate * (q[i] as number);
      nextF = objective(next, nextGrad);
      if (nextF <= f - 1e-4 * rate * slope) break;
      rate /= 2;
    }
    const s = new Float64Array(size);
    const y = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      s[i] = (next[i] as number) - (w[i] as number);
      y[i] = (nextGrad[i] as number) - (g[i] as number);
    }
    if (dot(s, y) > 1e-12) {
      steps.push(s);
      changes.push(y);
      if (steps.length > 10) {
        steps.shift();
        changes.shift();
      }
    }
    const settled = Math.abs(f - nextF) < 1e-9;
    w = next;
    g = nextGrad;
    f = nextF;
    if (settled) break;
  }
  const weights = Array.from({ length: k }, (_, c) => Array.from(w.subarray(c * d, (c + 1) * d), (v) => Math.round(v * 1e5) / 1e5));
  return { mean, scale, weights };
}
