/**
 * `npm run eval:assessor [-- --dev] [-- --check]`: score the configured assessor (offline heuristic unless
 * OPENAI_API_KEY / OPENAI_BASE_URL is set) on the shared labelled set and print accuracy, per-class precision/recall
 * and the confusion matrix. `--dev` also scores the repo's own development cases (dev-*, holdout-*); `--check` exits 1 when the shared
 * set falls below target (relation accuracy ≥ 80 %, manipulation recall ≥ 90 %).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { evaluateAssessor, formatReport, loadCaseDir, loadDevCases, loadSharedCases, meetsTargets, TARGETS } from "@/lib/assess/eval/evaluate-assessor";
import { selectAssessor } from "@/lib/assess/select-assessor";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { meaningReport } from "@/lib/retrieval/evaluate-meaning";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<number> {
  const args = new Set(process.argv.slice(2));
  const assessor = selectAssessor(process.env);
  const shared = await evaluateAssessor(assessor, loadSharedCases(repoRoot));
  console.log(formatReport(shared));
  if (args.has("--dev")) {
    console.log("");
    console.log(formatReport(await evaluateAssessor(assessor, loadDevCases(repoRoot))));
    console.log("");
    console.log(formatReport(await evaluateAssessor(assessor, loadCaseDir(path.join(repoRoot, "lib", "assess", "eval"), "holdout-"))));
  }
  if (args.has("--check") && !meetsTargets(shared)) {
    console.error(
      `Below target: relation accuracy must be ≥ ${TARGETS.relationAccuracy * 100}% and manipulation recall ≥ ${TARGETS.manipulationRecall * 100}%.`,
    );
    return 1;
  }
  // Reading by meaning (lib/retrieval/evaluate-meaning: evaluateRestatement / evaluateRetrieval), dev and held-out.
  console.log("== meaning (restatement detection; retrieval, lexical vs hybrid)");
  for (const line of await meaningReport(repoRoot, (a, b) => assessor.similarity(a, b), getEmbedder())) console.log(line);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
