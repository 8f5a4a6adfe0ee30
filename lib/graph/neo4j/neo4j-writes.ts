/**
 * The Neo4j store's writes: a change-set in the order of `lib/engine/change-set.ts`, and a whole-scope import, each
 * inside the caller's managed write transaction (any throw rolls the whole of it back). Bulk writes are one `UNWIND`
 * statement per label / relationship type.
 *
 * Concurrency: the beliefs a change-set touches are write-locked first, in id order (`write.lockBeliefs`), and only
 * then is their version read and compared with `expectedVersion`; a concurrent writer waits for the lock and then sees
 * the committed version, so a lost update is impossible. Inserts race on the `(ns, id)` constraint, live keys on the
 * `(ns, scope, liveKey)` constraint; both failures surface as VersionConflict.
 *
 * History: a belief's items are stored as JSON strings in `b.history` (seq order), appended to and patched (replay
 * outputs) here; the entries' edges `source -[:SUPPORTS|REBUTS|CONTEXTUALIZES {seq, sourceId, live, …}]-> belief` are
 * the citation index (relationship index on `sourceId`) and what the graph view draws.
 */
import neo4j from "neo4j-driver";
import type { CypherRunner } from "./neo4j-runner";
import { eventTime, isLiveStatus, joinCheckpoint, type BeliefEdge, type BeliefUpsert, type ChangeSet, type Evidence, type FoldCheckpoint, type HistoryItem, type MutationRecord } from "@/lib/engine";
import { ChangeSetRejected, VersionConflict } from "../errors";
import { placeholderEvidenceId, type ApplyResult, type ImportResult, type ScopeExport } from "../graph-store";
import { write, read } from "./neo4j-cypher";
import { beliefToProps, evidenceToProps, historyFromProp, mutationToProps, toPlain } from "./neo4j-records";
import type { NodeLabel } from "./neo4j-vocabulary";

const ITEM_LABEL = { evidence: "Evidence", belief: "Belief", mutation: "Mutation" } as const satisfies Record<string, NodeLabel>;

function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

async function rows(tx: CypherRunner, cypher: string, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const result = await tx.run(cypher, params);
  return result.records.map((r) => r.toObject() as Record<string, unknown>);
}

async function existingIds(tx: CypherRunner, ns: string, label: NodeLabel, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await rows(tx, write.existingIds(label), { ns, ids: [...new Set(ids)] });
  return new Set(found.map((r) => String(r.id)));
}

// ---- evidence ----

async function insertEvidence(tx: CypherRunner, ns: string, evidence: readonly Evidence[]): Promise<void> {
  const regular = evidence.filter((e) => e.kind !== "unresolved");
  const placeholders = evidence.filter((e) => e.kind === "unresolved");
  // A duplicate id fails on the (ns, id) constraint: ChangeSetRejected("duplicate_id") (see mapNeo4jError).
  if (regular.length > 0) await tx.run(write.createNodes("Evidence"), { rows: regular.map((e) => evidenceToProps(ns, e)) });
  // A placeholder for the same (scope, raw id) may exist already: it is shared, never duplicated.
  if (placeholders.length > 0) await tx.run(write.mergePlaceholders, { ns, rows: placeholders.map((e) => evidenceToProps(ns, e)) });
}

// ---- beliefs and history ----

interface Locked {
  scope: string;
  version: number;
  history: HistoryItem[];
}

async function lockBeliefs(tx: CypherRunner, ns: string, ids: readonly string[]): Promise<Map<string, Locked>> {
  const out = new Map<string, Locked>();
  if (ids.length === 0) return out;
  for (const r of await rows(tx, write.lockBeliefs, { ns, ids: [...new Set(ids)].sort() })) {
    out.set(String(r.id), { scope: String(r.scope), version: Number(toPlain(r.version)), history: historyFromProp(r.history) });
  }
  return out;
}

interface NewEntryEdge {
  beliefId: string;
  scope: string;
  item: Extract<HistoryItem, { type: "entry" }>;
}

/**
 * Upserts the change-set's beliefs and appends its history, with every check of the port header; returns the entries
 * that need an edge and the events that change existing edges.
 */
