/**
 * `bench:http --seed-bulk`: the claims of a bulk seed and their sentence vectors from the real local model.
 *
 * Claim `i` (from 1) is the same text in every run, so the vectors, slow to compute (one inference per text, about
 * 3–4 ms of CPU each), are kept in a file under the system's temporary folder, `i`'s at offset `(i − 1) · dims · 4`,
 * and a second store seeded with the same claims reads them instead of embedding again. The file's name holds the
 * model and the text generator's version: a new generator means a new file.
 */
import { closeSync, existsSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import type { Embedder } from "@/lib/engine";
import { rng, words } from "./corpus";

/** Bump when `bulkClaimTexts` changes, so a kept vector file of the old texts is not read. */
const GENERATOR = "v1";

/** Claims `from`…`to` (1-based, inclusive) of the bulk seed: five skewed words of the HTTP seed's vocabulary, numbered. */
export function bulkClaimTexts(from: number, to: number): string[] {
  const r = rng(424242);
  const out: string[] = [];
  for (let i = 1; i <= to; i++) {
    const text = `${words(r, 5, { vocabulary: 600, skew: 3 })} measure ${i} seeded`;
    if (i >= from) out.push(text);
  }
  return out;
}

function vectorFile(embedder: Embedder): string {
  const model = `${embedder.model.name}@${embedder.model.version}`.replace(/[^A-Za-z0-9_.@-]/g, "_");
  return path.join(tmpdir(), `credence-bench-seed-${GENERATOR}-${model}.f32`);
}

/**
 * The vectors of claims `from`…`to`: read from the kept file as far as it reaches, the rest embedded (calls of 32
 * texts, as many at once as there are cores: the local embedder runs one batch per core) and appended to it.
 * `progress` is told how many are done now and then.
 */
export async function bulkClaimVectors(embedder: Embedder, from: number, to: number, progress: (done: number, total: number) => void): Promise<Float32Array[]> {
  const dims = embedder.model.dimensions;
  const bytes = dims * 4;
  const file = vectorFile(embedder);
  const kept = existsSync(file) ? Math.floor(statSync(file).size / bytes) : 0;
  const out: Float32Array[] = [];
  if (kept >= from) {
    const fd = openSync(file, "r");
    try {
      for (let i = from; i <= Math.min(to, kept); i++) {
        const v = new Float32Array(dims);
        readSync(fd, new Uint8Array(v.buffer), 0, bytes, (i - 1) * bytes);
        out.push(v);
      }
    } finally {
      closeSync(fd);
    }
  }
  // Embedded from the first claim the file lacks (claims before `from` too, so the file stays contiguous).
  const start = Math.max(kept + 1, from);
  if (start > to) return out;
  const firstMissing = kept + 1;
  const texts = bulkClaimTexts(firstMissing, to);
  const fd = openSync(file, "a");
  try {
    const CALL = 32;
    const STEP = CALL * availableParallelism();
    for (let at = 0; at < texts.length; at += STEP) {
      const chunk = texts.slice(at, at + STEP);
      const calls: Promise<Float32Array[]>[] = [];
      for (let c = 0; c < chunk.length; c += CALL) calls.push(embedder.embed(chunk.slice(c, c + CALL)));
      const vectors = (await Promise.all(calls)).flat();
      for (const [j, v] of vectors.entries()) {
        writeSync(fd, new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
        if (firstMissing + at + j >= from) out.push(v);
      }
      progress(at + chunk.length, texts.length);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}
