/**
 * `npm run fit:manipulation-model`: fit the manipulation model (lib/reading/models/manipulation-model.ts)
 * and write `lib/reading/models/manipulation-model.json`. Deterministic: the same messages and the same embedding
 * model give the same file.
 *
 * The pool: the labelled manipulation files dev, dev2, dev3, dev4, held-out v1–v8 and shared (each written at
 * another time, in its own wording), plus — as extra honest negatives — the belief and evidence
 * texts of the relation and restatement development files (plain honest prose). No file of the newest held-out set
 * (v9) is read: the file lists below are explicit.
 *
 * Honest estimates: leave one file out. For each labelled file F, fit on the other files (and the extra negatives),
 * choose the threshold on the training files alone — the lowest probability at which the training files' own
 * out-of-fold predictions (leave one training file out) keep precision ≥ TARGET_PRECISION — and score F with it. The L2
 * strength (and the embedding scale) is the one with the best mean leave-one-file-out recall among those whose pooled
 * left-out precision stays ≥ TARGET_PRECISION; the final threshold is read the same way on the whole pool's
 * out-of-fold predictions. Each left-out line also prints "cues OR model", the assessor's reading; the phrase cues were
 * written against every file, so that figure is in-sample for the cues (except, roughly, held-out v4, which they were
 * not tuned on after it was scored).
 *
 * Why the defaults (model alone, mean leave-one-file-out recall / pooled precision; the commits that changed them hold
 * the full runs):
 * - precision target 0.97 (about 93 % / 97 %, no honest prose text flagged in-sample) rather than 0.95 (about 97 % /
 *   95 %, 15 of 543 flagged); embedding scale 8 (4 → 91 %, 16 → 94 %);
 * - the honest prose at weight 1 rather than 0.3: slightly lower recall, but far fewer plain honest statements flagged,
 *   and those are most of what the reader will see; the author's own practice messages are not training data (two
 *   points of recall, 55 honest prose texts flagged);
 * - the evidence set-aside (manipulation-model `setAside`) at 2 kinds of checkable evidence: without it, urgent, firm or
 *   authority-citing honest messages with real evidence were flagged (7 of 18 on held-out v6) and, once dev2's such
 *   controls joined the pool, the unguarded threshold rose to 0.80–0.94 and mean recall fell to 78 %; veto 2 gives
 *   about 94.7 % / 97.5 %, veto 1 91.6 % / 96.4 %, veto 3 flags twice as many of dev2's controls;
 * - the set-aside does not excuse concealment, waived checks or one value said again and again, and counts only
 *   evidence that points somewhere checkable (message-shape sourceMarks), not claimed times and figures, beside a push
 *   from other people's say-so;
 * - not kept: setting aside a request that the reader check for itself (false alarms moved to other files), per-kind
 *   prototype cosines as features (linear in the same normalised vector: nothing added), refusing the set-aside on a
 *   repeated segment (flags pasted logs), counting a possessive place as an attachment (more honest prose flagged, no
 *   recall); l2 0.03 (the worst of the grid, and a third of the run time).
 * The defaults below are the chosen ones. Options for iterating: --l2=a,b --scale=a,b --veto=a,b --precision=p --errors (list left-out misses and
 * false alarms) --quick (do not write the file) --cache=FILE (embeddings cached by text, outside the repository).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { assessEss } from "@/lib/reading/reader";
import { fitLogistic, type LogisticWeights, manipulationFeatures, type ManipulationModel, MODEL_KINDS, pressureScore, SHAPE_FEATURES } from "@/lib/reading/models/manipulation-model";
import { modelKey } from "@/lib/engine/embedder";
import { getEmbedder } from "@/lib/embed/select-embedder";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const evalDir = path.join(repoRoot, "lib", "assess", "eval");
const LABELLED: [string, string][] = [
  ["dev", "manipulation.dev.jsonl"],
  ["dev2", "manipulation.dev2.jsonl"],
  ["dev3", "manipulation.dev3.jsonl"],
  ["dev4", "manipulation.dev4.jsonl"],
  ["heldout", "manipulation.heldout.jsonl"],
  ["heldout2", "manipulation.heldout2.jsonl"],
  ["heldout3", "manipulation.heldout3.jsonl"],
  ["heldout4", "manipulation.heldout4.jsonl"],
  ["heldout5", "manipulation.heldout5.jsonl"],
  ["heldout6", "manipulation.heldout6.jsonl"],
  ["heldout7", "manipulation.heldout7.jsonl"],
  ["heldout8", "manipulation.heldout8.jsonl"],
  ["shared", "shared/manipulation.jsonl"],
];
const HONEST_PROSE = [
  "relations.dev.jsonl", "relations.heldout.jsonl", "relations.heldout2.jsonl", "relations.heldout3.jsonl", "relations.heldout4.jsonl", "relations.heldout5.jsonl", "relations.heldout6.jsonl", "relations.heldout7.jsonl", "relations.heldout8.jsonl",
  "restatement-dev.jsonl", "restatement-holdout.jsonl", "restatement-holdout2.jsonl", "restatement-holdout3.jsonl", "restatement-holdout4.jsonl", "restatement-holdout5.jsonl", "restatement-holdout6.jsonl", "restatement-holdout7.jsonl", "restatement-holdout8.jsonl",
];
const args = process.argv.slice(2);
const num = (name: string, fallback: number[]) => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3).split(",").map(Number) : fallback;
};
const TARGET_PRECISION = num("precision", [0.97])[0] as number;
const L2_GRID = num("l2", [0.003, 0.01]);
const SCALE_GRID = num("scale", [8]);
const VETO_GRID = num("veto", [2]);
/** A JSON file caching the embeddings by text (speeds up repeated runs; never committed). */
const CACHE = args.find((x) => x.startsWith("--cache="))?.slice(8);
const EXTRA_WEIGHT = num("extra", [1])[0] as number;
const ITERATIONS = num("iter", [800])[0] as number;
const SHOW_ERRORS = args.includes("--errors");
/** A JSONL file of extra labelled practice messages to train on (always in the training side), for experiments. */
const OWN = args.find((x) => x.startsWith("--own="))?.slice(6);
// The current held-out set is never training data, even by hand.
if (OWN !== undefined && /held-?out(?:9|\d\d)|holdout(?:9|\d\d)/i.test(OWN)) throw new Error("--own: the current held-out set (v9 on) is never trained on");

