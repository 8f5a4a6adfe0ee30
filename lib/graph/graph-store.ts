/**
 * The GraphStore port (docs/design.md §2–§4): how the belief graph is persisted, whatever the backend (SQL on Postgres/PGlite,
 * or Neo4j). Both adapters pass the one contract suite in `lib/graph/testing/`.
 *
 * Rules every adapter keeps:
 * * **Anchoring.** Every read made for a caller takes a `ScopeView` and is anchored on `view.homeScopeId`; every node
 *   it reaches is filtered by `view.visibleScopeIds` inside the query. A hidden id and a missing id take the same code
 *   path and the same queries and both answer `null` / nothing (no oracle, docs/design.md §5).
 * * **One transaction per change-set.** `apply` writes a whole engine `ChangeSet` or nothing, in the order of
 *   `lib/engine/change-set.ts`. A belief whose stored version differs from `expectedVersion` (or that exists when
 *   `expectedVersion` is null, or whose history seq does not continue, or whose live key another writer took) fails
 *   the whole change-set with `VersionConflict`; services reload and retry.
 * * **Placeholders.** An entry with a `sourceId` but no `sourceKind` (it did not resolve in the citer's view) is linked
 *   to an in-scope placeholder Evidence node (`kind: "unresolved"`, `text` = the raw id). The store creates it when the
 *   change-set does not carry one (id `placeholderEvidenceId(scope, rawId)`, one per scope and raw id), never an edge
 *   into another scope.
 * * **Search terms.** Candidate search matches the engine's own content terms (`tokenize` of `lib/engine/retrieval`),
 *   indexed full-text, with OR semantics: every belief sharing a term with the query is a candidate, so the engine's
 *   scorer sees the whole qualifying domain (relevance > 0 ⇔ at least one shared term). `searchCandidateStats` returns
 *   that same domain as slim rows (the scorer's fields and the term list stored at write time); services rank on them
 *   with `rankCandidateStats` (equal to the engine's `retrieve`) and load only the top k in full.
 * * **Exact round trip.** `importScope(exportScope(s))` into an empty store, then `exportScope`, gives a deep-equal
 *   value (and identical `serializeScopeExport` text).
 */
import { z } from "zod";
import { GraphStoreError } from "./errors";
import type { EmbeddingStatus, EmbeddingTarget, HeldVector, NodeEmbedding, VectorHit, VectorSearchOptions } from "./embeddings";
import {
  BELIEF_STATUSES,
  type AuthorisedResolver,
  type Belief,
  type BeliefGist,
  type BeliefHead,
  type BeliefStatus,
  type BeliefEdge,
  type BeliefRecord,
  type ChangeSet,
  type CitationIndex,
  type CitationRef,
  type CorpusStats,
  type EdgeKind,
  type Evidence,
  type IsoTime,
  type ItemKind,
  type MutationRecord,
  type MutationStatus,
  type PossibleDuplicateEvent,
  type RetrieveOptions,
  type ScopeView,
  type StandingHead,
  type TopicFreeze,
  type UndecidedEvent,
} from "@/lib/engine";
import { beliefEdgeSchema, beliefRecordSchema, beliefSchema, evidenceSchema, mutationRecordSchema, topicFreezeSchema } from "@/lib/engine/model-schemas";

/** The caller's authorised view: a port defined in `lib/engine/ports.ts`, built only by `lib/access`. */
export type { ScopeView } from "@/lib/engine";

export type GraphStoreKind = "sql" | "neo4j";

/** What `apply` reports. */
export interface ApplyResult {
  changeSetId: string;
  /** New version of every upserted belief. */
  versions: Readonly<Record<string, number>>;
  /** Placeholder Evidence nodes the store created for unresolved citations (ids). */
  placeholdersCreated: readonly string[];
}

export interface ApplyOptions {
  /**
   * Written in the change-set's own transaction (see `lib/graph/idempotency-mark.ts`); a mark that exists already
   * rejects the whole change-set with ChangeSetRejected("already_applied").
   */
  idempotency?: IdempotencyMark;
  /**
   * Vectors of nodes the change-set writes (or that exist already), computed before the transaction and written in it
   * (`upsertEmbeddings` semantics, each in its node's own scope). Ids that are not beliefs or evidence are skipped.
   */
  embeddings?: readonly NodeEmbedding[];
}

