/**
 * The SQL store's writes: a change-set in the order of `lib/engine/change-set.ts`, and a whole-scope import. Both run
 * inside the caller's transaction; every statement is bulk (one per table and kind of change, rows passed as one
 * JSON parameter), so a change-set touching 10 000 beliefs is a handful of statements. The statements are the named
 * `write` queries of `sql-queries.ts`.
 *
 * Optimistic concurrency: an update is `UPDATE … WHERE id = ? AND version = expectedVersion`; under READ COMMITTED a
 * concurrent writer of the same row waits for the first to commit, re-checks the version and matches nothing, which
 * fails the change-set with VersionConflict. Beliefs that only get history (no upsert) are locked with
 * `SELECT … FOR UPDATE` before their seq is checked. Rows are touched in id order to keep lock order stable.
 */
import { eventTime, isLiveStatus, tokenize, type Belief, type ChangeSet, type CheckpointSlice, type Evidence, type HistoryItem, type MutationRecord } from "@/lib/engine";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { ChangeSetRejected, VersionConflict } from "../errors";
import { placeholderEvidenceId, type ApplyResult, type ImportResult, type ScopeExport } from "../graph-store";
import type { NodeEmbedding } from "../embeddings";
import type { IdempotencyMark } from "../idempotency-mark";
import { write } from "./sql-queries";
import { run } from "./sql-rows";
import { writeIdempotencyMark } from "./sql-idempotency";
import { embeddingsPayload, writeEmbeddings } from "./sql-vectors";

/** The relations an entry can carry in the indexed columns: UNRELATED only by a revision. */
const ENTRY_RELATIONS = new Set(["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED"]);

/** Space-separated engine content terms: what the tsvector indexes (see the port header). */
export function searchTerms(text: string): string {
  return [...new Set(tokenize(text))].join(" ");
}

function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function json(value: unknown): string {
  return JSON.stringify(value);
}

// ---- evidence ----

async function insertEvidence(tx: SqlExecutor, evidence: readonly Evidence[]): Promise<void> {
  if (evidence.length === 0) return;
  const regular = evidence.filter((e) => e.kind !== "unresolved");
  const placeholders = evidence.filter((e) => e.kind === "unresolved");
  if (regular.length > 0) {
    // A duplicate id raises graph_evidence_pkey → ChangeSetRejected("duplicate_id").
    await run(tx, write.insertEvidence, [json(regular)]);
  }
  if (placeholders.length > 0) {
    // A placeholder for the same (scope, raw id) may exist already: it is shared, never duplicated.
    await run(tx, write.insertPlaceholderEvidence, [json(placeholders)]);
  }
}

// ---- beliefs ----

function beliefRow(belief: Belief, expected: number | null, checkpoint: CheckpointSlice | null = null): unknown {
  return {
    belief,
    expected,
    live: isLiveStatus(belief.status),
    terms: searchTerms(belief.text),
    checkpoint: checkpoint?.head ?? null,
    cpAll: checkpoint === null || checkpoint.covered === "all",
    cpSources: checkpoint?.sources ?? [],
  };
}

/** Throws why an update of `updates` was not `written`: an unknown belief, a move to another scope, or a lost race. */
async function failedUpdate(tx: SqlExecutor, updates: ChangeSet["beliefs"], written: ReadonlySet<string>): Promise<never> {
  const failed = updates.find((u) => !written.has(u.belief.id));
  const id = failed?.belief.id ?? null;
  const current = await run(tx, write.beliefVersion, [id]);
  const row = current[0];
  if (!row) throw new ChangeSetRejected("unknown_belief", `Belief ${id} does not exist; it cannot be updated.`);
  if (row.scope !== failed?.belief.scope) throw new ChangeSetRejected("invalid", `Belief ${id} cannot move to another scope.`);
  throw new VersionConflict(id, "version", `Belief ${id} is at version ${row.version}, not ${failed?.expectedVersion}: another writer got there first.`);
}

/** Throws for the insert of `inserts` that was not `written`: its id exists already. */
function failedInsert(inserts: ChangeSet["beliefs"], written: ReadonlySet<string>): never {
  const id = inserts.find((u) => !written.has(u.belief.id))?.belief.id ?? null;
  throw new VersionConflict(id, "exists", `Belief ${id} already exists: another writer created it first.`);
}

