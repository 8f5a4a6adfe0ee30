/**
 * `npx tsx research/measure-relevance.ts [--sweep | --band | --partial]`: recall's word check (lib/engine/retrieval.ts,
 * `wordCheckOf`, `closestWords`; lib/engine/README.md, "Hybrid retrieval") measured on text written by others, and what
 * it would cost the team's retrieval sets. `--sweep` reports a range of `ANSWER_WORD_COSINE` values; `--band` the word
 * check over wider cosine bands (a text sharing no term of the question's topic answers below the band's top only if
 * its words meet the question's); `--partial` ways of checking a text that shares only part of the question's topic
 * (which part counts as partial, under which cosine, at which word cosine over the question's words it lacks);
 * FEATURES_OUT=file also writes every pair's features as JSON.
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
import { readdirSync, writeFileSync } from "node:fs";
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
  idfOf,
  PARTIAL_MATCH_COSINE,
  PARTIAL_MATCH_WORD_COSINE,
  relevanceScorer,
  sharesTerm,
  sharesTopicTerm,
  stem,
  termSet,
  topicTerms,
  wordCheckOf,
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
  /** Passes today's word check (`closestWords` over the question's words it lacks ≥ the check's `minCosine`). */
  passesCheck: boolean;
  /** Would have needed the word check before it covered texts sharing part of the topic: no topic term shared. */
  checkNoTopic: boolean;
  /** Shares a term of the question's topic (`sharesTopicTerm`: the word naming the kind of answer asked for aside). */
  sharedTopic: boolean;
  /** Terms of the question's topic, and how many of them the text shares. */
  topicN: number;
  sharedN: number;
  /** Share of the topic terms' idf (over the question's own set) the shared ones carry. */
  idfShare: number;
  /** `closestWords` over the question's words the text does not share (the text's words all). */
  closestUnshared: number;
  /** The same with the text's shared words left out too. */
  closestUnsharedBoth: number;
}

/** idf of a term over a set's texts (BM25's, as retrieval's). */
type IdfOf = (term: string) => number;

function features(q: string, d: string, eq: Encoded, ed: Encoded, idf: IdfOf): Features {
  const cos = cosine(eq.sentence, ed.sentence);
  const lexical = relevanceScorer(q, [d]).score(d);
  const topic = [...topicTerms(q)];
  const shared = new Set(topic.filter((t) => ed.terms.has(t)));
  const total = topic.reduce((s, t) => s + idf(t), 0);
  const idfShare = total > 0 ? [...shared].reduce((s, t) => s + idf(t), 0) / total : 0;
  const check = wordCheckOf(q, d, cos);
  const sharedTopic = sharesTopicTerm(q, d);
  return {
    cos,
    shared: sharesTerm(q, d),
    closest: closestWords(eq.words, ed.words),
    floor: fuseRelevance(lexical, cos) > HYBRID_ANSWER_FLOOR,
    passesCheck: check === null || closestWords(eq.words, ed.words, check.shared) >= check.minCosine,
    checkNoTopic: !sharedTopic && cos < ANSWER_COSINE_ALONE && fuseRelevance(0, cos) > HYBRID_ANSWER_FLOOR,
    sharedTopic,
    topicN: topic.length,
    sharedN: shared.size,
    idfShare,
    closestUnshared: closestWords(eq.words, ed.words, shared),
    closestUnsharedBoth: closestWords(eq.words, ed.words.filter((w) => !shared.has(stem(w.word))), shared),
  };
}

function idfOver(texts: readonly Set<string>[]): IdfOf {
  const df = new Map<string, number>();
  for (const terms of texts) for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  return (t) => idfOf(texts.length, df.get(t) ?? 0);
}

/**
 * The tests compared: today's floor, the floor with the word check on texts sharing no topic term (at word cosine
 * `w`), the floor with a cosine cut instead.
 */
const TESTS: Record<string, (f: Features, wordCosine: number) => boolean> = {
  floor: (f) => f.floor,
  "floor + word check": (f, w) => f.floor && (!f.checkNoTopic || f.closest >= w),
  "floor + today's word check (wordCheckOf, partial matches too)": (f) => f.floor && f.passesCheck,
  "floor + no shared term ⇒ cosine ≥ ANSWER_COSINE_ALONE": (f) => f.floor && (f.shared || f.cos >= ANSWER_COSINE_ALONE),
};

/** `--band`: the word check over a wider cosine band: a text sharing no topic term answers below cosine `upTo` only if its words meet the question's. */
const bandTest = (upTo: number) => (f: Features, w: number) => f.floor && (f.sharedTopic || f.cos >= upTo || f.closest >= w);