export interface LoadOptions {
  /**
   * "As of" read, in event time: only history items whose `eventTime` (`observedAt`, else `time`) is ≤ asOf; a belief
   * whose `validFrom` (its first observation) is after asOf is absent, and so is evidence observed after it. The stored derived
   * fields stay current: the engine's `replay(history, params, asOf)` turns the history into the past state.
   */
  asOf?: IsoTime;
}

export interface CandidateSearchOptions {
  /** Include superseded / retired / contracted beliefs (history views). Default false. */
  includeEnded?: boolean;
  /**
   * Safety cap on the number of candidates; default none (the whole matching domain). When the cap is hit the result
   * is cut by the database's own full-text rank, which is why services should leave it unset.
   */
  limit?: number;
}

/**
 * What the engine's retrieval scorer reads of a candidate (`lib/engine/retrieval`: the filters and relevance × credence),
 * without the rest of the belief: a slim row per match, so ranking the whole matching domain stays cheap. No topic:
 * no ranking filters by one (`RankOptions` of ./rank-candidate-stats), and a topic is a quarter of a slim row's bytes.
 */
export interface CandidateStats {
  id: string;
  scope: string;
  credence: number;
  status: BeliefStatus;
  contextTags: readonly string[];
  validUntil: IsoTime | null;
  /**
   * The engine's content terms of the text, distinct (`termSet(text)` of `lib/engine/retrieval`), computed when the
   * belief was written: no text is tokenised per query. A change to the engine's tokenizer needs the stored terms
   * rewritten (they are what the full-text index matches on too). With `termCount`, only some of them: those of the
   * query it was read for (`slimTermsSql`), which is all a ranking by that query needs.
   */
  terms: readonly string[];
  /** How many terms the text has, when `terms` holds only the query's (absent: `terms` is every one). */
  termCount?: number;
}

export interface ListBeliefsOptions {
  /** Only live beliefs (not superseded / retired / contracted). Default true. */
  liveOnly?: boolean;
  topic?: string;
  /** Exact normalised key. */
  key?: string;
  reviewState?: "none" | "pending_review";
  /** Keyset pagination: ids strictly greater than this (results are ordered by id). */
  afterId?: string;
  /**
   * Only these beliefs (ids missing, hidden or of another scope are left out): the slim rows of listed beliefs, e.g.
   * ranked candidates a write compares by text and topic without loading their histories.
   */
  ids?: readonly string[];
  /** Default: all. */
  limit?: number;
}

export interface ListMutationsOptions {
  statuses?: readonly MutationStatus[];
  topic?: string;
  /** Mutations whose `beliefIds` include this belief. */
  beliefId?: string;
  /** Only records with time ≥ since. */
  since?: IsoTime;
  /** Only records with time ≤ asOf. */
  asOf?: IsoTime;
  /** Newest first when true; default oldest first (time, then id). */
  newestFirst?: boolean;
  limit?: number;
}

/** An open undecided reading or possible duplicate (`lib/engine/readings.ts`) and the belief that holds it. */
export interface OpenReadingRef {
  beliefId: string;
  item: UndecidedEvent | PossibleDuplicateEvent;
}

/** An edge of the graph view. Evidence entries are edges source → belief carrying the entry's `seq`. */
export interface GraphEdge {
  kind: EdgeKind;
  from: string;
  to: string;
  /** For entry edges (SUPPORTS / REBUTS / CONTEXTUALIZES): the belief and entry seq; null otherwise. */
  beliefId: string | null;
  seq: number | null;
  /** False once the entry was retracted or stripped (always true for other edges). */
  live: boolean;
  time: IsoTime;
  changeSet: string;
}

/**
 * A piece of the graph. Nodes from scopes other than the home scope appear only when visible and only as the far end
 * of an edge from a home-scope node (references): neighbourhood expansion never continues from them.
 */
