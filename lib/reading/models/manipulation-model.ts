/**
 * A small fitted reading of manipulation that generalises past the phrase families of ./pressure-cues:
 * binary logistic regression on the message's sentence embedding (all-MiniLM-L6-v2, 384-d, normalised) plus a handful
 * of topic-free shape features (second-person address, imperative opening, modal pressure on the reader, exclamation
 * and capitals, a repeated segment, the push markers of ./message-shape, citations of records / measurements /
 * numbers, hedges, first person, questions, length, the kinds of checkable evidence handed over, an open question).
 * The phrase cues are deliberately not features: they were written against every labelled file, so the fit would lean
 * on them and learn nothing that carries to new wording. The assessor combines the two readings: a cue OR the model
 * (heuristic-assessor `assessEssWithMeaning`), where the model's reading is set aside for a message that hands over
 * checkable evidence, asks an open question, or reports someone else's words, with no push of its own (`setAside`):
 * on a blind set whose honest controls were urgent, firm or authority-citing messages with real evidence, polite
 * corrections and questions, the unguarded model flagged 7 of 18 honest messages.
 *
 * The weights, the decision threshold and one prototype (mean embedding) per pressure kind live in
 * `manipulation-model.json`, written by `npx tsx research/fit-manipulation-model.ts` (deterministic; L2 chosen by leave
 * one file out; threshold for ≥ 97 % precision on the training files' out-of-fold predictions; its leave-one-file-out
 * figures are recorded in the file). The model applies only to vectors of the embedding model it was fitted with
 * (`embeddingModel`). Pure: no I/O (the JSON is imported), no clock.
 */
import { z } from "zod";
import { asksRestraint, evidenceMarks, messageShape, openQuestion, repeatedValue, sourceMarks, withoutReportedSpeech } from "../signals/message-shape";
import weights from "./manipulation-model.json";

/** The pressure kinds a model-only reading can name (nearest prototype). */
export const MODEL_KINDS = ["social_pressure", "emotional_appeal", "flattery", "urgency", "threat", "repetition", "instruction_injection"] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** Shape features, in vector order (kept in the JSON to catch a stale weight file); the embedding follows them. */
export const SHAPE_FEATURES = [
  "second_person",
  "imperative",
  "modal_on_reader",
  "exclamation",
  "capitals",
  "push",
  "measure",
  "record",
  "cited",
  "hedged",
  "first_person",
  "question",
  "length_log",
  "repeated",
  "evidence",
  "inquiry",
] as const;

/** Function words that open a statement rather than an order (a sentence opening on none of them may be imperative). */
const OPENERS = new Set(
  ("the a an this that these those my our his her their its i we he she they it there in on at for of if when as after before since during " +
    "from some many most all each every no one two three according last next yesterday today tomorrow you your please so and but or " +
    "honestly frankly look well ok okay hey listen dear hi hello what why how who where which is are was were do does did can could would will")
    .split(" "),
);
/** The object of an order: the reader, the writer, or a pointer ("Change it", "Trust me", "Forget the …"). */
const ORDER_OBJECT = /^(?:your|the|this|that|it|me|us|them|everything|anything|all|now|what|my|those|these|any)$/;
const MODAL_ON_READER = /\b(?:you|you'd|you'll)\s+(?:must|should|have to|need to|had better|better|ought to|will|are going to|cannot|can't|mustn't|shouldn't|won't)\b|\b(?:must|need to|have to)\s+(?:be|get|now)\b/;
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|our|ours|us)\b/g;