/**
 * Inserts and version-checked updates; returns the scope of every inserted belief. With `changeSetRow`, the change-set
 * row is inserted by the same statement when the change-set only inserts or only updates (one round trip fewer);
 * the returned flag says whether it was.
 */
async function upsertBeliefs(tx: SqlExecutor, cs: ChangeSet, changeSetRow: readonly unknown[] | null): Promise<{ inserted: Map<string, string>; changeSetWritten: boolean }> {
  const scopes = new Map<string, string>();
  const updates = cs.beliefs.filter((u) => u.expectedVersion !== null).sort((a, b) => byId(a.belief, b.belief));
  const inserts = cs.beliefs.filter((u) => u.expectedVersion === null).sort((a, b) => byId(a.belief, b.belief));
  for (const u of cs.beliefs) {
    const want = (u.expectedVersion ?? 0) + 1;
    if (u.belief.version !== want) {
      throw new ChangeSetRejected("invalid_version", `Belief ${u.belief.id}: version ${u.belief.version}, expected ${want} (expectedVersion + 1).`);
    }
    if (u.expectedVersion === null) scopes.set(u.belief.id, u.belief.scope);
  }
  if (new Set(cs.beliefs.map((u) => u.belief.id)).size !== cs.beliefs.length) {
    throw new ChangeSetRejected("invalid", "A belief is upserted twice in one change-set (merge them with mergeChangeSets).");
  }
  // Updates before inserts: a superseded belief frees its live key for its successor within the same change-set.
  const fold = changeSetRow !== null && (updates.length === 0) !== (inserts.length === 0);
  if (updates.length > 0) {
    const rows = fold
      ? await run(tx, write.insertChangeSetAndUpdateBeliefs, [json(updates.map((u) => beliefRow(u.belief, u.expectedVersion, u.checkpoint ?? null))), ...changeSetRow])
      : await run(tx, write.updateBeliefs, [json(updates.map((u) => beliefRow(u.belief, u.expectedVersion, u.checkpoint ?? null)))]);
    if (rows.length !== updates.length) await failedUpdate(tx, updates, new Set(rows.map((r) => r.id)));
  }
  if (inserts.length > 0) {
    const rows = fold
      ? await run(tx, write.insertChangeSetAndBeliefs, [json(inserts.map((u) => beliefRow(u.belief, null, u.checkpoint ?? null))), ...changeSetRow])
      : await run(tx, write.insertBeliefs, [json(inserts.map((u) => beliefRow(u.belief, null, u.checkpoint ?? null)))]);
    if (rows.length !== inserts.length) failedInsert(inserts, new Set(rows.map((r) => r.id)));
  }
  return { inserted: scopes, changeSetWritten: fold };
}

// ---- history ----

interface HistoryRow {
  belief_id: string;
  seq: number;
  type: string;
  time: string;
  observed_at: string;
  change_set: string;
  source_id: string | null;
  source_kind: string | null;
  relation: string | null;
  weight: number | null;
  target_seq: number | null;
  verified: boolean | null;
  laundered: boolean | null;
  data: HistoryItem;
}

function historyRow(beliefId: string, item: HistoryItem): HistoryRow {
  const base = { belief_id: beliefId, seq: item.seq, type: item.type, time: item.time, observed_at: eventTime(item), change_set: item.changeSet, data: item };
  if (item.type === "entry") {
    return {
      ...base,
      source_id: item.sourceId,
      source_kind: item.sourceKind,
      relation: item.relation,
      weight: item.weight,
      target_seq: null,
      verified: item.verified,
      laundered: item.launderingReason !== null,
    };
  }
  const targetSeq = "targetSeq" in item ? item.targetSeq : null;
  const sourceId = item.type === "retracted" || item.type === "undecided" ? item.sourceId : null;
  const sourceKind = item.type === "undecided" ? item.sourceKind : null;
  return { ...base, source_id: sourceId, source_kind: sourceKind, relation: null, weight: null, target_seq: targetSeq, verified: null, laundered: null };
}

/**
 * Locks the beliefs that receive history, checks that each append continues its stored seq (1, 2, 3, … without
 * gaps), inserts the rows, their entry edges (placeholders made as needed) and applies the events' effects on the
 * indexed columns (live flag, revised relation / weight).
 */
