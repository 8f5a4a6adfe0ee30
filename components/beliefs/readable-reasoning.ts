/**
 * The heuristic assessor quotes word stems it matched ("deploi", "daili"); shown to a person they read as typos.
 * Each quoted token that is not itself a word of the texts involved is replaced by the shortest word of those texts it
 * stems from (a stem is the word's beginning, with a final y folded to i). Tokens with no such word stay as they are.
 */
export function readableReasoning(reasoning: string, texts: readonly string[]): string {
  const words = [...new Set(texts.flatMap((t) => t.toLowerCase().match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? []))];
  const known = new Set(words);
  return reasoning.replace(/"([^"\s]{2,40})"/g, (whole, token: string) => {
    const t = token.toLowerCase();
    if (known.has(t)) return whole;
    const folded = t.endsWith("i") ? `${t.slice(0, -1)}y` : null;
    const candidates = words.filter((w) => w.startsWith(t) || (folded !== null && w.startsWith(folded)));
    if (candidates.length === 0) return whole;
    const best = candidates.reduce((a, b) => (b.length < a.length || (b.length === a.length && b < a) ? b : a));
    return `"${best}"`;
  });
}
