/**
 * `npm run fit:relation-model`: fit the relation model (lib/assess/heuristic/relation-model.ts) on the development
 * pairs only (`lib/assess/eval/relations.dev.jsonl`), and write its weights to
 * `lib/assess/heuristic/relation-model.json`. Deterministic: the same pairs and the same embedding model give the same
 * file. Two weight sets, with the local embedding model's cosine and words only. The L2 strength is chosen from a
 * small grid by stratified k-fold cross-validation on the same dev pairs; the CV accuracy of the chosen strength is
 * printed and stored. No held-out file is read.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDevCases, type RelationCase } from "@/lib/assess/eval/evaluate-assessor";
import { classifyRelation, decisiveCue, relationSignals } from "@/lib/assess/heuristic/heuristic-assessor";
import { FEATURE_NAMES, fitSoftmax, MODEL_LABELS, predictRelation, relationFeatures, type RelationModel, type WeightSet } from "@/lib/assess/heuristic/relation-model";
import { cosine } from "@/lib/engine/embedder";
import { getEmbedder } from "@/lib/embed/select-embedder";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FOLDS = 5;
const L2_GRID = [0.03, 0.1, 0.3, 1];

/** Stratified fold of each case: the i-th case of a label goes to fold i mod FOLDS. */
function folds(ys: readonly number[]): number[] {
  const seen = new Map<number, number>();
  return ys.map((y) => {
    const i = seen.get(y) ?? 0;
    seen.set(y, i + 1);
    return i % FOLDS;
  });
}

function accuracy(set: Pick<WeightSet, "mean" | "scale" | "weights">, xs: number[][], ys: number[]): number {
  const full = { ...set, cvAccuracy: 0, trainAccuracy: 0, cases: 0, l2: 0 };
  return xs.filter((x, i) => MODEL_LABELS.indexOf(predictRelation(full, x).relation as (typeof MODEL_LABELS)[number]) === ys[i]).length / Math.max(1, xs.length);
}

/** Cross-validated accuracy of the model alone and of the hybrid (rules' label where `decisive`, else the model's). */
function crossValidate(xs: number[][], ys: number[], l2: number, decisive: readonly (number | null)[] = []): number {
  return crossValidateBoth(xs, ys, l2, decisive).model;
}

function crossValidateBoth(xs: number[][], ys: number[], l2: number, decisive: readonly (number | null)[]): { model: number; hybrid: number } {
  const fold = folds(ys);
  let correct = 0;
  let hybrid = 0;
  for (let f = 0; f < FOLDS; f++) {
    const train = xs.map((_, i) => i).filter((i) => fold[i] !== f);
    const test = xs.map((_, i) => i).filter((i) => fold[i] === f);
    const set = fitSoftmax(train.map((i) => xs[i] as number[]), train.map((i) => ys[i] as number), { l2 });
    correct += accuracy(set, test.map((i) => xs[i] as number[]), test.map((i) => ys[i] as number)) * test.length;
    const full = { ...set, cvAccuracy: 0, trainAccuracy: 0, cases: 0, l2: 0 };
    for (const i of test) {
      const rule = decisive[i] ?? null;
      const label = rule ?? MODEL_LABELS.indexOf(predictRelation(full, xs[i] as number[]).relation as (typeof MODEL_LABELS)[number]);
      if (label === ys[i]) hybrid++;
    }
  }
  return { model: correct / xs.length, hybrid: hybrid / xs.length };
}

function fitSet(name: string, xs: number[][], ys: number[]): WeightSet {
  let best = { l2: L2_GRID[0] as number, cv: -1 };
  for (const l2 of L2_GRID) {
    const cv = crossValidate(xs, ys, l2);
    console.log(`  ${name}: l2 ${l2} → ${FOLDS}-fold CV accuracy ${(cv * 100).toFixed(1)}%`);
    if (cv > best.cv + 1e-9) best = { l2, cv };
  }
  const set = fitSoftmax(xs, ys, { l2: best.l2 });
  const train = accuracy(set, xs, ys);
  console.log(`  ${name}: chosen l2 ${best.l2}, CV ${(best.cv * 100).toFixed(1)}%, training ${(train * 100).toFixed(1)}% on ${xs.length} dev pairs`);
  return { ...set, cvAccuracy: Math.round(best.cv * 1e4) / 1e4, trainAccuracy: Math.round(train * 1e4) / 1e4, cases: xs.length, l2: best.l2 };
}

async function main(): Promise<void> {
  const cases: RelationCase[] = loadDevCases(repoRoot).relations;
  const embedder = getEmbedder();
  if (embedder === null) throw new Error("fit:relation-model needs the local embedding model (npm run setup fetches it)");
  const ys = cases.map((c) => MODEL_LABELS.indexOf(c.relation));
  const withMeaning: number[][] = [];
  const wordsOnly: number[][] = [];
  // The rules' label where a decisive cue fires (with the embedding cosine), else null.
  const decisive: (number | null)[] = [];
  let rulesCorrect = 0;
  for (const c of cases) {
    const [ve, vb] = await embedder.embed([c.evidence, c.belief]);
    const semantic = ve && vb ? cosine(ve, vb) : 0;
    const belief = { id: c.id, text: c.belief };
    const signals = relationSignals(c.evidence, belief, semantic);
    withMeaning.push(relationFeatures(c.evidence, belief, signals));
    const rules = classifyRelation(c.evidence, belief, semantic, undefined, null).relation;
    if (rules === c.relation) rulesCorrect++;
    decisive.push(rules !== "UNRELATED" && decisiveCue(signals) ? MODEL_LABELS.indexOf(rules as (typeof MODEL_LABELS)[number]) : null);
    wordsOnly.push(relationFeatures(c.evidence, belief, relationSignals(c.evidence, belief)));
  }
  console.log(`Fitting the relation model on ${cases.length} development pairs (${FEATURE_NAMES.length} features)`);
  const semantic = fitSet("with embeddings", withMeaning, ys);
  const words = fitSet("words only", wordsOnly, ys);
  const both = crossValidateBoth(withMeaning, ys, semantic.l2, decisive);
  const mode = both.hybrid > both.model ? "hybrid" : "model";
  console.log(
    `  rule order alone (no fitting; its cues were written on dev): ${((rulesCorrect / cases.length) * 100).toFixed(1)}%; ` +
      `CV with embeddings: model ${(both.model * 100).toFixed(1)}%, hybrid (decisive cues keep the rules' label) ${(both.hybrid * 100).toFixed(1)}% → mode "${mode}"`,
  );
  const model: RelationModel = { features: [...FEATURE_NAMES], mode, hybridCvAccuracy: Math.round(both.hybrid * 1e4) / 1e4, folds: FOLDS, semantic, wordsOnly: words };
  const out = path.join(repoRoot, "lib", "assess", "heuristic", "relation-model.json");
  writeFileSync(out, `${JSON.stringify(model)}\n`);
  console.log(`Wrote ${path.relative(repoRoot, out)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