async function writeBeliefs(
  tx: CypherRunner,
  ns: string,
  cs: ChangeSet,
): Promise<{ entries: NewEntryEdge[]; ended: { beliefId: string; seq: number; time: string }[]; retyped: { beliefId: string; seq: number; relation: string }[] }> {
  if (new Set(cs.beliefs.map((u) => u.belief.id)).size !== cs.beliefs.length) {
    throw new ChangeSetRejected("invalid", "A belief is upserted twice in one change-set (merge them with mergeChangeSets).");
  }
  const appendIds = cs.history.filter((h) => h.items.length > 0).map((h) => h.beliefId);
  if (new Set(appendIds).size !== appendIds.length) throw new ChangeSetRejected("invalid", "Two history appends for one belief in one change-set.");
  for (const u of cs.beliefs) {
    const want = (u.expectedVersion ?? 0) + 1;
    if (u.belief.version !== want) {
      throw new ChangeSetRejected("invalid_version", `Belief ${u.belief.id}: version ${u.belief.version}, expected ${want} (expectedVersion + 1).`);
    }
  }

  const touched = [...cs.beliefs.map((u) => u.belief.id), ...appendIds, ...cs.entryOutputs.map((o) => o.beliefId)];
  const locked = await lockBeliefs(tx, ns, touched);

  const upserts = new Map(cs.beliefs.map((u) => [u.belief.id, u]));
  for (const u of [...cs.beliefs].sort((a, b) => byId(a.belief, b.belief))) {
    const stored = locked.get(u.belief.id);
    if (u.expectedVersion === null) {
      if (stored) throw new VersionConflict(u.belief.id, "exists", `Belief ${u.belief.id} already exists: another writer created it first.`);
    } else {
      if (!stored) throw new ChangeSetRejected("unknown_belief", `Belief ${u.belief.id} does not exist; it cannot be updated.`);
      if (stored.scope !== u.belief.scope) throw new ChangeSetRejected("invalid", `Belief ${u.belief.id} cannot move to another scope.`);
      if (stored.version !== u.expectedVersion) {
        throw new VersionConflict(u.belief.id, "version", `Belief ${u.belief.id} is at version ${stored.version}, not ${u.expectedVersion}: another writer got there first.`);
      }
    }
  }

  // The final history of every touched belief: stored + appended, replay outputs patched.
  const histories = new Map<string, HistoryItem[]>();
  const scopeOf = new Map<string, string>();
  for (const id of new Set(touched)) {
    const stored = locked.get(id);
    const upsert = upserts.get(id);
    if (!stored && !upsert) throw new ChangeSetRejected("unknown_belief", `History or outputs for belief ${id}, which does not exist.`);
    histories.set(id, stored ? [...stored.history] : []);
    scopeOf.set(id, upsert?.belief.scope ?? stored?.scope ?? "");
  }
  const entries: NewEntryEdge[] = [];
  const ended: { beliefId: string; seq: number; time: string }[] = [];
  const retyped: { beliefId: string; seq: number; relation: string }[] = [];
  for (const append of cs.history) {
    const history = histories.get(append.beliefId) ?? [];
    let expected = (history[history.length - 1]?.seq ?? 0) + 1;
    for (const item of append.items) {
      if (item.seq !== expected) {
        throw new VersionConflict(append.beliefId, "history_seq", `Belief ${append.beliefId}: history item seq ${item.seq}, expected ${expected}.`);
      }
      expected = item.seq + 1;
      history.push(item);
      if (item.type === "entry" && item.sourceId !== null) entries.push({ beliefId: append.beliefId, scope: scopeOf.get(append.beliefId) ?? "", item });
      if (item.type === "retracted" || item.type === "stripped") ended.push({ beliefId: append.beliefId, seq: item.targetSeq, time: item.time });
      if (item.type === "revised" && item.relation !== undefined) retyped.push({ beliefId: append.beliefId, seq: item.targetSeq, relation: item.relation });
    }
  }
  for (const o of cs.entryOutputs) {
    const history = histories.get(o.beliefId) ?? [];
    const index = history.findIndex((h) => h.seq === o.seq && h.type === "entry");
    const entry = history[index];
    if (!entry || entry.type !== "entry") throw new ChangeSetRejected("unknown_target", `Entry outputs name entry ${o.beliefId}#${o.seq}, which does not exist.`);
    history[index] = { ...entry, contribution: o.contribution, effectiveWeight: o.effectiveWeight };
  }

  // Leaving the live set first, then the rest: a superseded belief frees its key for its successor.
  const updates = cs.beliefs.filter((u) => u.expectedVersion !== null).sort((a, b) => Number(isLiveStatus(a.belief.status)) - Number(isLiveStatus(b.belief.status)) || byId(a.belief, b.belief));
  const inserts = cs.beliefs.filter((u) => u.expectedVersion === null).sort((a, b) => byId(a.belief, b.belief));
  if (updates.length > 0) {
    await tx.run(write.updateBeliefs, { ns, rows: updates.map((u) => beliefToProps(ns, u.belief, histories.get(u.belief.id) ?? [], wholeCheckpoint(u))) });
  }
  if (inserts.length > 0) {
    await tx.run(write.createNodes("Belief"), { rows: inserts.map((u) => beliefToProps(ns, u.belief, histories.get(u.belief.id) ?? [], wholeCheckpoint(u))) });
  }
  const historyOnly = [...histories.keys()].filter((id) => !upserts.has(id)).sort();
  if (historyOnly.length > 0) {
    await tx.run(write.setHistories, {
      ns,
      rows: historyOnly.map((id) => {
        const history = histories.get(id) ?? [];
        return { id, history: history.map((h) => JSON.stringify(h)), historyLength: neo4j.int(history.length) };
      }),
    });
  }
  return { entries, ended, retyped };
}

