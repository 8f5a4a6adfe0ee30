import { describe, expect, it } from "vitest";
import { relationSignals } from "../reader";
import {
  beyondBelief,
  EVIDENCE_KIND_FEATURES,
  evidenceKinds,
  FEATURE_NAMES,
  fitSoftmax,
  loadRelationModel,
  MODEL_LABELS,
  predictProbabilities,
  predictRelation,
  readEvidenceKind,
  relationFeatures,
  softmax,
} from "./relation-model";

const belief = (text: string) => ({ id: "b", text });

describe("the fitted relation model", () => {
  it("is committed, fitted on dev with cross-validation, and matches the feature list", () => {
    const model = loadRelationModel();
    expect(model).not.toBeNull();
    expect(model?.semantic.cases).toBeGreaterThanOrEqual(400);
    expect(model?.semantic.cvAccuracy).toBeGreaterThan(0.5);
    expect(model?.semantic.weights[0]).toHaveLength(FEATURE_NAMES.length);
    expect(loadRelationModel({ ...model, features: ["bias"] })).toBeNull();
  });

  it("reads quantities against the belief's bound, a narrowed subject under a value conflict, and which part of the belief is kept", () => {
    const at = (e: string, b: string, name: (typeof FEATURE_NAMES)[number]) => relationFeatures(e, belief(b), relationSignals(e, belief(b), 0.5))[FEATURE_NAMES.indexOf(name)];
    expect(at("The queue never held more than forty jobs last month.", "The queue holds at most 40 jobs.", "within_bound")).toBe(1);
    expect(at("The van was carrying 35 crates on Friday.", "The van carries at most 12 boxes.", "loose_conflict")).toBe(1);
    expect(at("Refunds took a whole week.", "Refunds arrive within three days.", "outside_bound")).toBe(1);
    expect(at("Members who joined before spring pay twenty pounds.", "Members pay forty pounds.", "scoped_conflict")).toBe(1);
    expect(at("Members pay twenty pounds.", "Members pay forty pounds.", "scoped_conflict")).toBe(0);
    expect(at("The choir rehearses in the old chapel.", "The choir sings at weddings.", "subject_words_kept")).toBe(1);
    expect(at("The choir rehearses in the old chapel.", "The choir sings at weddings.", "predicate_words_kept")).toBe(0);
  });

  it("has no feature for free against a price (topic-shaped)", () => {
    expect((FEATURE_NAMES as readonly string[]).includes("free_vs_price")).toBe(false);
  });

  it("builds one finite feature per name from the rule signals", () => {
    const e = "In winter the tunnel is lit around the clock.";
    const b = belief("The tunnel lights switch off at midnight.");
    const f = relationFeatures(e, b, relationSignals(e, b, 0.5));
    expect(f).toHaveLength(FEATURE_NAMES.length);
    expect(f.every(Number.isFinite)).toBe(true);
    expect(f[FEATURE_NAMES.indexOf("frame_opener")]).toBe(1);
    expect(f[FEATURE_NAMES.indexOf("semantic")]).toBe(0.5);
  });

  it("reads the subject / predicate cosines, a first-person report and a two-part statement", () => {
    const b = belief("The ferry to the harbour leaves every hour.");
    const e = "We waited at the pier on Sunday; the boat came after forty minutes.";
    const f = relationFeatures(e, b, relationSignals(e, b, 0.5, { subject: 0.7, predicate: 0.4 }));
    expect(f[FEATURE_NAMES.indexOf("subject_cosine")]).toBe(0.7);
    expect(f[FEATURE_NAMES.indexOf("predicate_over_subject")]).toBeCloseTo(-0.3, 9);
    expect(f[FEATURE_NAMES.indexOf("first_person_report")]).toBe(1);
    expect(f[FEATURE_NAMES.indexOf("two_part")]).toBe(1);
    const plain = "The ferry leaves at 9 a.m. from the pier.";
    const g = relationFeatures(plain, b, relationSignals(plain, b, 0.5));
    expect(g[FEATURE_NAMES.indexOf("predicate_cosine")]).toBe(0.5);
    expect(g[FEATURE_NAMES.indexOf("first_person_report")]).toBe(0);
    expect(g[FEATURE_NAMES.indexOf("two_part")]).toBe(0);
  });

  it("fits separable data deterministically and predicts a distribution", () => {
    const xs = [[1, 0], [1, 0.1], [1, 1], [1, 0.9], [1, 2], [1, 2.1], [1, 3], [1, 3.1]];
    const ys = [0, 0, 1, 1, 2, 2, 3, 3];
    const a = fitSoftmax(xs, ys, { l2: 0.001, iterations: 2000 });
    const b = fitSoftmax(xs, ys, { l2: 0.001, iterations: 2000 });
    expect(a).toEqual(b);
    const set = { ...a, cvAccuracy: 0, trainAccuracy: 0, cases: 8, l2: 0.001 };
    const p = predictProbabilities(set, [1, 0]);
    expect(p.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 6);
    expect(predictRelation(set, [1, 0]).relation).toBe(MODEL_LABELS[0]);
    expect(predictRelation(set, [1, 3.05]).relation).toBe(MODEL_LABELS[3]);
    expect(softmax([0, 0])).toEqual([0.5, 0.5]);
  });
});

