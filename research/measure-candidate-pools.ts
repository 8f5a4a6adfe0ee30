/**
 * `npx tsx research/measure-candidate-pools.ts [--per-set 100] [--vectors FILE] [--lexical 200,100,50,30] [--vector
 * 200,100,50] [--modes search,assimilate,ingest,recall,ingest-texts,ingest-claims]`: what smaller candidate pools would
 * change in hybrid search and recall (lib/retrieval/hybrid-search.ts: the best `lexicalCandidates` lexical candidates ∪
 * the `vectorCandidates` nearest by cosine), measured with the real embedding model on text written by others, where
 * `bench:retrieval` cannot tell (its vectors are bag-of-words projections that agree with the lexical side by
 * construction).
 *
 * Corpus: every distinct sentence of the public development halves (SICK, MRPC, Climate-FEVER), less the questions'
 * own texts, written as beliefs of one scope of an embedded PGlite store — rows by bare `unnest` INSERTs (the postings
 * by their triggers, as `bench:retrieval` loads), vectors through the store's own `upsertEmbeddings` — with seeded
 * credences in [0.2, 0.95] (the ranking is relevance × credence).
 * Questions: `--per-set` first sides of pairs per set (seeded draw), each with at least one partner (the other side of
 * one of its pairs) left in the corpus; a question's own text is never in the corpus.
 * Per question, `rankHybrid` as search asks (k = 10), as an assimilation asks (k = 20), as ingest and the mutation
 * protocol ask (k = 50) and as recall asks (k = 50, includeEnded), at every pair of lexical pool × vector pool, against
 * the first pair (by default the widest: 200 lexical × VECTOR_CANDIDATES): overlap@k and overlap@10, the share
 * of questions whose top 1 and whose whole top k (in order) are the same, how often a partner is in the top k, and per
 * call the rows the store returned, process CPU (PGlite runs in this process, so its work counts) and wall time; the
 * query's vector is embedded before the timed calls (its cost is the same for every pool). For context:
 * each pool's overlap with the exhaustive hybrid ranking (every belief's stored cosine and lexical relevance ranked by
 * the engine's `rankByTerms`, as `bench:retrieval`'s baseline).
 * Reads `$CREDENCE_EVAL_DIR/public` or `../shared/eval/public`; prints counts and figures, never the sentences.
 * `--vectors FILE` keeps the corpus' vectors (by md5 of the text, no text) in FILE between runs. One core; about ten
 * minutes, most of it embedding.
 * Mode `ingest-texts`: ingest ranks a whole text, not a sentence. Its questions are texts of `--text-sentences`
 * (default 3) questions of one set joined in draw order, their partners the union of theirs; k = 50, live only.
 * Mode `ingest-claims`: the same texts as ingest ranks them, each sentence alone (`--claim-k`, default ceil(50 /
 * sentences)) and the union taken rank by rank (`unionByRank`). Both text modes also give the share of the texts'
 * sentences whose own partner is among the candidates (what a claim needs to meet the belief it restates or rebuts).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { belief, entry, evidence, rng } from "@/bench/corpus";
import { rawInsertRows } from "@/bench/sql-store";
import { loadSet, requirePublicDir } from "@/lib/assess/eval/eval-sets";
import { openDatabase } from "@/lib/db/database";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { emptyChangeSet, modelKey, rankByTerms, termSet, type BeliefUpsert, type ChangeSet, type Evidence, type HistoryAppend, type TermCandidate } from "@/lib/engine";
import { embeddingTextHash } from "@/lib/graph/embeddings";
import type { ScopeView } from "@/lib/graph/graph-store";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import { rankHybrid, unionByRank, VECTOR_CANDIDATES, type HybridOptions } from "@/lib/retrieval/hybrid-search";
import { SemanticMatcher } from "@/lib/retrieval/semantic-matcher";

process.env.CREDENCE_DB_STATEMENT_TIMEOUT_MS ??= "3600000";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
}
const PER_SET = Number(flag("per-set", "100"));
const VECTORS_FILE = flag("vectors", "");
/** The pools measured; the first of each is the baseline every cell is compared with (the widest by default). */
const LEXICAL_POOLS = flag("lexical", "200,100,50,30").split(",").map(Number);
const VECTOR_POOLS = flag("vector", `${VECTOR_CANDIDATES},100,50`).split(",").map(Number);
const MODES = flag("modes", "search,assimilate,ingest,recall").split(",");
const TEXT_SENTENCES = Number(flag("text-sentences", "3"));
/** Mode `ingest-claims`: each sentence of a text ranks its own best CLAIM_K (default: 50 shared among the sentences). */
const CLAIM_K = Number(flag("claim-k", "0"));
const SCOPE = "s_candidate_pools";
const AT = "2026-01-05T09:00:00.000Z";
const LOAD_BATCH = 2_000;
const EMBED_BATCH = 32;