interface Sample {
  text: string;
  set: string;
  y: number;
  kind: string;
  weight: number;
  vector: number[];
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const readJsonl = (file: string) => readFileSync(path.join(evalDir, file), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);

/** The lowest threshold at which precision over (probability, label) pairs stays ≥ TARGET_PRECISION (ties kept). */
function thresholdFor(scored: readonly { p: number; y: number }[]): number {
  const sorted = [...scored].sort((a, b) => b.p - a.p);
  let tp = 0;
  let fp = 0;
  let best = 1;
  for (let i = 0; i < sorted.length; i++) {
    const s = sorted[i] as { p: number; y: number };
    if (s.y === 1) tp++;
    else fp++;
    const next = sorted[i + 1];
    if (next !== undefined && next.p === s.p) continue;
    if (tp / (tp + fp) >= TARGET_PRECISION) best = s.p;
  }
  return best;
}

/** The model's score of a sample under the evidence veto `veto` (manipulation-model `pressureScore`). */
const score = (model: LogisticWeights, s: Sample, scale: number, veto: number) => pressureScore({ ...model, embeddingScale: scale }, s.text, s.vector, veto);

function fit(train: readonly Sample[], l2: number, scale: number): LogisticWeights {
  return fitLogistic(
    train.map((s) => manipulationFeatures(s.text, s.vector, scale)),
    train.map((s) => s.y),
    { l2, shapeCount: SHAPE_FEATURES.length, sampleWeights: train.map((s) => s.weight), iterations: ITERATIONS },
  );
}

/** Out-of-fold probabilities of the labelled samples of `files`, each from a fit without its own file (extras always in). */
function outOfFold(samples: readonly Sample[], files: readonly string[], l2: number, scale: number, veto: number): Map<Sample, number> {
  const out = new Map<Sample, number>();
  for (const f of files) {
    const model = fit(samples.filter((s) => s.set !== f && (s.set === "extra" || files.includes(s.set))), l2, scale);
    for (const s of samples) if (s.set === f) out.set(s, score(model, s, scale, veto));
  }
  return out;
}

interface FileScore { recall: number; precision: number; positives: number; negatives: number; tp: number; fp: number; orTp: number; orFp: number }

/** Leave one file out with the threshold read on the training files' own out-of-fold predictions. */
function leaveOneFileOut(samples: readonly Sample[], l2: number, scale: number, veto: number): Record<string, FileScore> {
  const files = LABELLED.map(([set]) => set);
  const result: Record<string, FileScore> = {};
  for (const f of files) {
    const rest = files.filter((x) => x !== f);
    const inner = outOfFold(samples, rest, l2, scale, veto);
    const threshold = thresholdFor([...inner].map(([s, p]) => ({ p, y: s.y })));
    const model = fit(samples.filter((s) => s.set !== f), l2, scale);
    const test = samples.filter((s) => s.set === f);
    let tp = 0;
    let fp = 0;
    let orTp = 0;
    let orFp = 0;
    for (const s of test) {
      const p = score(model, s, scale, veto);
      const hit = p >= threshold;
      if (hit && s.y === 1) tp++;
      else if (hit) fp++;
      // The assessor's reading: a phrase cue (tuned on every file, so in-sample here) OR the model.
      const either = hit || assessEss(s.text).manipulative;
      if (either && s.y === 1) orTp++;
      else if (either) orFp++;
      if (SHOW_ERRORS && (hit !== (s.y === 1) || either !== (s.y === 1))) console.log(`        ${hit ? "FALSE" : "MISS "} p ${p.toFixed(3)} ${either !== (s.y === 1) ? "reader wrong" : "cues right"} [${s.kind}] ${s.text.replace(/\n/g, " ")}`);
    }
    const positives = test.filter((s) => s.y === 1).length;
    result[f] = { recall: tp / positives, precision: tp + fp === 0 ? 1 : tp / (tp + fp), positives, negatives: test.length - positives, tp, fp, orTp, orFp };
    console.log(
      `      leave out ${f.padEnd(9)} threshold ${threshold.toFixed(3)}  model: recall ${pct(tp / positives)} (${tp}/${positives})  precision ${pct(result[f].precision)} (fp ${fp}/${test.length - positives})` +
        `;  cues OR model: recall ${pct(orTp / positives)} (${orTp}/${positives}) precision ${pct(orTp / Math.max(1, orTp + orFp))} (fp ${orFp})`,
    );
  }
  return result;
}

async function main(): Promise<void> {
  const embedder = getEmbedder();
  if (embedder === null) throw new Error("fit:manipulation-model needs the local embedding model (run `npm run model:fetch`)");
  const labelled = LABELLED.flatMap(([set, file]) =>
    readJsonl(file).map((c) => ({ text: String(c.text), set, y: c.manipulative === true ? 1 : 0, kind: String(c.reasoningType), weight: 1 })),
  );
  const known = new Set(labelled.map((c) => c.text));
  const prose = new Set<string>();
  for (const file of HONEST_PROSE) {
    for (const c of readJsonl(file)) for (const k of ["belief", "evidence", "text", "a", "b"]) if (typeof c[k] === "string" && !known.has(c[k])) prose.add(c[k]);
  }
  // Every third honest text (sorted): enough plain prose to anchor precision, few enough to keep the fits fast.
  const EVERY = args.includes("--all-prose") ? 1 : 3;
  const extras = [...prose].sort().filter((_, i) => i % EVERY === 0).map((text) => ({ text, set: "extra", y: 0, kind: "honest", weight: EXTRA_WEIGHT }));
  const own = OWN === undefined ? [] : readFileSync(OWN, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>)
    .map((c) => ({ text: String(c.text), set: "extra", y: c.manipulative === true ? 1 : 0, kind: String(c.reasoningType), weight: 1 }));
  // The honest prose left out of training: a precision check on text the fit never saw (reported at the end).
  const unseenProse = [...prose].sort().filter((_, i) => i % EVERY !== 0).map((text) => ({ text, set: "unseen", y: 0, kind: "honest", weight: 0 }));
  const all = [...labelled, ...extras, ...own, ...unseenProse];
  const cached: Record<string, number[]> = CACHE !== undefined && existsSync(CACHE) ? (JSON.parse(readFileSync(CACHE, "utf8")) as Record<string, number[]>) : {};
  const missing = [...new Set(all.map((c) => `${modelKey(embedder.model)}\u0000${c.text}`).filter((k) => !(k in cached)))];
  const fresh = await embedder.embed(missing.map((k) => k.slice(k.indexOf("\u0000") + 1)));
  missing.forEach((k, i) => { cached[k] = [...(fresh[i] ?? [])]; });
  if (CACHE !== undefined && missing.length > 0) writeFileSync(CACHE, JSON.stringify(cached));
  const vectors = all.map((c) => cached[`${modelKey(embedder.model)}\u0000${c.text}`] ?? []);
  const everything: Sample[] = all.map((c, i) => ({ ...c, vector: [...(vectors[i] ?? [])] }));
  const samples = everything.filter((s) => s.set !== "unseen");
  const unseen = everything.filter((s) => s.set === "unseen");
  console.log(`Fitting the manipulation model on ${labelled.length} labelled messages (${LABELLED.map(([s]) => `${s} ${labelled.filter((c) => c.set === s).length}`).join(", ")}) + ${extras.length} honest prose texts at weight ${EXTRA_WEIGHT}; ${SHAPE_FEATURES.length} shape features + ${embedder.model.dimensions}-d embedding`);

  const pooledPrecision = (r: Record<string, FileScore>) => {
    const tp = Object.values(r).reduce((a, s) => a + s.tp, 0);
    const fp = Object.values(r).reduce((a, s) => a + s.fp, 0);
    return tp / Math.max(1, tp + fp);
  };
  const meanRecall = (r: Record<string, FileScore>) => Object.values(r).reduce((a, s) => a + s.recall, 0) / Object.keys(r).length;
  let best: { l2: number; scale: number; veto: number; r: Record<string, FileScore> } | null = null;
  for (const veto of VETO_GRID) for (const scale of SCALE_GRID) {
    for (const l2 of L2_GRID) {
      console.log(`  embedding scale ${scale}, l2 ${l2}, evidence veto ${veto}:`);
      const r = leaveOneFileOut(samples, l2, scale, veto);
      const orTp = Object.values(r).reduce((a, x) => a + x.orTp, 0);
      const orFp = Object.values(r).reduce((a, x) => a + x.orFp, 0);
      const pos = Object.values(r).reduce((a, x) => a + x.positives, 0);
      console.log(`    model: mean recall ${pct(meanRecall(r))}, pooled precision ${pct(pooledPrecision(r))};  cues OR model pooled: recall ${pct(orTp / pos)} precision ${pct(orTp / Math.max(1, orTp + orFp))} (fp ${orFp})`);
      const ok = pooledPrecision(r) >= TARGET_PRECISION;
      const bestOk = best !== null && pooledPrecision(best.r) >= TARGET_PRECISION;
      if (best === null || (ok && !bestOk) || (ok === bestOk && meanRecall(r) > meanRecall(best.r))) best = { l2, scale, veto, r };
    }
  }
  if (best === null) throw new Error("empty grid");
  console.log(`  chosen: embedding scale ${best.scale}, l2 ${best.l2}, evidence veto ${best.veto} (mean leave-one-file-out recall ${pct(meanRecall(best.r))}, pooled precision ${pct(pooledPrecision(best.r))})`);

  const files = LABELLED.map(([set]) => set);
  const oof = outOfFold(samples, files, best.l2, best.scale, best.veto);
  const threshold = thresholdFor([...oof].map(([s, p]) => ({ p, y: s.y })));
  const final = fit(samples, best.l2, best.scale);
  const train = labelled.length === 0 ? 0 : samples.filter((s) => s.set !== "extra").filter((s) => (score(final, s, best.scale, best.veto) >= threshold) === (s.y === 1)).length / labelled.length;
  const extraFlagged = samples.filter((s) => s.set === "extra" && score(final, s, best.scale, best.veto) >= threshold).length;
  const unseenFlagged = unseen.filter((s) => score(final, s, best.scale, best.veto) >= threshold).length;
  console.log(`  final threshold ${threshold.toFixed(3)} (out-of-fold over all labelled files); training accuracy ${pct(train)}; honest prose flagged ${extraFlagged}/${extras.length} (trained on), ${unseenFlagged}/${unseen.length} (not trained on)`);

  const prototypes: Record<string, number[]> = {};
  for (const kind of MODEL_KINDS) {
    const of = samples.filter((s) => s.y === 1 && s.kind === kind);
    if (of.length === 0) continue;
    const d = of[0]?.vector.length ?? 0;
    prototypes[kind] = Array.from({ length: d }, (_, j) => Math.round((of.reduce((a, s) => a + (s.vector[j] ?? 0), 0) / of.length) * 1e5) / 1e5);
  }
  const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
  const model: ManipulationModel = {
    shapeFeatures: [...SHAPE_FEATURES],
    embeddingModel: modelKey(embedder.model),
    dimensions: embedder.model.dimensions,
    embeddingScale: best.scale,
    ...final,
    l2: best.l2,
    threshold: round4(threshold),
    evidenceVeto: best.veto,
    prototypes,
    leaveOneFileOut: Object.fromEntries(Object.entries(best.r).map(([f, s]) => [f, { recall: round4(s.recall), precision: round4(s.precision), positives: s.positives, negatives: s.negatives }])),
    cases: labelled.length,
  };
  if (args.includes("--quick")) return;
  const out = path.join(repoRoot, "lib", "reading", "models", "manipulation-model.json");
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