async function appendHistory(
  tx: SqlExecutor,
  appends: readonly { beliefId: string; items: readonly HistoryItem[] }[],
  context: { actor: string; time: string; changeSet: string; checkSeq: boolean },
  /** Beliefs this transaction inserted (id → scope): their stored history is empty and their rows are locked already. */
  inserted: ReadonlyMap<string, string> = new Map(),
): Promise<string[]> {
  const nonEmpty = appends.filter((a) => a.items.length > 0);
  if (nonEmpty.length === 0) return [];
  const ids = [...new Set(nonEmpty.map((a) => a.beliefId))].sort();
  if (ids.length !== nonEmpty.length) throw new ChangeSetRejected("invalid", "Two history appends for one belief in one change-set.");
  // Only beliefs that existed before this transaction need the lock and the stored last seq.
  const existing = ids.filter((id) => !inserted.has(id));
  const locked = existing.length === 0 ? [] : await run(tx, write.lockForHistory, [existing]);
  for (const id of ids) {
    const scope = inserted.get(id);
    if (scope !== undefined) locked.push({ id, scope, max_seq: 0 });
  }
  const scopeOf = new Map(locked.map((r) => [r.id, r.scope]));
  const maxSeq = new Map(locked.map((r) => [r.id, r.max_seq ?? 0]));
  const rows: HistoryRow[] = [];
  for (const append of nonEmpty) {
    if (!scopeOf.has(append.beliefId)) throw new ChangeSetRejected("unknown_belief", `History appended to belief ${append.beliefId}, which does not exist.`);
    let expected = (maxSeq.get(append.beliefId) ?? 0) + 1;
    for (const item of append.items) {
      if (context.checkSeq && item.seq !== expected) {
        throw new VersionConflict(append.beliefId, "history_seq", `Belief ${append.beliefId}: history item seq ${item.seq}, expected ${expected}.`);
      }
      expected = item.seq + 1;
      rows.push(historyRow(append.beliefId, item));
    }
  }
  // Entry edges: source → belief; an unresolved source goes to the citer scope's placeholder.
  const entries = rows.filter((r) => r.type === "entry" && r.source_id !== null);
  const placeholdersCreated: string[] = [];
  const unresolved = entries.filter((r) => r.source_kind === null);
  const placeholderOf = new Map<string, string>();
  const edgeOf = (r: HistoryRow) => ({
    kind: r.relation,
    from: r.source_kind === null ? placeholderOf.get(`${scopeOf.get(r.belief_id) ?? ""}\u0000${r.source_id ?? ""}`) : r.source_id,
    to: r.belief_id,
    seq: r.seq,
    // An entry's edge exists from the entry's event time on (what `asOf` reads cut by).
    time: r.observed_at,
    data: { time: r.time, changeSet: r.change_set },
  });
  // Without placeholders to make first, the rows and their edges go in one statement.
  if (unresolved.length === 0) await run(tx, write.insertHistoryAndEntryEdges, [json(rows), json(entries.map(edgeOf))]);
  else await run(tx, write.insertHistory, [json(rows)]);
  if (unresolved.length > 0) {
    const wanted = new Map<string, Evidence>();
    for (const r of unresolved) {
      const scope = scopeOf.get(r.belief_id) ?? "";
      const raw = r.source_id ?? "";
      const id = placeholderEvidenceId(scope, raw);
      wanted.set(`${scope}\u0000${raw}`, {
        id,
        scope,
        kind: "unresolved",
        text: raw,
        uri: null,
        registeredBy: context.actor,
        ess: null,
        reasoningType: null,
        discarded: false,
        createdAt: context.time,
        retractedAt: null,
      });
    }
    const created = await run(tx, write.createPlaceholders, [json([...wanted.values()])]);
    placeholdersCreated.push(...created.map((r) => r.id));
    const found = await run(tx, write.findPlaceholders, [json([...wanted.values()].map((e) => ({ scope: e.scope, text: e.text })))]);
    for (const f of found) placeholderOf.set(`${f.scope}\u0000${f.text}`, f.id);
  }
  if (unresolved.length > 0) await run(tx, write.insertEntryEdges, [json(entries.map(edgeOf))]);
  await applyHistoryEffects(tx, rows);
  return placeholdersCreated;
}

