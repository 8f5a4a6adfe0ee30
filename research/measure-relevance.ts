/**
 * `npx tsx research/measure-relevance.ts [--sweep]`: recall's word check (lib/engine/retrieval.ts, `needsWordCheck`,
 * `closestWords`; lib/engine/README.md, "Hybrid retrieval") measured on text written by others, and what it would cost
 * the team's retrieval sets. `--sweep` reports a range of `ANSWER_WORD_COSINE` values; `--band` the word check over
 * wider cosine bands (a text sharing no term of the question's topic answers below the band's top only if its words
 * meet the question's).
 *
 * There is no public question/answer set, so relatedness is built from the public development halves. The first text
 * plays the question, the second the belief:
 * - related: Climate-FEVER's claim and each sentence retrieved for it; SICK's and MRPC's two sentences of a pair
 *   (whatever their label: they are about the same scene or story);
 * - negatives, per question: the nearest text by sentence cosine that is not its partner (Climate-FEVER: among the
 *   sentences retrieved for other claims; SICK, MRPC: among every sentence of the set), which is mostly on the same
 *   topic; the nearest that shares no content term with it (where the word check acts); and the nearest sentence of
 *   the two other sets (a question about something the store never mentions, the case the check is for).
 * Per set: related pairs each test keeps, negatives it drops. Then the team's retrieval sets (regression tests of named
 * behaviours, not a measure of generalisation): right answers lost, hit@1, unanswerable questions left unanswered.
 * Reads `$CREDENCE_EVAL_DIR/public` or `../shared/eval/public`; about ten minutes on one core.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadSet, requirePublicDir } from "@/lib/assess/eval/eval-sets";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { cosine, type WordVector } from "@/lib/engine/embedder";
import {
  ANSWER_COSINE_ALONE,
  ANSWER_WORD_COSINE,
  closestWords,
  fuseRelevance,
  HYBRID_ANSWER_FLOOR,
  needsWordCheck,
  relevanceScorer,
  sharesTerm,
  sharesTopicTerm,
  termSet,
} from "@/lib/engine/retrieval";
import { loadRetrievalSet } from "@/lib/retrieval/evaluate-meaning";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface Encoded {
  sentence: Float32Array;
  words: WordVector[];
  terms: Set<string>;
}

/** The (question, belief) pairs of a public set, every row: a relation row's belief and evidence, a restatement's two. */
function pairsOf(dir: string, file: string): { q: string; d: string }[] {
  const set = loadSet({ name: file, kind: file.startsWith("mrpc") ? "restatements" : "relations", file }, dir);
  return set.kind === "restatements" ? set.rows.map((r) => ({ q: r.a, d: r.b })) : set.kind === "relations" ? set.rows.map((r) => ({ q: r.belief, d: r.evidence })) : [];
}

interface Features {
  cos: number;
  /** Shares a content term with the question (`sharesTerm`). */
  shared: boolean;
  /** `closestWords` of the question and the text. */
  closest: number;
  /** Clears today's answer floor: hybrid relevance > `HYBRID_ANSWER_FLOOR` (lexical part over the pair alone). */
  floor: boolean;
  /** Would need the word check (`needsWordCheck`). */
  check: boolean;
  /** Shares a term of the question's topic (`sharesTopicTerm`: the word naming the kind of answer asked for aside). */
  sharedTopic: boolean;
}

function features(q: string, d: string, eq: Encoded, ed: Encoded): Features {
  const cos = cosine(eq.sentence, ed.sentence);
  const lexical = relevanceScorer(q, [d]).score(d);
  return { cos, shared: sharesTerm(q, d), closest: closestWords(eq.words, ed.words), floor: fuseRelevance(lexical, cos) > HYBRID_ANSWER_FLOOR, check: needsWordCheck(q, d, cos), sharedTopic: sharesTopicTerm(q, d) };
}

/** The tests compared: today's floor, the floor with the word check, the floor with a cosine cut instead. */
const TESTS: Record<string, (f: Features, wordCosine: number) => boolean> = {
  floor: (f) => f.floor,
  "floor + word check": (f, w) => f.floor && (!f.check || f.closest >= w),
  "floor + no shared term ⇒ cosine ≥ ANSWER_COSINE_ALONE": (f) => f.floor && (f.shared || f.cos >= ANSWER_COSINE_ALONE),
};

/** `--band`: the word check over a wider cosine band: a text sharing no topic term answers below cosine `upTo` only if its words meet the question's. */
const bandTest = (upTo: number) => (f: Features, w: number) => f.floor && (f.sharedTopic || f.cos >= upTo || f.closest >= w);

