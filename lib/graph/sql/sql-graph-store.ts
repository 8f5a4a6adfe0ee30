/**
 * The SQL adapter of the GraphStore port, on the same Postgres as Prisma (embedded PGlite or a server), through the
 * raw `SqlExecutor`. Tables: prisma/migrations/20261129130000_graph_store. Every query is parameterised; no
 * identifier is ever built from input.
 *
 * Anchoring: every caller read has `scope = $home AND $home = ANY($visible)` (or, for nodes reached from the home
 * scope, `scope = ANY($visible)`) inside the one query, so a hidden id and a missing id run the same statements and
 * both come back empty.
 */
import {
  MUTATION_STATUSES,
  tokenize,
  type Belief,
  type BeliefEdge,
  type BeliefRecord,
  type ChangeSet,
  type CitationRef,
  type EdgeKind,
  type Evidence,
  type HistoryItem,
  type ItemKind,
  type MutationRecord,
  type MutationStatus,
  type ResolvedItem,
  type SupportRef,
  type Tier,
  type TopicFreeze,
} from "@/lib/engine";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { ChangeSetRejected, GraphStoreError } from "../errors";
import type {
  ApplyResult,
  CandidateSearchOptions,
  CitationHop,
  GraphEdge,
  GraphSlice,
  GraphStore,
  ImportResult,
  ListBeliefsOptions,
  ListMutationsOptions,
  LoadOptions,
  NeighbourhoodOptions,
  ScopeExport,
  ScopeView,
  SystemCitationIndex,
} from "../graph-store";
import { candidateStatsOf } from "../graph-store";
import { mapPgError } from "./pg-errors";
import { applyChangeSetRows, importScopeRows } from "./sql-writes";

export interface SqlGraphStoreConfig {
  sql: SqlExecutor;
  /** Where the database is, for `describe()`, e.g. the Database's own description. */
  location?: string;
  /** Called by `close()` (e.g. closing a database the store owns); default: nothing (the database outlives the store). */
  onClose?: () => Promise<void>;
}

const TABLES = ["graph_beliefs", "graph_evidence", "graph_mutations", "graph_history", "graph_edges", "graph_topic_freezes", "graph_change_sets"];

interface BeliefRow {
  data: Belief;
  history?: HistoryItem[] | null;
}

function record(row: BeliefRow): BeliefRecord {
  return { belief: row.data, history: row.history ?? [] };
}

/** Terms safe to put in a tsquery: the engine's content terms, letters and digits only. */
function queryTerms(query: string): string[] {
  return [...new Set(tokenize(query))].filter((t) => /^[\p{L}\p{N}]+$/u.test(t));
}

function visible(view: ScopeView): string[] {
  return [...view.visibleScopeIds];
}