/** The appended events' effects on the indexed columns of earlier rows (ended entries, closed readings, revisions). */
async function applyHistoryEffects(tx: SqlExecutor, rows: readonly HistoryRow[]): Promise<void> {
  // Events' effects on the indexed columns, in seq order per belief (the JSON keeps the original entries).
  const removals = rows.filter((r) => (r.type === "retracted" || r.type === "stripped") && r.target_seq !== null);
  if (removals.length > 0) {
    const targets = json(removals.map((r) => ({ b: r.belief_id, s: r.target_seq })));
    await run(tx, write.endEntries, [targets]);
    await run(tx, write.endEntryEdges, [targets]);
  }
  const decisions = rows.filter((r) => r.type === "decided" && r.target_seq !== null);
  if (decisions.length > 0) await run(tx, write.closeReadings, [json(decisions.map((r) => ({ b: r.belief_id, s: r.target_seq })))]);
  for (const r of rows) {
    if (r.type !== "revised" || r.data.type !== "revised" || r.target_seq === null) continue;
    const relation = r.data.relation ?? null;
    const weight = r.data.weight ?? null;
    if (relation !== null && !ENTRY_RELATIONS.has(relation)) throw new ChangeSetRejected("invalid", `Unknown relation ${relation}.`);
    await run(tx, write.reviseEntry, [r.belief_id, r.target_seq, relation, weight]);
    if (relation !== null) {
      await run(tx, write.reviseEntryEdge, [r.belief_id, r.target_seq, relation]);
    }
  }
}

// ---- edges, mutations, retractions, freezes ----

async function insertEdges(tx: SqlExecutor, edges: readonly { kind: string; from: string; to: string; time: string; changeSet: string }[]): Promise<void> {
  if (edges.length === 0) return;
  await run(tx, write.insertEdges, [json(edges)]);
}

function concernsEdges(mutations: readonly MutationRecord[]): { kind: string; from: string; to: string; time: string; changeSet: string }[] {
  return mutations.flatMap((m) => m.beliefIds.map((to) => ({ kind: "CONCERNS", from: m.id, to, time: m.time, changeSet: m.changeSet })));
}

async function insertMutations(tx: SqlExecutor, mutations: readonly MutationRecord[]): Promise<void> {
  if (mutations.length === 0) return;
  await run(tx, write.insertMutations, [json(mutations)]);
  await insertEdges(tx, concernsEdges(mutations));
}

async function updateMutations(tx: SqlExecutor, mutations: readonly MutationRecord[]): Promise<void> {
  if (mutations.length === 0) return;
  const rows = await run(tx, write.updateMutations, [json(mutations)]);
  if (rows.length !== mutations.length) {
    const written = new Set(rows.map((r) => r.id));
    const missing = mutations.find((m) => !written.has(m.id));
    throw new ChangeSetRejected("unknown_target", `Mutation ${missing?.id} does not exist in scope ${missing?.scope}.`);
  }
  await insertEdges(tx, concernsEdges(mutations));
}

// ---- the two entry points ----

/** What `apply` writes beside the change-set in its transaction: the new nodes' vectors and the Idempotency-Key's mark. */
export interface ApplyExtras {
  embeddings: readonly NodeEmbedding[];
  pgvector: boolean;
  mark: IdempotencyMark | null;
}

const NO_EXTRAS: ApplyExtras = { embeddings: [], pgvector: false, mark: null };

/**
 * The history rows of a change-set whose core fits one statement (`write.changeSetCore`), or null when it does not:
 * it upserts beliefs (each once, at expectedVersion + 1), every history append goes to one of them with items whose
 * seqs follow one another, no entry needs a placeholder (its source resolved), no placeholder evidence is carried,
 * and every vector is of a belief it upserts or evidence it registers. Anything else takes the statement-per-step path,
 * which also reports what is wrong with a malformed change-set.
 */