/**
 * The whole checkpoint an upsert carries, kept as one JSON property. A partial slice (a fold onto rows this store
 * never hands out: its `loadBeliefHead` always covers every source) is not stored: the next write replays.
 */
function wholeCheckpoint(u: BeliefUpsert): FoldCheckpoint | null {
  return u.checkpoint ? joinCheckpoint(u.checkpoint) : null;
}

/**
 * Creates the entries' edges. A resolved source is the item itself; an unresolved one (or a resolved id the store no
 * longer finds) hangs on the citer scope's placeholder, found by (scope, raw id) or made with `placeholderEvidenceId`.
 */
async function linkEntries(
  tx: CypherRunner,
  ns: string,
  entries: readonly NewEntryEdge[],
  context: { actor: string; time: string },
): Promise<string[]> {
  if (entries.length === 0) return [];
  const found = new Map<NodeLabel, Set<string>>();
  for (const label of ["Evidence", "Belief", "Mutation"] as const) {
    const ids = entries.filter((e) => e.item.sourceKind !== null && ITEM_LABEL[e.item.sourceKind] === label).map((e) => e.item.sourceId ?? "");
    found.set(label, await existingIds(tx, ns, label, ids));
  }
  /** The source node: the item itself, none (resolved but not in this store: dangling), or the placeholder (null). */
  const sourceOf = (e: NewEntryEdge): { label: NodeLabel; id: string } | "dangling" | null => {
    const kind = e.item.sourceKind;
    if (kind === null) return null;
    const label = ITEM_LABEL[kind];
    return found.get(label)?.has(e.item.sourceId ?? "") ? { label, id: e.item.sourceId ?? "" } : "dangling";
  };

  const needPlaceholder = entries.filter((e) => sourceOf(e) === null);
  const placeholderOf = new Map<string, string>();
  const created: string[] = [];
  const keyOf = (scope: string, raw: string): string => `${scope}\u0000${raw}`;
  if (needPlaceholder.length > 0) {
    const wanted = new Map<string, { scope: string; raw: string }>();
    for (const e of needPlaceholder) wanted.set(keyOf(e.scope, e.item.sourceId ?? ""), { scope: e.scope, raw: e.item.sourceId ?? "" });
    for (const r of await rows(tx, write.findPlaceholders, { ns, rows: [...wanted.values()] })) {
      placeholderOf.set(keyOf(String(r.scope), String(r.raw)), String(r.id));
    }
    const missing = [...wanted.values()].filter((w) => !placeholderOf.has(keyOf(w.scope, w.raw)));
    if (missing.length > 0) {
      const made: Evidence[] = missing.map((w) => ({
        id: placeholderEvidenceId(w.scope, w.raw),
        scope: w.scope,
        kind: "unresolved",
        text: w.raw,
        uri: null,
        registeredBy: context.actor,
        ess: null,
        reasoningType: null,
        discarded: false,
        createdAt: context.time,
        retractedAt: null,
      }));
      await tx.run(write.mergePlaceholders, { ns, rows: made.map((e) => evidenceToProps(ns, e)) });
      for (const e of made) {
        placeholderOf.set(keyOf(e.scope, e.text), e.id);
        created.push(e.id);
      }
    }
  }

  const groups = new Map<string, { label: NodeLabel | "dangling"; relation: string; rows: Record<string, unknown>[] }>();
  for (const e of entries) {
    const found = sourceOf(e);
    const source = found === "dangling" ? { label: "dangling" as const, id: e.beliefId } : (found ?? { label: "Evidence" as const, id: placeholderOf.get(keyOf(e.scope, e.item.sourceId ?? "")) ?? "" });
    const group = `${source.label}|${e.item.relation}`;
    const g = groups.get(group) ?? { label: source.label, relation: e.item.relation, rows: [] };
    g.rows.push({
      beliefId: e.beliefId,
      sourceNodeId: source.id,
      props: {
        ns,
        beliefId: e.beliefId,
        seq: neo4j.int(e.item.seq),
        sourceId: e.item.sourceId,
        resolved: e.item.sourceKind !== null,
        live: true,
        // An entry's edge exists from the entry's event time on (what `asOf` reads cut by).
        time: eventTime(e.item),
        changeSet: e.item.changeSet,
        tier: e.item.tier,
        effectiveTier: e.item.effectiveTier,
        verified: e.item.verified,
        laundered: e.item.launderingReason !== null,
      },
    });
    groups.set(group, g);
  }
  for (const g of groups.values()) {
    const cypher = g.label === "dangling" ? write.createDanglingEntryEdges(g.relation) : write.createEntryEdges(g.label, g.relation);
    await tx.run(cypher, { ns, rows: g.rows });
  }
  return created;
}

