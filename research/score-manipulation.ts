/**
 * `npx tsx research/score-manipulation.ts [--errors] [--model] [--stress]`: the offline heuristic's manipulation
 * detection per labelled file (dev, dev2, dev3, dev4, held-out v1–v8, shared; never the newest held-out set, v9): recall, precision on the
 * honest controls, and reasoning-type accuracy (all messages, and manipulative ones alone). `--errors` lists each miss,
 * false alarm and wrong type. By default the words-only reading (assessEss); `--model` adds the fitted manipulation
 * model on the local embedding (assessEssWithMeaning, as the assessor does with an embedder) — fitted on all these
 * files, so its figures here are in-sample: the honest estimate is research/fit-manipulation-model.ts's leave one file
 * out. No network.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { assessEss, assessEssWithMeaning, MANIPULATION_MODEL } from "@/lib/reading/reader";
import { getEmbedder } from "@/lib/embed/select-embedder";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const files = ["manipulation.dev.jsonl", "manipulation.dev2.jsonl", "manipulation.dev3.jsonl", "manipulation.dev4.jsonl", "manipulation.heldout.jsonl", "manipulation.heldout2.jsonl", "manipulation.heldout3.jsonl", "manipulation.heldout4.jsonl", "manipulation.heldout5.jsonl", "manipulation.heldout6.jsonl", "manipulation.heldout7.jsonl", "manipulation.heldout8.jsonl", "shared/manipulation.jsonl"];
// Extra labelled files (absolute paths, comma-separated) to score beside the repo's, e.g. a helper's own probe set.
for (const extra of (process.env.EXTRA_MANIPULATION ?? "").split(",").filter(Boolean)) files.push(extra);
const showErrors = process.argv.includes("--errors");
const embedder = process.argv.includes("--model") ? getEmbedder() : null;
const model = MANIPULATION_MODEL;
if (process.argv.includes("--model") && (embedder === null || model === null)) throw new Error("--model needs the local embedding model and a current manipulation-model.json");
/** The reading scored: words only, or with the fitted model on the embedding. */
async function assess(text: string): Promise<ReturnType<typeof assessEss>> {
  if (embedder === null || model === null) return assessEss(text);
  const [vector] = await embedder.embed([text]);
  return vector ? assessEssWithMeaning(text, vector, model) : assessEss(text);
}
interface Case { id: string; text: string; manipulative: boolean; reasoningType: string }
const pct = (a: number, b: number) => (b === 0 ? "  -  " : `${((100 * a) / b).toFixed(1).padStart(5)}%`);
const T = { tp: 0, fp: 0, fn: 0, neg: 0, pos: 0, type: 0, n: 0, mtype: 0 };
for (const f of files) {
  const cases: Case[] = fs.readFileSync(path.isAbsolute(f) ? f : path.join(root, "lib/assess/eval", f), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Case);
  const s = { tp: 0, fp: 0, fn: 0, neg: 0, pos: 0, type: 0, n: 0, mtype: 0 };
  for (const c of cases) {
    const r = await assess(c.text);
    s.n++;
    if (c.manipulative) s.pos++; else s.neg++;
    if (r.manipulative && c.manipulative) s.tp++;
    else if (r.manipulative) s.fp++;
    else if (c.manipulative) s.fn++;
    if (r.reasoningType === c.reasoningType) { s.type++; if (c.manipulative) s.mtype++; }
    if (showErrors && (r.manipulative !== c.manipulative || r.reasoningType !== c.reasoningType)) {
      const tag = r.manipulative !== c.manipulative ? (c.manipulative ? "MISS" : "FALSE") : "TYPE";
      console.log(`  ${tag} ${c.id} [${c.reasoningType} -> ${r.reasoningType}] ${c.text}\n        ${r.reasoning}`);
    }
  }
  console.log(`${path.basename(f).padEnd(30)} recall ${pct(s.tp, s.pos)} (${s.tp}/${s.pos})  precision ${pct(s.tp, s.tp + s.fp)} (fp ${s.fp}/${s.neg})  type ${pct(s.type, s.n)}  manip-type ${pct(s.mtype, s.pos)} (${s.mtype}/${s.pos})`);
  for (const k of Object.keys(T) as (keyof typeof T)[]) T[k] += s[k];
}
console.log(`${"ALL".padEnd(30)} recall ${pct(T.tp, T.pos)} (${T.tp}/${T.pos})  precision ${pct(T.tp, T.tp + T.fp)} (fp ${T.fp}/${T.neg})  type ${pct(T.type, T.n)}  manip-type ${pct(T.mtype, T.pos)} (${T.mtype}/${T.pos})`);

// `--stress`: every belief and evidence text of the relation and restatement sets is honest prose; count those the
// assessor would flag as manipulative (a precision check on far more honest text than the labelled controls). The
// newest held-out files (v9 on) are never read.
if (process.argv.includes("--stress")) {
  const dir = path.join(root, "lib/assess/eval");
  const texts = new Set<string>();
  for (const f of fs.readdirSync(dir).filter((n) => /^(?:relations|restatement)/.test(n) && n.endsWith(".jsonl") && !/(?:held|hold)out(?:9|\d\d)/.test(n))) {
    for (const line of fs.readFileSync(path.join(dir, f), "utf8").split("\n").filter((l) => l.trim())) {
      const c = JSON.parse(line) as Record<string, unknown>;
      for (const k of ["belief", "evidence", "text", "a", "b"]) if (typeof c[k] === "string") texts.add(c[k]);
    }
  }
  const flagged: string[] = [];
  for (const t of texts) {
    const r = await assess(t);
    if (!r.manipulative) continue;
    flagged.push(t);
    console.log(`  FLAGGED ${t}\n        ${r.reasoning}`);
  }
  console.log(`stress: ${flagged.length} of ${texts.size} honest relation/restatement texts flagged`);
}