function coreHistoryRows(cs: ChangeSet, embeddings: readonly NodeEmbedding[]): HistoryRow[] | null {
  if (cs.beliefs.length === 0 || cs.evidence.some((e) => e.kind === "unresolved")) return null;
  const beliefs = new Set(cs.beliefs.map((u) => u.belief.id));
  if (beliefs.size !== cs.beliefs.length || cs.beliefs.some((u) => u.belief.version !== (u.expectedVersion ?? 0) + 1)) return null;
  const evidence = new Set(cs.evidence.map((e) => e.id));
  if (embeddings.some((e) => !(e.kind === "belief" ? beliefs : e.kind === "evidence" ? evidence : new Set()).has(e.id))) return null;
  return oneStatementHistory(cs.history, beliefs, { fromSeq1: false });
}

/**
 * The history rows of a one-statement write, or null when an append does not fit one: each append goes to one of
 * `beliefs`, once, its items' seqs follow one another (from 1 with `fromSeq1`), each of `types` when given, and every
 * entry's source is resolved (no placeholder to make first).
 */
function oneStatementHistory(
  history: ChangeSet["history"],
  beliefs: ReadonlySet<string>,
  options: { fromSeq1: boolean; types?: ReadonlySet<HistoryItem["type"]> },
): HistoryRow[] | null {
  const appended = new Set<string>();
  const rows: HistoryRow[] = [];
  for (const append of history) {
    const first = append.items[0];
    if (first === undefined) continue;
    if (!beliefs.has(append.beliefId) || appended.has(append.beliefId)) return null;
    appended.add(append.beliefId);
    let next = options.fromSeq1 ? 1 : first.seq;
    for (const item of append.items) {
      if (item.seq !== next || (options.types !== undefined && !options.types.has(item.type))) return null;
      next++;
      const row = historyRow(append.beliefId, item);
      if (row.type === "entry" && row.source_id !== null && row.source_kind === null) return null;
      rows.push(row);
    }
  }
  return rows;
}

/** The entry edges (source → belief) of history rows whose source is named. */
function entryEdgesOf(rows: readonly HistoryRow[]) {
  return rows
    .filter((r) => r.type === "entry" && r.source_id !== null)
    .map((r) => ({ kind: r.relation, from: r.source_id, to: r.belief_id, seq: r.seq, time: r.observed_at, data: { time: r.time, changeSet: r.change_set } }));
}

/**
 * The change-set row, evidence, belief upserts, fold rows, history with its entry edges, vectors and mark in one
 * statement (`write.changeSetCore`), then the checks it leaves to the caller (every update and insert written, each
 * append continuing its belief's stored seq) and the appended events' effects. Null, with nothing written, when the
 * change-set does not fit (`coreHistoryRows`). Returns the inserted beliefs (id → scope).
 */
async function applyChangeSetCore(tx: SqlExecutor, cs: ChangeSet, extras: ApplyExtras): Promise<Map<string, string> | null> {
  const rows = coreHistoryRows(cs, extras.embeddings);
  if (rows === null) return null;
  const updates = cs.beliefs.filter((u) => u.expectedVersion !== null).sort((a, b) => byId(a.belief, b.belief));
  const inserts = cs.beliefs.filter((u) => u.expectedVersion === null).sort((a, b) => byId(a.belief, b.belief));
  const { mark, pgvector } = extras;
  const written = await run(tx, pgvector ? write.changeSetCorePgvector : write.changeSetCore, [
    json([...updates, ...inserts].map((u) => beliefRow(u.belief, u.expectedVersion, u.checkpoint ?? null))),
    cs.id,
    cs.actor,
    cs.time,
    json(cs.evidence),
    json(rows),
    json(entryEdgesOf(rows)),
    embeddingsPayload(pgvector, extras.embeddings),
    mark?.principal ?? null,
    mark?.key ?? null,
    mark?.claimId ?? null,
    mark?.ordinal ?? null,
  ]);
  const updated = new Map(written.filter((r) => r.updated).map((r) => [r.id, r.max_seq ?? 0]));
  if (updated.size !== updates.length) await failedUpdate(tx, updates, new Set(updated.keys()));
  const insertedIds = new Set(written.filter((r) => !r.updated).map((r) => r.id));
  if (insertedIds.size !== inserts.length) failedInsert(inserts, insertedIds);
  // The update's row lock is the history lock: each append must continue the seq stored before this write.
  for (const append of cs.history) {
    const first = append.items[0];
    if (first === undefined) continue;
    const expected = (updated.get(append.beliefId) ?? 0) + 1;
    if (first.seq !== expected) throw new VersionConflict(append.beliefId, "history_seq", `Belief ${append.beliefId}: history item seq ${first.seq}, expected ${expected}.`);
  }
  await applyHistoryEffects(tx, rows);
  return new Map(inserts.map((u) => [u.belief.id, u.belief.scope]));
}

