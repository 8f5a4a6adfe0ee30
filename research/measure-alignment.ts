/**
 * `npx tsx research/measure-alignment.ts`: the paraphrase test's precision on the whole public development halves
 * (docs/reading.md, "The paraphrase test"). For SICK and Climate-FEVER: the pairs the rule order reads as SUPPORTS with
 * a cosine in [PARAPHRASE.cosine, 0.9), split by word alignment ≥ PARAPHRASE.alignment, and the share of support among
 * each; for MRPC, every pair in the same cosine band and the share that mean the same. Shares are balanced by label
 * (each label weighed by 1 / its row count), as the evaluation's samples are. Reads `$CREDENCE_EVAL_DIR/public` or
 * `../shared/eval/public`; about two minutes on one core.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadSet, requirePublicDir } from "@/lib/assess/eval/eval-sets";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { cosine } from "@/lib/engine/embedder";
import { PARAPHRASE } from "@/lib/reading/models/relation-confidence";
import { classifyRelation } from "@/lib/reading/reader";
import { wordAlignment } from "@/lib/reading/signals/word-alignment";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Above this cosine the confidence model commits SUPPORTS by itself: the paraphrase test decides only below it. */
const COSINE_COMMITS = 0.9;

interface Row {
  belief: string;
  evidence: string;
  gold: string;
}

/** Every row of a public set (no sampling), as belief, evidence and gold label (SAME / DIFFERENT for restatements). */
function rows(dir: string, file: string): Row[] {
  const set = loadSet({ name: file, kind: file.startsWith("mrpc") ? "restatements" : "relations", file }, dir);
  if (set.kind === "restatements") return set.rows.map((r) => ({ belief: r.a, evidence: r.b, gold: r.same ? "SAME" : "DIFFERENT" }));
  return set.kind === "relations" ? set.rows.map((r) => ({ belief: r.belief, evidence: r.evidence, gold: r.gold })) : [];
}

async function main() {
  const dir = requirePublicDir(repoRoot);
  const embedder = new LocalEmbedder();
  for (const [file, positive, relations] of [
    ["sick-dev.jsonl", "SUPPORTS", true],
    ["mrpc-dev.jsonl", "SAME", false],
    ["climate-fever-dev.jsonl", "SUPPORTS", true],
  ] as const) {
    const all = rows(dir, file);
    const perLabel = new Map<string, number>();
    for (const r of all) perLabel.set(r.gold, (perLabel.get(r.gold) ?? 0) + 1);
    const tally = { aligned: new Map<string, number>(), apart: new Map<string, number>() };
    for (const r of all) {
      const [vb, ve] = await embedder.embed([r.belief, r.evidence]);
      const semantic = cosine(vb as Float32Array, ve as Float32Array);
      if (semantic < PARAPHRASE.cosine || semantic >= COSINE_COMMITS) continue;
      if (relations && (classifyRelation(r.evidence, { id: "belief", text: r.belief }, semantic).guess ?? "") !== "SUPPORTS") continue;
      const [wb, we] = await embedder.words([r.belief, r.evidence]);
      const side = wordAlignment(we ?? [], wb ?? []).weakest >= PARAPHRASE.alignment ? tally.aligned : tally.apart;
      side.set(r.gold, (side.get(r.gold) ?? 0) + 1);
    }
    const describe = (counts: Map<string, number>) => {
      const n = [...counts.values()].reduce((a, b) => a + b, 0);
      const right = counts.get(positive) ?? 0;
      let weighed = 0;
      for (const [gold, c] of counts) weighed += c / (perLabel.get(gold) ?? 1);
      const balanced = weighed === 0 ? 0 : right / (perLabel.get(positive) ?? 1) / weighed;
      return `${right} / ${n} ${positive.toLowerCase()}, balanced ${(balanced * 100).toFixed(1)} %`;
    };
    console.log(`${file}: cosine in [${PARAPHRASE.cosine}, ${COSINE_COMMITS})${relations ? ", read as SUPPORTS" : ""}`);
    console.log(`  aligned (≥ ${PARAPHRASE.alignment}): ${describe(tally.aligned)}`);
    console.log(`  not aligned:        ${describe(tally.apart)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