export interface GraphSlice {
  beliefs: readonly Belief[];
  evidence: readonly Evidence[];
  mutations: readonly MutationRecord[];
  edges: readonly GraphEdge[];
}

export interface NeighbourhoodOptions {
  /** Hops from the start node; default 1, at most 5. */
  depth?: number;
  /** Stop after this many nodes (the start node included); default 500. */
  maxNodes?: number;
  asOf?: IsoTime;
}

/** One topic of the home scope, as the graph's overview (the topic map) draws it. */
export interface TopicSummary {
  topic: string;
  /** Beliefs of the topic, live and ended. */
  beliefs: number;
  live: number;
  /** Highest tension among its live beliefs; 0 when it has none. */
  maxTension: number;
  /** Live beliefs with tension ≥ `contestedAt`. */
  contested: number;
  /** Latest `updatedAt` among its beliefs. */
  updatedAt: IsoTime;
}

/**
 * Relations between beliefs of two different topics (live belief-to-belief edges of every kind: entries citing a
 * belief, SUPERSEDES, REFINES, SYNTHESIZES), counted per unordered pair; `from` < `to` in code-unit order.
 */
export interface TopicLink {
  from: string;
  to: string;
  relations: number;
  rebuttals: number;
}

export interface GraphOverviewOptions {
  /** Tension from which a live belief counts as contested; default 0.25 (the status rules' threshold). */
  contestedAt?: number;
  /** How many contested and how many recently changed beliefs come with the map; default 40, at most 500. */
  notable?: number;
}

/** The topic map of the home scope: a few rows per topic, never the scope's beliefs. */
export interface GraphOverview {
  /** Ordered by topic (code units). */
  topics: readonly TopicSummary[];
  /** Ordered by (from, to). */
  links: readonly TopicLink[];
  /** Live beliefs at tension ≥ contestedAt, highest first (ties by id), at most `notable`. */
  contested: readonly Belief[];
  /** Beliefs by `updatedAt`, latest first (ties by id), at most `notable`. */
  recent: readonly Belief[];
}

/** A belief-to-belief edge with the topics of its two ends (how an expanded topic links to the rest of the map). */
export interface TopicEdge extends GraphEdge {
  fromTopic: string;
  toTopic: string;
}

/** One scope, whole, as JSON: the CLI's `export` / `import` format. */
export interface ScopeExport {
  format: "credence.scope-export";
  formatVersion: 1;
  scope: string;
  /** Ordered by id; each with its full history ordered by seq (replay outputs included). */
  beliefs: readonly BeliefRecord[];
  /** Ordered by id; placeholders included. */
  evidence: readonly Evidence[];
  /** Ordered by id. */
  mutations: readonly MutationRecord[];
  /** Belief-to-belief and CONCERNS edges (entry edges are rebuilt from the histories), ordered by (kind, from, to). */
  edges: readonly BeliefEdge[];
  /** Ordered by topic. */
  topicFreezes: readonly TopicFreeze[];
}

export interface ImportResult {
  scope: string;
  beliefs: number;
  historyItems: number;
  evidence: number;
  mutations: number;
  edges: number;
  topicFreezes: number;
}

/** One hop of the cascade: belief `beliefId`'s live entry `seq` cites `citedId`, `depth` hops from the root. */
export interface CitationHop extends CitationRef {
  citedId: string;
  depth: number;
}

/**
 * The system citation index (not filtered by any view): the engine's `CitationIndex` plus bulk helpers for the
 * cascade (docs/design.md §4.2). What a caller is shown of a cascade is filtered by the service.
 */
export interface SystemCitationIndex extends CitationIndex {
  /** Live entries citing any of `ids`, in any scope (one query). */
  citersOfMany(ids: readonly string[]): Promise<ReadonlyMap<string, readonly CitationRef[]>>;
  /** Beliefs with their full histories, in any scope (missing ids are left out). */
  loadMany(beliefIds: readonly string[]): Promise<readonly BeliefRecord[]>;
  /**
   * Every live citation reachable from `rootId` by following citers transitively (breadth first, each belief visited
   * once, cycle-safe, no recursion in the caller's stack), ordered by depth then belief id then seq. The engine
   * decides, hop by hop, which of them actually lose their grounding.
   */
  citationClosure(rootId: string, options?: { maxHops?: number }): Promise<readonly CitationHop[]>;
}