/**
 * The change-set row, evidence, beliefs and history a statement per step (a change-set the one-statement core does
 * not fit); returns the placeholders it made.
 */
async function applyChangeSetSteps(tx: SqlExecutor, cs: ChangeSet): Promise<string[]> {
  // The change-set row goes first (a repeated change-set is `already_applied` whatever else it holds); without
  // evidence, and when its beliefs are all new or all updated, it rides on the belief statement.
  const changeSetRow = [cs.id, cs.actor, cs.time];
  const updating = cs.beliefs.some((u) => u.expectedVersion !== null);
  const inserting = cs.beliefs.some((u) => u.expectedVersion === null);
  const early = cs.evidence.length > 0 || updating === inserting;
  if (early) await run(tx, write.insertChangeSet, changeSetRow);
  await insertEvidence(tx, cs.evidence);
  const { inserted, changeSetWritten } = await upsertBeliefs(tx, cs, early ? null : changeSetRow);
  if (!early && !changeSetWritten) throw new Error("unreachable: the change-set row was not written");
  return appendHistory(tx, cs.history, { actor: cs.actor, time: cs.time, changeSet: cs.id, checkSeq: true }, inserted);
}

/**
 * Applies `cs` inside the transaction `tx` (the caller opened it and rolls back on any throw), with its vectors and
 * Idempotency-Key mark.
 */
export async function applyChangeSetRows(tx: SqlExecutor, cs: ChangeSet, extras: ApplyExtras = NO_EXTRAS): Promise<ApplyResult> {
  const core = await applyChangeSetCore(tx, cs, extras);
  const placeholdersCreated = core === null ? await applyChangeSetSteps(tx, cs) : [];

  if (cs.entryOutputs.length > 0) {
    const rows = await run(tx, write.patchEntryOutputs, [json(cs.entryOutputs.map((o) => ({ b: o.beliefId, s: o.seq, c: o.contribution, w: o.effectiveWeight })))]);
    if (rows.length !== cs.entryOutputs.length) throw new ChangeSetRejected("unknown_target", "Entry outputs name an entry that does not exist.");
  }

  await insertEdges(tx, cs.edges);
  await insertMutations(tx, cs.mutations);
  await updateMutations(
    tx,
    cs.mutationUpdates.map((u) => u.mutation),
  );

  if (cs.retractions.length > 0) {
    const rows = await run(tx, write.retractEvidence, [json(cs.retractions.map((r) => ({ id: r.evidenceId, t: r.retractedAt })))]);
    if (rows.length !== new Set(cs.retractions.map((r) => r.evidenceId)).size) {
      throw new ChangeSetRejected("unknown_target", "A retraction names Evidence that does not exist.");
    }
  }

  if (cs.topicFreezes.length > 0) {
    await run(tx, write.upsertTopicFreezes, [json(cs.topicFreezes)]);
  }
  if (core === null) {
    if (extras.mark) await writeIdempotencyMark(tx, extras.mark, cs.id);
    await writeEmbeddings(tx, extras.pgvector, null, extras.embeddings);
  }

  const versions: Record<string, number> = {};
  for (const u of cs.beliefs) versions[u.belief.id] = u.belief.version;
  return { changeSetId: cs.id, versions, placeholdersCreated };
}

/** History item types whose rows need no statement beyond their insert (no effect on earlier rows). */
const PLAIN_ITEM_TYPES = new Set<HistoryItem["type"]>(["entry", "possible_duplicate", "undecided", "review"]);

/**
 * Applies `cs` in one statement when it only creates beliefs (`write.insertNewBeliefsWhole`): new beliefs, their history
 * (appended only to them, from seq 1, plain items, every entry's source resolved), their vectors, and nothing else (no
 * evidence, updates, edges, mutations, retractions, outputs or freezes), with the Idempotency-Key's `mark` if any.
 * Null, with nothing written, for any other
 * change-set or vector: the caller applies it in a transaction.
 */
