/**
 * Lexical overlap between two texts over stemmed content words, plus a character-trigram measure that catches
 * spelling variants the stemmer misses (`emit` / `emissions`, `go.mod` / `go`).
 */
import { contentStems, contentTokens } from "../parse/tokenize";

export interface LexicalOverlap {
  /** Stems present in both texts. */
  shared: string[];
  /** |shared| / |belief stems| ∈ [0,1]: how much of the belief the evidence touches. */
  beliefCoverage: number;
  /** |shared| / |evidence stems| ∈ [0,1]. */
  evidenceCoverage: number;
  /** Jaccard |A∩B| / |A∪B| ∈ [0,1]. */
  jaccard: number;
}

/**
 * Overlap of `evidence` with `belief` (asymmetric coverage, symmetric Jaccard). A stem counts as shared when it is
 * equal, or when the two share a prefix of at least four letters covering all but one letter of the shorter
 * (`nightli`/`night`, `store`/`storag` do; `rewrit`/`write` do not).
 * @example lexicalOverlap("Deploys go out from main.", "The team deploys from the main branch.").shared // → ["deploy", "main"]
 */
export function lexicalOverlap(evidence: string, belief: string): LexicalOverlap {
  const e = contentStems(evidence);
  const b = contentStems(belief);
  const shared: string[] = [];
  for (const stem of b) if (hasMatch(stem, e)) shared.push(stem);
  const evidenceShared = [...e].filter((stem) => hasMatch(stem, b)).length;
  const union = b.size + e.size - shared.length;
  return {
    shared,
    beliefCoverage: b.size === 0 ? 0 : shared.length / b.size,
    evidenceCoverage: e.size === 0 ? 0 : evidenceShared / e.size,
    jaccard: union <= 0 ? 0 : Math.min(1, shared.length / union),
  };
}

function hasMatch(stem: string, others: ReadonlySet<string>): boolean {
  if (others.has(stem)) return true;
  for (const other of others) if (stemsMatch(stem, other)) return true;
  return false;
}

/** Equal stems, or a common prefix of at least four letters that leaves at most one letter of the shorter stem. */
function stemsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common >= 4 && common >= Math.min(a.length, b.length) - 1;
}

function trigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (const token of contentTokens(text)) {
    const padded = ` ${token.stem} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const gram = padded.slice(i, i + 3);
      grams.set(gram, (grams.get(gram) ?? 0) + 1);
    }
  }
  return grams;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of a) {
    na += v * v;
    const w = b.get(k);
    if (w !== undefined) dot += v * w;
  }
  for (const v of b.values()) nb += v * v;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Symmetric similarity ∈ [0,1]: 0.6 · Jaccard(stems) + 0.4 · cosine(stem trigrams), and exactly 1 when the two texts
 * have the same content stems. Texts without content words compare by lower-cased equality.
 * @example textSimilarity("Deploys use main.", "deploys use MAIN") // → 1
 */
export function textSimilarity(a: string, b: string): number {
  const sa = contentStems(a);
  const sb = contentStems(b);
  if (sa.size === 0 || sb.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
  let inter = 0;
  for (const s of sa) if (sb.has(s)) inter++;
  const union = sa.size + sb.size - inter;
  const jaccard = inter / union;
  if (jaccard === 1) return 1;
  const value = 0.6 * jaccard + 0.4 * cosine(trigrams(a), trigrams(b));
  return Math.round(Math.min(1, Math.max(0, value)) * 1e6) / 1e6;
}