/** The port. Nothing happens at construction time beyond holding the connection. */
export interface GraphStore {
  readonly kind: GraphStoreKind;
  /** One line for logs, e.g. "SQL graph store on embedded PGlite in ./.data". */
  describe(): string;
  /** Startup check: the connection works and the schema / indexes / constraints are in place. Throws GraphStoreError. */
  check(): Promise<void>;
  close(): Promise<void>;

  // ---- engine ports ----
  /** The engine's resolver for this view: one lookup per id with the visibility check inside the query. */
  resolverFor(view: ScopeView): AuthorisedResolver;
  /** The system citation index for grounding propagation and retraction. */
  citationIndex(): SystemCitationIndex;

  // ---- writes ----
  /** Applies a change-set in one transaction (see the header). Throws VersionConflict, ChangeSetRejected. */
  apply(changeSet: ChangeSet, options?: ApplyOptions): Promise<ApplyResult>;
  /** The idempotency marks `apply` wrote (`options.idempotency`). */
  readonly idempotency: IdempotencyMarks;

  // ---- reads for a caller, anchored on view.homeScopeId ----
  /** A belief of the home scope with its history (ordered by seq), or null (missing, hidden or another scope). */
  loadBelief(view: ScopeView, beliefId: string, options?: LoadOptions): Promise<BeliefRecord | null>;
  /**
   * A home-scope belief as a write needs it (`BeliefHead`): the belief, its last seq and the fold checkpoint stored
   * with it, and its history only when it has at most `historyLimit` items; null like `loadBelief`. One round trip on
   * SQL: a write to a belief with a long history reads neither the history nor replays it (`assimilateOnCheckpoint`).
   * `checkpointSources` (default "all"): the sources whose checkpoint rows the write needs — the ones its entries
   * cite; a store may return more (a slice covering all of them), never fewer. A fold that meets a source outside the
   * slice falls back to the full replay (`sources_not_loaded`).
   */
  loadBeliefHead(view: ScopeView, beliefId: string, options: { historyLimit: number; checkpointSources?: readonly string[] | "all" }): Promise<BeliefHead | null>;
  /**
   * `loadBeliefHead` of several beliefs in one round trip (SQL), by id; ids that are missing, hidden or outside the
   * home scope are left out of the map. The same heads as one `loadBeliefHead` per id.
   */
  loadBeliefHeads(view: ScopeView, beliefIds: readonly string[], options: { historyLimit: number; checkpointSources?: readonly string[] | "all" }): Promise<ReadonlyMap<string, BeliefHead>>;
  /**
   * What recall weighs of listed home-scope beliefs (`StandingHead`: the row's text and derived fields, the last seq,
   * the fold checkpoint's head fields and every row of it; no history), by id, in one read; ids missing, hidden or of
   * another scope are left out. `standingOfHead` turns one into the belief's standing, or says it needs the history.
   */
  beliefStandings(view: ScopeView, beliefIds: readonly string[]): Promise<ReadonlyMap<string, StandingHead>>;
  /** Several beliefs of the home scope; ids that are missing or outside the home scope are left out. Ordered by id. */
  loadBeliefs(view: ScopeView, beliefIds: readonly string[], options?: LoadOptions): Promise<readonly BeliefRecord[]>;
  /** An Evidence item of the home scope. */
  loadEvidence(view: ScopeView, evidenceId: string): Promise<Evidence | null>;
  /** Beliefs of the home scope (no history), ordered by id. */
  listBeliefs(view: ScopeView, options?: ListBeliefsOptions): Promise<readonly Belief[]>;
  /** Full-text candidates for the engine's retrieval scorer, home scope only, in no particular order. */
  searchCandidates(view: ScopeView, query: string, options?: CandidateSearchOptions): Promise<readonly Belief[]>;
  /**
   * The same domain as `searchCandidates` (same matches, same options), each as its `CandidateStats` only: services rank
   * the whole domain on these (`rankCandidateStats`) and then load the top k in full.
   */
  searchCandidateStats(view: ScopeView, query: string, options?: CandidateSearchOptions): Promise<readonly CandidateStats[]>;
  /**
   * Optional (SQL from its postings, `lib/graph/sql/sql-search.ts`; Neo4j from its full-text index,
   * `lib/graph/neo4j/neo4j-search.ts`): the best k of that domain, ranked exactly as
   * `rankCandidateStats` ranks all of it (scores included), read from an index without fetching the domain, with the
   * domain's idf statistics; null when this query needs the exhaustive path.
   */
  searchTopK?(view: ScopeView, query: string, options: TopKOptions): Promise<TopK | null>;
  /**
   * The `CandidateStats` of listed home-scope beliefs (ids missing, hidden or of another scope are left out), in no
   * order: how hybrid retrieval ranks vector hits without loading them in full. With `queryTerms` (the distinct terms
   * of the one query the rows are ranked for) a store may ship only those of each belief's terms, with `termCount`.
   */
  candidateStatsByIds(view: ScopeView, beliefIds: readonly string[], options?: { queryTerms?: readonly string[] }): Promise<readonly CandidateStats[]>;
  /**
   * The gists of listed home-scope beliefs of any status (ids missing, hidden or of another scope are left out), in no
   * order: what recall and an assimilation read of their candidates before they load the few they answer with or
   * write. With `orLiveKey`, in the same read, the live home-scope belief with that key (`beliefKey`), listed or not.
   */
  beliefGists(view: ScopeView, beliefIds: readonly string[], options?: { orLiveKey?: string }): Promise<BeliefGists>;
  /**
   * The open undecided readings and possible duplicates (no `decided` event targets them) of the home scope's live
   * beliefs, oldest first (time, belief id, seq), at most `limit` (default all): the review queue's read.
   */
  listOpenReadings(view: ScopeView, options?: { limit?: number }): Promise<readonly OpenReadingRef[]>;
  /** A mutation record of the home scope. */
  getMutation(view: ScopeView, mutationId: string): Promise<MutationRecord | null>;
  /** The home scope's mutation journal (the review queue is `statuses: ["pending_review"]`). */
  listMutations(view: ScopeView, options?: ListMutationsOptions): Promise<readonly MutationRecord[]>;
  /** How many home-scope mutations have each status (the header's pending-review count). */
  countMutations(view: ScopeView): Promise<Readonly<Record<MutationStatus, number>>>;
  /** The freeze record of a home-scope topic (frozen or lifted), or null if no freeze was ever recorded for the topic. */
  getTopicFreeze(view: ScopeView, topic: string): Promise<TopicFreeze | null>;
  /** The home scope's freeze records, ordered by topic; `frozenOnly` keeps those still in force. */
  listTopicFreezes(view: ScopeView, options?: { frozenOnly?: boolean }): Promise<readonly TopicFreeze[]>;
  /**
   * The neighbourhood of a home-scope node (belief, evidence or mutation) for the graph view: breadth first over
   * every edge kind in both directions, expanding only home-scope nodes, keeping only visible ones. Empty slice when
   * the start node is missing, hidden or in another scope.
   */
  neighbourhood(view: ScopeView, nodeId: string, options?: NeighbourhoodOptions): Promise<GraphSlice>;
  /**
   * The topic map of the home scope (graph overview): per-topic counts and tension, the relations between topics, and
   * the most contested and most recently changed beliefs; aggregated inside the store, so its cost does not grow with
   * what is sent. Empty when the home scope is hidden.
   */
  graphOverview(view: ScopeView, options?: GraphOverviewOptions): Promise<GraphOverview>;
  /**
   * Live belief-to-belief edges (entries citing a belief, SUPERSEDES, REFINES, SYNTHESIZES) with at least one end among
   * `beliefIds` and both ends home-scope beliefs, each with the topics of its ends; ids missing, hidden or of another
   * scope contribute nothing. Ordered by (kind, from, to, seq).
   */
  beliefLinks(view: ScopeView, beliefIds: readonly string[]): Promise<readonly TopicEdge[]>;
  /** The whole home scope (graph view, export). With asOf: nodes, history and edges up to that time. */
  exportScope(view: ScopeView, options?: LoadOptions): Promise<ScopeExport>;
  /**
   * Writes an export into the home scope (every item's scope is rewritten to it) in one transaction. Refused with
   * ChangeSetRejected("import_conflict") when any id already exists or the home scope is not empty.
   */
  importScope(view: ScopeView, data: ScopeExport): Promise<ImportResult>;

