/**
 * `npx tsx research/measure-public-restatement.ts [--limit N] [--sweep] [--policy]`: the restatement decision (lib/reading/restatement)
 * scored on the public MRPC development half (`mrpc-dev.jsonl` where eval:assessor finds the public sets), over every pair and over a
 * balanced sample (every different-meaning pair and as many same-meaning ones, the first by sha256 of the id).
 * `--sweep` prints accuracy, precision and recall per agreement threshold (how SAME_AGREEMENT and POSSIBLE_AGREEMENT
 * are chosen), and each veto's precision on MRPC and on SICK (`sick-dev.jsonl`, where "not the
 * same claim" is any label but SUPPORTS). Development figures: the thresholds are chosen on this set.
 * `--candidates` prints the same for vetoes that were measured and not adopted (below), with what each would do to
 * the balanced MRPC figures and how many SICK pairs now read as the same claim it would keep apart:
 *
 *   substitution      a one-word swap (`oneWordSwap`: each side keeps exactly one content word the other lacks, in the
 *                     same place), and the two words' own vectors are further apart than a threshold (or, a variant,
 *                     the whole sentences' cosine is below one);
 *   ordinal values    "first" / "second" … read as values, so the values veto fires on them;
 *   values counted    a value stated more often on one side counts as one the other does not state (`valueCounts`);
 *   identifiers       a word of letters and digits ("a1b2", "ec2"; not a number with a unit, "100ms") is one value,
 *                     not the numbers in it.
 * The last three are scored on the pairs they add to the values veto.
 * `--policy` prints what the write policy (lib/reading/merge-policy) does with the pairs read as the same claim: how
 * many are one-word swaps (`swapOf`), kept apart and linked as possible duplicates instead of merged, how many of
 * those are not the same claim (MRPC) or not an entailment (SICK), and the precision of the merges that are left; and
 * the same on the team's own restatement development files (lib/assess/eval/restatement-dev*.jsonl).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { requirePublicDir } from "@/lib/assess/eval/eval-sets";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { agreement, dot, negated, oneWordSwap, valueCounts, valuesDiffer, POSSIBLE_DUPLICATE, RESTATES, type RestatementReading, restatementScore } from "@/lib/reading/restatement";
import { swapOf } from "@/lib/reading/merge-policy";
import { SemanticMatcher } from "@/lib/retrieval/semantic-matcher";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const setsDir = requirePublicDir(repoRoot);
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const load = <T>(file: string): T[] => readFileSync(path.join(setsDir, file), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as T);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

interface Scored { id: string; same: boolean; reading: RestatementReading; a: string; b: string }

/** A word of letters and digits that is not a number followed by its unit. */
const IDENTIFIER = /\b(?=[a-z0-9]*[a-z])(?=[a-z0-9]*\d)(?![0-9]+(?:\.\d+)?[a-z]+\b)[a-z0-9]+\b/g;

/** Each side states a value the other does not, values read by `read`, compared with `more`. */
function valuesDifferBy(a: string, b: string, read: (t: string) => Map<string, number>, counted: boolean): boolean {
  const [va, vb] = [read(a), read(b)];
  const more = (x: Map<string, number>, y: Map<string, number>) => [...x].some(([n, k]) => (counted ? k > (y.get(n) ?? 0) : !y.has(n)));
  return more(va, vb) && more(vb, va);
}

/** `valueCounts` with each identifier (`IDENTIFIER`) read as one value. */
function identifierValues(text: string): Map<string, number> {
  const lower = text.toLowerCase();
  const out = valueCounts(lower.replace(IDENTIFIER, " "));
  for (const id of lower.match(IDENTIFIER) ?? []) out.set(`id ${id}`, (out.get(`id ${id}`) ?? 0) + 1);
  return out;
}

const ORDINALS: Readonly<Record<string, string>> = { first: "1", second: "2", third: "3", fourth: "4", fifth: "5", sixth: "6", seventh: "7", eighth: "8", ninth: "9", tenth: "10" };

/** Each side names an ordinal ("first" …) the other does not, where the values veto does not already fire. */
function ordinalsDiffer(a: string, b: string): boolean {
  if (valuesDiffer(a, b) !== null) return false;
  const of = (t: string) => new Set((t.toLowerCase().match(/[a-z]+/g) ?? []).flatMap((w) => (ORDINALS[w] ? [ORDINALS[w]] : [])));
  const [oa, ob] = [of(a), of(b)];
  return [...oa].some((o) => !ob.has(o)) && [...ob].some((o) => !oa.has(o));
}

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
  if (process.argv.includes("--policy")) await policy(matcher, scored, balanced);
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
  if (process.argv.includes("--candidates")) await candidates(matcher, scored, balanced, sick);
}

