/**
 * Bench-only bulk loading for the SQL store: a change-set's evidence, beliefs and first history entries written with
 * bare `unnest` INSERTs (no engine, no checks) — the bare-database baseline of `bench:store` and the corpus loader of
 * `bench:retrieval` (the SQL twin of `../neo4j/bench.ts`'s `rawInsert`).
 */
import type { SqlExecutor } from "@/lib/db/sql-executor";
import type { ChangeSet } from "@/lib/engine";
import { searchTerms } from "@/lib/graph/sql/sql-writes";

/** The rows of `cs` (beliefs with at most one entry each, as the bench corpus makes them), inside the caller's transaction. */
export async function rawInsertRows(tx: SqlExecutor, cs: ChangeSet): Promise<void> {
  const evs = cs.evidence;
  await tx.query(
    `INSERT INTO graph_evidence (id, scope, kind, text, created_at, observed_at, data)
     SELECT id, scope, kind, text, t, t, data FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::jsonb[])
       AS x(id, scope, kind, text, t, data)`,
    [evs.map((e) => e.id), evs.map((e) => e.scope), evs.map((e) => e.kind), evs.map((e) => e.text), evs.map((e) => e.createdAt), evs.map((e) => JSON.stringify(e))],
  );
  const bs = cs.beliefs.map((u) => u.belief);
  await tx.query(
    `INSERT INTO graph_beliefs (id, scope, topic, key, status, live, review_state, credence, confidence, tension, support_weight,
       rebuttal_weight, version, created_at, updated_at, valid_from, search_terms, data)
     SELECT id, scope, topic, key, status, TRUE, 'none', credence, confidence, 0, 0, 0, 1, created_at, created_at, created_at, terms, data
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::timestamptz[], $9::text[], $10::jsonb[])
       AS t(id, scope, topic, key, status, credence, confidence, created_at, terms, data)`,
    [
      bs.map((b) => b.id),
      bs.map((b) => b.scope),
      bs.map((b) => b.topic),
      bs.map((b) => b.key),
      bs.map((b) => b.status),
      bs.map((b) => b.credence),
      bs.map((b) => b.confidence),
      bs.map((b) => b.createdAt),
      bs.map((b) => searchTerms(b.text)),
      bs.map((b) => JSON.stringify(b)),
    ],
  );
  const hs = cs.history.flatMap((h) => h.items.map((item) => ({ b: h.beliefId, item })));
  await tx.query(
    `INSERT INTO graph_history (belief_id, seq, type, time, observed_at, change_set, source_id, source_kind, relation, weight, verified, laundered, live, data)
     SELECT b, 1, 'entry', t, t, 'bench', s, 'evidence', 'SUPPORTS', 1, TRUE, FALSE, TRUE, d
     FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::jsonb[]) AS x(b, t, s, d)`,
    [hs.map((h) => h.b), hs.map((h) => h.item.time), hs.map((h) => (h.item.type === "entry" ? h.item.sourceId : null)), hs.map((h) => JSON.stringify(h.item))],
  );
}
