/**
 * Splits a long paste into parts the ingest page sends one by one (with a progress bar), each one Evidence item.
 * Text of at most `maxChars` stays whole. Longer text is cut at blank lines into paragraphs, and consecutive
 * paragraphs are packed greedily while a part stays ≤ `maxChars`; a single paragraph longer than that is cut at
 * sentence ends, and a sentence longer than that at `maxChars` itself. Parts are trimmed and never empty.
 *
 * @example splitForIngest("a\n\nb", 1) // → ["a", "b"]
 */
export function splitForIngest(text: string, maxChars = 4_000): string[] {
  const whole = text.trim();
  if (whole.length === 0) return [];
  if (whole.length <= maxChars) return [whole];
  const pieces: string[] = [];
  for (const paragraph of whole.split(/\n\s*\n/)) {
    const p = paragraph.trim();
    if (p.length === 0) continue;
    if (p.length <= maxChars) {
      pieces.push(p);
      continue;
    }
    for (const sentence of p.match(/[^.!?]+(?:[.!?]+|$)/g) ?? [p]) {
      const s = sentence.trim();
      for (let i = 0; i < s.length; i += maxChars) pieces.push(s.slice(i, i + maxChars));
    }
  }
  const parts: string[] = [];
  let current = "";
  for (const piece of pieces) {
    const joined = current ? `${current}\n\n${piece}` : piece;
    if (joined.length <= maxChars) current = joined;
    else {
      if (current) parts.push(current);
      current = piece;
    }
  }
  if (current) parts.push(current);
  return parts;
}
