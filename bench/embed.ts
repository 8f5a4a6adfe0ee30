/**
 * `npm run bench:embed`: CPU and wall time per embedded text of the local model (all-MiniLM-L6-v2) as the server uses
 * it, with 1, 4 and 16 concurrent callers each embedding one distinct short claim at a time (as concurrent
 * assimilations do). Compares, in the same run:
 *   * before: the transformers.js pipeline with onnxruntime's default thread pool, each call straight to the model;
 *   * after: `LocalEmbedder` as configured (one intra-op thread per call, concurrent calls coalesced into one model
 *     queue that runs a batch per core at once).
 * CPU is the whole process's (`process.cpuUsage`, every thread). Reports only; asserts nothing.
 *
 * Flags: --texts 200 (per cell)  --clients 1,4,16
 */
import { loadavg } from "node:os";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { minilmModelDir } from "@/lib/embed/minilm-model";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
};
const TEXTS = Number(flag("texts", "200"));
const CLIENTS = flag("clients", "1,4,16").split(",").map(Number);

let counter = 0;
const text = () => `bazuk${counter % 97} tesol vipar ${counter} measure ${counter++} the release branch deploys on ${counter % 7} days`;

type Embed = (texts: string[]) => Promise<unknown>;

async function rawPipeline(): Promise<Embed> {
  const transformers = await import("@huggingface/transformers");
  transformers.env.allowRemoteModels = false;
  transformers.env.allowLocalModels = true;
  transformers.env.useFSCache = false;
  const extractor = await transformers.pipeline("feature-extraction", minilmModelDir(), { dtype: "q8", device: "cpu" });
  return async (texts) => {
    for (const t of texts) await extractor([t], { pooling: "mean", normalize: true });
  };
}

async function cell(embed: Embed, clients: number): Promise<{ cpu: number; wall: number; perSecond: number }> {
  let left = TEXTS;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (left > 0) {
        left--;
        await embed([text()]);
      }
    }),
  );
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000 / TEXTS, wall: wall / TEXTS, perSecond: TEXTS / (wall / 1000) };
}

async function main(): Promise<void> {
  console.log(`bench:embed ${new Date().toISOString()} · ${TEXTS} texts per cell · load ${loadavg().map((x) => x.toFixed(1)).join(" ")}\n`);
  const local = new LocalEmbedder();
  await local.load();
  const variants: [string, Embed][] = [
    ["before: default ONNX threads, one call per caller", await rawPipeline()],
    ["after: LocalEmbedder (1 thread per call, one queue, a batch per core at once)", (t) => local.embed(t)],
  ];
  console.log("| variant | clients | CPU ms per text | wall ms per text | texts/s | load (1 min) |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [name, embed] of variants) {
    await cell(embed, 1); // warm-up
    for (const clients of CLIENTS) {
      const r = await cell(embed, clients);
      console.log(`| ${name} | ${clients} | ${r.cpu.toFixed(2)} | ${r.wall.toFixed(2)} | ${r.perSecond.toFixed(0)} | ${loadavg()[0]?.toFixed(1)} |`);
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
