/**
 * `npx tsx research/measure-twin-veto.ts`: would the relation reader make a safe veto on ingest's twin check? A harvested claim whose restatement similarity reaches `twinSimilarity`
 * reinforces the belief instead of relating to it, so a rebuttal that reads as a restatement is lost. This measures,
 * on the development pool only (the relation pool of `developmentSets` and `DEVELOPMENT_RESTATEMENT_SPLITS`; no held-out file is
 * read):
 * - how many of the relation pool's non-supporting pairs and of the restatement pool's same-meaning pairs reach the
 *   twin similarity;
 * - the relation model trained on the relation pool alone, and with the same-meaning restatement pairs as SUPPORTS:
 *   leave one relation set out (LOSO) on the relation pairs, and leave one restatement file out on the restatement
 *   pairs (how many same-meaning pairs it reads as REBUTS);
 * - the veto "a twin, but the reader says REBUTS or UNRELATED with probability ≥ x", and a twin head (the same
 *   features, fitted only on pairs at or above the twin similarity: same meaning or SUPPORTS against the rest), each
 *   scored out of sample: risk pairs cut against true twins lost.
 * Deterministic; about a minute with the local embedding model.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { developmentSets } from "@/lib/assess/eval/evaluate-assessor";
import { readPairMeaning, relationSignals } from "@/lib/reading/reader";
import {
  beyondBelief,
  EVIDENCE_KIND_FEATURES,
  evidenceKinds,
  FEATURE_NAMES,
  fitSoftmax,
  MODEL_LABELS,
  predictProbabilities,
  readEvidenceKind,
  relationFeatures,
  type WeightSet,
} from "@/lib/reading/models/relation-model";
import { defaultParams } from "@/lib/engine";
import { modelKey } from "@/lib/engine/embedder";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { DEVELOPMENT_RESTATEMENT_SPLITS, loadRestatementCases } from "@/lib/retrieval/evaluate-meaning";
import { SemanticMatcher } from "@/lib/retrieval/semantic-matcher";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The relation model's shipped L2 strength (relation-model.json). */
const L2 = 0.3;
const THRESHOLDS = [0.6, 0.7, 0.8];
const [SUPPORTS, REBUTS, , UNRELATED] = [0, 1, 2, 3];

interface Pair {
  /** "rel" for a relation pair (label in MODEL_LABELS order), "rst" for a restatement pair (label: same meaning). */
  kind: "rel" | "rst";
  set: string;
  label: number;
  same: boolean;
  x: number[];
  evidence: Float32Array;
  belief: Float32Array;
  similarity: number;
}