export async function applyNewBeliefsWhole(
  sql: SqlExecutor,
  cs: ChangeSet,
  embeddings: readonly NodeEmbedding[],
  pgvector: boolean,
  mark: IdempotencyMark | null = null,
): Promise<ApplyResult | null> {
  if (cs.beliefs.length === 0 || cs.beliefs.some((u) => u.expectedVersion !== null || u.belief.version !== 1)) return null;
  if (cs.evidence.length + cs.entryOutputs.length + cs.edges.length + cs.mutations.length + cs.mutationUpdates.length + cs.retractions.length + cs.topicFreezes.length > 0) return null;
  const created = new Set(cs.beliefs.map((u) => u.belief.id));
  if (created.size !== cs.beliefs.length) return null;
  if (embeddings.some((e) => e.kind !== "belief" || !created.has(e.id))) return null;
  const rows = oneStatementHistory(cs.history, created, { fromSeq1: true, types: PLAIN_ITEM_TYPES });
  if (rows === null) return null;
  const beliefs = [...cs.beliefs].sort((a, b) => byId(a.belief, b.belief));
  const written = await run(sql, pgvector ? write.insertNewBeliefsWholePgvector : write.insertNewBeliefsWhole, [
    json(beliefs.map((u) => beliefRow(u.belief, null, u.checkpoint ?? null))),
    cs.id,
    cs.actor,
    cs.time,
    json(rows),
    json(entryEdgesOf(rows)),
    embeddingsPayload(pgvector, embeddings),
    mark?.principal ?? null,
    mark?.key ?? null,
    mark?.claimId ?? null,
    mark?.ordinal ?? null,
  ]);
  if (written.length !== beliefs.length) throw new Error("unreachable: a belief of the one-statement write was not written");
  const versions: Record<string, number> = {};
  for (const u of cs.beliefs) versions[u.belief.id] = u.belief.version;
  return { changeSetId: cs.id, versions, placeholdersCreated: [] };
}

/** Writes a parsed export into `scope` (every item's scope rewritten), refusing a non-empty scope or existing ids. */
export async function importScopeRows(tx: SqlExecutor, scope: string, data: ScopeExport): Promise<ImportResult> {
  const busy = await run(tx, write.importScopeSize, [scope]);
  if ((busy[0]?.n ?? 0) > 0) throw new ChangeSetRejected("import_conflict", `Scope ${scope} is not empty; import only into an empty scope.`);
  const beliefIds = data.beliefs.map((r) => r.belief.id);
  const taken = await run(tx, write.importTakenId, [beliefIds, data.evidence.map((e) => e.id), data.mutations.map((m) => m.id)]);
  if (taken.length > 0) throw new ChangeSetRejected("import_conflict", `Id ${taken[0]?.id} already exists in another scope.`);

  const evidence = data.evidence.map((e) => ({ ...e, scope }));
  const beliefs = data.beliefs.map((r) => ({ ...r.belief, scope }));
  const mutations = data.mutations.map((m) => ({ ...m, scope }));
  await insertEvidence(tx, evidence);
  if (beliefs.length > 0) {
    await run(tx, write.importBeliefs, [json(beliefs.map((b) => beliefRow(b, null)))]);
  }
  const appends = data.beliefs.map((r) => ({ beliefId: r.belief.id, items: r.history }));
  await appendHistory(tx, appends, { actor: "import", time: new Date(0).toISOString(), changeSet: "import", checkSeq: true }, new Map(beliefs.map((b) => [b.id, scope])));
  // Explicit edges first: the CONCERNS edges mutations imply already exist then and keep their exported values.
  await insertEdges(tx, data.edges);
  await insertMutations(tx, mutations);
  if (data.topicFreezes.length > 0) {
    await run(tx, write.importTopicFreezes, [json(data.topicFreezes), scope]);
  }
  return {
    scope,
    beliefs: beliefs.length,
    historyItems: data.beliefs.reduce((n, r) => n + r.history.length, 0),
    evidence: evidence.length,
    mutations: mutations.length,
    edges: data.edges.length,
    topicFreezes: data.topicFreezes.length,
  };
}