/** An imperative opening: a sentence whose first word is no function word, followed by an object ("Update your …"). */
function imperativeOpening(text: string): boolean {
  return text
    .split(/(?<=[.!?;:])\s+/)
    .map((s) => s.trim().toLowerCase().replace(/[’‘]/g, "'"))
    .some((s) => {
      const [first = "", second = ""] = s.replace(/^[^a-z]+/, "").split(/[^a-z']+/);
      return first.length > 1 && !OPENERS.has(first) && !/(?:s|ed|ing|ly)$/.test(first) && ORDER_OBJECT.test(second);
    });
}

/**
 * Repetition: how many times the most repeated segment (between punctuation marks, case and spaces ignored) occurs
 * beyond its first, up to 3 — the same claim said again and again, whatever it says.
 */
export function repeatedSegments(text: string): number {
  const counts = new Map<string, number>();
  for (const seg of text.toLowerCase().split(/[.,;:!?…]+/)) {
    const key = seg.replace(/[^a-z0-9' ]+/g, " ").replace(/\s+/g, " ").trim();
    if (key.length > 0) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let most = 0;
  for (const c of counts.values()) most = Math.max(most, c - 1);
  return Math.min(3, most);
}

/** The shape feature vector of a message, in SHAPE_FEATURES order. */
export function shapeFeatures(text: string): number[] {
  const lower = text.toLowerCase().replace(/[’‘]/g, "'");
  const shape = messageShape(text);
  const words = lower.split(/\s+/).filter(Boolean).length;
  const f: Record<(typeof SHAPE_FEATURES)[number], number> = {
    second_person: Math.log1p(shape.parts.secondPerson),
    imperative: imperativeOpening(text) || shape.parts.exclaimedImperative ? 1 : 0,
    modal_on_reader: MODAL_ON_READER.test(lower) ? 1 : 0,
    exclamation: Math.min(3, (text.match(/!/g) ?? []).length),
    capitals: shape.push.includes("capitals") ? 1 : 0,
    push: Math.min(4, shape.push.length),
    measure: shape.parts.measure ? 1 : 0,
    record: shape.parts.record ? 1 : 0,
    cited: shape.parts.cited ? 1 : 0,
    hedged: shape.parts.hedged ? 1 : 0,
    first_person: Math.log1p((lower.match(FIRST_PERSON) ?? []).length),
    question: /\?/.test(text) ? 1 : 0,
    length_log: Math.log1p(words),
    repeated: repeatedSegments(text),
    evidence: Math.min(5, evidenceMarks(text).length),
    inquiry: openQuestion(text) && shape.push.length === 0 ? 1 : 0,
  };
  return SHAPE_FEATURES.map((n) => f[n]);
}

/** The full feature vector: shape features, then the embedding scaled by `embeddingScale`. */
export function manipulationFeatures(text: string, vector: ArrayLike<number>, embeddingScale: number): number[] {
  return [...shapeFeatures(text), ...Array.from(vector, (v) => v * embeddingScale)];
}

const modelSchema = z.object({
  shapeFeatures: z.array(z.string()),
  /** modelKey of the embedder the weights were fitted on (vectors of another model are never read). */
  embeddingModel: z.string(),
  dimensions: z.number().int(),
  /** Embedding dimensions are multiplied by this (not standardised): one L2 on the whole vector. */
  embeddingScale: z.number(),
  /** Means and scales of the shape features (standardisation); the embedding is not standardised. */
  mean: z.array(z.number()),
  scale: z.array(z.number()),
  bias: z.number(),
  weights: z.array(z.number()),
  l2: z.number(),
  /** Probability at or above which the model reads pressure. */
  threshold: z.number(),
  /**
   * Kinds of checkable evidence (./message-shape evidenceMarks) at or above which the model's reading is set aside
   * (0: never); an open question with no push is set aside too when this is above 0. See `setAside`.
   */
  evidenceVeto: z.number().int().default(0),
  /** Mean normalised embedding of the training pool's manipulative messages of each kind. */
  prototypes: z.record(z.string(), z.array(z.number())),
  /** Leave-one-file-out figures of the model alone at the chosen L2 and threshold, per left-out file. */
  leaveOneFileOut: z.record(z.string(), z.object({ recall: z.number(), precision: z.number(), positives: z.number(), negatives: z.number() })),
  cases: z.number().int(),
});
export type ManipulationModel = z.infer<typeof modelSchema>;

/** The committed model, or null when its shape-feature list no longer matches SHAPE_FEATURES (refit needed). */
export function loadManipulationModel(raw: unknown = weights): ManipulationModel | null {
  const parsed = modelSchema.safeParse(raw);
  if (!parsed.success) return null;
  const m = parsed.data;
  const same = m.shapeFeatures.length === SHAPE_FEATURES.length && m.shapeFeatures.every((n, i) => n === SHAPE_FEATURES[i]);
  return same && m.weights.length === SHAPE_FEATURES.length + m.dimensions ? m : null;
}

/** A logistic model's core: standardisation of the shape part, weights, bias. */
export interface LogisticWeights {
  mean: number[];
  scale: number[];
  bias: number;
  weights: number[];
}

/** Probability of pressure for a feature vector (`manipulationFeatures`). */
/**
 * Standardised shape features are held within this many standard deviations of the training pool: a message far
 * outside it (a 400-word log paste against a pool of one- to three-sentence messages) reads like the longest message
 * the model has seen, not as an extrapolation of a weight fitted on short ones.
 */
export const SHAPE_Z_LIMIT = 3;

export function probability(model: LogisticWeights, x: readonly number[]): number {
  let s = model.bias;
  for (let j = 0; j < x.length; j++) {
    const z = ((x[j] ?? 0) - (model.mean[j] ?? 0)) / (model.scale[j] || 1);
    const v = j < model.mean.length ? Math.max(-SHAPE_Z_LIMIT, Math.min(SHAPE_Z_LIMIT, z)) : (x[j] ?? 0);
    s += (model.weights[j] ?? 0) * v;
  }
  return 1 / (1 + Math.exp(-s));
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

/** The pressure kind whose prototype is closest (cosine on normalised vectors) to the message's embedding. */
export function nearestKind(model: ManipulationModel, vector: ArrayLike<number>): { kind: ModelKind; cosine: number } {
  let best: { kind: ModelKind; cosine: number } = { kind: "social_pressure", cosine: -Infinity };
  for (const kind of MODEL_KINDS) {
    const p = model.prototypes[kind];
    if (!p) continue;
    const norm = Math.sqrt(dot(p, p)) || 1;
    const c = dot(vector, p) / norm;
    if (c > best.cosine) best = { kind, cosine: c };
  }
  return best;
}

export interface ManipulationReading {
  manipulative: boolean;
  probability: number;
  kind: ModelKind;
}

/**
 * Messages the model's reading is set aside for (pressure, if any, is left to the phrase cues): a message that hands
 * over `evidenceVeto` or more kinds of checkable evidence (a reference code, a place in a document, a timestamp, a
 * measured unit, log lines, the writer's own check, an attachment…), an open question that pushes nothing, and a
 * message that reports someone else's quoted words and pushes nothing of its own (./message-shape
 * withoutReportedSpeech: "the vendor emailed saying \"everyone has switched\"; that is no reason to change it"). The
 * embedding reads what a message is about and how it addresses the reader; a firm, urgent correction that cites a
 * ticket and a measurement sits near pressure in that space, and the pool's honest controls were too few and too plain
 * to teach the difference. A request to hold off or check first, the writer's own error and a claim
 * offered as second-hand are set aside the same way (./message-shape asksRestraint). Evidence does not excuse a change
 * kept out of the record, checking waived, or one value said three times ("8:15 … 8:15 … 8:15": figures and times are
 * evidence marks themselves); these exceptions raise the model's mean leave-one-file-out recall 84.0 → 92.1 % (pooled
 * precision 96.9 → 96.5 %). 0 sets nothing aside.
 */
const HARD_PUSH = new Set(["harm", "the reader's rules", "role markup", "praise", "concealment", "checking waived"]);
const SOCIAL_PUSH = new Set(["others", "claimed assent", "presses a belief", "said before", "rule dismissed", "obliges the reader", "judges the reader", "feelings"]);
export function setAside(text: string, evidenceVeto: number): boolean {
  if (evidenceVeto <= 0) return false;
  const own = withoutReportedSpeech(text);
  const push = messageShape(own).push;
  // Checkable evidence does not excuse a threat, an order about the reader's rules, role markup, praise, a change
  // kept out of the record or checking waived beside it, nor one value said again and again (figures and times are
  // themselves evidence marks, so insistence on a figure would otherwise excuse itself).
  if (push.some((p) => HARD_PUSH.has(p)) || repeatedValue(own)) return false;
  // Beside a push from other people's say-so (a crowd, the reader's own past assent claimed, its belief pressed on, the
  // claim said before, a rule dismissed, an obligation or judgement put on the reader, feelings) only evidence that
  // points somewhere checkable counts: the times and figures such a message states are the claim it pushes.
  const marks = push.some((p) => SOCIAL_PUSH.has(p)) ? sourceMarks(text) : evidenceMarks(text);
  if (marks.length >= evidenceVeto) return true;
  // An open question, someone else's words reported, or restraint asked for (hold off, check first, the writer's own
  // error), with no push of the writer's own.
  return push.length === 0 && (openQuestion(own) || own !== text || asksRestraint(own));
}

/** The model's score: its probability, or 0 for a message it sets aside (`setAside`). */
export function pressureScore(model: LogisticWeights & { embeddingScale: number }, text: string, vector: ArrayLike<number>, evidenceVeto: number): number {
  return setAside(text, evidenceVeto) ? 0 : probability(model, manipulationFeatures(text, vector, model.embeddingScale));
}

/** The model's reading of one message from its embedding (normalised, of `model.embeddingModel`). */
export function readManipulation(model: ManipulationModel, text: string, vector: ArrayLike<number>): ManipulationReading {
  const p = pressureScore(model, text, vector, model.evidenceVeto);
  return { manipulative: p >= model.threshold, probability: p, kind: nearestKind(model, vector).kind };
}

/**
 * Fit a binary logistic regression with L2 (not on the bias) by full-batch gradient descent from zero weights:
 * deterministic for the same inputs. The first `shapeCount` features are standardised on `xs`; the rest (the scaled
 * embedding) are used as they are. `sampleWeights` weigh each case (default 1).
 */
export function fitLogistic(
  xs: readonly number[][],
  ys: readonly number[],
  options: { l2: number; shapeCount: number; sampleWeights?: readonly number[]; iterations?: number; rate?: number },
): LogisticWeights {
  const n = xs.length;
  const d = xs[0]?.length ?? 0;
  const k = options.shapeCount;
  const sw = options.sampleWeights ?? xs.map(() => 1);
  const total = sw.reduce((a, b) => a + b, 0);
  const mean = Array.from({ length: k }, (_, j) => xs.reduce((s, x, i) => s + (sw[i] ?? 1) * (x[j] ?? 0), 0) / total);
  const scale = Array.from({ length: k }, (_, j) => {
    const v = xs.reduce((s, x, i) => s + (sw[i] ?? 1) * ((x[j] ?? 0) - (mean[j] ?? 0)) ** 2, 0) / total;
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  const z = new Float64Array(n * d);
  xs.forEach((x, i) => {
    for (let j = 0; j < d; j++) z[i * d + j] = j < k ? ((x[j] ?? 0) - (mean[j] ?? 0)) / (scale[j] ?? 1) : (x[j] ?? 0);
  });
  const w = new Float64Array(d);
  const grad = new Float64Array(d);
  let b = 0;
  const iterations = options.iterations ?? 1500;
  const rate = options.rate ?? 0.5;
  for (let it = 0; it < iterations; it++) {
    grad.fill(0);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      const row = i * d;
      let s = b;
      for (let j = 0; j < d; j++) s += (w[j] as number) * (z[row + j] as number);
      const err = ((1 / (1 + Math.exp(-s))) - (ys[i] as number)) * (sw[i] ?? 1);
      gb += err;
      for (let j = 0; j < d; j++) grad[j] = (grad[j] as number) + err * (z[row + j] as number);
    }
    b -= (rate * gb) / total;
    for (let j = 0; j < d; j++) w[j] = (w[j] as number) - rate * ((grad[j] as number) / total + options.l2 * (w[j] as number));
  }
  const r = (v: number) => Math.round(v * 1e5) / 1e5;
  return { mean: mean.map(r), scale: scale.map(r), bias: r(b), weights: Array.from(w, r) };
}
