/**
 * Meaning-based comparison for the services: sentence vectors from the `Embedder` port (cached per text, embedded in
 * batches), turned into the two measures the engine consumes through its inputs and ports:
 *
 * * `similarity(a, b)`: restatement similarity ∈ [0, 1] (./restatement), the measure behind ingest's twin check,
 *   topic assignment, the mutation protocol's merge / supersede / coexist and conflict check (`twinSimilarity`,
 *   `topicSimilarity`, `conflictMinSimilarity`, `relatedSimilarity`): `withSemanticSimilarity` puts it in place of
 *   the Assessor's own `similarity`, so every engine step uses this one measure.
 * * `cosines(query, items)`: the query–text cosine per item (whole text or its best clause), the `semantic` input of
 *   the engine's hybrid ranking (`RetrieveOptions.semantic`, `RecallInput.semantic`).
 *
 * The engine stays pure: everything here runs in the services and hands numbers in.
 */
import type { Assessor, Embedder } from "@/lib/engine";
import { beliefParts } from "@/lib/reading/parse/belief-parts";
import { clausesOf, denegate, type DenegatedVectors, dot, NEGATED_ON_ONE_SIDE, OTHER_PREDICATE_CEILING, type RestatementReading, restatementReading, restatementScore, sharedFrame, type StatementVectors, structuralMismatch } from "@/lib/reading/restatement";
import { type CachedEmbedder, withVectorCache } from "./vector-cache";

/** Texts kept in the vector cache (least recently used dropped first): ~1.6 KB each at 384 dimensions. */
const CACHE_LIMIT = 20_000;

export class SemanticMatcher {
  private readonly cached: CachedEmbedder;

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

  /** The statements' vectors (whole text and clauses), embedding everything missing in one call. */
  async statements(texts: readonly string[]): Promise<StatementVectors[]> {
    const clauses = texts.map((t) => clausesOf(t));
    await this.vectors([...texts, ...clauses.flat()]);
    const all = await Promise.all(texts.map(async (text, i) => ({ text, whole: (await this.vectors([text]))[0] as Float32Array, clauses: await this.vectors(clauses[i] ?? []) })));
    return all;
  }

  /** Restatement similarity ∈ [0, 1] of two statements (./restatement): `restatementScore` of a lazy `reading`. */
  async similarity(a: string, b: string): Promise<number> {
    return restatementScore(await this.read(a, b, true));
  }

  /**
   * Every signal `similarity` weighs, read apart (`RestatementReading`), for refitting its limits offline
   * (research/measure-restatement.ts); embeds the optional parts whenever they apply, so it costs more than `similarity`.
   */
  reading(a: string, b: string): Promise<RestatementReading> {
    return this.read(a, b, false);
  }

  /**
   * The reading of two statements. `lazy` (what `similarity` reads): the subject / predicate split is embedded only
   * when it can change the score under the shipped limits; everything else is read whenever it applies.
   */
  private async read(a: string, b: string, lazy: boolean): Promise<RestatementReading> {
    const [va, vb] = (await this.statements([a, b])) as [StatementVectors, StatementVectors];
    const mismatch = structuralMismatch(a, b);
    // A one-sided negation is weighed by what the sentence would say without it: one more embedding, only then.
    let denegated: DenegatedVectors | undefined;
    if (mismatch === NEGATED_ON_ONE_SIDE) {
      const [da, db] = [denegate(a), denegate(b)];
      const vectors = await this.vectors([da, db]);
      denegated = { a: da !== a ? vectors[0] : undefined, b: db !== b ? vectors[1] : undefined };
    }
    // Two statements in one frame are judged by the parts they do not share: two more embeddings, only then.
    let frameRest: number | undefined;
    const frame = mismatch === null ? sharedFrame(a, b) : null;
    if (frame) {
      const [ra, rb] = await this.vectors(frame);
      frameRest = dot(ra as Float32Array, rb as Float32Array);
    }
    const reading = restatementReading(va, vb, denegated, mismatch, frameRest);
    // Subject and predicate read apart (two to four more embeddings): they only cap the score at
    // OTHER_PREDICATE_CEILING, so `similarity` skips them when it is already there or below (or the texts are identical).
    if (mismatch !== null || (lazy && (reading.identical || restatementScore(reading) <= OTHER_PREDICATE_CEILING))) return reading;
    const [pa, pb] = [beliefParts(a), beliefParts(b)];
    if (!pa || !pb) return reading;
    const [sa, qa, sb, qb] = await this.vectors([pa.subject, pa.predicate, pb.subject, pb.predicate]);
    const parts = { subject: dot(sa as Float32Array, sb as Float32Array), predicate: dot(qa as Float32Array, qb as Float32Array) };
    return restatementReading(va, vb, denegated, mismatch, frameRest, parts);
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
      const s = statements[i] as StatementVectors;
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
 * model) the Assessor is returned as it is: lexical similarity.
 */
export function withSemanticSimilarity(assessor: Assessor, matcher: SemanticMatcher | null): Assessor {
  if (matcher === null) return assessor;
  return new Proxy(assessor, {
    get(target, prop, receiver) {
      if (prop === "similarity") return (a: string, b: string) => matcher.similarity(a, b);
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