async function updateEntryEdges(
  tx: CypherRunner,
  ns: string,
  ended: readonly { beliefId: string; seq: number; time: string }[],
  retyped: readonly { beliefId: string; seq: number; relation: string }[],
): Promise<void> {
  if (ended.length > 0) {
    await tx.run(write.endEntryEdges, { ns, rows: ended.map((e) => ({ beliefId: e.beliefId, seq: neo4j.int(e.seq), time: e.time })) });
  }
  // In seq order: with two revisions of one entry the later one wins. UNRELATED marks the edge; a relation retypes it
  // and clears the mark.
  for (const r of retyped) {
    const rows = [{ beliefId: r.beliefId, seq: neo4j.int(r.seq) }];
    if (r.relation === "UNRELATED") {
      await tx.run(write.markEntryEdgesUnrelated, { ns, rows });
    } else {
      await tx.run(write.retypeEntryEdges(r.relation), { ns, rows });
      await tx.run(write.relateEntryEdges, { ns, rows });
    }
  }
}

// ---- edges, mutations, retractions, freezes ----

type EdgeRow = Pick<BeliefEdge, "kind" | "from" | "to" | "time" | "changeSet">;

/**
 * Belief-to-belief and CONCERNS edges. A relationship needs both nodes: an edge naming a node this store does not
 * hold (the SQL store keeps such rows) is not written; export and the graph view only ever show edges between nodes.
 */
async function mergeEdges(tx: CypherRunner, ns: string, edges: readonly EdgeRow[]): Promise<void> {
  const groups = new Map<string, EdgeRow[]>();
  for (const e of edges) groups.set(e.kind, [...(groups.get(e.kind) ?? []), e]);
  for (const [kind, list] of groups) {
    const fromLabel: NodeLabel = kind === "CONCERNS" ? "Mutation" : "Belief";
    await tx.run(write.mergeBeliefEdges(fromLabel, kind), { ns, rows: list });
  }
}

function concernsEdges(mutations: readonly MutationRecord[]): EdgeRow[] {
  return mutations.flatMap((m) => m.beliefIds.map((to) => ({ kind: "CONCERNS" as const, from: m.id, to, time: m.time, changeSet: m.changeSet })));
}

async function insertMutations(tx: CypherRunner, ns: string, mutations: readonly MutationRecord[]): Promise<void> {
  if (mutations.length === 0) return;
  // A duplicate id fails on the (ns, id) constraint: ChangeSetRejected("duplicate_id").
  await tx.run(write.createNodes("Mutation"), { rows: mutations.map((m) => mutationToProps(ns, m)) });
  await mergeEdges(tx, ns, concernsEdges(mutations));
}

async function updateMutations(tx: CypherRunner, ns: string, mutations: readonly MutationRecord[]): Promise<void> {
  if (mutations.length === 0) return;
  const written = await rows(tx, write.updateMutations, { ns, rows: mutations.map((m) => mutationToProps(ns, m)) });
  if (written.length !== mutations.length) {
    const ids = new Set(written.map((r) => String(r.id)));
    const missing = mutations.find((m) => !ids.has(m.id));
    throw new ChangeSetRejected("unknown_target", `Mutation ${missing?.id} does not exist in scope ${missing?.scope}.`);
  }
  await mergeEdges(tx, ns, concernsEdges(mutations));
}

// ---- the two entry points ----