export function createSqlGraphStore(config: SqlGraphStoreConfig): GraphStore {
  const { sql } = config;

  async function loadRecords(where: string, params: unknown[], asOf: string | null): Promise<BeliefRecord[]> {
    // $1 is always asOf (null = now); the caller's conditions use $2….
    const rows = await sql.query<BeliefRow>(
      `SELECT b.data, COALESCE((SELECT jsonb_agg(h.data ORDER BY h.seq) FROM graph_history h
                 WHERE h.belief_id = b.id AND ($1::timestamptz IS NULL OR h.time <= $1::timestamptz)), '[]'::jsonb) AS history
       FROM graph_beliefs b
       WHERE (${where}) AND ($1::timestamptz IS NULL OR b.created_at <= $1::timestamptz)
       ORDER BY b.id COLLATE "C"`,
      [asOf, ...params],
    );
    return rows.map(record);
  }

  const citationIndex: SystemCitationIndex = {
    async citersOf(id: string): Promise<readonly CitationRef[]> {
      return sql.query<CitationRef>(
        `SELECT belief_id AS "beliefId", seq FROM graph_history WHERE source_id = $1 AND type = 'entry' AND live ORDER BY belief_id COLLATE "C", seq`,
        [id],
      );
    },
    async load(beliefId: string): Promise<BeliefRecord | null> {
      return (await loadRecords(`b.id = $2`, [beliefId], null))[0] ?? null;
    },
    async citersOfMany(ids: readonly string[]): Promise<ReadonlyMap<string, readonly CitationRef[]>> {
      const out = new Map<string, CitationRef[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return out;
      const rows = await sql.query<{ source_id: string; beliefId: string; seq: number }>(
        `SELECT source_id, belief_id AS "beliefId", seq FROM graph_history
         WHERE source_id = ANY($1::text[]) AND type = 'entry' AND live ORDER BY source_id, belief_id COLLATE "C", seq`,
        [[...ids]],
      );
      for (const r of rows) out.get(r.source_id)?.push({ beliefId: r.beliefId, seq: r.seq });
      return out;
    },
    async loadMany(beliefIds: readonly string[]): Promise<readonly BeliefRecord[]> {
      if (beliefIds.length === 0) return [];
      return loadRecords(`b.id = ANY($2::text[])`, [[...beliefIds]], null);
    },
    async citationClosure(rootId: string, options: { maxHops?: number } = {}): Promise<readonly CitationHop[]> {
      // UNION (not UNION ALL) without a depth column: a row (citer, seq, cited) is produced once, so cycles end the
      // recursion; depth is assigned afterwards by a breadth-first pass over the returned edges.
      const edges = await sql.query<{ belief_id: string; seq: number; cited_id: string }>(
        `WITH RECURSIVE walk (belief_id, seq, cited_id) AS (
           SELECT h.belief_id, h.seq, h.source_id FROM graph_history h WHERE h.source_id = $1 AND h.type = 'entry' AND h.live
           UNION
           SELECT h.belief_id, h.seq, h.source_id FROM walk w
           JOIN graph_history h ON h.source_id = w.belief_id AND h.type = 'entry' AND h.live
         )
         SELECT belief_id, seq, cited_id FROM walk`,
        [rootId],
      );
      const byCited = new Map<string, { belief_id: string; seq: number; cited_id: string }[]>();
      for (const e of edges) {
        const list = byCited.get(e.cited_id) ?? [];
        list.push(e);
        byCited.set(e.cited_id, list);
      }
      const maxHops = options.maxHops ?? Number.POSITIVE_INFINITY;
      const hops: CitationHop[] = [];
      const seen = new Set<string>([rootId]);
      let frontier = [rootId];
      for (let depth = 1; frontier.length > 0 && depth <= maxHops; depth++) {
        const level: CitationHop[] = [];
        for (const cited of frontier) {
          for (const e of byCited.get(cited) ?? []) level.push({ beliefId: e.belief_id, seq: e.seq, citedId: e.cited_id, depth });
        }
        level.sort((a, b) => (a.beliefId < b.beliefId ? -1 : a.beliefId > b.beliefId ? 1 : a.seq - b.seq));
        hops.push(...level);
        const next: string[] = [];
        for (const h of level) {
          if (!seen.has(h.beliefId)) {
            seen.add(h.beliefId);
            next.push(h.beliefId);
          }
        }
        frontier = next;
      }
      return hops;
    },
  };

  async function nodesById(ids: readonly string[], view: ScopeView, asOf: string | null): Promise<{
    beliefs: Belief[];
    evidence: Evidence[];
    mutations: MutationRecord[];
  }> {
    if (ids.length === 0) return { beliefs: [], evidence: [], mutations: [] };
    const rows = await sql.query<{ label: ItemKind; data: Belief | Evidence | MutationRecord }>(
      `SELECT label, data FROM (
       SELECT 'belief' AS label, data, id FROM graph_beliefs WHERE id = ANY($1::text[]) AND scope = ANY($2::text[])
         AND ($3::timestamptz IS NULL OR created_at <= $3::timestamptz)
       UNION ALL
       SELECT 'evidence', data, id FROM graph_evidence WHERE id = ANY($1::text[]) AND scope = ANY($2::text[])
         AND ($3::timestamptz IS NULL OR created_at <= $3::timestamptz)
       UNION ALL
       SELECT 'mutation', data, id FROM graph_mutations WHERE id = ANY($1::text[]) AND scope = ANY($2::text[])
         AND ($3::timestamptz IS NULL OR time <= $3::timestamptz)
       ) AS nodes ORDER BY id COLLATE "C"`,
      [[...ids], visible(view), asOf],
    );
    return {
      beliefs: rows.filter((r) => r.label === "belief").map((r) => r.data as Belief),
      evidence: rows.filter((r) => r.label === "evidence").map((r) => r.data as Evidence),
      mutations: rows.filter((r) => r.label === "mutation").map((r) => r.data as MutationRecord),
    };
  }

  const store: GraphStore = {
    kind: "sql",
    describe: () => `SQL graph store on ${config.location ?? "Postgres"}`,

    async check(): Promise<void> {
      try {
        const rows = await sql.query<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1::text[])`,
          [TABLES],
        );
        const present = new Set(rows.map((r) => r.name));
        const missing = TABLES.filter((t) => !present.has(t));
        if (missing.length > 0) {
          throw new GraphStoreError(
            "store_misconfigured",
            `SQL graph store: tables ${missing.join(", ")} are missing; the migration 20261129130000_graph_store has not been applied.`,
          );
        }
      } catch (error) {
        if (error instanceof GraphStoreError) throw error;
        throw new GraphStoreError("store_unavailable", `SQL graph store: the database is not reachable (${error instanceof Error ? error.message : String(error)}).`, {
          cause: error,
        });
      }
    },

    async close(): Promise<void> {
      await config.onClose?.();
    },

    resolverFor(view: ScopeView) {
      const scopes = visible(view);
      return {
        async resolve(id: string): Promise<ResolvedItem | null> {
          // One statement whatever the id: the visibility check is inside it (hidden ≡ missing).
          const rows = await sql.query<{
            label: ItemKind;
            id: string;
            scope: string;
            live: boolean | null;
            data: Evidence | null;
            supports: SupportRef[] | null;
          }>(
            `SELECT 'belief' AS label, b.id, b.scope, b.live, NULL::jsonb AS data,
                (SELECT jsonb_agg(jsonb_build_object('sourceId', h.source_id, 'sourceKind', h.source_kind,
                          'effectiveTier', h.data->>'effectiveTier') ORDER BY h.seq)
                 FROM graph_history h
                 WHERE h.belief_id = b.id AND h.type = 'entry' AND h.live AND h.relation = 'SUPPORTS'
                   AND h.verified AND NOT h.laundered AND h.source_id IS NOT NULL AND h.source_kind IS NOT NULL) AS supports
             FROM graph_beliefs b WHERE b.id = $1 AND b.scope = ANY($2::text[])
             UNION ALL
             SELECT 'evidence', e.id, e.scope, NULL, e.data, NULL FROM graph_evidence e WHERE e.id = $1 AND e.scope = ANY($2::text[])
             UNION ALL
             SELECT 'mutation', m.id, m.scope, NULL, NULL, NULL FROM graph_mutations m WHERE m.id = $1 AND m.scope = ANY($2::text[])`,
            [id, scopes],
          );
          const row = rows[0];
          if (!row) return null;
          if (row.label === "belief") {
            const supports = (row.supports ?? []).map((s) => ({ sourceId: s.sourceId, sourceKind: s.sourceKind, effectiveTier: s.effectiveTier as Tier }));
            return { kind: "belief", id: row.id, scope: row.scope, live: row.live === true, supports };
          }
          if (row.label === "evidence" && row.data) {
            const e = row.data;
            return {
              kind: "evidence",
              id: row.id,
              scope: row.scope,
              evidenceKind: e.kind,
              ess: e.ess,
              retracted: e.retractedAt !== null,
              discarded: e.discarded,
            };
          }
          return { kind: "mutation", id: row.id, scope: row.scope };
        },
      };
    },

    citationIndex: () => citationIndex,

    async apply(changeSet: ChangeSet): Promise<ApplyResult> {
      try {
        return await sql.transaction((tx) => applyChangeSetRows(tx, changeSet));
      } catch (error) {
        throw mapPgError(error);
      }
    },

    async loadBelief(view, beliefId, options: LoadOptions = {}) {
      const rows = await loadRecords(`b.id = $2 AND b.scope = $3 AND $3 = ANY($4::text[])`, [beliefId, view.homeScopeId, visible(view)], options.asOf ?? null);
      return rows[0] ?? null;
    },

    async loadBeliefs(view, beliefIds, options: LoadOptions = {}) {
      if (beliefIds.length === 0) return [];
      return loadRecords(`b.id = ANY($2::text[]) AND b.scope = $3 AND $3 = ANY($4::text[])`, [[...beliefIds], view.homeScopeId, visible(view)], options.asOf ?? null);
    },

    async loadEvidence(view, evidenceId) {
      const rows = await sql.query<{ data: Evidence }>(`SELECT data FROM graph_evidence WHERE id = $1 AND scope = $2 AND $2 = ANY($3::text[])`, [
        evidenceId,
        view.homeScopeId,
        visible(view),
      ]);
      return rows[0]?.data ?? null;
    },

    async listBeliefs(view, options: ListBeliefsOptions = {}) {
      const rows = await sql.query<{ data: Belief }>(
        `SELECT data FROM graph_beliefs
         WHERE scope = $1 AND $1 = ANY($2::text[])
           AND ($3::boolean IS FALSE OR live)
           AND ($4::text IS NULL OR topic = $4)
           AND ($5::text IS NULL OR key = $5)
           AND ($6::text IS NULL OR review_state = $6)
           AND ($7::text IS NULL OR id COLLATE "C" > $7)
         ORDER BY id COLLATE "C"
         LIMIT $8`,
        [
          view.homeScopeId,
          visible(view),
          options.liveOnly ?? true,
          options.topic ?? null,
          options.key ?? null,
          options.reviewState ?? null,
          options.afterId ?? null,
          options.limit ?? null,
        ],
      );
      return rows.map((r) => r.data);
    },

    async searchCandidates(view, query, options: CandidateSearchOptions = {}) {
      const terms = queryTerms(query);
      if (terms.length === 0) return [];
      const rows = await sql.query<{ data: Belief }>(
        `SELECT data FROM graph_beliefs
         WHERE scope = $1 AND $1 = ANY($2::text[])
           AND search_vector @@ to_tsquery('simple'::regconfig, $3)
           AND ($4::boolean OR live)
         ORDER BY CASE WHEN $5::int IS NULL THEN 0 ELSE ts_rank(search_vector, to_tsquery('simple'::regconfig, $3)) END DESC, id COLLATE "C"
         LIMIT $5`,
        [view.homeScopeId, visible(view), terms.join(" | "), options.includeEnded ?? false, options.limit ?? null],
      );
      return rows.map((r) => r.data);
    },

    async searchCandidateStats(view, query, options: CandidateSearchOptions = {}) {
      const terms = queryTerms(query);
      if (terms.length === 0) return [];
      // searchCandidates' WHERE and cap order, the stored term string instead of the belief JSON; uncapped, no sort.
      // Every row is of the home scope (the WHERE), and most have no tags and no end: those travel as NULLs, since
      // per-row bytes and columns are what a 15 000-row domain costs on the client (measured: 8 columns ≈ 1.5 × 4).
      const capped = options.limit !== undefined;
      const rows = await sql.query<Record<string, unknown>>(
        `SELECT id, credence, status, topic,
                CASE WHEN data->'contextTags' <> '[]'::jsonb THEN data->'contextTags' END AS "contextTags",
                CASE WHEN valid_until IS NOT NULL THEN data->>'validUntil' END AS "validUntil", search_terms AS terms
         FROM graph_beliefs
         WHERE scope = $1 AND $1 = ANY($2::text[])
           AND search_vector @@ to_tsquery('simple'::regconfig, $3)
           AND ($4::boolean OR live)
         ${capped ? `ORDER BY ts_rank(search_vector, to_tsquery('simple'::regconfig, $3)) DESC, id COLLATE "C" LIMIT $5` : ""}`,
        [view.homeScopeId, visible(view), terms.join(" | "), options.includeEnded ?? false, ...(capped ? [options.limit] : [])],
      );
      return rows.map((row) => {
        row.scope = view.homeScopeId;
        row.contextTags ??= [];
        return candidateStatsOf(row);
      });
    },

    async getMutation(view, mutationId) {
      const rows = await sql.query<{ data: MutationRecord }>(`SELECT data FROM graph_mutations WHERE id = $1 AND scope = $2 AND $2 = ANY($3::text[])`, [
        mutationId,
        view.homeScopeId,
        visible(view),
      ]);
      return rows[0]?.data ?? null;
    },

    async listMutations(view, options: ListMutationsOptions = {}) {
      const rows = await sql.query<{ data: MutationRecord }>(
        `SELECT data FROM graph_mutations
         WHERE scope = $1 AND $1 = ANY($2::text[])
           AND ($3::text[] IS NULL OR status = ANY($3::text[]))
           AND ($4::text IS NULL OR topic = $4)
           AND ($5::text IS NULL OR belief_ids @> ARRAY[$5::text])
           AND ($6::timestamptz IS NULL OR time >= $6::timestamptz)
           AND ($7::timestamptz IS NULL OR time <= $7::timestamptz)
         ORDER BY CASE WHEN $8::boolean THEN time END DESC, CASE WHEN $8::boolean THEN id COLLATE "C" END DESC, time, id COLLATE "C"
         LIMIT $9`,
        [
          view.homeScopeId,
          visible(view),
          options.statuses ? [...options.statuses] : null,
          options.topic ?? null,
          options.beliefId ?? null,
          options.since ?? null,
          options.asOf ?? null,
          options.newestFirst ?? false,
          options.limit ?? null,
        ],
      );
      return rows.map((r) => r.data);
    },

    async countMutations(view) {
      const rows = await sql.query<{ status: MutationStatus; n: number }>(
        `SELECT status, count(*)::int AS n FROM graph_mutations WHERE scope = $1 AND $1 = ANY($2::text[]) GROUP BY status`,
        [view.homeScopeId, visible(view)],
      );
      const counts = Object.fromEntries(MUTATION_STATUSES.map((s) => [s, 0])) as Record<MutationStatus, number>;
      for (const r of rows) if (r.status in counts) counts[r.status] = r.n;
      return counts;
    },

    async getTopicFreeze(view, topic) {
      const rows = await sql.query<{ data: TopicFreeze }>(`SELECT data FROM graph_topic_freezes WHERE scope = $1 AND $1 = ANY($2::text[]) AND topic = $3`, [
        view.homeScopeId,
        visible(view),
        topic,
      ]);
      return rows[0]?.data ?? null;
    },

    async listTopicFreezes(view, options: { frozenOnly?: boolean } = {}) {
      const rows = await sql.query<{ data: TopicFreeze }>(
        `SELECT data FROM graph_topic_freezes WHERE scope = $1 AND $1 = ANY($2::text[]) AND ($3::boolean IS FALSE OR frozen) ORDER BY topic COLLATE "C"`,
        [view.homeScopeId, visible(view), options.frozenOnly ?? false],
      );
      return rows.map((r) => r.data);
    },

    async neighbourhood(view, nodeId, options: NeighbourhoodOptions = {}): Promise<GraphSlice> {
      const depth = Math.max(0, Math.min(5, Math.floor(options.depth ?? 1)));
      const maxNodes = Math.max(1, Math.floor(options.maxNodes ?? 500));
      const asOf = options.asOf ?? null;
      const home = view.homeScopeId;
      const homeVisible = view.visibleScopeIds.includes(home);
      const start = await nodesById([nodeId], { homeScopeId: home, visibleScopeIds: homeVisible ? [home] : [] }, asOf);
      const beliefs = new Map<string, Belief>(start.beliefs.map((b) => [b.id, b]));
      const evidence = new Map<string, Evidence>(start.evidence.map((e) => [e.id, e]));
      const mutations = new Map<string, MutationRecord>(start.mutations.map((m) => [m.id, m]));
      const size = () => beliefs.size + evidence.size + mutations.size;
      if (size() === 0) return { beliefs: [], evidence: [], mutations: [], edges: [] };
      const scopeOf = (id: string): string | undefined => beliefs.get(id)?.scope ?? evidence.get(id)?.scope ?? mutations.get(id)?.scope;
      const edges = new Map<string, GraphEdge>();
      let frontier = [nodeId];
      for (let hop = 0; hop < depth && frontier.length > 0 && size() < maxNodes; hop++) {
        const rows = await sql.query<{ kind: EdgeKind; from_id: string; to_id: string; seq: number; live: boolean; data: { time: string; changeSet: string } }>(
          `SELECT kind, from_id, to_id, seq, live, data FROM graph_edges
           WHERE (from_id = ANY($1::text[]) OR to_id = ANY($1::text[])) AND ($2::timestamptz IS NULL OR time <= $2::timestamptz)
           ORDER BY from_id COLLATE "C", to_id COLLATE "C", seq, kind COLLATE "C"`,
          [frontier, asOf],
        );
        const unknown = [...new Set(rows.flatMap((r) => [r.from_id, r.to_id]))].filter((id) => scopeOf(id) === undefined);
        const found = await nodesById(unknown, view, asOf);
        const next: string[] = [];
        const admit = (id: string) => {
          if (scopeOf(id) === home) next.push(id);
        };
        for (const b of found.beliefs) {
          if (size() >= maxNodes || beliefs.has(b.id)) continue;
          beliefs.set(b.id, b);
          admit(b.id);
        }
        for (const e of found.evidence) {
          if (size() >= maxNodes || evidence.has(e.id)) continue;
          evidence.set(e.id, e);
          admit(e.id);
        }
        for (const m of found.mutations) {
          if (size() >= maxNodes || mutations.has(m.id)) continue;
          mutations.set(m.id, m);
          admit(m.id);
        }
        for (const r of rows) {
          if (scopeOf(r.from_id) === undefined || scopeOf(r.to_id) === undefined) continue;
          edges.set(`${r.kind}|${r.from_id}|${r.to_id}|${r.seq}`, {
            kind: r.kind,
            from: r.from_id,
            to: r.to_id,
            beliefId: r.seq > 0 ? r.to_id : null,
            seq: r.seq > 0 ? r.seq : null,
            live: r.live,
            time: r.data.time,
            changeSet: r.data.changeSet,
          });
        }
        frontier = next;
      }
      return {
        beliefs: [...beliefs.values()],
        evidence: [...evidence.values()],
        mutations: [...mutations.values()],
        edges: [...edges.values()],
      };
    },

    async exportScope(view, options: LoadOptions = {}): Promise<ScopeExport> {
      const home = view.homeScopeId;
      const scopes = visible(view);
      const asOf = options.asOf ?? null;
      const beliefs = await loadRecords(`b.scope = $2 AND $2 = ANY($3::text[])`, [home, scopes], asOf);
      const evidence = await sql.query<{ data: Evidence }>(
        `SELECT data FROM graph_evidence WHERE scope = $1 AND $1 = ANY($2::text[]) AND ($3::timestamptz IS NULL OR created_at <= $3::timestamptz) ORDER BY id COLLATE "C"`,
        [home, scopes, asOf],
      );
      const mutations = await sql.query<{ data: MutationRecord }>(
        `SELECT data FROM graph_mutations WHERE scope = $1 AND $1 = ANY($2::text[]) AND ($3::timestamptz IS NULL OR time <= $3::timestamptz) ORDER BY id COLLATE "C"`,
        [home, scopes, asOf],
      );
      const edges = await sql.query<{ kind: BeliefEdge["kind"]; from_id: string; to_id: string; data: { time: string; changeSet: string } }>(
        `SELECT g.kind, g.from_id, g.to_id, g.data FROM graph_edges g
         WHERE g.seq = 0 AND $1 = ANY($2::text[])
           AND (EXISTS (SELECT 1 FROM graph_beliefs b WHERE b.id = g.from_id AND b.scope = $1)
                OR EXISTS (SELECT 1 FROM graph_mutations m WHERE m.id = g.from_id AND m.scope = $1))
           AND ($3::timestamptz IS NULL OR g.time <= $3::timestamptz)
         ORDER BY g.kind COLLATE "C", g.from_id COLLATE "C", g.to_id COLLATE "C"`,
        [home, scopes, asOf],
      );
      const freezes = await sql.query<{ data: TopicFreeze }>(
        `SELECT data FROM graph_topic_freezes WHERE scope = $1 AND $1 = ANY($2::text[]) ORDER BY topic COLLATE "C"`,
        [home, scopes],
      );
      return {
        format: "credence.scope-export",
        formatVersion: 1,
        scope: home,
        beliefs,
        evidence: evidence.map((r) => r.data),
        mutations: mutations.map((r) => r.data),
        edges: edges.map((r) => ({ kind: r.kind, from: r.from_id, to: r.to_id, time: r.data.time, changeSet: r.data.changeSet })),
        topicFreezes: freezes.map((r) => r.data),
      };
    },

    async importScope(view, data: ScopeExport): Promise<ImportResult> {
      if (!view.visibleScopeIds.includes(view.homeScopeId)) {
        throw new ChangeSetRejected("import_conflict", `Scope ${view.homeScopeId} is not in the caller's view.`);
      }
      try {
        return await sql.transaction((tx) => importScopeRows(tx, view.homeScopeId, data));
      } catch (error) {
        throw mapPgError(error);
      }
    },
  };
  return store;
}