type Predict = (p: Pair) => number[];
const kindAt = EVIDENCE_KIND_FEATURES.map((n) => FEATURE_NAMES.indexOf(n));
const argmax = (p: readonly number[]) => p.indexOf(Math.max(...p));
const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)} %`;

/** Fit on `train` (labels from `label`); the evidence-kind prototypes come from its relation pairs only. */
function fit(train: readonly Pair[], label: (p: Pair) => number, model: string): Predict {
  const rel = train.filter((p) => p.kind === "rel");
  const kinds = evidenceKinds(rel.map((p) => beyondBelief(p.evidence, p.belief)), rel.map((p) => p.label), model);
  const features = (p: Pair) => {
    const x = [...p.x];
    const reading = readEvidenceKind(kinds, { model, evidence: p.evidence, belief: p.belief });
    kindAt.forEach((at, c) => (x[at] = reading[c] ?? 0));
    return x;
  };
  const set: WeightSet = { ...fitSoftmax(train.map(features), train.map(label), { l2: L2 }), cvAccuracy: 0, trainAccuracy: 0, cases: 0, l2: L2 };
  return (p) => predictProbabilities(set, features(p));
}

/** Out-of-sample probabilities: each group of `test` predicted by a fit on `base` plus `extra` outside that group. */
function outOfGroup(test: readonly Pair[], base: readonly Pair[], extra: readonly Pair[], label: (p: Pair) => number, model: string): Map<Pair, number[]> {
  const out = new Map<Pair, number[]>();
  for (const set of new Set(test.map((p) => p.set))) {
    const predict = fit([...base, ...extra].filter((p) => p.set !== set), label, model);
    for (const p of test.filter((q) => q.set === set)) out.set(p, predict(p));
  }
  return out;
}

async function main(): Promise<void> {
  const embedder = getEmbedder();
  if (embedder === null) throw new Error("measure-twin-veto needs the local embedding model (npm run setup fetches it)");
  const model = modelKey(embedder.model);
  const matcher = new SemanticMatcher(embedder);
  const raw: { kind: Pair["kind"]; set: string; label: number; same: boolean; belief: string; evidence: string }[] = [];
  // The relation sets as the fitting script leaves them out: dev's later batches (ids dv4-…, dv5-…) are sets of their own.
  const batch = (set: string, id: string) => {
    const round = /^dv(\d+)-/.exec(id)?.[1];
    return set === "dev" && round !== undefined && Number(round) >= 4 ? `dev-dv${round}` : set;
  };
  for (const [name, set] of developmentSets(repoRoot)) {
    for (const c of set.relations) raw.push({ kind: "rel", set: batch(name, c.id), label: MODEL_LABELS.indexOf(c.relation as (typeof MODEL_LABELS)[number]), same: false, belief: c.belief, evidence: c.evidence });
  }
  for (const split of DEVELOPMENT_RESTATEMENT_SPLITS) {
    for (const c of loadRestatementCases(path.join(repoRoot, "lib", "assess", "eval", `restatement-${split}.jsonl`))) {
      raw.push({ kind: "rst", set: `restatement-${split}`, label: c.same ? SUPPORTS : -1, same: c.same, belief: c.a, evidence: c.b });
    }
  }
  const pairs: Pair[] = [];
  for (const r of raw) {
    // The assessor's own reading (readPairMeaning).
    const meaning = await readPairMeaning(embedder, r.evidence, r.belief);
    const ve = meaning.vectors?.evidence;
    const vb = meaning.vectors?.belief;
    if (!ve || !vb || meaning.semantic === undefined) throw new Error("measure-twin-veto: a text without an embedding");
    const semantic = meaning.semantic;
    const parts = meaning.parts;
    const belief = { id: r.belief, text: r.belief };
    const x = relationFeatures(r.evidence, belief, relationSignals(r.evidence, belief, semantic, parts));
    pairs.push({ kind: r.kind, set: r.set, label: r.label, same: r.same, x, evidence: ve, belief: vb, similarity: await matcher.similarity(r.evidence, r.belief) });
  }
  const twin = defaultParams.twinSimilarity;
  const rel = pairs.filter((p) => p.kind === "rel");
  const same = pairs.filter((p) => p.kind === "rst" && p.same);
  const risk = rel.filter((p) => p.label !== SUPPORTS && p.similarity >= twin);
  const sameHigh = same.filter((p) => p.similarity >= twin);
  const supportHigh = rel.filter((p) => p.label === SUPPORTS && p.similarity >= twin);
  const byLabel = (ps: readonly Pair[]) => MODEL_LABELS.map((l, i) => `${l} ${ps.filter((p) => p.label === i).length}`).join(", ");
  console.log(`Relation pool: ${rel.length} pairs; ${risk.length} of ${rel.filter((p) => p.label !== SUPPORTS).length} non-supporting pairs reach the twin similarity ${twin} (${byLabel(risk)}); ${supportHigh.length} SUPPORTS pairs do`);
  console.log(`Restatement pool: ${sameHigh.length} of ${same.length} same-meaning pairs reach it`);
  const label = (p: Pair) => p.label;
  for (const [name, extra] of [["relation pool only", []], ["+ same-meaning restatements as SUPPORTS", same]] as const) {
    const relP = outOfGroup(rel, rel, extra, label, model);
    const sameP = outOfGroup(same, rel, extra, label, model);
    const hit = rel.filter((p) => argmax(relP.get(p) ?? []) === p.label).length;
    const rebuts = rel.filter((p) => p.label === REBUTS);
    const readAs = (ps: readonly Pair[], l: number) => ps.filter((p) => argmax(sameP.get(p) ?? []) === l).length;
    console.log(`\n${name}: LOSO ${pct(hit, rel.length)} (REBUTS recall ${pct(rebuts.filter((p) => argmax(relP.get(p) ?? []) === REBUTS).length, rebuts.length)}); same-meaning pairs ≥ ${twin} read REBUTS ${readAs(sameHigh, REBUTS)}, UNRELATED ${readAs(sameHigh, UNRELATED)} of ${sameHigh.length}`);
    for (const x of THRESHOLDS) {
      const veto = (p: number[] | undefined) => p !== undefined && (argmax(p) === REBUTS || argmax(p) === UNRELATED) && Math.max(...p) >= x;
      console.log(`  veto REBUTS / UNRELATED at p ≥ ${x}: cuts ${risk.filter((p) => veto(relP.get(p))).length} of ${risk.length} risk pairs; loses ${sameHigh.filter((p) => veto(sameP.get(p))).length} of ${sameHigh.length} true twins and ${supportHigh.filter((p) => veto(relP.get(p))).length} of ${supportHigh.length} SUPPORTS pairs`);
    }
  }
  // The twin head: 0 = a twin (same meaning, or SUPPORTS), 1 = not; groups are the relation sets and restatement files.
  const high = pairs.filter((p) => p.similarity >= twin);
  const notTwin = (p: Pair) => (p.kind === "rst" ? (p.same ? 0 : 1) : p.label === SUPPORTS ? 0 : 1);
  const headP = outOfGroup(high, [], high, notTwin, model);
  const pNot = (p: Pair) => {
    const q = headP.get(p) ?? [1, 0];
    return (q[1] ?? 0) / ((q[0] ?? 0) + (q[1] ?? 0));
  };
  console.log(`\ntwin head (fitted on the ${high.length} pairs at or above ${twin}, leaving one set or file out):`);
  for (const x of THRESHOLDS) {
    console.log(`  veto at p(not a twin) ≥ ${x}: cuts ${risk.filter((p) => pNot(p) >= x).length} of ${risk.length} risk pairs; loses ${sameHigh.filter((p) => pNot(p) >= x).length} of ${sameHigh.length} true twins and ${supportHigh.filter((p) => pNot(p) >= x).length} of ${supportHigh.length} SUPPORTS pairs`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