/** The write policy on the pairs read as the same claim (module comment), on MRPC and on SICK. */
async function policy(matcher: SemanticMatcher, scored: readonly Scored[], balanced: readonly Scored[]): Promise<void> {
  const sick = load<{ belief: string; evidence: string; label: string }>("sick-dev.jsonl").slice(0, Number(arg("--limit") ?? Infinity));
  const sickScored: { same: boolean; a: string; b: string; score: number }[] = [];
  for (const r of sick) sickScored.push({ same: r.label === "SUPPORTS", a: r.belief, b: r.evidence, score: restatementScore(await matcher.reading(r.belief, r.evidence)) });
  const report = (name: string, rows: readonly { same: boolean; a: string; b: string; score: number }[], notSame: string) => {
    const read = rows.filter((r) => r.score >= RESTATES);
    const swaps = read.filter((r) => swapOf(r.a, r.b) !== null);
    const merged = read.filter((r) => swapOf(r.a, r.b) === null);
    console.log(
      `policy, ${name}: read as the same claim ${read.length} (${pct(read.filter((r) => r.same).length / Math.max(1, read.length))} the same); ` +
        `one-word swaps among them ${swaps.length}, ${pct(swaps.filter((r) => !r.same).length / Math.max(1, swaps.length))} ${notSame}; ` +
        `merged ${merged.length}, ${pct(merged.filter((r) => r.same).length / Math.max(1, merged.length))} the same`,
    );
  };
  report("MRPC dev, all pairs", scored.map((r) => ({ same: r.same, a: r.a, b: r.b, score: restatementScore(r.reading) })), "not the same claim");
  report("MRPC dev, balanced", balanced.map((r) => ({ same: r.same, a: r.a, b: r.b, score: restatementScore(r.reading) })), "not the same claim");
  report("SICK dev, all pairs", sickScored, "not SUPPORTS");
  const team: { same: boolean; a: string; b: string; score: number }[] = [];
  for (const file of ["restatement-dev.jsonl", "restatement-dev2.jsonl", "restatement-dev3.jsonl"]) {
    const rows = readFileSync(path.join(repoRoot, "lib/assess/eval", file), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { a: string; b: string; same: boolean });
    for (const r of rows) team.push({ same: r.same, a: r.a, b: r.b, score: restatementScore(await matcher.reading(r.a, r.b)) });
  }
  report("the team's restatement dev files", team, "not the same claim");
}

/** The vetoes measured and not adopted (module comment), scored as the adopted ones are, plus their effect. */
async function candidates(matcher: SemanticMatcher, scored: readonly Scored[], balanced: readonly Scored[], sick: readonly { belief: string; evidence: string; label: string }[]): Promise<void> {
  const wordCosine = async (a: string, b: string): Promise<number | null> => {
    const swap = oneWordSwap(a, b);
    if (swap === null) return null;
    const [u, v] = await matcher.vectors(swap);
    return dot(u as Float32Array, v as Float32Array);
  };
  const sentenceCosine = async (a: string, b: string): Promise<number | null> => {
    if (oneWordSwap(a, b) === null) return null;
    const [u, v] = await matcher.vectors([a, b]);
    return dot(u as Float32Array, v as Float32Array);
  };
  const sickRows = sick.map((r) => ({ a: r.belief, b: r.evidence, same: r.label === "SUPPORTS" }));
  const measures: [string, (a: string, b: string) => Promise<number | null>, number[]][] = [
    ["substitution, words' own cosine <", wordCosine, [0.3, 0.4, 0.5, 0.6, 0.7, 1.01]],
    ["substitution, sentences' cosine <", sentenceCosine, [0.8, 0.85, 0.9, 0.95]],
    ["ordinal values differ", async (a, b) => (ordinalsDiffer(a, b) ? 0 : null), [0.5]],
    ["values counted differ", async (a, b) => (valuesDiffer(a, b) === null && valuesDifferBy(a, b, valueCounts, true) ? 0 : null), [0.5]],
    ["identifier values differ", async (a, b) => (valuesDiffer(a, b) === null && valuesDifferBy(a, b, identifierValues, false) ? 0 : null), [0.5]],
  ];
  const sickBase = sickRows.filter((r) => !r.same).length / sickRows.length;
  const mrpcBase = scored.filter((r) => !r.same).length / scored.length;
  for (const [name, measure, thresholds] of measures) {
    const m = new Map<string, number | null>();
    for (const r of scored) m.set(r.id, await measure(r.a, r.b));
    const s: { a: string; b: string; same: boolean; x: number }[] = [];
    for (const r of sickRows) {
      const x = await measure(r.a, r.b);
      if (x !== null) s.push({ ...r, x });
    }
    for (const t of thresholds) {
      const fires = (r: Scored) => { const x = m.get(r.id); return x !== null && x !== undefined && x < t; };
      const mf = scored.filter(fires);
      const sf = s.filter((r) => r.x < t);
      const split: { same: boolean }[] = [];
      for (const r of sf) if (restatementScore(await matcher.reading(r.a, r.b)) >= RESTATES) split.push(r);
      const kept = figures(balanced, (r) => restatementScore(r.reading) >= RESTATES && !fires(r));
      console.log(
        `candidate "${name}${name.endsWith("<") ? ` ${t}` : ""}": MRPC fires ${mf.length}, not the same claim ${pct(mf.filter((r) => !r.same).length / Math.max(1, mf.length))} (base ${pct(mrpcBase)}); ` +
          `SICK fires ${sf.length}, not SUPPORTS ${pct(sf.filter((r) => !r.same).length / Math.max(1, sf.length))} (base ${pct(sickBase)}); ` +
          `as a veto: MRPC balanced accuracy ${pct(kept.accuracy)}, "same" precision ${pct(kept.precision)}; SICK pairs now same it keeps apart ${split.length}, ${pct(split.filter((r) => !r.same).length / Math.max(1, split.length))} of them not SUPPORTS`,
      );
    }
  }
}

await main();
