/**
 * `npx tsx research/measure-public-restatement.ts [--limit N] [--sweep]`: the restatement decision (lib/reading/restatement)
 * scored on the public MRPC development half (`mrpc-dev.jsonl` where eval:assessor finds the public sets), over every pair and over a
 * balanced sample (every different-meaning pair and as many same-meaning ones, the first by sha256 of the id).
 * `--sweep` prints accuracy, precision and recall per agreement threshold (how SAME_AGREEMENT and POSSIBLE_AGREEMENT
 * are chosen), and each veto's precision on MRPC and on SICK (`sick-dev.jsonl`, where "not the
 * same claim" is any label but SUPPORTS). Development figures: the thresholds are chosen on this set.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { publicDir } from "@/lib/assess/eval/eval-sets";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { agreement, negated, valuesDiffer, POSSIBLE_DUPLICATE, RESTATES, type RestatementReading, restatementScore } from "@/lib/reading/restatement";
import { SemanticMatcher } from "@/lib/retrieval/semantic-matcher";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const found = publicDir(repoRoot);
if (!found) throw new Error("public development sets not found: set CREDENCE_EVAL_DIR (see lib/assess/eval/eval-sets.ts)");
const setsDir: string = found;
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const load = <T>(file: string): T[] => readFileSync(path.join(setsDir, file), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as T);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

interface Scored { id: string; same: boolean; reading: RestatementReading; a: string; b: string }

function figures(rows: readonly Scored[], same: (r: Scored) => boolean): { accuracy: number; precision: number; recall: number; line: string } {
  const tp = rows.filter((r) => r.same && same(r)).length;
  const fp = rows.filter((r) => !r.same && same(r)).length;
  const fn = rows.filter((r) => r.same && !same(r)).length;
  const tn = rows.length - tp - fp - fn;
  const accuracy = (tp + tn) / rows.length;
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  return { accuracy, precision, recall, line: `n ${rows.length}: accuracy ${pct(accuracy)}, "same" precision ${pct(precision)}, recall ${pct(recall)} (tp ${tp} fp ${fp} fn ${fn} tn ${tn})` };
}

async function main(): Promise<void> {
  const rows = load<{ id: string; a: string; b: string; same: boolean }>("mrpc-dev.jsonl").slice(0, Number(arg("--limit") ?? Infinity));
  const embedder = getEmbedder();
  if (embedder === null) throw new Error("needs the local embedding model (npm run model:fetch)");
  const matcher = new SemanticMatcher(embedder);
  const started = performance.now();
  const scored: Scored[] = [];
  for (const r of rows) scored.push({ id: r.id, same: r.same, a: r.a, b: r.b, reading: await matcher.reading(r.a, r.b) });
  const ms = (performance.now() - started) / rows.length;
  const hash = (id: string) => createHash("sha256").update(id).digest("hex");
  const negatives = scored.filter((r) => !r.same);
  const balanced = [...negatives, ...scored.filter((r) => r.same).sort((x, y) => (hash(x.id) < hash(y.id) ? -1 : 1)).slice(0, negatives.length)];
  const same = (r: Scored) => restatementScore(r.reading) >= RESTATES;
  const possible = (r: Scored) => restatementScore(r.reading) >= POSSIBLE_DUPLICATE;
  console.log(`MRPC dev, all pairs:  ${figures(scored, same).line}`);
  console.log(`MRPC dev, balanced:   ${figures(balanced, same).line}`);
  const band = scored.filter((r) => possible(r) && !same(r));
  console.log(`possible-duplicate band: ${band.length} pairs, ${pct(band.filter((r) => r.same).length / Math.max(1, band.length))} of them the same claim`);
  console.log(`${ms.toFixed(1)} ms per pair (embedding included)`);
  if (!process.argv.includes("--sweep")) return;
  console.log("agreement threshold (no veto): all pairs acc / prec / rec | balanced acc / prec / rec");
  for (let t = 0.5; t <= 0.8001; t += 0.01) {
    const at = (r: Scored) => r.reading.veto === null && agreement(r.reading) >= t;
    const [f, g] = [figures(scored, at), figures(balanced, at)];
    console.log(`  ${t.toFixed(2)}  ${pct(f.accuracy)} / ${pct(f.precision)} / ${pct(f.recall)} | ${pct(g.accuracy)} / ${pct(g.precision)} / ${pct(g.recall)}`);
  }
  const sick = load<{ belief: string; evidence: string; label: string }>("sick-dev.jsonl");
  const vetoes: [string, (a: string, b: string) => boolean][] = [
    ["values differ", (a, b) => valuesDiffer(a, b) !== null],
    ["negated on one side", (a, b) => negated(a) !== negated(b)],
  ];
  for (const [name, fires] of vetoes) {
    const m = scored.filter((r) => fires(r.a, r.b));
    const s = sick.filter((r) => fires(r.belief, r.evidence));
    console.log(
      `veto "${name}": MRPC fires ${m.length}, not the same claim ${pct(m.filter((r) => !r.same).length / Math.max(1, m.length))} (base ${pct(negatives.length / scored.length)}); ` +
        `SICK fires ${s.length}, not SUPPORTS ${pct(s.filter((r) => r.label !== "SUPPORTS").length / Math.max(1, s.length))} (base ${pct(sick.filter((r) => r.label !== "SUPPORTS").length / sick.length)})`,
    );
  }
}

await main();
