/**
 * The GraphStore port on Neo4j (docs/design.md §2): `neo4j-driver` managed transactions (`executeRead` / `executeWrite`),
 * parameterised Cypher only (`neo4j-cypher.ts`), the database always named, constraints and indexes created
 * idempotently before first use (`neo4j-schema.ts`).
 *
 * Nodes carry a store namespace `ns` beside their scope: production uses one (default "credence"); tests give each
 * store its own, since Neo4j Community has a single database shared by every test file.
 */
import neo4j, { type BookmarkManager, type Driver, type ManagedTransaction, type SessionConfig } from "neo4j-driver";
import {
  EVIDENCE_KINDS,
  MUTATION_STATUSES,
  type AuthorisedResolver,
  type Belief,
  type BeliefHead,
  type StandingHead,
  type BeliefRecord,
  type ChangeSet,
  type CitationRef,
  type Evidence,
  type MutationRecord,
  type MutationStatus,
  type ResolvedItem,
  openReadings,
  parseFoldCheckpoint,
  sliceOfCheckpoint,
  supportRefsOf,
  tokenize,
} from "@/lib/engine";
import { redactUrl } from "@/lib/redact-url";
import { ChangeSetRejected, GraphStoreError, VersionConflict } from "../errors";
import {
  beliefGistsOf,
  byCodeUnits,
  standingBeliefSchema,
  candidateStatsOf,
  citationHopsByDepth,
  overviewOptions,
  type GraphOverview,
  type GraphOverviewOptions,
  type TopicEdge,
  type ApplyOptions,
  type ApplyResult,
  type CandidateSearchOptions,
  type CitationHop,
  type GraphEdge,
  type GraphSlice,
  type GraphStore,
  type ImportResult,
  type ListBeliefsOptions,
  type ListMutationsOptions,
  type LoadOptions,
  type NeighbourhoodOptions,
  type OpenReadingRef,
  type ScopeExport,
  type ScopeView,
  type CandidateStats,
  type SystemCitationIndex,
} from "../graph-store";
import { admin, citations, read } from "./neo4j-cypher";
import {
  beliefFromProps,
  evidenceFromProps,
  ftScopeToken,
  historyFromProp,
  mutationFromProps,
  toPlain,
  topicFreezeFromProps,
} from "./neo4j-records";
import { runnerFor, type CypherRunner, type QueryObserver } from "./neo4j-runner";
import { ensureNeo4jSchema } from "./neo4j-schema";
import { neo4jTopK, type Neo4jSearchTuning } from "./neo4j-search";
import { applyChangeSetInTx, importScopeInTx } from "./neo4j-writes";
import { neo4jIdempotencyMarks, writeIdempotencyMarkInTx } from "./neo4j-idempotency";
import { checkEmbeddings } from "../embeddings";
import {
  embeddingStatusInTx,
  missingEmbeddingsInTx,
  searchVectorsInTx,
  vectorSimilaritiesInTx,
  writeEmbeddingsInTx,
} from "./neo4j-vectors";

export interface Neo4jGraphStoreConfig {
  uri: string;
  user?: string;
  password?: string;
  /** Always named on every session; default "neo4j" (Community's only database). */
  database?: string;
  /** Store namespace (the `ns` property of every node); default "credence". */
  namespace?: string;
  /** Sees every statement before it runs (tests record query sequences with it). */
  onQuery?: QueryObserver;
  /** Top-k search knobs (neo4j-search.ts; tests set them to take each path). */
  searchTuning?: Neo4jSearchTuning;
  /**
   * Shared by every session of the store (default: one per store, `neo4j.bookmarkManager()`): each session starts
   * after the bookmarks of every transaction this store committed, so on a cluster a read served by a follower waits
   * until that member has applied this process's earlier writes (read-your-writes across cluster members).
   */
  bookmarkManager?: BookmarkManager;
}

export interface Neo4jGraphStore extends GraphStore {
  readonly kind: "neo4j";
  readonly namespace: string;
  /** Deletes every node of this store's namespace (tests, benchmarks); other namespaces are untouched. */
  dropNamespace(): Promise<void>;
}

/** Lucene clauses allowed in one query (its default maximum is 1024; two are taken by the scope and the wrapper). */
const MAX_QUERY_TERMS = 1000;
const NO_LIMIT = 2_147_483_647;
const ENTRY_KINDS = new Set(["SUPPORTS", "REBUTS", "CONTEXTUALIZES"]);
/** Levels per round trip of a short cascade walk (maxHops ≤ this); longer walks go by reachable sets. */
const CLOSURE_WINDOW = 8;
const closureCypher = citations.closureWindow(CLOSURE_WINDOW);