  // ---- sentence vectors (lib/graph/embeddings.ts), anchored on view.homeScopeId like every caller read ----
  /**
   * Stores (replaces) the vectors of home-scope beliefs and evidence, one transaction; items naming anything else
   * (missing, hidden, another scope, wrong kind) are skipped alike. Returns how many were written.
   */
  upsertEmbeddings(view: ScopeView, items: readonly NodeEmbedding[]): Promise<number>;
  /**
   * Home-scope beliefs (live unless `includeEnded`) by cosine similarity to `vector` among vectors of `options.model`,
   * best first (ties by id), at most k. Exact cosines everywhere; on SQL the candidates come from a sign-sketch pass
   * (exact for scopes of at most `sketchCandidates(k)` vectors, docs/decisions/008-sentence-vectors.md); on Neo4j the vector index
   * answers when it holds k in-scope hits among its candidates, else an exact scan of the scope does.
   */
  vectorSearch(view: ScopeView, vector: Float32Array, options: VectorSearchOptions): Promise<readonly VectorHit[]>;
  /** Exact cosine of the stored vector (of `model`) of each listed home-scope belief; ids without one are left out. */
  similarities(view: ScopeView, vector: Float32Array, ids: readonly string[], options: { model: string }): Promise<ReadonlyMap<string, number>>;
  /**
   * The stored vectors (of `model`, `dimensions` long) of the listed home-scope beliefs that this process already holds
   * in memory, each with the hash of the text it is of; no read, ids not held left out. Only stores that keep vectors
   * in memory have it (SQL with its in-process index); callers embed what it does not give.
   */
  heldVectors?(view: ScopeView, ids: readonly string[], options: { model: string; dimensions: number }): ReadonlyMap<string, HeldVector>;
  /** Home-scope beliefs and evidence texts whose vector of `model` is missing or older than their text (ordered by kind, id). */
  missingEmbeddings(view: ScopeView, model: string, options?: { limit?: number }): Promise<readonly EmbeddingTarget[]>;
  /** How many of the home scope's beliefs and evidence texts carry a current vector of `model`. */
  embeddingStatus(view: ScopeView, model: string): Promise<EmbeddingStatus>;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers (both adapters use them so they behave alike)
// ---------------------------------------------------------------------------------------------------------------

/** `GraphOverviewOptions` with their defaults, clamped (both adapters read them through this). */
export function overviewOptions(options: GraphOverviewOptions = {}): { contestedAt: number; notable: number } {
  const contestedAt = Number.isFinite(options.contestedAt) ? Math.min(1, Math.max(0, options.contestedAt ?? 0.25)) : 0.25;
  const notable = Number.isFinite(options.notable) ? Math.min(500, Math.max(0, Math.floor(options.notable ?? 40))) : 40;
  return { contestedAt, notable };
}

/** Code-unit order, what every ordering in the port's contract means (not the locale's). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Id of the store-made placeholder for raw id `rawId` cited in `scope`: deterministic, one per (scope, rawId). */
export function placeholderEvidenceId(scope: string, rawId: string): string {
  return `unresolved:${fnv1a(`${scope}\u0000${rawId}`)}`;
}

/** 32-bit FNV-1a twice with different offsets, as 16 hex digits (not cryptographic: ids only need to be stable). */
function fnv1a(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 11), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
}

