/**
 * Meaning-based comparison for the services: sentence vectors from the `Embedder` port (cached per text, embedded in
 * batches), turned into the two measures the engine consumes through its inputs and ports:
 *
 * * `similarity(a, b)`: restatement similarity ∈ [0, 1] (lib/reading/restatement), the measure behind ingest's twin check,
 *   topic assignment, the mutation protocol's merge / supersede / coexist and conflict check (`twinSimilarity`,
 *   `topicSimilarity`, `conflictMinSimilarity`, `relatedSimilarity`): `withSemanticSimilarity` puts it in place of
 *   the Assessor's own `similarity`, so every engine step uses this one measure.
 * * `cosines(query, items)`: the query–text cosine per item (whole text or its best clause), the `semantic` input of
 *   the engine's hybrid ranking (`RetrieveOptions.semantic`, `RecallInput.semantic`).
 *
 * The engine stays pure: everything here runs in the services and hands numbers in.
 */
import type { Assessor, Embedder } from "@/lib/engine";
import { clausesOf, deniesStatement, dot, type RestatementReading, restatementPairs, restatementReading, restatementScore, vetoedSimilarity } from "@/lib/reading/restatement";
import { type CachedEmbedder, withVectorCache } from "./vector-cache";

/** Texts kept in the vector cache (least recently used dropped first): ~1.6 KB each at 384 dimensions. */
const CACHE_LIMIT = 20_000;

/** Pairs whose reading is kept (oldest dropped first): a claim's candidates are read for restatement, then for its topic. */
const READINGS_LIMIT = 2048;

export class SemanticMatcher {
  private readonly cached: CachedEmbedder;
  /** Readings of pairs already read, by `a \u0000 b` (READINGS_LIMIT). */
  private readonly readings = new Map<string, Promise<RestatementReading>>();

  constructor(readonly embedder: Embedder) {
    this.cached = withVectorCache(embedder, CACHE_LIMIT);
  }

  /** One vector per text, same order; texts not yet cached are embedded in one call. */
  vectors(texts: readonly string[]): Promise<Float32Array[]> {
    return this.cached.embed(texts);
  }

  /** Seed the cache with a vector computed elsewhere (e.g. stored with the belief by the same model). */
  remember(text: string, vector: Float32Array): void {
    this.cached.cache.set(this.embedder.model, text, vector);
  }

  /** The whole text and clause vectors of each statement, embedding everything missing in one call. */
  private async statements(texts: readonly string[]): Promise<{ whole: Float32Array; clauses: Float32Array[] }[]> {
    const clauses = texts.map((t) => clausesOf(t));
    await this.vectors([...texts, ...clauses.flat()]);
    return Promise.all(texts.map(async (text, i) => ({ whole: (await this.vectors([text]))[0] as Float32Array, clauses: await this.vectors(clauses[i] ?? []) })));
  }

  /** Restatement similarity ∈ [0, 1] of two statements (lib/reading/restatement `restatementScore`). */
  async similarity(a: string, b: string): Promise<number> {
    return restatementScore(await this.reading(a, b));
  }

  /**
   * The reading `similarity` scores (lib/reading/restatement `RestatementReading`): of the whole statements, or of
   * the clause and statement that score best (`restatementPairs`), or of the whole statements when a clause denies the
   * other statement (`deniesStatement`).
   */
  reading(a: string, b: string): Promise<RestatementReading> {
    // The same model gives the same vectors, so a pair's reading never changes: kept, and shared while in flight.
    const key = `${a}\u0000${b}`;
    const known = this.readings.get(key);
    if (known !== undefined) return known;
    const reading = this.readPair(a, b);
    this.readings.set(key, reading);
    if (this.readings.size > READINGS_LIMIT) {
      const oldest = this.readings.keys().next().value;
      if (oldest !== undefined) this.readings.delete(oldest);
    }
    // A failed embedding is not kept: the next call tries again.
    reading.catch(() => this.readings.delete(key));
    return reading;
  }

  private async readPair(a: string, b: string): Promise<RestatementReading> {
    const pairs = restatementPairs(a, b);
    await this.vectors(pairs.flat());
    const readings: RestatementReading[] = [];
    for (const [x, y] of pairs) {
      const [vx, vy] = (await this.vectors([x, y])) as [Float32Array, Float32Array];
      readings.push(restatementReading(x, y, vx, vy));
    }
    const [whole, ...claims] = readings as [RestatementReading, ...RestatementReading[]];
    if (claims.some(deniesStatement)) return whole;
    let best = whole;
    for (const r of claims) if (restatementScore(r) > restatementScore(best)) best = r;
    return best;
  }

  /**
   * The query–text cosine for each item (the larger of the whole text's and its best clause's), by item id: the
   * `semantic` input of the engine's hybrid ranking.
   */
  async cosines(query: string, items: readonly { id: string; text: string }[]): Promise<Map<string, number>> {
    const [q] = await this.vectors([query]);
    const statements = await this.statements(items.map((i) => i.text));
    const out = new Map<string, number>();
    items.forEach((item, i) => {
      const s = statements[i] as { whole: Float32Array; clauses: Float32Array[] };
      let best = dot(q as Float32Array, s.whole);
      for (const c of s.clauses) best = Math.max(best, dot(q as Float32Array, c));
      out.set(item.id, Math.max(out.get(item.id) ?? -1, best));
    });
    return out;
  }
}

/**
 * The Assessor with its `similarity` replaced by the matcher's restatement similarity (everything else unchanged):
 * how the engine's twin, topic, conflict and oscillation checks compare meaning. Without a matcher (no embedding
 * model) it keeps the Assessor's own similarity (the heuristic's words, or an LLM server's embedding cosine), with the
 * restatement vetoes applied (`vetoedSimilarity`): two claims that state different values, or one negated, are never
 * read as one, whichever measure says how close they are.
 */
export function withSemanticSimilarity(assessor: Assessor, matcher: SemanticMatcher | null): Assessor {
  const similarity = matcher === null ? async (a: string, b: string) => vetoedSimilarity(a, b, await assessor.similarity(a, b)) : (a: string, b: string) => matcher.similarity(a, b);
  return new Proxy(assessor, {
    get(target, prop, receiver) {
      if (prop === "similarity") return similarity;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
