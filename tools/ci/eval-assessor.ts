/**
 * `npm run eval:assessor [-- --check]`: score the reader the server uses (lib/beliefs/batch-read `composeReader`: the
 * offline reader with the local embedding model, or the OpenAI-compatible one when OPENAI_* is set) through the batch
 * reader's path, on every set `lib/assess/eval/sets.json` lists:
 * - the public development sets (SICK, Climate-FEVER, MRPC; `$CREDENCE_EVAL_DIR/public` or `../shared/eval/public`),
 *   sampled deterministically (the first `perLabel` rows of each label by sha256 of the id): sides accuracy, 3-way
 *   accuracy, committed precision, coverage, the confusion matrix and the risk–coverage curve; restatement accuracy,
 *   precision and recall;
 * - the team's own sets, as regression tests: relation figures pooled, manipulation recall on the pressure messages and
 *   the false-positive rate on honest ones, restatement accuracy.
 * `--check` exits 1 when a figure falls below its floor in sets.json (`floors`): the public floors when the public
 * folder is here (else one line says the public gate did not run), the regression floors always.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FLOORS, loadSet, PUBLIC_SETS, publicDir, type RelationRow, teamSets } from "@/lib/assess/eval/eval-sets";
import { type BinaryFigures, formatBinary, formatCurve, formatRelationFigures, messageFigures, readRelations, type RelationFigures, relationFigures, restatementFigures } from "@/lib/assess/eval/score-reading";
import { composeReader } from "@/lib/beliefs/batch-read";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main(): Promise<number> {
  const check = process.argv.includes("--check");
  const reader = composeReader();
  const started = performance.now();
  const below: string[] = [];
  const floor = (what: string, value: number, min: number | undefined) => {
    if (min !== undefined && value < min) below.push(`${what} ${pct(value)} < ${pct(min)}`);
  };
  console.log(`reader: ${reader.name}`);

  const dir = publicDir(repoRoot);
  if (dir === null) {
    console.log("public development sets not found ($CREDENCE_EVAL_DIR/public or ../shared/eval/public): the public gate did not run");
  } else {
    for (const entry of PUBLIC_SETS) {
      const set = loadSet(entry, dir);
      const floors = FLOORS.public[entry.name] ?? {};
      console.log(`\n== ${entry.name} (public development, ${set.rows.length} rows: ${entry.perLabel ?? "all"} per label by sha256(id))`);
      if (set.kind === "relations") {
        const { readings, msPerReading } = await readRelations(reader, set.rows);
        const f: RelationFigures = relationFigures(readings);
        for (const line of [...formatRelationFigures(f), ...formatCurve(readings)]) console.log(line);
        console.log(`${msPerReading.toFixed(1)} ms per reading (embedding included)`);
        floor(`${entry.name} sides`, f.sides, floors.sides);
        floor(`${entry.name} committed precision`, f.committedPrecision, floors.committedPrecision);
        floor(`${entry.name} coverage`, f.coverage, floors.coverage);
      } else if (set.kind === "restatements") {
        const f: BinaryFigures = await restatementFigures(reader, set.rows);
        console.log(`restatement: ${formatBinary(f)}`);
        floor(`${entry.name} accuracy`, f.accuracy, floors.accuracy);
        floor(`${entry.name} precision`, f.precision, floors.precision);
      }
    }
  }

  console.log("\n== team sets (regression tests, not a figure of merit)");
  const relations: RelationRow[] = teamSets(repoRoot, "relations").flatMap((s) => s.rows);
  const team = relationFigures((await readRelations(reader, relations)).readings);
  for (const line of formatRelationFigures(team)) console.log(line);
  floor("team relations committed precision", team.committedPrecision, FLOORS.regression.relationsCommittedPrecision);
  floor("team relations 3-way", team.threeWay, FLOORS.regression.relationsThreeWay);
  const messages = teamSets(repoRoot, "messages").flatMap((s) => s.rows);
  const pressure = await messageFigures(reader, messages);
  console.log(`messages: ${formatBinary(pressure)}`);
  floor("team manipulation recall", pressure.recall, FLOORS.regression.manipulationRecall);
  for (const set of teamSets(repoRoot, "messages").filter((s) => s.rows.every((r) => !r.manipulative))) {
    const f = await messageFigures(reader, set.rows);
    console.log(`ordinary statements (${set.entry.name}): ${pct(f.falsePositiveRate)} flagged as manipulative`);
    floor(`${set.entry.name} not flagged`, 1 - f.falsePositiveRate, FLOORS.regression.ordinaryNotFlagged);
  }
  const restatements = await restatementFigures(reader, teamSets(repoRoot, "restatements").flatMap((s) => s.rows));
  console.log(`restatement: ${formatBinary(restatements)}`);

  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (check && below.length > 0) {
    console.error(`Below the floor: ${below.join("; ")}.`);
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