/** The node an entry's edge starts from: the resolved source, the scope's placeholder for an unresolved one, or none. */
export function entryEdgeSource(scope: string, sourceId: string | null, sourceKind: ItemKind | null): string | null {
  if (sourceId === null) return null;
  return sourceKind === null ? placeholderEvidenceId(scope, sourceId) : sourceId;
}

/**
 * The cascade's hops from `rootId`, given who cites what: a breadth-first pass where every hop citing the current
 * frontier is kept (a belief citing two frontier members gives two hops) and a belief joins the frontier once, so
 * cycles end. Ordered by depth, then belief id (code units), then seq: what `SystemCitationIndex.citationClosure`
 * promises, whichever way a store collected the edges.
 */
export function citationHopsByDepth(rootId: string, citersOf: (citedId: string) => readonly CitationRef[], maxHops = Number.POSITIVE_INFINITY): CitationHop[] {
  const hops: CitationHop[] = [];
  const visited = new Set<string>([rootId]);
  let frontier = [rootId];
  for (let depth = 1; frontier.length > 0 && depth <= maxHops; depth++) {
    const next: string[] = [];
    for (const citedId of frontier) {
      for (const ref of citersOf(citedId)) {
        hops.push({ beliefId: ref.beliefId, seq: ref.seq, citedId, depth });
        if (!visited.has(ref.beliefId)) {
          visited.add(ref.beliefId);
          next.push(ref.beliefId);
        }
      }
    }
    frontier = next;
  }
  return hops.sort((a, b) => a.depth - b.depth || (a.beliefId < b.beliefId ? -1 : a.beliefId > b.beliefId ? 1 : a.seq - b.seq));
}