type Row = Record<string, unknown>;
type Props = Record<string, unknown>;

function props(value: unknown): Props {
  return value !== null && typeof value === "object" ? (value as Props) : {};
}

function isDeadlock(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && (code.includes("DeadlockDetected") || code.includes("Transient"));
}

function constraintName(error: unknown): string | null {
  const code = (error as { code?: unknown }).code;
  if (code !== "Neo.ClientError.Schema.ConstraintValidationFailed") return null;
  return String((error as { message?: unknown }).message ?? "");
}

/** Typed errors for what Neo4j raised inside a write (constraint races, deadlocks, lost connections). */
function mapNeo4jError(error: unknown): unknown {
  if (error instanceof GraphStoreError) return error;
  const opts = { cause: error };
  const violation = constraintName(error);
  if (violation !== null) {
    if (violation.includes("liveKey")) return new VersionConflict(null, "live_key", "Another live belief of the scope already has this key.", opts);
    if (violation.includes("`Belief`")) return new VersionConflict(null, "exists", "The belief to insert already exists: another writer created it first.", opts);
    if (violation.includes("`AppliedChangeSet`")) return new ChangeSetRejected("already_applied", "This change-set was applied before.", opts);
    if (violation.includes("`Evidence`") || violation.includes("`Mutation`")) return new ChangeSetRejected("duplicate_id", "An item with this id already exists.", opts);
    return error;
  }
  if (isDeadlock(error)) return new VersionConflict(null, "deadlock", "Another writer held the same beliefs; nothing was written.", opts);
  const code = (error as { code?: unknown }).code;
  if (code === "ServiceUnavailable" || code === "SessionExpired") {
    return new GraphStoreError("store_unavailable", `The Neo4j server is unreachable (${String((error as Error).message)}).`, opts);
  }
  return error;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function limitOf(limit: number | undefined): ReturnType<typeof neo4j.int> {
  return neo4j.int(limit === undefined ? NO_LIMIT : Math.max(0, Math.floor(limit)));
}

export function createNeo4jGraphStore(config: Neo4jGraphStoreConfig): Neo4jGraphStore {
  const database = config.database ?? "neo4j";
  const ns = config.namespace ?? "credence";
  const auth = config.user !== undefined ? neo4j.auth.basic(config.user, config.password ?? "") : undefined;
  // `neo4j://` (and `neo4j+s://`, Aura) URIs route: writes go to the leader, reads to followers or read replicas.
  // Managed transactions (`executeRead` / `executeWrite`) retry transient errors (leader switch, deadlock, a member
  // going away) for up to 15 s before the error reaches the service.
  const driver: Driver = neo4j.driver(config.uri, auth, { maxTransactionRetryTime: 15_000, disableLosslessIntegers: false });
  const bookmarkManager = config.bookmarkManager ?? neo4j.bookmarkManager();
  const sessionFor = (mode: "READ" | "WRITE"): ReturnType<Driver["session"]> => {
    const options: SessionConfig = { database, defaultAccessMode: mode === "READ" ? neo4j.session.READ : neo4j.session.WRITE, bookmarkManager };
    return driver.session(options);
  };
  let schema: Promise<void> | null = null;

  /** Schema first; then the cascade's large query is planned once at startup rather than inside a retraction. */
  function ready(): Promise<void> {
    schema ??= ensureNeo4jSchema(driver, database, bookmarkManager)
      .then(async () => {
        const session = sessionFor("READ");
        try {
          // A list of strings, like real calls: plans are cached per query text and parameter types.
          await session.executeRead((tx) => tx.run(closureCypher, { ns, frontier: ["\u0000warm-up"] }));
        } finally {
          await session.close();
        }
      })
      .catch((error: unknown) => {
        schema = null;
        throw mapNeo4jError(error);
      });
    return schema;
  }

  async function readTx<T>(work: (tx: CypherRunner) => Promise<T>): Promise<T> {
    await ready();
    const session = sessionFor("READ");
    try {
      return await session.executeRead((tx: ManagedTransaction) => work(runnerFor(tx, config.onQuery)));
    } catch (error) {
      throw mapNeo4jError(error);
    } finally {
      await session.close();
    }
  }

  async function writeTx<T>(work: (tx: CypherRunner) => Promise<T>): Promise<T> {
    await ready();
    const session = sessionFor("WRITE");
    try {
      return await session.executeWrite((tx: ManagedTransaction) => work(runnerFor(tx, config.onQuery)));
    } catch (error) {
      throw mapNeo4jError(error);
    } finally {
      await session.close();
    }
  }

  async function candidateStatsByIds(view: ScopeView, beliefIds: readonly string[]): Promise<CandidateStats[]> {
    if (beliefIds.length === 0) return [];
    const found = await query(read.candidateStatsByIds, { ...anchor(view), ids: [...beliefIds] });
    return found.map((row) => {
      row.scope = view.homeScopeId;
      row.contextTags ??= [];
      return candidateStatsOf(row);
    });
  }

  async function query(cypher: string, params: Props): Promise<Row[]> {
    return readTx(async (tx) => (await tx.run(cypher, { ns, ...params })).records.map((r) => r.toObject() as Row));
  }

  function anchor(view: ScopeView): Props {
    return { home: view.homeScopeId, visible: [...view.visibleScopeIds] };
  }

  function recordOf(b: Props, asOf?: string): BeliefRecord {
    return { belief: beliefFromProps(b), history: historyFromProp(b.history, asOf) };
  }

  // ---- the system citation index ----

  async function citersOfMany(ids: readonly string[]): Promise<Map<string, CitationRef[]>> {
    const out = new Map<string, CitationRef[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const found = await query(citations.citersOfMany, { ids: [...new Set(ids)] });
    for (const r of found) out.get(String(r.id))?.push({ beliefId: String(r.beliefId), seq: Number(toPlain(r.seq)) });
    for (const list of out.values()) list.sort((a, b) => compareStrings(a.beliefId, b.beliefId) || a.seq - b.seq);
    return out;
  }

  async function loadMany(beliefIds: readonly string[]): Promise<BeliefRecord[]> {
    if (beliefIds.length === 0) return [];
    const found = await query(citations.loadMany, { ids: [...new Set(beliefIds)] });
    return found.map((r) => recordOf(props(r.b))).sort((a, b) => compareStrings(a.belief.id, b.belief.id));
  }

  const citationIndex: SystemCitationIndex = {
    async citersOf(id) {
      return (await citersOfMany([id])).get(id) ?? [];
    },
    async load(beliefId) {
      return (await loadMany([beliefId]))[0] ?? null;
    },
    citersOfMany,
    loadMany,
    /**
     * Short walks (maxHops ≤ the window) go level by level, `CLOSURE_WINDOW` levels per round trip. Long ones collect
     * every edge the walk can cross in one traversal (`closureBySets`) and take the depths here. Either way a level
     * keeps only the hops citing this walk's own frontier, and a belief joins the frontier once (cycle-safe, no
     * recursion).
     */
    async citationClosure(rootId, options) {
      const maxHops = options?.maxHops ?? Number.POSITIVE_INFINITY;
      if (maxHops > CLOSURE_WINDOW) return closureBySets(rootId, maxHops);
      const hops: CitationHop[] = [];
      const visited = new Set<string>([rootId]);
      let frontier = [rootId];
      let depth = 1;
      while (frontier.length > 0 && depth <= maxHops) {
        const row = (await query(closureCypher, { frontier }))[0];
        const levels = (toPlain(row?.levels) ?? []) as { citedId: string; beliefId: string; seq: number }[][];
        for (const level of levels) {
          if (frontier.length === 0 || depth > maxHops) break;
          const current = new Set(frontier);
          const next: string[] = [];
          for (const h of level) {
            if (!current.has(h.citedId)) continue;
            hops.push({ beliefId: h.beliefId, seq: h.seq, citedId: h.citedId, depth });
            if (!visited.has(h.beliefId)) {
              visited.add(h.beliefId);
              next.push(h.beliefId);
            }
          }
          frontier = next;
          depth++;
        }
      }
      return hops.sort((a, b) => a.depth - b.depth || compareStrings(a.beliefId, b.beliefId) || a.seq - b.seq);
    },
  };

  /**
   * A long walk: one `citations.closureTraversal` round trip collects every edge the cascade can cross; another round
   * only when a citer found through a placeholder or a dangling entry was not reached by the expand (it is expanded
   * next). The depths come from a breadth-first pass here (`citationHopsByDepth`), as on SQL.
   */
  async function closureBySets(rootId: string, maxHops: number): Promise<CitationHop[]> {
    const byCited = new Map<string, CitationRef[]>();
    const seen = new Set<string>();
    const reached = new Set<string>([rootId]);
    let seek = [rootId];
    let starts: string[] = [];
    while (seek.length > 0 || starts.length > 0) {
      const row = (await query(citations.closureTraversal, { seek, starts }))[0];
      const cited = (row?.cited ?? []) as string[];
      const citers = (row?.citers ?? []) as string[];
      const seqs = (row?.seqs ?? []) as unknown[];
      for (const id of (row?.reached ?? []) as string[]) reached.add(id);
      const next = new Set<string>();
      for (let i = 0; i < cited.length; i++) {
        const citedId = cited[i] as string;
        const beliefId = citers[i] as string;
        const seq = Number(toPlain(seqs[i]));
        const key = `${beliefId}\u0000${seq}\u0000${citedId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const list = byCited.get(citedId) ?? [];
        list.push({ beliefId, seq });
        byCited.set(citedId, list);
        if (!reached.has(beliefId)) next.add(beliefId);
      }
      for (const id of next) reached.add(id);
      seek = [];
      starts = [...next];
    }
    return citationHopsByDepth(rootId, (id) => byCited.get(id) ?? [], maxHops);
  }

  // ---- the resolver ----

  function resolverFor(view: ScopeView): AuthorisedResolver {
    const visible = [...view.visibleScopeIds];
    return {
      async resolve(id: string): Promise<ResolvedItem | null> {
        const found = await query(read.resolveItem, { id, visible });
        const row = found[0];
        if (!row) return null;
        const n = props(row.n);
        const scope = String(n.scope);
        if (row.kind === "belief") {
          return { kind: "belief", id, scope, live: n.live === true, supports: supportRefsOf(historyFromProp(n.history)) };
        }
        if (row.kind === "mutation") return { kind: "mutation", id, scope };
        const evidenceKind = EVIDENCE_KINDS.find((k) => k === n.kind);
        if (evidenceKind === undefined) throw new GraphStoreError("store_misconfigured", `Evidence ${id} has an unknown kind.`);
        const ess = toPlain(n.ess);
        return { kind: "evidence", id, scope, evidenceKind, ess: typeof ess === "number" ? ess : null, retracted: typeof n.retractedAt === "string", discarded: n.discarded === true };
      },
    };
  }

  // ---- graph view ----

  function edgeOf(kind: string, from: string, to: string, r: Props, asOf?: string): GraphEdge {
    const entry = ENTRY_KINDS.has(kind);
    const endedAt = typeof r.endedAt === "string" ? r.endedAt : null;
    return {
      kind: kind as GraphEdge["kind"],
      from,
      to,
      beliefId: entry ? String(r.beliefId) : null,
      seq: entry ? Number(toPlain(r.seq)) : null,
      live: !entry || endedAt === null || (asOf !== undefined && endedAt > asOf),
      time: String(r.time),
      changeSet: String(r.changeSet),
    };
  }

  async function neighbourhood(view: ScopeView, nodeId: string, options?: NeighbourhoodOptions): Promise<GraphSlice> {
    const depth = Math.min(5, Math.max(0, options?.depth ?? 1));
    const maxNodes = Math.max(1, options?.maxNodes ?? 500);
    const asOf = options?.asOf ?? null;
    const base = { ...anchor(view), asOf };
    const start = (await query(read.homeNode, { ...base, id: nodeId }))[0];
    if (!start) return { beliefs: [], evidence: [], mutations: [], edges: [] };

    const nodes = new Map<string, { label: string; props: Props }>([[nodeId, { label: String(start.label), props: props(start.n) }]]);
    const edges = new Map<string, GraphEdge>();
    let frontier = [{ id: nodeId, label: String(start.label) }];
    for (let level = 0; level < depth && frontier.length > 0 && nodes.size < maxNodes; level++) {
      const ids = (label: string) => frontier.filter((f) => f.label === label).map((f) => f.id);
      const found = await query(read.neighbourhoodLevel, { ...base, beliefIds: ids("Belief"), evidenceIds: ids("Evidence"), mutationIds: ids("Mutation") });
      const candidates = found
        .map((r) => ({ kind: String(r.kind), from: String(r.from), to: String(r.to), r: props(r.r), label: String(r.label), m: props(r.m) }))
        .sort((a, b) => compareStrings(String(a.m.id), String(b.m.id)) || compareStrings(a.kind, b.kind) || compareStrings(a.from, b.from) || compareStrings(a.to, b.to));
      const next: { id: string; label: string }[] = [];
      for (const c of candidates) {
        const otherId = String(c.m.id);
        if (!nodes.has(otherId)) {
          if (nodes.size >= maxNodes) continue;
          nodes.set(otherId, { label: c.label, props: c.m });
          // References (visible nodes of other scopes) are shown, never expanded.
          if (c.m.scope === view.homeScopeId) next.push({ id: otherId, label: c.label });
        }
        const edge = edgeOf(c.kind, c.from, c.to, c.r, asOf ?? undefined);
        edges.set(`${edge.kind}|${edge.from}|${edge.to}|${edge.seq ?? ""}`, edge);
      }
      frontier = next;
    }
    const beliefs: Belief[] = [];
    const evidence: Evidence[] = [];
    const mutations: MutationRecord[] = [];
    for (const n of nodes.values()) {
      if (n.label === "Belief") beliefs.push(beliefFromProps(n.props));
      else if (n.label === "Evidence") evidence.push(evidenceFromProps(n.props));
      else mutations.push(mutationFromProps(n.props));
    }
    const byId = <T extends { id: string }>(a: T, b: T) => compareStrings(a.id, b.id);
    return {
      beliefs: beliefs.sort(byId),
      evidence: evidence.sort(byId),
      mutations: mutations.sort(byId),
      edges: [...edges.values()]
        .filter((e) => nodes.has(e.from) && nodes.has(e.to))
        .sort((a, b) => compareStrings(a.kind, b.kind) || compareStrings(a.from, b.from) || compareStrings(a.to, b.to) || (a.seq ?? 0) - (b.seq ?? 0)),
    };
  }

  async function graphOverview(view: ScopeView, options?: GraphOverviewOptions): Promise<GraphOverview> {
    const { contestedAt, notable } = overviewOptions(options);
    const base = { ...anchor(view), contestedAt };
    const num = (v: unknown) => Number(toPlain(v));
    const topics = (await query(read.topicSummaries, base))
      .map((r) => ({ topic: String(r.topic), beliefs: num(r.beliefs), live: num(r.live), maxTension: num(r.maxTension), contested: num(r.contested), updatedAt: String(r.updatedAt) }))
      .sort((a, b) => byCodeUnits(a.topic, b.topic));
    const links = (await query(read.topicLinks, base))
      .map((r) => ({ from: String(r.from), to: String(r.to), relations: num(r.relations), rebuttals: num(r.rebuttals) }))
      .sort((a, b) => byCodeUnits(a.from, b.from) || byCodeUnits(a.to, b.to));
    // Cypher orders strings by code point; ties and the cut are re-checked here in code units (the port's order).
    const contested = notable === 0 ? [] : (await query(read.contestedBeliefs, { ...base, limit: limitOf(notable) })).map((r) => beliefFromProps(props(r.b)));
    const recent = notable === 0 ? [] : (await query(read.recentBeliefs, { ...base, limit: limitOf(notable) })).map((r) => beliefFromProps(props(r.b)));
    return {
      topics,
      links,
      contested: contested.sort((a, b) => b.tension - a.tension || byCodeUnits(a.id, b.id)),
      recent: recent.sort((a, b) => byCodeUnits(b.updatedAt, a.updatedAt) || byCodeUnits(a.id, b.id)),
    };
  }

  async function beliefLinks(view: ScopeView, beliefIds: readonly string[]): Promise<TopicEdge[]> {
    if (beliefIds.length === 0) return [];
    const found = await query(read.beliefLinks, { ...anchor(view), ids: [...new Set(beliefIds)] });
    return found
      .map((r) => ({ ...edgeOf(String(r.kind), String(r.from), String(r.to), props(r.r)), fromTopic: String(r.fromTopic), toTopic: String(r.toTopic) }))
      .sort((a, b) => byCodeUnits(a.kind, b.kind) || byCodeUnits(a.from, b.from) || byCodeUnits(a.to, b.to) || (a.seq ?? 0) - (b.seq ?? 0));
  }

  // ---- the port ----

  const store: Neo4jGraphStore = {
    kind: "neo4j",
    namespace: ns,

    describe() {
      return `Neo4j graph store at ${redactUrl(config.uri, "NEO4J_URI")} (database "${database}", namespace "${ns}")`;
    },

    async check() {
      try {
        await driver.verifyConnectivity({ database });
      } catch (error) {
        throw new GraphStoreError("store_unavailable", `Cannot reach Neo4j at ${redactUrl(config.uri, "NEO4J_URI")} (database "${database}"): ${(error as Error).message}`, { cause: error });
      }
      try {
        await ready();
      } catch (error) {
        if (error instanceof GraphStoreError) throw error;
        throw new GraphStoreError("store_misconfigured", `Neo4j at ${redactUrl(config.uri, "NEO4J_URI")} refused the schema (constraints / indexes): ${(error as Error).message}`, { cause: error });
      }
    },

    async close() {
      await driver.close();
    },

    async dropNamespace() {
      const session = sessionFor("WRITE");
      try {
        for (;;) {
          const deleted = await session.executeWrite(async (tx) => Number(toPlain((await tx.run(admin.deleteNamespaceBatch, { ns })).records[0]?.get("n") ?? 0)));
          if (deleted === 0) break;
        }
      } finally {
        await session.close();
      }
    },

    resolverFor,
    citationIndex: () => citationIndex,

    idempotency: neo4jIdempotencyMarks(ns, readTx, writeTx),

    async apply(changeSet: ChangeSet, options: ApplyOptions = {}): Promise<ApplyResult> {
      const embeddings = options.embeddings ?? [];
      checkEmbeddings(embeddings);
      return writeTx(async (tx) => {
        const result = await applyChangeSetInTx(tx, ns, changeSet);
        if (options.idempotency) await writeIdempotencyMarkInTx(tx, ns, options.idempotency, result.changeSetId);
        if (embeddings.length > 0) await writeEmbeddingsInTx(tx, ns, null, embeddings);
        return result;
      });
    },

    async upsertEmbeddings(view, items) {
      checkEmbeddings(items);
      if (items.length === 0) return 0;
      return writeTx((tx) => writeEmbeddingsInTx(tx, ns, view, items));
    },

    async vectorSearch(view, vector, options) {
      return readTx((tx) => searchVectorsInTx(tx, ns, view, vector, options));
    },

    async similarities(view, vector, ids, options) {
      return readTx((tx) => vectorSimilaritiesInTx(tx, ns, view, vector, ids, options.model));
    },

    async missingEmbeddings(view, model, options) {
      return readTx((tx) => missingEmbeddingsInTx(tx, ns, view, model, options?.limit));
    },

    async embeddingStatus(view, model) {
      return readTx((tx) => embeddingStatusInTx(tx, ns, view, model));
    },

    async loadBelief(view, beliefId, options?: LoadOptions) {
      return (await store.loadBeliefs(view, [beliefId], options))[0] ?? null;
    },

    async loadBeliefHead(view, beliefId, options) {
      return (await store.loadBeliefHeads(view, [beliefId], options)).get(beliefId) ?? null;
    },

    async loadBeliefHeads(view, beliefIds, options) {
      if (beliefIds.length === 0) return new Map();
      const historyLimit = neo4j.int(Math.max(0, Math.floor(options.historyLimit)));
      const rows = await query(read.beliefHeads, { ...anchor(view), ids: [...new Set(beliefIds)], historyLimit });
      return new Map(
        rows.map((row) => {
          const b = props(row.b);
          const history = b.history === null || b.history === undefined ? null : historyFromProp(b.history);
          // Seqs run 1, 2, … without gaps (apply checks it), so the last seq is the history's length.
          const lastSeq = history !== null ? (history[history.length - 1]?.seq ?? 0) : Number(toPlain(b.historyLength));
          // The whole checkpoint is one property: the slice covers every source, whatever `checkpointSources` asks for.
          const checkpoint = parseFoldCheckpoint(typeof b.checkpoint === "string" ? b.checkpoint : null);
          const head: BeliefHead = { belief: beliefFromProps(b), lastSeq, checkpoint: checkpoint === null ? null : sliceOfCheckpoint(checkpoint), history };
          return [head.belief.id, head] as const;
        }),
      );
    },

    async beliefStandings(view, beliefIds) {
      if (beliefIds.length === 0) return new Map();
      const rows = await query(read.beliefStandings, { ...anchor(view), ids: [...new Set(beliefIds)] });
      return new Map(
        rows.map((r) => {
          const { quantityValue, quantityUnit, lastSeq, checkpoint, ...fields } = r;
          const quantity = quantityValue === null || quantityValue === undefined ? null : { value: quantityValue, unit: quantityUnit };
          const belief = standingBeliefSchema.safeParse({ ...fields, quantity, contextTags: fields.contextTags ?? [] });
          if (!belief.success) throw new GraphStoreError("store_misconfigured", `Belief node ${String(fields.id)} is malformed.`);
          // The checkpoint is a cache: one that does not parse (an older format among them) is read as none.
          const cp = parseFoldCheckpoint(typeof checkpoint === "string" ? checkpoint : null);
          const head: StandingHead = { belief: belief.data, lastSeq: Number(toPlain(lastSeq)), checkpoint: cp === null ? null : sliceOfCheckpoint(cp) };
          return [belief.data.id, head] as const;
        }),
      );
    },

    async loadBeliefs(view, beliefIds, options?: LoadOptions) {
      if (beliefIds.length === 0) return [];
      const asOf = options?.asOf ?? null;
      const found = await query(read.beliefsByIds, { ...anchor(view), ids: [...new Set(beliefIds)], asOf });
      return found.map((r) => recordOf(props(r.b), asOf ?? undefined));
    },

    async loadEvidence(view, evidenceId) {
      const row = (await query(read.evidenceById, { ...anchor(view), id: evidenceId }))[0];
      return row ? evidenceFromProps(props(row.e)) : null;
    },

    async listOpenReadings(view, options = {}) {
      const rows = await query(read.beliefsWithReadings, anchor(view));
      const open: OpenReadingRef[] = rows.flatMap((r) => {
        const beliefId = String(r.id);
        const links = openReadings(historyFromProp(r.history));
        return [...links.undecided, ...links.possibleDuplicates].map((item) => ({ beliefId, item }));
      });
      open.sort((a, b) => compareStrings(a.item.time, b.item.time) || compareStrings(a.beliefId, b.beliefId) || a.item.seq - b.item.seq);
      return open.slice(0, options.limit ?? open.length);
    },

    async listBeliefs(view, options?: ListBeliefsOptions) {
      const ids = options?.ids;
      const filters = {
        ...anchor(view),
        liveOnly: options?.liveOnly ?? true,
        topic: options?.topic ?? null,
        reviewState: options?.reviewState ?? null,
        afterId: options?.afterId ?? null,
      };
      // The live belief of a key is a seek of the live-key index; of a scope without a key, a scan of the scope.
      const scan = (liveOnly: boolean, key: string | null) => (liveOnly && key !== null ? read.listLiveBeliefByKey : read.listBeliefs);
      const found =
        ids?.length === 0
          ? []
          : await query(ids ? read.listBeliefsByIds : scan(filters.liveOnly, options?.key ?? null), {
              ...filters,
              key: options?.key ?? null,
              limit: limitOf(options?.limit),
              ...(ids ? { ids: [...ids] } : {}),
            });
      const beliefs = new Map<string, Belief>();
      for (const r of found) {
        const belief = beliefFromProps(props(r.b));
        beliefs.set(belief.id, belief);
      }
      return [...beliefs.values()].sort((a, b) => compareStrings(a.id, b.id)).slice(0, options?.limit ?? beliefs.size);
    },

    async searchCandidates(view, text, options?: CandidateSearchOptions) {
      const terms = [...new Set(tokenize(text))].slice(0, MAX_QUERY_TERMS);
      if (terms.length === 0) return [];
      // Terms are [\p{L}\p{N}]+ and lower-case: nothing in them is Lucene syntax. The scope token is required.
      const luceneQuery = `+ftScope:${ftScopeToken(ns, view.homeScopeId)} +searchTerms:(${terms.join(" ")})`;
      const found = await query(options?.limit === undefined ? read.searchCandidates : read.searchCandidatesCapped, {
        ...anchor(view),
        query: luceneQuery,
        includeEnded: options?.includeEnded ?? false,
        limit: limitOf(options?.limit),
      });
      return found.map((r) => beliefFromProps(props(r.b)));
    },

    async searchCandidateStats(view, text, options?: CandidateSearchOptions) {
      const terms = [...new Set(tokenize(text))].slice(0, MAX_QUERY_TERMS);
      if (terms.length === 0) return [];
      const luceneQuery = `+ftScope:${ftScopeToken(ns, view.homeScopeId)} +searchTerms:(${terms.join(" ")})`;
      const found = await query(options?.limit === undefined ? read.searchCandidateStats : read.searchCandidateStatsCapped, {
        ...anchor(view),
        query: luceneQuery,
        includeEnded: options?.includeEnded ?? false,
        limit: limitOf(options?.limit),
      });
      return found.map((row) => {
        row.scope = view.homeScopeId;
        row.contextTags ??= [];
        return candidateStatsOf(row);
      });
    },

    candidateStatsByIds,

    async beliefGists(view, beliefIds, options = {}) {
      const listed = new Set(beliefIds);
      // The two reads are independent: sent together, not one after the other.
      const [found, keyed] = await Promise.all([
        listed.size === 0 ? [] : query(read.beliefGistsByIds, { ...anchor(view), ids: [...listed] }),
        options.orLiveKey === undefined ? [] : query(read.beliefGistOfLiveKey, { ...anchor(view), key: options.orLiveKey }),
      ]);
      return beliefGistsOf([...found, ...keyed], listed);
    },

    searchTopK: (view, text, options) => neo4jTopK({ ns, query, candidateStatsByIds, tuning: config.searchTuning }, view, text, options),

    async getMutation(view, mutationId) {
      const row = (await query(read.mutationById, { ...anchor(view), id: mutationId }))[0];
      return row ? mutationFromProps(row) : null;
    },

    async listMutations(view, options?: ListMutationsOptions) {
      const found = await query(read.listMutations, {
        ...anchor(view),
        statuses: options?.statuses ? [...options.statuses] : null,
        topic: options?.topic ?? null,
        beliefId: options?.beliefId ?? null,
        since: options?.since ?? null,
        asOf: options?.asOf ?? null,
      });
      const sign = options?.newestFirst ? -1 : 1;
      const sorted = found
        .map((r) => ({ time: String(r.time), id: String(r.id), record: mutationFromProps(r) }))
        .sort((a, b) => sign * (compareStrings(a.time, b.time) || compareStrings(a.id, b.id)));
      return sorted.slice(0, options?.limit ?? sorted.length).map((r) => r.record);
    },

    async countMutations(view) {
      const counts = Object.fromEntries(MUTATION_STATUSES.map((s) => [s, 0])) as Record<MutationStatus, number>;
      for (const r of await query(read.countMutations, anchor(view))) {
        const status = MUTATION_STATUSES.find((s) => s === r.status);
        if (status) counts[status] = Number(toPlain(r.n));
      }
      return counts;
    },

    async getTopicFreeze(view, topic) {
      const row = (await query(read.topicFreezes, { ...anchor(view), topic, frozenOnly: false }))[0];
      return row ? topicFreezeFromProps(props(row.f)) : null;
    },

    async listTopicFreezes(view, options) {
      const found = await query(read.topicFreezes, { ...anchor(view), topic: null, frozenOnly: options?.frozenOnly ?? false });
      return found.map((r) => topicFreezeFromProps(props(r.f)));
    },

    neighbourhood,
    graphOverview,
    beliefLinks,

    async exportScope(view, options?: LoadOptions): Promise<ScopeExport> {
      const asOf = options?.asOf ?? null;
      const params = { ...anchor(view), asOf };
      const [beliefRows, evidenceRows, mutationRows, edgeRows] = await Promise.all([
        query(read.exportBeliefs, params),
        query(read.exportEvidence, params),
        query(read.exportMutations, params),
        query(read.exportEdges, params),
      ]);
      const freezes = await store.listTopicFreezes(view);
      const byId = <T extends { id: string }>(a: T, b: T) => compareStrings(a.id, b.id);
      return {
        format: "credence.scope-export",
        formatVersion: 1,
        scope: view.homeScopeId,
        beliefs: beliefRows.map((r) => recordOf(props(r.b), asOf ?? undefined)).sort((a, b) => byId(a.belief, b.belief)),
        evidence: evidenceRows.map((r) => evidenceFromProps(props(r.e))).sort(byId),
        mutations: mutationRows.map((r) => mutationFromProps(r)).sort(byId),
        edges: edgeRows
          .map((r) => ({ kind: String(r.kind) as "SUPERSEDES", from: String(r.from), to: String(r.to), time: String(r.time), changeSet: String(r.changeSet) }))
          .sort((a, b) => compareStrings(a.kind, b.kind) || compareStrings(a.from, b.from) || compareStrings(a.to, b.to)),
        topicFreezes: [...freezes],
      };
    },

    async importScope(view, data: ScopeExport): Promise<ImportResult> {
      if (!view.visibleScopeIds.includes(view.homeScopeId)) {
        throw new ChangeSetRejected("import_conflict", `Scope ${view.homeScopeId} is not writable in this view.`);
      }
      return writeTx((tx) => importScopeInTx(tx, ns, view.homeScopeId, data));
    },
  };
  return store;
}
