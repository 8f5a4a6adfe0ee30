/**
 * A process's copy of the belief vectors of the scopes it searches, so a vector search ranks in memory and asks the
 * database only which of the best ids may be returned: no vectors cross the wire per search, and neither PGlite's
 * wasm nor a Postgres without pgvector computes a cosine.
 *
 * * **Freshness across processes** (any number of servers, the CLI and the MCP bridge write the same tables): every
 *   row of `graph_embeddings` carries the transaction that last wrote it (`written_by`, migration
 *   20261205130000_graph_embeddings_writer). Before each search the index reads the rows with `written_by` at or above
 *   its watermark, and moves the watermark to the oldest transaction still running at that read
 *   (`pg_snapshot_xmin(pg_current_snapshot())`): every transaction below it had ended, so nothing it wrote can appear
 *   later. A search therefore sees every vector committed before it started, as the SQL search does. When nothing was
 *   written, the read is one index probe that returns no rows. Rows are never deleted (a node's vector is
 *   replaced); a row whose scope, model or kind changed moves or leaves the index.
 * * **The ranking** equals the SQL search's (sql-vectors.ts): with at most `sketchCandidates(k)` vectors of the model
 *   in the scope, exact cosines of all of them; beyond, the `sketchCandidates(k)` nearest sign sketches by Hamming
 *   distance (ties: id in code-unit order), then their exact cosines; best first, ties by id.
 * * **The authorised view**: the ranked ids go, best first and a page of max(2k, 64) at a time, to one anchored
 *   statement (`scope = $home AND $home = ANY($visible)`, and liveness unless ended beliefs are asked for) that
 *   returns the first of them that pass, in rank order, until k have passed (with each one's slim row when the caller
 *   asks for it, `withStats`: hybrid search then reads no row of them again). The index never answers an id the
 *   database did not return for this view.
 * Cosines are exact (the dot product of unit vectors, as the application computes on a server without pgvector;
 * divided by the norms otherwise, as pgvector does). `similarities` reads again only when an asked id is not held:
 * the cosines it answers are of the vectors as of the last read, which the same ranking's vector search just made.
 * Memory: 4 bytes per dimension per vector (1.5 KiB at 384 dimensions) plus its sketch, packed per partition in
 * arrays that grow by doubling.
 */
import type { SqlExecutor } from "@/lib/db/sql-executor";
import type { HeldVector, VectorHit, VectorSearchOptions } from "../embeddings";
import { candidateStatsOf, type ScopeView } from "../graph-store";
import { slimTermsSql } from "./sql-queries";
import { sketchCandidates } from "./sql-vectors";

/** The least ranked ids sent to the view's statement at once (a search sends max(this, 2k) per page). */
const VISIBLE_PAGE = 64;

/** Rows read per statement while loading (bounds one answer's size on a first load of a large scope). */
const LOAD_PAGE = 2_000;

/**
 * The vectors of one (scope, model, dimensions), packed so a search reads memory in order: slot i is `ids[i]`, its
 * vector at `vectors[i·dimensions…]`, its norm `norms[i]`, its sign sketch (32 components a word) at
 * `sketches[i·words…]`, the hash of the text it is of (`embeddingTextHash`) `textHashes[i]`. A removed slot takes the
 * last one (order within a partition is irrelevant: every ranking orders by similarity, then id).
 */
class Partition {
  readonly slots = new Map<string, number>();
  readonly ids: string[] = [];
  readonly textHashes: string[] = [];
  readonly words: number;
  vectors: Float32Array;
  norms: Float64Array;
  sketches: Uint32Array;

  constructor(readonly dimensions: number) {
    this.words = Math.ceil(dimensions / 32);
    this.vectors = new Float32Array(16 * dimensions);
    this.norms = new Float64Array(16);
    this.sketches = new Uint32Array(16 * this.words);
  }

  get size(): number {
    return this.ids.length;
  }