const BELIEF_STATUS_SET: ReadonlySet<string> = new Set(BELIEF_STATUSES);

/**
 * A `CandidateStats` from one store row whose `terms` is the stored space-separated term string. Plain type checks,
 * not zod: a search returns tens of thousands of rows and the schema parse would cost more than the query. A row that
 * fails them is a corrupt store, reported as such.
 */
export function candidateStatsOf(row: Readonly<Record<string, unknown>>): CandidateStats {
  const { id, scope, credence, status, contextTags, validUntil, terms, termCount } = row;
  if (
    typeof id !== "string" ||
    typeof scope !== "string" ||
    typeof credence !== "number" ||
    typeof status !== "string" ||
    !BELIEF_STATUS_SET.has(status) ||
    !Array.isArray(contextTags) ||
    !contextTags.every((t) => typeof t === "string") ||
    (validUntil !== null && validUntil !== undefined && typeof validUntil !== "string") ||
    typeof terms !== "string" ||
    (termCount !== null && termCount !== undefined && typeof termCount !== "number")
  ) {
    throw new GraphStoreError("store_misconfigured", `Candidate row ${typeof id === "string" ? id : "?"} is malformed.`);
  }
  return {
    id,
    scope,
    credence,
    status: status as BeliefStatus,
    contextTags: contextTags as string[],
    validUntil: validUntil ?? null,
    terms: terms === "" ? [] : terms.split(" "),
    ...(typeof termCount === "number" ? { termCount } : {}),
  };
}

export interface BeliefGists {
  /** The listed beliefs' gists, in no order. */
  gists: readonly BeliefGist[];
  /** With `orLiveKey`: the live belief with that key, else null. */
  keyMatch: BeliefGist | null;
}

/** A `BeliefGist` from one store row, the empty tags as NULL (plain type checks, as `candidateStatsOf`). */
export function beliefGistOf(row: Readonly<Record<string, unknown>>): BeliefGist {
  const { id, text, topic, contextTags, status, credence } = row;
  if (
    typeof id !== "string" ||
    typeof text !== "string" ||
    typeof topic !== "string" ||
    (contextTags !== null && (!Array.isArray(contextTags) || !contextTags.every((t) => typeof t === "string"))) ||
    typeof credence !== "number" ||
    typeof status !== "string" ||
    !BELIEF_STATUS_SET.has(status)
  ) {
    throw new GraphStoreError("store_misconfigured", `Belief row ${typeof id === "string" ? id : "?"} is malformed.`);
  }
  return { id, text, topic, contextTags: (contextTags ?? []) as string[], status: status as BeliefStatus, credence };
}