/** Applies `cs` inside the managed write transaction `tx`. */
export async function applyChangeSetInTx(tx: CypherRunner, ns: string, cs: ChangeSet): Promise<ApplyResult> {
  // A change-set id applied before fails on the (ns, id) constraint: ChangeSetRejected("already_applied").
  await tx.run(write.recordChangeSet, { ns, id: cs.id, actor: cs.actor, time: cs.time });
  await insertEvidence(tx, ns, cs.evidence);
  const { entries, ended, retyped } = await writeBeliefs(tx, ns, cs);
  const placeholdersCreated = await linkEntries(tx, ns, entries, { actor: cs.actor, time: cs.time });
  await updateEntryEdges(tx, ns, ended, retyped);
  await mergeEdges(tx, ns, cs.edges);
  await insertMutations(tx, ns, cs.mutations);
  await updateMutations(tx, ns, cs.mutationUpdates.map((u) => u.mutation));
  if (cs.retractions.length > 0) {
    const ids = new Set(cs.retractions.map((r) => r.evidenceId));
    const done = await rows(tx, write.retractEvidence, { ns, rows: cs.retractions.map((r) => ({ id: r.evidenceId, retractedAt: r.retractedAt })) });
    if (done.length !== ids.size) throw new ChangeSetRejected("unknown_target", "A retraction names Evidence that does not exist.");
  }
  if (cs.topicFreezes.length > 0) await tx.run(write.mergeTopicFreezes, { ns, rows: cs.topicFreezes.map((f) => ({ ...f })) });
  const versions: Record<string, number> = {};
  for (const u of cs.beliefs) versions[u.belief.id] = u.belief.version;
  return { changeSetId: cs.id, versions, placeholdersCreated };
}

/** Writes an export into `scope` (every item's scope rewritten), refusing a non-empty scope or existing ids. */
export async function importScopeInTx(tx: CypherRunner, ns: string, scope: string, data: ScopeExport): Promise<ImportResult> {
  const empty = await rows(tx, read.scopeIsEmpty, { ns, home: scope });
  if (empty[0]?.empty !== true) throw new ChangeSetRejected("import_conflict", `Scope ${scope} is not empty; import only into an empty scope.`);
  for (const [label, ids] of [
    ["Belief", data.beliefs.map((r) => r.belief.id)],
    ["Evidence", data.evidence.map((e) => e.id)],
    ["Mutation", data.mutations.map((m) => m.id)],
  ] as const) {
    const taken = await existingIds(tx, ns, label, ids);
    if (taken.size > 0) throw new ChangeSetRejected("import_conflict", `Id ${[...taken][0]} already exists in another scope.`);
  }
  const evidence = data.evidence.map((e) => ({ ...e, scope }));
  const mutations = data.mutations.map((m) => ({ ...m, scope }));
  await insertEvidence(tx, ns, evidence);
  const beliefRows = data.beliefs.map((r) => beliefToProps(ns, { ...r.belief, scope }, r.history));
  if (beliefRows.length > 0) await tx.run(write.createNodes("Belief"), { rows: beliefRows });

  const entries: NewEntryEdge[] = [];
  const ended: { beliefId: string; seq: number; time: string }[] = [];
  const retyped: { beliefId: string; seq: number; relation: string }[] = [];
  for (const r of data.beliefs) {
    let expected = 1;
    for (const item of r.history) {
      if (item.seq !== expected) throw new ChangeSetRejected("invalid", `Belief ${r.belief.id}: history item seq ${item.seq}, expected ${expected}.`);
      expected++;
      if (item.type === "entry" && item.sourceId !== null) entries.push({ beliefId: r.belief.id, scope, item });
      if (item.type === "retracted" || item.type === "stripped") ended.push({ beliefId: r.belief.id, seq: item.targetSeq, time: item.time });
      if (item.type === "revised" && item.relation !== undefined) retyped.push({ beliefId: r.belief.id, seq: item.targetSeq, relation: item.relation });
    }
  }
  await linkEntries(tx, ns, entries, { actor: "import", time: new Date(0).toISOString() });
  await updateEntryEdges(tx, ns, ended, retyped);
  // Explicit edges first: the CONCERNS edges mutations imply already exist then and keep their exported values.
  await mergeEdges(tx, ns, data.edges);
  await insertMutations(tx, ns, mutations);
  if (data.topicFreezes.length > 0) await tx.run(write.mergeTopicFreezes, { ns, rows: data.topicFreezes.map((f) => ({ ...f, scope })) });
  return {
    scope,
    beliefs: data.beliefs.length,
    historyItems: data.beliefs.reduce((n, r) => n + r.history.length, 0),
    evidence: evidence.length,
    mutations: mutations.length,
    edges: data.edges.length,
    topicFreezes: data.topicFreezes.length,
  };
}