  put(id: string, vector: Float32Array, textHash: string): void {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      this.reserve(slot + 1);
      this.ids.push(id);
      this.textHashes.push(textHash);
      this.slots.set(id, slot);
    } else {
      this.textHashes[slot] = textHash;
    }
    this.vectors.set(vector, slot * this.dimensions);
    this.norms[slot] = Math.sqrt(dot(vector, vector));
    this.sketches.set(sketchWords(vector), slot * this.words);
  }

  delete(id: string): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const last = this.ids.length - 1;
    if (slot !== last) {
      const moved = this.ids[last] as string;
      this.ids[slot] = moved;
      this.textHashes[slot] = this.textHashes[last] as string;
      this.vectors.copyWithin(slot * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.norms[slot] = this.norms[last] as number;
      this.sketches.copyWithin(slot * this.words, last * this.words, (last + 1) * this.words);
      this.slots.set(moved, slot);
    }
    this.ids.pop();
    this.textHashes.pop();
    this.slots.delete(id);
  }

  /** A view of slot `slot`'s vector: valid until the partition next changes. */
  vector(slot: number): Float32Array {
    return this.vectors.subarray(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  /** Cosine of the query (norm `qNorm`) and slot `slot`: the dot product for unit vectors, as pgvector's `1 - <=>` otherwise. */
  cosine(q: Float32Array | Float64Array, qNorm: number, slot: number): number {
    const vectors = this.vectors;
    const base = slot * this.dimensions;
    const n = q.length;
    const n4 = n - (n % 4);
    let d = 0;
    // Unrolled by four, each product still added in turn: the same sum, bit for bit, as one term at a time.
    let i = 0;
    for (; i < n4; i += 4) {
      const j = base + i;
      d += (q[i] as number) * (vectors[j] as number);
      d += (q[i + 1] as number) * (vectors[j + 1] as number);
      d += (q[i + 2] as number) * (vectors[j + 2] as number);
      d += (q[i + 3] as number) * (vectors[j + 3] as number);
    }
    for (; i < n; i++) d += (q[i] as number) * (vectors[base + i] as number);
    return this.cosineOf(d, qNorm, slot);
  }

  /**
   * `cosine` of the query and each of `slots`, into `out` (same positions). Four slots at a time, each with its own
   * sum taken in `cosine`'s order (the same result, bit for bit): four independent chains of additions keep the
   * processor busy where one waits for each addition before the next.
   */
  cosines(q: Float64Array, qNorm: number, slots: readonly number[], out: Float64Array): void {
    const vectors = this.vectors;
    const dims = this.dimensions;
    const n4 = slots.length - (slots.length % 4);
    let s = 0;
    for (; s < n4; s += 4) {
      const b0 = (slots[s] as number) * dims;
      const b1 = (slots[s + 1] as number) * dims;
      const b2 = (slots[s + 2] as number) * dims;
      const b3 = (slots[s + 3] as number) * dims;
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      for (let i = 0; i < dims; i++) {
        const x = q[i] as number;
        d0 += x * (vectors[b0 + i] as number);
        d1 += x * (vectors[b1 + i] as number);
        d2 += x * (vectors[b2 + i] as number);
        d3 += x * (vectors[b3 + i] as number);
      }
      out[s] = this.cosineOf(d0, qNorm, slots[s] as number);
      out[s + 1] = this.cosineOf(d1, qNorm, slots[s + 1] as number);
      out[s + 2] = this.cosineOf(d2, qNorm, slots[s + 2] as number);
      out[s + 3] = this.cosineOf(d3, qNorm, slots[s + 3] as number);
    }
    for (; s < slots.length; s++) out[s] = this.cosine(q, qNorm, slots[s] as number);
  }

  /** The cosine from the dot product `d` of the query (norm `qNorm`) and slot `slot`'s vector. */
  private cosineOf(d: number, qNorm: number, slot: number): number {
    const norm = this.norms[slot] as number;
    return qNorm === 0 || norm === 0 ? 0 : Math.abs(qNorm * norm - 1) < 1e-6 ? d : d / (qNorm * norm);
  }

  private reserve(slots: number): void {
    const capacity = this.norms.length;
    if (slots <= capacity) return;
    const next = Math.max(slots, 2 * capacity);
    const vectors = new Float32Array(next * this.dimensions);
    vectors.set(this.vectors);
    const norms = new Float64Array(next);
    norms.set(this.norms);
    const sketches = new Uint32Array(next * this.words);
    sketches.set(this.sketches);
    this.vectors = vectors;
    this.norms = norms;
    this.sketches = sketches;
  }
}

interface ChangedRow {
  id: string | null;
  scope: string;
  kind: string;
  model: string;
  dimensions: number;
  packed: Buffer | Uint8Array | null;
  text_hash: string | null;
  writer: string;
}

/** The watermark of a read, then the rows of `where` ordered by `order`, at most `limit` (a row with a null id when none). */
const rowsRead = (where: string, order: string, limit: string) => `
  SELECT c.id, c.scope, c.kind, c.model, c.dimensions, c.packed, c.text_hash, pg_snapshot_xmin(pg_current_snapshot())::text AS writer
  FROM (SELECT 1) AS one
  LEFT JOIN LATERAL (
    SELECT e.id, e.scope, e.kind, e.model, e.dimensions, e.text_hash,
           COALESCE(e.packed, (SELECT string_agg(float4send(x), ''::bytea ORDER BY i) FROM unnest(e.vector) WITH ORDINALITY AS u(x, i))) AS packed
    FROM graph_embeddings e
    WHERE ${where}
    ORDER BY ${order} LIMIT ${limit}) AS c ON TRUE`;

/**
 * A read after the first: the rows changed since the watermark, from the `written_by` index (page after `$2` by id).
 * [watermark xid8 text, after id, limit]
 */
export const CHANGED = rowsRead(`e.written_by >= $1::xid8 AND e.id COLLATE "C" > $2`, `e.id COLLATE "C"`, "$3");

/**
 * A process's first read (every row): paged in the column's own collation, which the primary key is in, so each page
 * is a walk of the key. With `COLLATE "C"` (CHANGED) no index gives the order, and every page sorted every row left,
 * vectors included: about 1 s a page at 10⁵ vectors on Postgres. A statement of its own, not CHANGED in this order:
 * planned once for any watermark (a prepared statement's generic plan), that one walked the whole key to find the
 * few changed rows of a later read. Any total order pages completely; the ranking breaks ties by id itself.
 * [after id, limit]
 */
export const FIRST_LOAD = rowsRead("e.id > $1", "e.id", "$2");

/**
 * The first `$5` of the ranked ids `$1` that the view may see and that qualify, in rank order, with `columns` of each.
 * Each id is one probe of the primary key (a LATERAL subquery that OFFSET 0 keeps from being flattened into a join),
 * and the ids arrive in rank order (WITH ORDINALITY), so no sort: the probes stop at the k-th that qualifies. Planned
 * as a join with its values, the page of ~400 ids was hashed against a scan of every row of a scope of a few thousand
 * beliefs: 7.8 of an in-process recall's 26 ms on Postgres at 2 000 beliefs, 3.2 ms as probes.
 * [ids, home, visible, includeEnded, k]
 */
const visibleRanked = (columns: string) => `
  SELECT ${columns} FROM unnest($1::text[]) WITH ORDINALITY AS u(id, rank)
  CROSS JOIN LATERAL (SELECT * FROM graph_beliefs e WHERE e.id = u.id AND e.scope = $2 AND ($4::boolean OR e.live) OFFSET 0) AS b
  WHERE $2 = ANY($3::text[])
  ORDER BY u.rank LIMIT $5`;
export const VISIBLE_RANKED = visibleRanked("u.id");
/** With each id's slim row (`candidateStatsOf` columns, as `read.candidateStatsByIds`; [.., $6 the query's terms or null]). */
export const VISIBLE_RANKED_STATS = visibleRanked(`u.id, b.credence, b.status,
  CASE WHEN b.data->'contextTags' <> '[]'::jsonb THEN b.data->'contextTags' END AS "contextTags",
  CASE WHEN b.valid_until IS NOT NULL THEN b.data->>'validUntil' END AS "validUntil", ${slimTermsSql("b.search_terms", "$6")}`);

function partitionKey(scope: string, model: string, dimensions: number): string {
  return `${scope}\u0000${model}\u0000${dimensions}`;
}

function sketchWords(vector: Float32Array): Uint32Array {
  const words = new Uint32Array(Math.ceil(vector.length / 32));
  for (let i = 0; i < vector.length; i++) if ((vector[i] as number) > 0) (words as Uint32Array)[i >>> 5] = ((words[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
  return words;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/**
 * The `limit` slots of `partition` nearest to sketch `q` by Hamming distance, ties by id (the SQL search's
 * `ORDER BY bit_count(…), id COLLATE "C" LIMIT`): one pass counting entries per distance, then the distances below
 * the boundary taken whole and the boundary distance's entries sorted by id. Order within the result is irrelevant
 * (the caller ranks by cosine).
 */
function nearestSketches(partition: Partition, q: Uint32Array, limit: number): number[] {
  const n = partition.size;
  const { sketches, words, dimensions, ids } = partition;
  const distance = new Uint16Array(n);
  const perDistance = new Uint32Array(dimensions + 1);
  for (let slot = 0, base = 0; slot < n; slot++, base += words) {
    let d = 0;
    for (let w = 0; w < words; w++) d += popcount(((sketches[base + w] as number) ^ (q[w] as number)) >>> 0);
    distance[slot] = d;
    (perDistance[d] as number)++;
  }
  let boundary = 0;
  let below = 0;
  while (below + (perDistance[boundary] as number) <= limit && boundary < dimensions) below += perDistance[boundary++] as number;
  const kept: number[] = [];
  const tied: number[] = [];
  for (let slot = 0; slot < n; slot++) {
    const d = distance[slot] as number;
    if (d < boundary) kept.push(slot);
    else if (d === boundary) tied.push(slot);
  }
  tied.sort((a, b) => byIdOrder(ids[a] as string, ids[b] as string));
  return kept.concat(tied.slice(0, limit - kept.length));
}

const byIdOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The first `take` of positions 0…n−1 in the order `before` (negative: a first), ranked: a bounded insertion that
 * compares most positions with the last kept one only, instead of sorting all n.
 */
function firstRanked(n: number, take: number, before: (a: number, b: number) => number): number[] {
  if (take >= n) return Array.from({ length: n }, (_, i) => i).sort(before);
  const top: number[] = [];
  for (let i = 0; i < n; i++) {
    if (top.length === take && before(i, top[take - 1] as number) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(i, top[mid] as number) < 0) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, i);
    if (top.length > take) top.pop();
  }
  return top;
}

/** The positions 0…n−1 not in `first` (the first ones in the order `before`), ranked. */
function restRanked(n: number, first: readonly number[], before: (a: number, b: number) => number): number[] {
  const taken = new Uint8Array(n);
  for (const i of first) taken[i] = 1;
  const rest: number[] = [];
  for (let i = 0; i < n; i++) if (taken[i] === 0) rest.push(i);
  return rest.sort(before);
}

function vectorOfPacked(packed: Uint8Array): Float32Array {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const out = new Float32Array(packed.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, false);
  return out;
}

export interface VectorIndex {
  search(view: ScopeView, vector: Float32Array, options: VectorSearchOptions): Promise<VectorHit[]>;
  /** Exact cosines of the given ids among the home scope's vectors of `model` (ids without one are left out). */
  similarities(view: ScopeView, vector: Float32Array, ids: readonly string[], model: string): Promise<Map<string, number>>;
  /**
   * The vectors of `model` this process already holds for the given home-scope belief ids, with the hash of the text
   * each is of, without reading the database (ids not held are left out): what the last search or similarities call
   * brought in.
   */
  held(view: ScopeView, ids: readonly string[], model: string, dimensions: number): Map<string, HeldVector>;
  /** Vectors held (for tests and diagnostics). */
  readonly size: number;
}

export function createVectorIndex(sql: SqlExecutor): VectorIndex {
  const partitions = new Map<string, Partition>();
  const where = new Map<string, string>();
  let watermark = "0";
  let size = 0;
  /** The read in progress, and the one queued behind it for callers that arrived while it ran. */
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  function put(row: ChangedRow & { id: string }): void {
    const old = where.get(row.id);
    if (old !== undefined) {
      partitions.get(old)?.delete(row.id);
      where.delete(row.id);
      size--;
    }
    if (row.kind !== "belief" || row.packed === null || row.packed.byteLength !== row.dimensions * 4) return;
    const key = partitionKey(row.scope, row.model, row.dimensions);
    let partition = partitions.get(key);
    if (!partition) partitions.set(key, (partition = new Partition(row.dimensions)));
    partition.put(row.id, vectorOfPacked(row.packed), row.text_hash ?? "");
    where.set(row.id, key);
    size++;
  }

  async function read(): Promise<void> {
    let after = "";
    let next: string | null = null;
    const first = watermark === "0";
    for (;;) {
      const rows = await sql.query<ChangedRow>(first ? FIRST_LOAD : CHANGED, first ? [after, LOAD_PAGE] : [watermark, after, LOAD_PAGE]);
      // The first page's snapshot is the oldest of this read: what changed after it is read again next time.
      next ??= rows[0]?.writer ?? watermark;
      const changed = rows.filter((row): row is ChangedRow & { id: string } => row.id !== null);
      for (const row of changed) put(row);
      if (changed.length < LOAD_PAGE) break;
      after = (changed[changed.length - 1] as ChangedRow & { id: string }).id;
    }
    watermark = next;
  }

  /** Resolves after a read that started after this call. */
  function refresh(): Promise<void> {
    if (running === null) {
      running = read().finally(() => {
        running = null;
      });
      return running;
    }
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = null;
        return refresh();
      });
    return queued;
  }

  function partitionOf(view: ScopeView, model: string, dimensions: number): Partition | null {
    if (!view.visibleScopeIds.includes(view.homeScopeId)) return null;
    return partitions.get(partitionKey(view.homeScopeId, model, dimensions)) ?? null;
  }

  return {
    get size() {
      return size;
    },

    async search(view, vector, options) {
      if (options.k <= 0 || vector.length === 0) return [];
      await refresh();
      const partition = partitionOf(view, options.model, vector.length);
      if (partition === null || partition.size === 0) return [];
      const limit = sketchCandidates(options.k);
      const slots = partition.size > limit ? nearestSketches(partition, sketchWords(vector), limit) : Array.from({ length: partition.size }, (_, slot) => slot);
      const qNorm = Math.sqrt(dot(vector, vector));
      // Similarities by position in `slots`; positions are ranked (best first, ties by id) a page at a time: no object
      // per candidate, and no sort of the candidates below the pages the view's statement is asked about.
      const q = Float64Array.from(vector);
      const similarity = new Float64Array(slots.length);
      partition.cosines(q, qNorm, slots, similarity);
      // Ids taken now: a read by another search may move slots while this one awaits.
      const idOf = slots.map((slot) => partition.ids[slot] as string);
      const before = (a: number, b: number) => (similarity[b] as number) - (similarity[a] as number) || byIdOrder(idOf[a] as string, idOf[b] as string);
      // The ranked ids go to the view's statement a page at a time, best first, until k have passed: the same first k
      // as one statement over every ranked id, without sending (and joining) the ids far below them.
      const visible = [...view.visibleScopeIds];
      const page = Math.max(VISIBLE_PAGE, 2 * options.k);
      const ranked = firstRanked(slots.length, page, before);
      const hits: VectorHit[] = [];
      for (let from = 0; from < slots.length && hits.length < options.k; from += page) {
        // Past the first page (some of it failed the view), the rest is ranked whole, once.
        if (from === page) ranked.push(...restRanked(slots.length, ranked, before));
        const pagePositions = ranked.slice(from, from + page);
        const rows = await sql.query<{ id: string } & Record<string, unknown>>(options.withStats ? VISIBLE_RANKED_STATS : VISIBLE_RANKED, [
          pagePositions.map((i) => idOf[i] as string),
          view.homeScopeId,
          visible,
          options.includeEnded ?? false,
          options.k - hits.length,
          ...(options.withStats ? [options.statsTerms ? [...new Set(options.statsTerms)] : null] : []),
        ]);
        // The rows come in rank order (`ORDER BY u.rank`), a subsequence of the page: one walk pairs them.
        let at = 0;
        for (const r of rows) {
          while (at < pagePositions.length && idOf[pagePositions[at] as number] !== r.id) at++;
          const hit: VectorHit = { id: r.id, similarity: similarity[pagePositions[at] as number] as number };
          if (options.withStats) hit.stats = candidateStatsOf({ ...r, scope: view.homeScopeId, contextTags: r.contextTags ?? [] });
          hits.push(hit);
        }
      }
      return hits;
    },

    async similarities(view, vector, ids, model) {
      if (ids.length === 0 || vector.length === 0) return new Map();
      // Read again only when an asked id is not held yet: a search's own read (just before, in the same ranking)
      // usually holds every vector its candidates have.
      const held = partitionOf(view, model, vector.length);
      if (held === null || ids.some((id) => !held.slots.has(id))) await refresh();
      const partition = partitionOf(view, model, vector.length);
      const out = new Map<string, number>();
      if (partition === null) return out;
      const qNorm = Math.sqrt(dot(vector, vector));
      for (const id of ids) {
        const slot = partition.slots.get(id);
        if (slot !== undefined) out.set(id, partition.cosine(vector, qNorm, slot));
      }
      return out;
    },

    held(view, ids, model, dimensions) {
      const out = new Map<string, HeldVector>();
      const partition = partitionOf(view, model, dimensions);
      if (partition === null) return out;
      for (const id of ids) {
        const slot = partition.slots.get(id);
        // A copy: the partition's storage moves as it grows and when a slot is removed.
        if (slot !== undefined) out.set(id, { vector: partition.vector(slot).slice(), textHash: partition.textHashes[slot] as string });
      }
      return out;
    },
  };
}
