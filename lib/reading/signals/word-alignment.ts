/**
 * Word alignment: how well every content word of each text has a counterpart in the other, measured on the embedding
 * model's contextual word vectors (the Embedder port's `words`). Two texts that say the same thing in other words
 * ("kids" / "children", "is cutting" / "slices") align everywhere; a text that adds or swaps a thing ("an old man" for
 * "a man", "a piano" for "a guitar") leaves a word with no close counterpart. Measures only: the reader decides.
 */
import type { WordVector } from "@/lib/engine/embedder";
import { isContentWord } from "../parse/tokenize";

/** Content words only: letters (numbers are compared by the numeric cues), not stop words. */
const content = (words: readonly WordVector[]) => words.filter((w) => /^[a-z]+$/.test(w.word) && isContentWord(w.word));

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

export interface WordAlignment {
  /** The weakest counterpart over both texts' content words: min over words w of max over the other's words of cos. */
  weakest: number;
  /** The word with the weakest counterpart (for the reading's explanation); null when a text has no content word. */
  word: string | null;
}

/**
 * The alignment of two texts' words (symmetric). A text with no content word aligns with nothing (weakest 0).
 * @example wordAlignment(words("Kids play outside"), words("Children are playing outdoors")).weakest // high
 */
export function wordAlignment(a: readonly WordVector[], b: readonly WordVector[]): WordAlignment {
  const ca = content(a);
  const cb = content(b);
  if (ca.length === 0 || cb.length === 0) return { weakest: 0, word: null };
  let weakest = Infinity;
  let word: string | null = null;
  for (const [from, to] of [
    [ca, cb],
    [cb, ca],
  ] as const) {
    for (const w of from) {
      let best = -1;
      for (const x of to) best = Math.max(best, dot(w.vector, x.vector));
      if (best < weakest) {
        weakest = best;
        word = w.word;
      }
    }
  }
  return { weakest, word };
}
