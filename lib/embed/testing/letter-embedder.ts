import { normalise, type Embedder } from "@/lib/engine";

/**
 * A stand-in embedding model for tests: letter counts, normalised (tells texts apart; nothing like meaning), that
 * records every text it is asked to embed. Model `letters@1`, 26 dimensions.
 */
export class LetterEmbedder implements Embedder {
  readonly model = { name: "letters", version: "1", dimensions: 26 };
  readonly texts: string[] = [];
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return texts.map((text) => {
      const counts = new Array<number>(26).fill(1e-3);
      for (const ch of text.toLowerCase()) {
        const i = ch.charCodeAt(0) - 97;
        if (i >= 0 && i < 26) counts[i] = (counts[i] ?? 0) + 1;
      }
      return normalise(counts);
    });
  }
}
