/**
 * `npm run fit:relation-model`: fit the relation confidence model (lib/reading/models/relation-confidence.ts) on the
 * team's own labelled relation pairs (every relations file `lib/assess/eval/sets.json` lists under `team`; no public
 * set is read) and write `lib/reading/models/relation-confidence.json`. For each label the rule order reads, one
 * logistic regression of "the reading is right" on [1, cosine, coverage] (words only: [1, 0, coverage]), by gradient
 * descent with a small L2 penalty; the slopes are held ≥ 0 for SUPPORTS, REBUTS and CONTEXTUALIZES and ≤ 0 for
 * UNRELATED, so that closeness never argues for rebuttal over support. Deterministic.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { teamSets } from "@/lib/assess/eval/eval-sets";
import { getEmbedder } from "@/lib/embed/select-embedder";
import type { DecidedRelation } from "@/lib/engine/assessor";
import { classifyBySignals, readPairMeaning, RELATED_COSINE, relationSignals, UNRELATED_COSINE } from "@/lib/reading/reader";
import { withVectorCache } from "@/lib/retrieval/vector-cache";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LABELS: DecidedRelation[] = ["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED"];

function fit(xs: number[][], ys: number[], sign: 1 | -1): number[] {
  const w = [0, 0, 0];
  for (let step = 0; step < 4000; step++) {
    const g = [0, 0, 0];
    xs.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-(w[0]! * x[0]! + w[1]! * x[1]! + w[2]! * x[2]!)));
      for (let j = 0; j < 3; j++) g[j]! += (p - ys[i]!) * x[j]!;
    });
    for (let j = 0; j < 3; j++) w[j] = w[j]! - 0.5 * (g[j]! / xs.length + (j > 0 ? 0.01 * w[j]! : 0));
    for (let j = 1; j < 3; j++) w[j] = sign > 0 ? Math.max(0, w[j]!) : Math.min(0, w[j]!);
  }
  return w.map((v) => Math.round(v * 1000) / 1000);
}

async function main() {
  const local = getEmbedder();
  if (local === null) throw new Error("the local embedding model is needed (npm run model:fetch)");
  const embedder = withVectorCache(local, 50_000);
  const rows: { label: DecidedRelation; right: number; cos: number; coverage: number }[] = [];
  for (const set of teamSets(repoRoot, "relations")) {
    for (const row of set.rows) {
      const { semantic } = await readPairMeaning(embedder, row.evidence, row.belief);
      const s = relationSignals(row.evidence, { id: "b", text: row.belief }, semantic);
      const label = classifyBySignals(s, semantic, { related: RELATED_COSINE, unrelated: UNRELATED_COSINE }).relation;
      rows.push({ label, right: label === row.gold ? 1 : 0, cos: semantic ?? 0, coverage: s.coverage });
    }
  }
  const model = { features: ["bias", "cosine", "coverage"], semantic: {} as Record<string, number[]>, wordsOnly: {} as Record<string, number[]> };
  for (const label of LABELS) {
    const mine = rows.filter((r) => r.label === label);
    const sign = label === "UNRELATED" ? -1 : 1;
    model.semantic[label] = fit(mine.map((r) => [1, r.cos, r.coverage]), mine.map((r) => r.right), sign);
    model.wordsOnly[label] = fit(mine.map((r) => [1, 0, r.coverage]), mine.map((r) => r.right), sign);
    console.log(`${label}: ${mine.length} pairs, ${((100 * mine.filter((r) => r.right).length) / Math.max(1, mine.length)).toFixed(1)}% right; semantic ${model.semantic[label]}, words only ${model.wordsOnly[label]}`);
  }
  writeFileSync(path.join(repoRoot, "lib/reading/models/relation-confidence.json"), `${JSON.stringify(model, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
