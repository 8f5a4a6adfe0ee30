/**
 * The SQL adapter of the GraphStore port, on the same Postgres as Prisma (embedded PGlite or a server), through the
 * raw `SqlExecutor`. Tables: prisma/migrations/20261129130000_graph_store. Built like the Neo4j adapter: every
 * statement is a named query of `sql-queries.ts` (parameterised, no identifier ever built from input) and every row
 * is parsed by its schema in `sql-rows.ts`; the writes are in `sql-writes.ts`.
 *
 * Anchoring: every caller read has `scope = $home AND $home = ANY($visible)` (or, for nodes reached from the home
 * scope, `scope = ANY($visible)`) inside the one query, so a hidden id and a missing id run the same statements and
 * both come back empty.
 */
import { MUTATION_STATUSES, tokenize, type Belief, type ChangeSet, type CitationRef, type Evidence, type MutationRecord, type MutationStatus, type ResolvedItem } from "@/lib/engine";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { ChangeSetRejected, GraphStoreError } from "../errors";
import type {
  ApplyOptions,
  ApplyResult,
  CandidateSearchOptions,
  CitationHop,
  GraphEdge,
  GraphOverview,
  GraphOverviewOptions,
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
import { beliefGistsOf, candidateStatsOf, citationHopsByDepth, overviewOptions } from "../graph-store";
import { mapPgError } from "./pg-errors";
import { sqlIdempotencyMarks } from "./sql-idempotency";
import { admin, citations, read } from "./sql-queries";
import { run } from "./sql-rows";
import { createSqlSearch } from "./sql-search";
import { applyChangeSetRows, applyNewBeliefsWhole, importScopeRows } from "./sql-writes";
import { checkEmbeddings } from "../embeddings";
import { detectPgvector, embeddingStatus, missingEmbeddings, searchVectors, vectorSimilarities, writeEmbeddings } from "./sql-vectors";
import { createVectorIndex } from "./vector-index";

export interface SqlGraphStoreConfig {
  sql: SqlExecutor;
  /** Where the database is, for `describe()`, e.g. the Database's own description. */
  location?: string;
  /** Called by `close()` (e.g. closing a database the store owns); default: nothing (the database outlives the store). */
  onClose?: () => Promise<void>;
  /**
   * Where vector searches rank: "memory" (default), this process's copy of the searched scopes' vectors, kept fresh
   * from the database before each search (./vector-index.ts); "database", inside the statement (./sql-vectors.ts).
   */
  vectorRanking?: "memory" | "database";
}

const TABLES = ["graph_beliefs", "graph_evidence", "graph_mutations", "graph_history", "graph_edges", "graph_topic_freezes", "graph_change_sets"];

/** Terms safe to put in a tsquery: the engine's content terms, letters and digits only. */
function queryTerms(query: string): string[] {
  return [...new Set(tokenize(query))].filter((t) => /^[\p{L}\p{N}]+$/u.test(t));
}

function visible(view: ScopeView): string[] {
  return [...view.visibleScopeIds];
}

export function createSqlGraphStore(config: SqlGraphStoreConfig): GraphStore {
  const { sql } = config;
  const search = createSqlSearch(sql);
  // Whether the migration could add pgvector's column: asked once, on first vector use.
  let pgvector: Promise<boolean> | undefined;
  const usePgvector = (): Promise<boolean> => (pgvector ??= detectPgvector(sql));
  const vectorIndex = (config.vectorRanking ?? "memory") === "memory" ? createVectorIndex(sql) : null;

  const citationIndex: SystemCitationIndex = {
    async citersOf(id) {
      return run(sql, citations.citersOf, [id]);
    },
    async load(beliefId) {
      return (await run(sql, citations.load, [null, beliefId]))[0] ?? null;
    },
    async citersOfMany(ids) {
      const out = new Map<string, { beliefId: string; seq: number }[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return out;
      for (const r of await run(sql, citations.citersOfMany, [[...ids]])) out.get(r.source_id)?.push({ beliefId: r.beliefId, seq: r.seq });
      return out;
    },
    async loadMany(beliefIds) {
      if (beliefIds.length === 0) return [];
      return run(sql, citations.loadMany, [null, [...beliefIds]]);
    },
    async citationClosure(rootId: string, options: { maxHops?: number } = {}): Promise<readonly CitationHop[]> {
      const edges = await run(sql, citations.closure, [rootId]);
      const byCited = new Map<string, CitationRef[]>();
      for (const e of edges) {
        const list = byCited.get(e.cited_id) ?? [];
        list.push({ beliefId: e.belief_id, seq: e.seq });
        byCited.set(e.cited_id, list);
      }
      return citationHopsByDepth(rootId, (id) => byCited.get(id) ?? [], options.maxHops);
    },
  };

  async function nodesById(ids: readonly string[], view: ScopeView, asOf: string | null): Promise<{
    beliefs: Belief[];
    evidence: Evidence[];
    mutations: MutationRecord[];
  }> {
    const out: { beliefs: Belief[]; evidence: Evidence[]; mutations: MutationRecord[] } = { beliefs: [], evidence: [], mutations: [] };
    if (ids.length === 0) return out;
    for (const r of await run(sql, read.nodesById, [[...ids], visible(view), asOf])) {
      if (r.label === "belief") out.beliefs.push(r.data);
      else if (r.label === "evidence") out.evidence.push(r.data);
      else out.mutations.push(r.data);
    }
    return out;
  }

  const store: GraphStore = {
    kind: "sql",
    describe: () => `SQL graph store on ${config.location ?? "Postgres"}`,

    async check(): Promise<void> {
      try {
        const rows = await run(sql, admin.tables, [TABLES]);
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
          const rows = await run(sql, read.resolveItem, [id, scopes]);
          const row = rows[0];
          if (!row) return null;
          if (row.label === "belief") return { kind: "belief", id: row.id, scope: row.scope, live: row.live, supports: row.supports ?? [] };
          if (row.label === "evidence") {
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
    idempotency: sqlIdempotencyMarks(sql),

    async apply(changeSet: ChangeSet, options: ApplyOptions = {}): Promise<ApplyResult> {
      try {
        const embeddings = options.embeddings ?? [];
        checkEmbeddings(embeddings);
        const native = embeddings.length > 0 && (await usePgvector());
        // A change-set that only creates beliefs (a new claim) is one statement, atomic without a transaction.
        const whole = await applyNewBeliefsWhole(sql, changeSet, embeddings, native, options.idempotency ?? null);
        if (whole !== null) return whole;
        return await sql.transaction(async (tx) => {
          // The vectors and the mark are written with the change-set (in its one-statement core when it has one).
          return applyChangeSetRows(tx, changeSet, { embeddings, pgvector: native, mark: options.idempotency ?? null });
        });
      } catch (error) {
        throw mapPgError(error);
      }
    },

    async upsertEmbeddings(view, items) {
      checkEmbeddings(items);
      const native = await usePgvector();
      return sql.transaction((tx) => writeEmbeddings(tx, native, view, items));
    },

    async vectorSearch(view, vector, options) {
      if (vectorIndex) return vectorIndex.search(view, vector, options);
      return searchVectors(sql, await usePgvector(), view, vector, options);
    },

    async similarities(view, vector, ids, options) {
      if (vectorIndex) return vectorIndex.similarities(view, vector, ids, options.model);
      return vectorSimilarities(sql, await usePgvector(), view, vector, ids, options.model);
    },

    // The stored vectors the in-memory index holds: none when vectors are ranked in the database.
    heldVectors(view, ids, options) {
      return vectorIndex ? vectorIndex.held(view, ids, options.model, options.dimensions) : new Map();
    },

    async missingEmbeddings(view, model, options = {}) {
      return missingEmbeddings(sql, view, model, options.limit);
    },

    async embeddingStatus(view, model) {
      return embeddingStatus(sql, view, model);
    },

    async loadBelief(view, beliefId, options: LoadOptions = {}) {
      const rows = await run(sql, read.beliefRecordInHome, [options.asOf ?? null, beliefId, view.homeScopeId, visible(view)]);
      return rows[0] ?? null;
    },

    async loadBeliefHead(view, beliefId, options) {
      return (await store.loadBeliefHeads(view, [beliefId], options)).get(beliefId) ?? null;
    },

    async loadBeliefHeads(view, beliefIds, options) {
      if (beliefIds.length === 0) return new Map();
      const sources = options.checkpointSources === undefined || options.checkpointSources === "all" ? null : [...new Set(options.checkpointSources)].sort();
      const rows = await run(sql, read.beliefHeadInHome, [[...new Set(beliefIds)], view.homeScopeId, visible(view), Math.max(0, Math.floor(options.historyLimit)), sources]);
      return new Map(rows.map((r) => [r.id, r.head(sources ?? "all")]));
    },

    async beliefStandings(view, beliefIds) {
      if (beliefIds.length === 0) return new Map();
      const rows = await run(sql, read.beliefStandings, [[...new Set(beliefIds)], view.homeScopeId, visible(view)]);
      return new Map(rows.map((r) => [r.belief.id, r]));
    },

    async loadBeliefs(view, beliefIds, options: LoadOptions = {}) {
      if (beliefIds.length === 0) return [];
      return run(sql, read.beliefRecordsInHome, [options.asOf ?? null, [...beliefIds], view.homeScopeId, visible(view)]);
    },

    async loadEvidence(view, evidenceId) {
      return (await run(sql, read.evidenceById, [evidenceId, view.homeScopeId, visible(view)]))[0] ?? null;
    },

    async listOpenReadings(view, options = {}) {
      return run(sql, read.openReadings, [view.homeScopeId, visible(view), options.limit ?? null]);
    },

    async listBeliefs(view, options: ListBeliefsOptions = {}) {
      if (options.ids?.length === 0) return [];
      const { ids, liveOnly, ...others } = options;
      if (ids !== undefined && Object.values(others).every((v) => v === undefined)) {
        return run(sql, read.beliefsByIds, [view.homeScopeId, visible(view), [...ids], liveOnly ?? true]);
      }
      return run(sql, read.listBeliefs, [
        view.homeScopeId,
        visible(view),
        options.liveOnly ?? true,
        options.topic ?? null,
        options.key ?? null,
        options.reviewState ?? null,
        options.afterId ?? null,
        options.limit ?? null,
        options.ids ? [...options.ids] : null,
      ]);
    },

    async searchCandidates(view, query, options: CandidateSearchOptions = {}) {
      const terms = queryTerms(query);
      if (terms.length === 0) return [];
      return run(sql, read.searchCandidates, [view.homeScopeId, visible(view), terms.join(" | "), options.includeEnded ?? false, options.limit ?? null]);
    },

    async searchCandidateStats(view, query, options: CandidateSearchOptions = {}) {
      const terms = queryTerms(query);
      if (terms.length === 0) return [];
      // searchCandidates' WHERE and cap order, the stored term string instead of the belief JSON; uncapped, no sort.
      const params = [view.homeScopeId, visible(view), terms.join(" | "), options.includeEnded ?? false];
      const rows =
        options.limit === undefined
          ? await run(sql, read.searchCandidateStats, params)
          : await run(sql, read.searchCandidateStatsCapped, [...params, options.limit]);
      return rows.map((row) => {
        row.scope = view.homeScopeId;
        row.contextTags ??= [];
        return candidateStatsOf(row);
      });
    },

    searchTopK: (view, query, options) => search.topK(view, query, options),

    async candidateStatsByIds(view, beliefIds, options) {
      if (beliefIds.length === 0) return [];
      const queryTerms = options?.queryTerms ? [...new Set(options.queryTerms)] : null;
      const rows = await run(sql, read.candidateStatsByIds, [view.homeScopeId, visible(view), [...beliefIds], queryTerms]);
      return rows.map((row) => {
        row.scope = view.homeScopeId;
        row.contextTags ??= [];
        return candidateStatsOf(row);
      });
    },

    async beliefGists(view, beliefIds, options = {}) {
      const listed = new Set(beliefIds);
      if (options.orLiveKey !== undefined) return beliefGistsOf(await run(sql, read.beliefGistsByIdsOrKey, [view.homeScopeId, visible(view), [...listed], options.orLiveKey]), listed);
      if (listed.size === 0) return { gists: [], keyMatch: null };
      return beliefGistsOf(await run(sql, read.beliefGistsByIds, [view.homeScopeId, visible(view), [...listed]]), listed);
    },

    async getMutation(view, mutationId) {
      return (await run(sql, read.mutationById, [mutationId, view.homeScopeId, visible(view)]))[0] ?? null;
    },

    async listMutations(view, options: ListMutationsOptions = {}) {
      return run(sql, read.listMutations, [
        view.homeScopeId,
        visible(view),
        options.statuses ? [...options.statuses] : null,
        options.topic ?? null,
        options.beliefId ?? null,
        options.since ?? null,
        options.asOf ?? null,
        options.newestFirst ?? false,
        options.limit ?? null,
      ]);
    },

    async countMutations(view) {
      const counts = Object.fromEntries(MUTATION_STATUSES.map((s) => [s, 0])) as Record<MutationStatus, number>;
      for (const r of await run(sql, read.countMutations, [view.homeScopeId, visible(view)])) counts[r.status] = r.n;
      return counts;
    },

    async getTopicFreeze(view, topic) {
      return (await run(sql, read.topicFreeze, [view.homeScopeId, visible(view), topic]))[0] ?? null;
    },

    async listTopicFreezes(view, options: { frozenOnly?: boolean } = {}) {
      return run(sql, read.listTopicFreezes, [view.homeScopeId, visible(view), options.frozenOnly ?? false]);
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
        const rows = await run(sql, read.edgesAround, [frontier, asOf]);
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

    async graphOverview(view, options?: GraphOverviewOptions): Promise<GraphOverview> {
      const { contestedAt, notable } = overviewOptions(options);
      const anchor = [view.homeScopeId, visible(view)];
      const topics = await run(sql, read.topicSummaries, [...anchor, contestedAt]);
      const links = await run(sql, read.topicLinks, anchor);
      const contested = notable === 0 ? [] : await run(sql, read.contestedBeliefs, [...anchor, contestedAt, notable]);
      const recent = notable === 0 ? [] : await run(sql, read.recentBeliefs, [...anchor, notable]);
      return { topics, links, contested, recent };
    },

    async beliefLinks(view, beliefIds) {
      if (beliefIds.length === 0) return [];
      const rows = await run(sql, read.beliefLinks, [[...new Set(beliefIds)], view.homeScopeId, visible(view)]);
      return rows.map((r) => ({
        kind: r.kind,
        from: r.from_id,
        to: r.to_id,
        beliefId: r.seq > 0 ? r.to_id : null,
        seq: r.seq > 0 ? r.seq : null,
        live: r.live,
        time: r.data.time,
        changeSet: r.data.changeSet,
        fromTopic: r.from_topic,
        toTopic: r.to_topic,
      }));
    },

    async exportScope(view, options: LoadOptions = {}): Promise<ScopeExport> {
      const home = view.homeScopeId;
      const scopes = visible(view);
      const asOf = options.asOf ?? null;
      const beliefs = await run(sql, read.beliefRecordsOfScope, [asOf, home, scopes]);
      const evidence = await run(sql, read.exportEvidence, [home, scopes, asOf]);
      const mutations = await run(sql, read.exportMutations, [home, scopes, asOf]);
      const edges = await run(sql, read.exportEdges, [home, scopes, asOf]);
      const topicFreezes = await run(sql, read.exportTopicFreezes, [home, scopes]);
      return {
        format: "credence.scope-export",
        formatVersion: 1,
        scope: home,
        beliefs,
        evidence,
        mutations,
        edges: edges.map((r) => ({ kind: r.kind, from: r.from_id, to: r.to_id, time: r.data.time, changeSet: r.data.changeSet })),
        topicFreezes,
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