async function main() {
  const dir = requirePublicDir(repoRoot);
  const embedder = new LocalEmbedder();
  const cache = new Map<string, Encoded>();
  const encode = async (text: string): Promise<Encoded> => {
    const known = cache.get(text);
    if (known) return known;
    const [sentence] = await embedder.embed([text]);
    const [words] = await embedder.words([text]);
    const e = { sentence: sentence as Float32Array, words: words ?? [], terms: termSet(text) };
    cache.set(text, e);
    return e;
  };

  const sets: { name: string; related: Features[]; negatives: Features[]; apart: Features[]; elsewhere: Features[] }[] = [];
  const anchors = new Map<string, string[]>();
  const pools = new Map<string, string[]>();
  for (const file of ["climate-fever-dev.jsonl", "sick-dev.jsonl", "mrpc-dev.jsonl"]) {
    const rows = pairsOf(dir, file);
    const partners = new Map<string, Set<string>>();
    const link = (x: string, y: string) => partners.set(x, (partners.get(x) ?? new Set()).add(y));
    for (const r of rows) {
      link(r.q, r.d);
      link(r.d, r.q);
    }
    // Climate-FEVER: negatives among the other claims' evidence; SICK and MRPC: among every sentence of the set.
    const pool = [...new Set(file.startsWith("climate") ? rows.map((r) => r.d) : rows.flatMap((r) => [r.q, r.d]))];
    for (const t of pool) await encode(t);
    const related: Features[] = [];
    for (const r of rows) related.push(features(r.q, r.d, await encode(r.q), await encode(r.d)));
    const negatives: Features[] = [];
    const apart: Features[] = [];
    for (const q of new Set(rows.map((r) => r.q))) {
      const eq = await encode(q);
      // The nearest other text, and the nearest that shares no content term with the question (where the gate acts).
      let best: string | null = null;
      let bestCos = -2;
      let bestApart: string | null = null;
      let bestApartCos = -2;
      for (const d of pool) {
        if (d === q || partners.get(q)?.has(d)) continue;
        const ed = cache.get(d) as Encoded;
        const c = cosine(eq.sentence, ed.sentence);
        if (c > bestCos) {
          bestCos = c;
          best = d;
        }
        if (c > bestApartCos && ![...eq.terms].some((t) => ed.terms.has(t))) {
          bestApartCos = c;
          bestApart = d;
        }
      }
      if (best !== null) negatives.push(features(q, best, eq, await encode(best)));
      if (bestApart !== null) apart.push(features(q, bestApart, eq, await encode(bestApart)));
    }
    sets.push({ name: file, related, negatives, apart, elsewhere: [] });
    anchors.set(file, [...new Set(rows.map((r) => r.q))]);
    pools.set(file, pool);
    console.error(`${file}: ${related.length} related, ${negatives.length} hard negatives (${cache.size} texts encoded)`);
  }


  // A question about something the store never mentions: each anchor against the nearest text of the other sets.
  for (const s of sets) {
    const others = [...pools].filter(([f]) => f !== s.name).flatMap(([, p]) => p);
    for (const q of anchors.get(s.name) ?? []) {
      const eq = cache.get(q) as Encoded;
      let best: string | null = null;
      let bestCos = -2;
      for (const d of others) {
        const c = cosine(eq.sentence, (cache.get(d) as Encoded).sentence);
        if (c > bestCos) {
          bestCos = c;
          best = d;
        }
      }
      if (best !== null) s.elsewhere.push(features(q, best, eq, cache.get(best) as Encoded));
    }
  }

  // The team's retrieval sets: every question against every belief of its set, ranked by hybrid relevance.
  const team: { right: string | null; beliefs: { id: string; relevance: number; f: Features }[] }[] = [];
  const evalDir = path.join(repoRoot, "lib/assess/eval");
  for (const file of readdirSync(evalDir).filter((f) => /^retrieval-.*\.json$/.test(f)).sort()) {
    const set = loadRetrievalSet(path.join(evalDir, file));
    const corpus = set.beliefs.map((b) => b.text);
    for (const q of set.questions) {
      const scorer = relevanceScorer(q.question, corpus);
      const eq = await encode(q.question);
      const beliefs = [];
      for (const b of set.beliefs) {
        const f = features(q.question, b.text, eq, await encode(b.text));
        const relevance = fuseRelevance(scorer.score(b.text), f.cos);
        beliefs.push({ id: b.id, relevance, f: { ...f, floor: relevance > HYBRID_ANSWER_FLOOR } });
      }
      team.push({ right: q.belief, beliefs });
    }
  }

  const count = (fs: readonly Features[], test: (f: Features) => boolean) => fs.filter(test).length;
  const pct = (n: number, of: number) => `${n} / ${of} (${((100 * n) / Math.max(1, of)).toFixed(1)} %)`;
  const report = (wordCosine: number, tests: Record<string, (f: Features, w: number) => boolean> = TESTS) => {
    for (const [name, test] of Object.entries(tests)) {
      const passes = (f: Features) => test(f, wordCosine);
      console.log(`${name}${name.includes("word") ? ` (ANSWER_WORD_COSINE ${wordCosine})` : ""}:`);
      for (const s of sets) {
        console.log(
          `  ${s.name.padEnd(24)} related kept ${pct(count(s.related, passes), s.related.length)}; dropped: nearest ${count(s.negatives, (f) => !passes(f))}, ` +
            `nearest sharing no term ${pct(count(s.apart, (f) => !passes(f)), s.apart.length)}, other sets' nearest ${pct(count(s.elsewhere, (f) => !passes(f)), s.elsewhere.length)}`,
        );
      }
      const answerable = team.filter((t) => t.right !== null);
      const top = (t: (typeof team)[number]) => t.beliefs.filter((b) => passes(b.f)).sort((a, b) => b.relevance - a.relevance)[0];
      const lost = answerable.filter((t) => t.beliefs.some((b) => b.id === t.right && b.f.floor && !passes(b.f))).length;
      const hits = answerable.filter((t) => top(t)?.id === t.right).length;
      const unanswerable = team.filter((t) => t.right === null);
      console.log(
        `  team retrieval sets       right answers lost ${lost} / ${answerable.length}, hit@1 ${hits}, unanswerable left unanswered ${unanswerable.filter((t) => top(t) === undefined).length} / ${unanswerable.length}`,
      );
    }
  };
  if (process.argv.includes("--sweep")) for (const w of [0.3, 0.32, 0.35, 0.38, 0.4, 0.45]) report(w);
  else if (process.argv.includes("--band")) report(ANSWER_WORD_COSINE, Object.fromEntries([0.3, 0.35, 0.4, 0.45, 0.5, 0.6].map((c) => [`floor + word check below cosine ${c}`, bandTest(c)])));
  else report(ANSWER_WORD_COSINE);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