interface Question {
  set: string;
  text: string;
  /** The other sides of its pairs left in the corpus. */
  partners: Set<string>;
  /** A text's sentences (the questions it joins), each with its own partners. */
  sentences?: Question[];
}

/** Every (first side, second side) pair of a public set. */
function pairsOf(dir: string, file: string): { q: string; d: string }[] {
  const set = loadSet({ name: file, kind: file.startsWith("mrpc") ? "restatements" : "relations", file }, dir);
  return set.kind === "restatements" ? set.rows.map((r) => ({ q: r.a, d: r.b })) : set.kind === "relations" ? set.rows.map((r) => ({ q: r.belief, d: r.evidence })) : [];
}

/** Counts the rows every statement returns (transactions included). */
function countingExecutor(inner: SqlExecutor, counter: { rows: number; statements: number }): SqlExecutor {
  return {
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      const rows = await inner.query<T>(text, params);
      counter.rows += rows.length;
      counter.statements += 1;
      return rows;
    },
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return inner.transaction((tx) => fn(countingExecutor(tx, counter)));
    },
  };
}

/** The model's vectors of `texts`, one inference at a time (one core), from `--vectors` when kept there. */
async function embedAll(embedder: LocalEmbedder, texts: readonly string[]): Promise<Map<string, Float32Array>> {
  const dims = embedder.model.dimensions;
  const kept = new Map<string, Float32Array>();
  if (VECTORS_FILE && existsSync(VECTORS_FILE)) {
    const buf = await readFile(VECTORS_FILE);
    const stride = 16 + 4 * dims;
    for (let off = 0; off + stride <= buf.length; off += stride) {
      kept.set(buf.subarray(off, off + 16).toString("hex"), new Float32Array(buf.buffer.slice(buf.byteOffset + off + 16, buf.byteOffset + off + stride)));
    }
  }
  const md5 = (t: string) => createHash("md5").update(t, "utf8").digest("hex");
  const out = new Map<string, Float32Array>();
  const missing = texts.filter((t) => {
    const v = kept.get(md5(t));
    if (v) out.set(t, v);
    return !v;
  });
  const t0 = performance.now();
  for (let i = 0; i < missing.length; i += EMBED_BATCH) {
    const chunk = missing.slice(i, i + EMBED_BATCH);
    const vs = await embedder.embed(chunk);
    chunk.forEach((t, j) => out.set(t, vs[j] as Float32Array));
    if ((i / EMBED_BATCH) % 100 === 0) console.error(`embedded ${i + chunk.length} / ${missing.length} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  if (VECTORS_FILE && missing.length > 0) {
    const parts: Buffer[] = [];
    for (const [t, v] of out) parts.push(Buffer.from(md5(t), "hex"), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    await writeFile(VECTORS_FILE, Buffer.concat(parts));
  }
  console.error(`vectors: ${texts.length} texts, ${missing.length} embedded now in ${((performance.now() - t0) / 1000).toFixed(0)} s, ${texts.length - missing.length} kept`);
  return out;
}

interface Sample {
  ids: string[];
  rows: number;
  statements: number;
  cpuMs: number;
  wallMs: number;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : 0;
};
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const overlapAt = (got: readonly string[], want: readonly string[], k: number) => {
  const w = want.slice(0, k);
  if (w.length === 0) return 1;
  const g = new Set(got.slice(0, k));
  return w.filter((id) => g.has(id)).length / w.length;
};
const sameOrder = (a: readonly string[], b: readonly string[], k: number) => a.slice(0, k).join() === b.slice(0, k).join();

async function main() {
  const dir = requirePublicDir(repoRoot);

  // Questions: a seeded draw of first sides per set, with their partners; then the corpus without the questions.
  const draw = rng(30);
  const questions: Question[] = [];
  const everything = new Set<string>();
  const perSet: { file: string; pairs: { q: string; d: string }[] }[] = [];
  for (const file of ["sick-dev.jsonl", "mrpc-dev.jsonl", "climate-fever-dev.jsonl"]) {
    const pairs = pairsOf(dir, file);
    for (const p of pairs) everything.add(p.q).add(p.d);
    perSet.push({ file, pairs });
  }
  const asked = new Set<string>();
  for (const { file, pairs } of perSet) {
    const partners = new Map<string, Set<string>>();
    for (const p of pairs) partners.set(p.q, (partners.get(p.q) ?? new Set()).add(p.d));
    const firsts = [...partners.keys()].map((t) => ({ t, r: draw() })).sort((a, b) => a.r - b.r).map((x) => x.t);
    let taken = 0;
    for (const text of firsts) {
      if (taken >= PER_SET) break;
      // A partner that is itself a question would leave the corpus: only partners that stay count.
      const kept = new Set([...(partners.get(text) ?? [])].filter((d) => d !== text && !asked.has(d) && !questions.some((q) => q.text === d)));
      if (asked.has(text) || kept.size === 0) continue;
      asked.add(text);
      questions.push({ set: file, text, partners: kept });
      taken++;
    }
  }
  for (const q of questions) for (const p of q.partners) if (asked.has(p)) q.partners.delete(p);
  // Ingest's texts: consecutive questions of one set, joined.
  const texts: Question[] = [];
  for (const { file } of perSet) {
    const ofSet = questions.filter((q) => q.set === file);
    for (let i = 0; i + TEXT_SENTENCES <= ofSet.length; i += TEXT_SENTENCES) {
      const group = ofSet.slice(i, i + TEXT_SENTENCES);
      texts.push({ set: file, text: group.map((q) => q.text).join(" "), partners: new Set(group.flatMap((q) => [...q.partners])), sentences: group });
    }
  }
  const corpusTexts = [...everything].filter((t) => !asked.has(t));
  console.error(`corpus: ${corpusTexts.length} distinct sentences (${everything.size} in the three sets, less ${asked.size} questions); questions: ${questions.length}`);

  const embedder = new LocalEmbedder(undefined, { threads: 1 });
  if (!embedder.available()) throw new Error("the embedding model is not installed (npm run model:fetch)");
  const model = modelKey(embedder.model);
  const vectors = await embedAll(embedder, [...corpusTexts, ...questions.map((q) => q.text), ...texts.map((q) => q.text)]);

  // The store: a fresh PGlite data folder, every migration, one scope.
  const dataDir = await mkdtemp(path.join(tmpdir(), "credence-candidate-pools-"));
  const db = await openDatabase({ dataDir, migrationsDir: path.join(repoRoot, "prisma", "migrations"), owner: "measure-candidate-pools" });
  const counter = { rows: 0, statements: 0 };
  const store = createSqlGraphStore({ sql: countingExecutor(db.sql, counter), location: db.describe() });
  const view: ScopeView = { homeScopeId: SCOPE, visibleScopeIds: [SCOPE] };
  try {
    await store.check();
    const credenceRng = rng(31);
    const ids: string[] = [];
    const credences: number[] = [];
    const textOf = new Map<string, string>();
    const idOf = new Map<string, string>();
    let t = performance.now();
    for (let i = 0; i < corpusTexts.length; i += LOAD_BATCH) {
      const chunk = corpusTexts.slice(i, i + LOAD_BATCH);
      const evs: Evidence[] = [];
      const upserts: BeliefUpsert[] = [];
      const history: HistoryAppend[] = [];
      for (const text of chunk) {
        const ev = evidence(SCOPE, AT);
        const b = belief(SCOPE, text, AT, { credence: 0.2 + 0.75 * credenceRng() });
        evs.push(ev);
        upserts.push({ belief: b, expectedVersion: null });
        history.push({ beliefId: b.id, items: [entry(ev.id, AT)] });
        ids.push(b.id);
        credences.push(b.credence);
        textOf.set(b.id, text);
        idOf.set(text, b.id);
      }
      const cs: ChangeSet = { ...emptyChangeSet(`cs_pools_${i}`, "research", AT), evidence: evs, beliefs: upserts, history };
      await db.sql.transaction((tx) => rawInsertRows(tx, cs));
      const written = await store.upsertEmbeddings(
        view,
        cs.beliefs.map(({ belief: b }) => ({ id: b.id, kind: "belief" as const, model, vector: vectors.get(b.text) as Float32Array, textHash: embeddingTextHash(b.text) })),
      );
      if (written !== chunk.length) throw new Error(`${written} vectors written of ${chunk.length}`);
    }
    await db.sql.query("VACUUM ANALYZE");
    console.error(`loaded ${ids.length} beliefs with vectors in ${((performance.now() - t) / 1000).toFixed(0)} s`);

    // The matcher knows every question's vector (embedded above): the timed calls measure retrieval alone.
    const matcher = new SemanticMatcher(embedder);
    for (const q of [...questions, ...texts]) matcher.remember(q.text, vectors.get(q.text) as Float32Array);
    const deps = { store, matcher };

    // The exhaustive baseline's items: every belief, its terms, its stored vector.
    const items: (TermCandidate & { id: string })[] = ids.map((id, b) => ({ id, scope: SCOPE, credence: credences[b] as number, status: "provisional", terms: [...termSet(textOf.get(id) as string)] }));
    const matrix = ids.map((id) => vectors.get(textOf.get(id) as string) as Float32Array);
    const inputs = new Map<string, { semantic: Map<string, number>; n: number; df: Map<string, number> }>();
    const exhaustiveInputs = async (text: string) => {
      const kept = inputs.get(text);
      if (kept) return kept;
      const qv = vectors.get(text) as Float32Array;
      const semantic = new Map<string, number>();
      for (let b = 0; b < ids.length; b++) {
        const v = matrix[b] as Float32Array;
        let dot = 0;
        for (let d = 0; d < v.length; d++) dot += (v[d] as number) * (qv[d] as number);
        semantic.set(ids[b] as string, dot);
      }
      const stats = await store.searchCandidateStats(view, text);
      const df = new Map<string, number>();
      for (const s of stats) for (const term of s.terms) df.set(term, (df.get(term) ?? 0) + 1);
      const out = { semantic, n: stats.length, df };
      inputs.set(text, out);
      return out;
    };

    const modes: { name: string; k: number; options: HybridOptions; texts?: boolean; claims?: boolean }[] = [
      { name: "search", k: 10, options: { k: 10, scope: SCOPE } as HybridOptions },
      // Assimilation's candidates (lib/beliefs/assimilate-service.ts, RESTATEMENT_CANDIDATES): a restatement, a topic
      // and the related beliefs are looked for among them.
      { name: "assimilate", k: 20, options: { k: 20, scope: SCOPE } as HybridOptions },
      // Ingest's and the mutation protocol's candidates (MAX_RELATED_CANDIDATES, MAX_CONFLICT_CANDIDATES): live only.
      { name: "ingest", k: 50, options: { k: 50, scope: SCOPE } as HybridOptions },
      { name: "recall", k: 50, options: { k: 50, includeEnded: true, scope: SCOPE } as HybridOptions },
      { name: "ingest-texts", k: 50, options: { k: 50, scope: SCOPE } as HybridOptions, texts: true },
      // Each sentence of the text ranked alone (CLAIM_K each, default ceil(50 / sentences)), the candidates the union
      // of their rankings, taken rank by rank: k is the most the union can hold.
      { name: "ingest-claims", k: 50, options: { k: CLAIM_K || Math.ceil(50 / TEXT_SENTENCES), scope: SCOPE } as HybridOptions, texts: true, claims: true },
    ].filter((m) => MODES.includes(m.name));
    const rankIds = async (mode: (typeof modes)[number], q: Question, options: HybridOptions) => {
      if (!mode.claims) return (await rankHybrid(deps, view, q.text, options)).ranked.map((r) => r.candidate.id);
      const rankings: string[][] = [];
      for (const s of q.sentences ?? []) rankings.push((await rankHybrid(deps, view, s.text, options)).ranked.map((r) => r.candidate.id));
      return unionByRank(rankings);
    };
    const queriesOf = (mode: { texts?: boolean }) => (mode.texts ? texts : questions);
    const pools = VECTOR_POOLS.flatMap((v) => LEXICAL_POOLS.map((l) => ({ l, v })));
    const poolName = (p: { l: number; v: number }) => `${p.l} / ${p.v}`;
    // results[mode][pool] = one Sample per question.
    const results = modes.map(() => pools.map(() => [] as Sample[]));
    const exhaustive = modes.map(() => [] as string[][]);

    // Warm-up (vector index load, plan cache) outside the samples.
    await rankHybrid(deps, view, questions[0]?.text ?? "x", modes[0]?.options);

    t = performance.now();
    for (const [mi, mode] of modes.entries()) {
      for (const [qi, q] of queriesOf(mode).entries()) {
        // Each question starts at another pool, so that no pool always pays for the question's cold reads.
        for (let step = 0; step < pools.length; step++) {
          const pi = (qi + step) % pools.length;
          const pool = pools[pi] as { l: number; v: number };
          const before = { ...counter };
          const cpu = process.cpuUsage();
          const wall = performance.now();
          const ids = await rankIds(mode, q, { ...mode.options, lexicalCandidates: pool.l, vectorCandidates: pool.v });
          const wallMs = performance.now() - wall;
          const c = process.cpuUsage(cpu);
          results[mi]?.[pi]?.push({ ids, rows: counter.rows - before.rows, statements: counter.statements - before.statements, cpuMs: (c.user + c.system) / 1000, wallMs });
        }
        // Exhaustive: every belief's stored cosine and lexical relevance, idf over the matching domain as the store's.
        const exhaustiveOf = async (text: string) => {
          const { semantic, n, df } = await exhaustiveInputs(text);
          return rankByTerms(text, items, { ...mode.options, semantic, corpus: { n, df } }).map((b) => b.item.id);
        };
        const lists: string[][] = [];
        for (const s of mode.claims ? (q.sentences ?? []) : [q]) lists.push(await exhaustiveOf(s.text));
        exhaustive[mi]?.push(unionByRank(lists));
        if ((qi + 1) % 50 === 0) console.error(`${mode.name}: ${qi + 1} / ${queriesOf(mode).length} questions (${((performance.now() - t) / 1000).toFixed(0)} s, load ${loadavg()[0]?.toFixed(2)})`);
      }
    }

    const partnersOf = (qs: readonly Question[]) => qs.map((q) => new Set([...q.partners].map((p) => idOf.get(p)).filter((id): id is string => id !== undefined)));
    console.log(`corpus ${ids.length} beliefs (distinct sentences of sick-dev, mrpc-dev, climate-fever-dev less the questions), ${questions.length} questions (${PER_SET} per set; their own text not in the corpus); ingest-texts: ${texts.length} texts of ${TEXT_SENTENCES} questions`);
    console.log(`partner in top k: of the questions with a partner in the corpus`);
    console.log(`model ${model}; PGlite; credences seeded in [0.2, 0.95]; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
    for (const [mi, mode] of modes.entries()) {
      const partnerIds = partnersOf(queriesOf(mode));
      const withPartner = Math.max(1, partnerIds.filter((p) => p.size > 0).length);
      const today = results[mi]?.[0] as Sample[];
      const ex = exhaustive[mi] as string[][];
      console.log("");
      console.log(`${mode.name} (k = ${mode.k}${mode.options.includeEnded ? ", includeEnded" : ""}), pools lexical / vector; overlaps are means over questions:`);
      console.log(
        `| pools | overlap@${mode.k} with the baseline | ${mode.k === 10 ? "" : "overlap@10 with the baseline | "}same top 1 | same top ${mode.k} in order | ${mode.k === 10 ? "" : "same top 10 in order | "}partner in top ${mode.k} | overlap@${mode.k} with exhaustive | rows / call (mean, median) | statements / call | CPU ms / call (mean, median) | wall ms / call (median) |`,
      );
      console.log(`|---|---:|${mode.k === 10 ? "" : "---:|"}---:|---:|${mode.k === 10 ? "" : "---:|"}---:|---:|---:|---:|---:|---:|`);
      for (const [pi, pool] of pools.entries()) {
        const got = results[mi]?.[pi] as Sample[];
        const n = got.length;
        const ov = mean(got.map((s, i) => overlapAt(s.ids, (today[i] as Sample).ids, mode.k)));
        const ov10 = mean(got.map((s, i) => overlapAt(s.ids, (today[i] as Sample).ids, 10)));
        const top1 = got.filter((s, i) => sameOrder(s.ids, (today[i] as Sample).ids, 1)).length / n;
        const topk = got.filter((s, i) => sameOrder(s.ids, (today[i] as Sample).ids, mode.k)).length / n;
        const top10 = got.filter((s, i) => sameOrder(s.ids, (today[i] as Sample).ids, 10)).length / n;
        const partner = got.filter((s, i) => s.ids.slice(0, mode.k).some((id) => partnerIds[i]?.has(id))).length / withPartner;
        // A text's sentences whose own partner is among its candidates (what ingest needs: each claim meets its match).
        const sentencePartner = () => {
          let hit = 0;
          let all = 0;
          got.forEach((s, i) => {
            const top = new Set(s.ids.slice(0, mode.k));
            for (const sentence of queriesOf(mode)[i]?.sentences ?? []) {
              if (sentence.partners.size === 0) continue;
              all++;
              if ([...sentence.partners].some((p) => top.has(idOf.get(p) ?? ""))) hit++;
            }
          });
          return all === 0 ? "" : `; each sentence's partner ${pct(hit / all)}`;
        };
        const exOv = mean(got.map((s, i) => overlapAt(s.ids, ex[i] as string[], mode.k)));
        const rows = got.map((s) => s.rows);
        const cpu = got.map((s) => s.cpuMs);
        console.log(
          `| ${poolName(pool)}${pi === 0 ? " (baseline)" : ""} | ${pct(ov)} | ${mode.k === 10 ? "" : `${pct(ov10)} | `}${pct(top1)} | ${pct(topk)} | ${mode.k === 10 ? "" : `${pct(top10)} | `}${pct(partner)}${mode.texts ? sentencePartner() : ""} | ${pct(exOv)} | ${mean(rows).toFixed(0)}, ${median(rows).toFixed(0)} | ${mean(got.map((s) => s.statements)).toFixed(1)} | ${mean(cpu).toFixed(1)}, ${median(cpu).toFixed(1)} | ${median(got.map((s) => s.wallMs)).toFixed(1)} |`,
        );
      }
      const exPartner = ex.filter((ids, i) => ids.slice(0, mode.k).some((id) => partnerIds[i]?.has(id))).length / withPartner;
      console.log(`| exhaustive (every belief) | | ${mode.k === 10 ? "" : "| "}| | ${mode.k === 10 ? "" : "| "}${pct(exPartner)} | 100.0 % | | | | |`);
    }
  } finally {
    await store.close();
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
