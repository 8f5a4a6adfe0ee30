/**
 * The in-memory vector index's own bookkeeping, without a database: after any sequence of vectors written, replaced,
 * moved to another scope or turned into a kind it does not hold, a search ranks exactly what a fresh exhaustive
 * ranking of the scope's current vectors gives (cosine, then id), and `held` hands out each vector as written. The
 * statements are answered by a stand-in that serves the rows written since the last read (the SQL behaviour itself is
 * vector-index.test.ts's, on both backends).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { createVectorIndex } from "./vector-index";

const DIMENSIONS = 8;

type Row = { id: string; scope: string; kind: string; model: string; dimensions: number; packed: Buffer; text_hash: string; writer: string };

function packed(vector: readonly number[]): Buffer {
  const buffer = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => buffer.writeFloatBE(x, i * 4));
  return buffer;
}

/** A stand-in for the index's two statements: the rows written since the last read, and every ranked id visible. */
function standIn(): { sql: SqlExecutor; write(row: Row): void } {
  let pending: Row[] = [];
  const sql = {
    async query<T>(text: string, params: unknown[] = []): Promise<T[]> {
      if (text.includes("pg_snapshot_xmin")) {
        const rows = pending;
        pending = [];
        return (rows.length > 0 ? rows : [{ id: null, writer: "1" }]) as T[];
      }
      return (params[0] as string[]).slice(0, params[4] as number).map((id) => ({ id })) as T[];
    },
    transaction: () => Promise.reject(new Error("not used")),
  } as SqlExecutor;
  return { sql, write: (row) => pending.push(row) };
}

const unit = (v: readonly number[]): number[] => {
  const n = Math.hypot(...v);
  return n === 0 ? v.map(() => 0) : v.map((x) => Math.fround(x / n));
};
/** Unit vectors (what the models give) and others (the index divides by the norms then, as pgvector does). */
const vectorArb = fc.oneof(
  fc.array(fc.integer({ min: -9, max: 9 }), { minLength: DIMENSIONS, maxLength: DIMENSIONS }).map(unit),
  fc.array(fc.integer({ min: -9, max: 9 }), { minLength: DIMENSIONS, maxLength: DIMENSIONS }),
);
const writeArb = fc.record({
  id: fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"),
  scope: fc.constantFrom("s1", "s2"),
  kind: fc.constantFrom("belief", "belief", "belief", "evidence"),
  vector: vectorArb,
});

describe("the in-memory vector index", () => {
  it("ranks, after any writes, moves and removals, exactly as an exhaustive ranking of what is current (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(writeArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }), vectorArb, fc.integer({ min: 1, max: 8 }), async (batches, query, k) => {
        const { sql, write } = standIn();
        const index = createVectorIndex(sql);
        const current = new Map<string, { scope: string; kind: string; vector: number[] }>();
        for (const batch of batches) {
          for (const w of batch) {
            write({ id: w.id, scope: w.scope, kind: w.kind, model: "m", dimensions: DIMENSIONS, packed: packed(w.vector), text_hash: `h-${w.vector.join(",")}`, writer: "1" });
            current.set(w.id, { scope: w.scope, kind: w.kind, vector: w.vector });
          }
          for (const scope of ["s1", "s2"]) {
            const view = { homeScopeId: scope, visibleScopeIds: [scope] };
            const q = Float32Array.from(query);
            const got = await index.search(view, q, { k, model: "m" });
            const qNorm = Math.sqrt(q.reduce((sum, x) => sum + x * x, 0));
            const expected = [...current]
              .filter(([, c]) => c.scope === scope && c.kind === "belief")
              .map(([id, c]) => {
                const v = Float32Array.from(c.vector);
                let dot = 0;
                for (let i = 0; i < q.length; i++) dot += (q[i] as number) * (v[i] as number);
                const norm = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
                return { id, similarity: qNorm === 0 || norm === 0 ? 0 : Math.abs(qNorm * norm - 1) < 1e-6 ? dot : dot / (qNorm * norm) };
              })
              .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
              .slice(0, k);
            expect(got).toEqual(expected);
            const ids = [...current.keys()];
            const held = index.held(view, ids, "m", DIMENSIONS);
            expect([...held.keys()].sort()).toEqual(ids.filter((id) => current.get(id)?.scope === scope && current.get(id)?.kind === "belief").sort());
            for (const [id, h] of held) expect([...h.vector]).toEqual(current.get(id)?.vector);
          }
          expect(index.size).toBe([...current.values()].filter((c) => c.kind === "belief").length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