/** The word check on texts sharing no topic term only (`ANSWER_WORD_COSINE`), as before it covered partial matches. */
const noTopicOnly = (f: Features) => f.floor && (!f.checkNoTopic || f.closest >= ANSWER_WORD_COSINE);
/**
 * `--partial`: the word check on texts sharing no topic term, and a text sharing only part of the question's topic
 * (`partial`) with cosine under `cosUnder` answering only if an unshared word of the question meets one of its words
 * at `wordMin` (`both`: one of its words it does not share).
 */
const partialTest = (partial: (f: Features) => boolean, cosUnder: number, wordMin: number, both = false) => (f: Features) =>
  noTopicOnly(f) && !(f.sharedTopic && f.cos < cosUnder && partial(f) && (both ? f.closestUnsharedBoth : f.closestUnshared) < wordMin);
const anyUnshared = (f: Features) => f.sharedN < f.topicN;
const atMostHalf = (f: Features) => 2 * f.sharedN <= f.topicN;
const oneShared = (f: Features) => f.sharedN === 1 && f.topicN > 1;
const idfUnderHalf = (f: Features) => f.idfShare < 0.5;
const PARTIAL: Record<string, (f: Features, w: number) => boolean> = {
  "word check on texts sharing no topic term (before)": noTopicOnly,
  "today's word check (wordCheckOf)": (f) => f.floor && f.passesCheck,
  "partial = any topic term unshared, cosine < 0.4, word 0.35": partialTest(anyUnshared, ANSWER_COSINE_ALONE, ANSWER_WORD_COSINE),
  "partial = at most half shared, cosine < 0.4, word 0.35": partialTest(atMostHalf, ANSWER_COSINE_ALONE, ANSWER_WORD_COSINE),
  "partial = shared idf under half, cosine < 0.4, word 0.35": partialTest(idfUnderHalf, ANSWER_COSINE_ALONE, ANSWER_WORD_COSINE),
  "partial = at most half shared, cosine < 0.4, word 0.35, text's shared words aside": partialTest(atMostHalf, ANSWER_COSINE_ALONE, ANSWER_WORD_COSINE, true),
  "partial = any topic term unshared, cosine < 0.3, word 0.3": partialTest(anyUnshared, 0.3, 0.3),
  "partial = one shared, cosine < 0.3, word 0.3": partialTest(oneShared, 0.3, 0.3),
  "partial = shared idf under half, cosine < 0.3, word 0.3": partialTest(idfUnderHalf, 0.3, 0.3),
  [`partial = at most half shared, cosine < ${PARTIAL_MATCH_COSINE}, word ${PARTIAL_MATCH_WORD_COSINE} (today's)`]: partialTest(atMostHalf, PARTIAL_MATCH_COSINE, PARTIAL_MATCH_WORD_COSINE),
  "partial = at most half shared, cosine < 0.35, word 0.3": partialTest(atMostHalf, 0.35, 0.3),
  "partial = at most half shared, cosine < 0.3, word 0.35": partialTest(atMostHalf, 0.3, 0.35),
};

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
  const idfs = new Map<string, IdfOf>();
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
    const idf = idfOver([...new Set([...pool, ...rows.map((r) => r.q)])].map((t) => termSet(t)));
    idfs.set(file, idf);
    const related: Features[] = [];
    for (const r of rows) related.push(features(r.q, r.d, await encode(r.q), await encode(r.d), idf));
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
      if (best !== null) negatives.push(features(q, best, eq, await encode(best), idf));
      if (bestApart !== null) apart.push(features(q, bestApart, eq, await encode(bestApart), idf));
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
      if (best !== null) s.elsewhere.push(features(q, best, eq, cache.get(best) as Encoded, idfs.get(s.name) as IdfOf));
    }
  }

  // The team's retrieval sets: every question against every belief of its set, ranked by hybrid relevance.
  const team: { right: string | null; beliefs: { id: string; relevance: number; f: Features }[] }[] = [];
  const evalDir = path.join(repoRoot, "lib/assess/eval");
  for (const file of readdirSync(evalDir).filter((f) => /^retrieval-.*\.json$/.test(f)).sort()) {
    const set = loadRetrievalSet(path.join(evalDir, file));
    const corpus = set.beliefs.map((b) => b.text);
    const idf = idfOver(corpus.map((t) => termSet(t)));
    for (const q of set.questions) {
      const scorer = relevanceScorer(q.question, corpus);
      const eq = await encode(q.question);
      const beliefs = [];
      for (const b of set.beliefs) {
        const f = features(q.question, b.text, eq, await encode(b.text), idf);
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
  else if (process.argv.includes("--partial")) {
    report(ANSWER_WORD_COSINE, PARTIAL);
    const dump = process.env.FEATURES_OUT;
    if (dump) writeFileSync(dump, JSON.stringify({ sets, team }));
  }
  else report(ANSWER_WORD_COSINE);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
