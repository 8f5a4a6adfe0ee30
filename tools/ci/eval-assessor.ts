/**
 * `npm run eval:assessor [-- --check]`: score the configured assessor (offline heuristic unless
 * OPENAI_API_KEY / OPENAI_BASE_URL is set; the heuristic reads with the local embedding model when it loads) on
 * 1. the shared labelled set (`../shared/eval` when that folder exists, the repo's copy otherwise),
 * 2. the repo's development cases (`lib/assess/eval/*.dev.jsonl`, the ones cues were tuned on),
 * 3. the retired held-out sets v1–v8 (`*.heldout.jsonl`, `*.heldout2.jsonl` … `*.heldout8.jsonl`: each written blind
 *    before the changes it measured and scored once at their end; development data after that, the fitted relation
 *    model trains on them),
 * each printed separately (accuracy, per-class precision/recall, confusion matrix, manipulation recall; for the offline
 * heuristic also its relation accuracy without the fitted relation model, by the rule order alone).
 * `--check` exits 1 when a set falls below its CI floor (DEVELOPMENT_FLOOR on the shared and development sets;
 * HELDOUT_FLOOR, HELDOUT2_FLOOR … HELDOUT8_FLOOR as regression floors on the retired held-out sets; RESTATEMENT_FLOOR
 * with the embedding model). This is the one place CI checks the floors.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  evaluateAssessor,
  formatReport,
  DEVELOPMENT_FLOOR,
  HELDOUT2_FLOOR,
  HELDOUT3_FLOOR,
  HELDOUT4_FLOOR,
  HELDOUT4_WORDS_ONLY_FLOOR,
  HELDOUT5_FLOOR,
  HELDOUT5_WORDS_ONLY_FLOOR,
  HELDOUT6_FLOOR,
  HELDOUT6_WORDS_ONLY_FLOOR,
  HELDOUT7_FLOOR,
  HELDOUT7_WORDS_ONLY_FLOOR,
  HELDOUT8_FLOOR,
  HELDOUT8_WORDS_ONLY_FLOOR,
  HELDOUT_FLOOR,
  type Floor,
  loadDevCases,
  loadHeldout2Cases,
  loadHeldout3Cases,
  loadHeldout4Cases,
  loadHeldout5Cases,
  loadHeldout6Cases,
  loadHeldout7Cases,
  loadHeldout8Cases,
  loadHeldoutCases,
  loadSharedCases,
  meetsFloor,
} from "@/lib/assess/eval/evaluate-assessor";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { assessorKind, selectAssessor } from "@/lib/assess/select-assessor";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { withVectorCache } from "@/lib/retrieval/vector-cache";
import { meaningReport, restatementBelowFloor } from "@/lib/retrieval/evaluate-meaning";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

async function main(): Promise<number> {
  const args = new Set(process.argv.slice(2));
  // One vector cache in front of the model for every scoring below, as the services compose it
  // (lib/beliefs/get-belief-services): the same texts recur across pairs, sections and the two assessors.
  const local = getEmbedder();
  const embedder = local === null ? null : withVectorCache(local, 100_000);
  const assessor = selectAssessor(process.env, { embedder });
  // The offline heuristic is also scored with its rule order alone (no fitted relation model), for comparison.
  const rulesOnly = assessorKind(process.env) === "heuristic" ? createHeuristicAssessor({ embedder, relationModel: null }) : null;
  const sections: Array<[string, Parameters<typeof evaluateAssessor>[1], Floor | null]> = [
    ["shared yardstick", loadSharedCases(repoRoot), DEVELOPMENT_FLOOR],
    ["development (tuned on)", loadDevCases(repoRoot), DEVELOPMENT_FLOOR],
    ["retired held-out v1 (development)", loadHeldoutCases(repoRoot), HELDOUT_FLOOR],
    ["retired held-out v2 (development)", loadHeldout2Cases(repoRoot), HELDOUT2_FLOOR],
    ["retired held-out v3 (development)", loadHeldout3Cases(repoRoot), HELDOUT3_FLOOR],
    ["retired held-out v4 (development)", loadHeldout4Cases(repoRoot), getEmbedder() === null ? HELDOUT4_WORDS_ONLY_FLOOR : HELDOUT4_FLOOR],
    ["retired held-out v5 (development)", loadHeldout5Cases(repoRoot), getEmbedder() === null ? HELDOUT5_WORDS_ONLY_FLOOR : HELDOUT5_FLOOR],
    ["retired held-out v6 (development)", loadHeldout6Cases(repoRoot), getEmbedder() === null ? HELDOUT6_WORDS_ONLY_FLOOR : HELDOUT6_FLOOR],
    ["retired held-out v7 (development)", loadHeldout7Cases(repoRoot), getEmbedder() === null ? HELDOUT7_WORDS_ONLY_FLOOR : HELDOUT7_FLOOR],
    ["retired held-out v8 (development)", loadHeldout8Cases(repoRoot), getEmbedder() === null ? HELDOUT8_WORDS_ONLY_FLOOR : HELDOUT8_FLOOR],
  ];
  const below: string[] = [];
  for (const [title, cases, floor] of sections) {
    const report = await evaluateAssessor(assessor, cases);
    if (floor && !meetsFloor(report, floor)) {
      below.push(`${title}: relation accuracy must be ≥ ${floor.relationAccuracy * 100}% and manipulation recall ≥ ${floor.manipulationRecall * 100}%${floor.manipulationPrecision === undefined ? "" : ` at precision ≥ ${floor.manipulationPrecision * 100}%`}`);
    }
    console.log(`== ${title}`);
    console.log(formatReport(report));
    if (rulesOnly) {
      const rules = await evaluateAssessor(rulesOnly, { ...cases, manipulation: [] });
      console.log(`Relations without the fitted model (rule order only): accuracy ${(rules.relation.accuracy * 100).toFixed(1)}% (${rules.relation.correct}/${rules.relation.total})`);
    }
    console.log("");
  }
  // Restatement and retrieval sections (evaluateRestatement / evaluateRetrieval) are printed here when present.
  // Reading by meaning (lib/retrieval/evaluate-meaning: evaluateRestatement / evaluateRetrieval), dev and held-out.
  console.log("== meaning (restatement detection; retrieval, lexical vs hybrid; holdout v1–v8 are retired into development)");
  const meaning = await meaningReport(repoRoot, (a, b) => assessor.similarity(a, b), embedder);
  for (const line of meaning.lines) console.log(line);
  below.push(...restatementBelowFloor(meaning));
  if (args.has("--check") && below.length > 0) {
    console.error(`Below the held-out floor: ${below.join("; ")}.`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