/**
 * `BeliefGists` from a store's rows: the listed ones, and the live belief of the key among rows flagged `keyMatch`
 * (a store reads both in one statement, or the key's in a second).
 */
export function beliefGistsOf(rows: readonly Readonly<Record<string, unknown>>[], listed: ReadonlySet<string>): BeliefGists {
  const gists = new Map<string, BeliefGist>();
  let keyMatch: BeliefGist | null = null;
  for (const row of rows) {
    const gist = beliefGistOf(row);
    if (row.keyMatch === true) keyMatch = gist;
    if (listed.has(gist.id)) gists.set(gist.id, gist);
  }
  return { gists: [...gists.values()], keyMatch };
}

/** A standing's belief fields read back (`StandingBelief`; store rows are a boundary). */
export const standingBeliefSchema = beliefSchema.pick({ id: true, text: true, contextTags: true, quantity: true, credence: true, confidence: true, tension: true, status: true, paramsVersion: true });

/** JSON with keys sorted at every level and two-space indentation: identical text for equal exports. */
export function serializeScopeExport(data: ScopeExport): string {
  return JSON.stringify(sortKeys(data), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj).sort()) if (obj[key] !== undefined) out[key] = sortKeys(obj[key]);
    return out;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// The export format's schema (import input is external: parsed once, here), built from the model's schemas
// ---------------------------------------------------------------------------------------------------------------

export { beliefEdgeSchema, beliefSchema, evidenceSchema, historyItemSchema, mutationRecordSchema, topicFreezeSchema } from "@/lib/engine/model-schemas";

export const scopeExportSchema = z
  .object({
    format: z.literal("credence.scope-export"),
    formatVersion: z.literal(1),
    scope: z.string().min(1),
    beliefs: z.array(beliefRecordSchema),
    evidence: z.array(evidenceSchema),
    mutations: z.array(mutationRecordSchema),
    edges: z.array(beliefEdgeSchema),
    topicFreezes: z.array(topicFreezeSchema),
  })
  .strict();

/** Parses untrusted export JSON (the CLI's stdin) into a ScopeExport; throws a ZodError naming each bad field. */
export function parseScopeExport(input: unknown): ScopeExport {
  return scopeExportSchema.parse(input) as ScopeExport;
}

export type { Belief, BeliefEdge, BeliefRecord, ChangeSet, Evidence, MutationRecord, TopicFreeze };

/** One ranked candidate of a store-side search: the engine's ranking over `CandidateStats` (`./rank-candidate-stats`). */
export interface RankedCandidate {
  candidate: CandidateStats;
  relevance: number;
  /** relevance × credence */
  score: number;
}

/** Options and result of a store's exact top-k search (`GraphStore.searchTopK`). */
export interface TopKOptions extends Pick<RetrieveOptions, "k" | "minCredence" | "minRelevance"> {
  includeEnded?: boolean;
}

export interface TopK {
  ranked: RankedCandidate[];
  /** The whole qualifying domain's idf inputs (for ranking a wider candidate set alike: `RetrieveOptions.corpus`). */
  corpus: CorpusStats;
}

/** Idempotency marks written inside a change-set's transaction (`./idempotency-mark` explains the protocol). */
export interface IdempotencyMark {
  principal: string;
  key: string;
  /** The claim's id: a key reclaimed after it expired gets a new one, so old marks never meet new requests. */
  claimId: string;
  /** 1 for the request's first write, 2 for its second… */
  ordinal: number;
}

export interface IdempotencyMarkRecord {
  ordinal: number;
  changeSetId: string;
}

/** What every graph store offers for the marks it writes in `apply`. */
export interface IdempotencyMarks {
  /** The marks of one claim, by ordinal. */
  list(principal: string, key: string, claimId: string): Promise<readonly IdempotencyMarkRecord[]>;
  /** Removes marks older than `hours`; returns how many. */
  purge(hours: number): Promise<number>;
}