describe("the evidence-kind reading", () => {
  const unit = (v: number[]) => {
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return v.map((x) => x / n);
  };
  // One belief along the first axis; what each evidence adds beyond it lies in the other three.
  const B = [1, 0, 0, 0];
  const pair = (evidence: number[], model = "m@1") => ({ model, evidence: unit(evidence), belief: B });
  const pairs = [pair([1, 1, 0.1, 0]), pair([1, 1, -0.1, 0]), pair([1, 0.1, 1, 0]), pair([1, -0.1, 1, 0]), pair([1, 0, 0, 1]), pair([1, -1, -1, 0])];
  const labels = [0, 0, 1, 1, 2, 3];
  const kinds = evidenceKinds(pairs.map((p) => beyondBelief(p.evidence, p.belief)), labels, "m@1");

  it("reads what the evidence says beyond the belief: the evidence minus its projection on the belief", () => {
    const rest = beyondBelief(unit([1, 1, 0, 0]), B);
    expect(rest[0]).toBeCloseTo(0, 9);
    expect(rest[1]).toBeCloseTo(1, 9);
    expect(beyondBelief(B, B)).toEqual([0, 0, 0, 0]);
  });

  it("points each label's prototype from the pool's mean to that label's mean, and reads a pair against them", () => {
    expect(kinds.directions).toHaveLength(MODEL_LABELS.length);
    for (const d of kinds.directions) expect(Math.hypot(...d)).toBeCloseTo(1, 5);
    // However close to the belief, evidence that adds what label 0's evidence adds reads closest to label 0.
    const reading = readEvidenceKind(kinds, pair([3, 1, 0, 0]));
    expect(reading.indexOf(Math.max(...reading))).toBe(0);
    const other = readEvidenceKind(kinds, pair([0.5, 0, 1, 0]));
    expect(other.indexOf(Math.max(...other))).toBe(1);
  });

  it("reads the pool's average (zeros) without vectors, for another embedding model or another dimension", () => {
    expect(readEvidenceKind(kinds, undefined)).toEqual([0, 0, 0, 0]);
    expect(readEvidenceKind(kinds, pair([1, 1, 0, 0], "other@2"))).toEqual([0, 0, 0, 0]);
    expect(readEvidenceKind(kinds, { model: "m@1", evidence: [1, 0], belief: [1, 0] })).toEqual([0, 0, 0, 0]);
    expect(readEvidenceKind(undefined, pair([1, 1, 0, 0]))).toEqual([0, 0, 0, 0]);
  });

  it("puts the reading in the model's features, and the committed model carries prototypes of the embedding's size", () => {
    const e = "The gate log shows the barrier lifted at 06:58.";
    const b = belief("The car park barrier opens at seven.");
    const f = relationFeatures(e, b, relationSignals(e, b, 0.5), [0.1, -0.2, 0.3, -0.4]);
    expect(EVIDENCE_KIND_FEATURES.map((n) => f[FEATURE_NAMES.indexOf(n)])).toEqual([0.1, -0.2, 0.3, -0.4]);
    const model = loadRelationModel();
    expect(model?.evidenceKinds.directions.every((d) => d.length === model.evidenceKinds.mean.length)).toBe(true);
    expect(model?.evidenceKinds.mean.length).toBeGreaterThan(0);
  });

  it("fits the regularised optimum: a stronger L2 gives smaller weights", () => {
    const xs = [[1, 0], [1, 0.2], [1, 1], [1, 1.2], [1, 2], [1, 2.2], [1, 3], [1, 3.2]];
    const ys = [0, 0, 1, 1, 2, 2, 3, 3];
    const size = (l2: number) => fitSoftmax(xs, ys, { l2 }).weights.reduce((s, row) => s + (row[1] ?? 0) ** 2, 0);
    expect(size(1)).toBeLessThan(size(0.01));
  });
});
