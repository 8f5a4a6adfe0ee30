/**
 * GraphSlice → Cytoscape elements: pure, shared by the REST `graph` endpoint and the graph explorer. Filters apply
 * to beliefs; evidence and mutation nodes stay when an edge still connects them to a kept belief.
 */
import type { Belief, BeliefStatus, Evidence, MutationRecord } from "@/lib/engine";
import type { GraphEdge, GraphSlice } from "./graph-store";

export interface ElementFilters {
  minCredence?: number;
  maxCredence?: number;
  minTension?: number;
  maxTension?: number;
  /** Beliefs whose confidence is at most this (thinly evidenced ones). */
  maxConfidence?: number;
  /** ISO time: beliefs last changed at or after it. */
  changedSince?: string;
  statuses?: readonly BeliefStatus[];
  topic?: string;
  /** Case-insensitive substring of the belief text. */
  text?: string;
  edgeTypes?: readonly GraphEdge["kind"][];
}

export interface NodeElement {
  group: "nodes";
  data: {
    id: string;
    kind: "belief" | "evidence" | "mutation";
    label: string;
    scope: string;
    credence?: number;
    tension?: number;
    confidence?: number;
    status?: string;
    topic?: string;
    evidenceKind?: string;
    retracted?: boolean;
    decision?: string;
    mutationStatus?: string;
  };
}

export interface EdgeElement {
  group: "edges";
  data: { id: string; source: string; target: string; type: GraphEdge["kind"]; live: boolean; seq: number | null; weight: number };
}

export interface GraphElements {
  nodes: NodeElement[];
  edges: EdgeElement[];
}

const LABEL_MAX = 90;
/** Labels are plain text (Cytoscape draws them on a canvas, never as HTML); long ones are cut with an ellipsis. */
export function shortLabel(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > LABEL_MAX ? `${flat.slice(0, LABEL_MAX - 1)}…` : flat;
}

function keepBelief(belief: Belief, f: ElementFilters): boolean {
  if (f.minCredence !== undefined && belief.credence < f.minCredence) return false;
  if (f.maxCredence !== undefined && belief.credence > f.maxCredence) return false;
  if (f.minTension !== undefined && belief.tension < f.minTension) return false;
  if (f.maxTension !== undefined && belief.tension > f.maxTension) return false;
  if (f.maxConfidence !== undefined && belief.confidence > f.maxConfidence) return false;
  if (f.changedSince !== undefined && Date.parse(belief.updatedAt) < Date.parse(f.changedSince)) return false;
  if (f.statuses && f.statuses.length > 0 && !f.statuses.includes(belief.status)) return false;
  if (f.topic && belief.topic !== f.topic) return false;
  if (f.text && !belief.text.toLowerCase().includes(f.text.toLowerCase())) return false;
  return true;
}

function beliefNode(b: Belief): NodeElement {
  return {
    group: "nodes",
    data: { id: b.id, kind: "belief", label: shortLabel(b.text), scope: b.scope, credence: b.credence, tension: b.tension, confidence: b.confidence, status: b.status, topic: b.topic },
  };
}

function evidenceNode(e: Evidence): NodeElement {
  return { group: "nodes", data: { id: e.id, kind: "evidence", label: shortLabel(e.text), scope: e.scope, evidenceKind: e.kind, retracted: e.retractedAt !== null } };
}

/**
 * A mutation is labelled by what it did and where it stands ("supersede · pending review"), never by its belief's text:
 * the belief it concerns is its neighbour on the graph, and repeating the text put two identical labels side by side.
 */
export function mutationLabel(m: Pick<MutationRecord, "decision" | "status">): string {
  return `${m.decision} · ${m.status.replace(/_/g, " ")}`;
}

function mutationNode(m: MutationRecord): NodeElement {
  return { group: "nodes", data: { id: m.id, kind: "mutation", label: mutationLabel(m), scope: m.scope, decision: m.decision, mutationStatus: m.status } };
}

/** Key of an entry edge in `entryWeights`: the belief it bears on and the entry's seq. */
export function entryWeightKey(beliefId: string, seq: number): string {
  return `${beliefId}#${seq}`;
}

/**
 * Whether a reviewer's structural decision still stands, read from the beliefs it joins: a SUPERSEDES edge whose
 * older belief is no longer superseded (the supersession was undone and the belief reinstated), or a REFINES edge whose
 * refining belief waits for review again (the merge was undone), is drawn as dead. Edges are never deleted.
 */
function decisionStands(edge: GraphEdge, beliefs: ReadonlyMap<string, GraphSlice["beliefs"][number]>): boolean {
  if (edge.kind === "SUPERSEDES") {
    const older = beliefs.get(edge.to);
    return older === undefined || older.status === "superseded";
  }
  if (edge.kind === "REFINES") return beliefs.get(edge.from)?.reviewState !== "pending_review";
  return true;
}

function edgeWeight(edge: GraphEdge, entryWeights: ReadonlyMap<string, number> | undefined): number {
  if (!edge.live) return 0;
  if (edge.beliefId === null || edge.seq === null || !entryWeights) return 1;
  const w = entryWeights.get(entryWeightKey(edge.beliefId, edge.seq));
  return w === undefined || !Number.isFinite(w) ? 1 : Math.min(1, Math.max(0, w));
}

/**
 * `entryWeights` (optional) gives entry edges their replayed effective weight ∈ [0,1], keyed by `entryWeightKey`;
 * without it (or for an entry it lacks) a live edge weighs 1 and a dead one 0. Structural edges always weigh 1.
 */
export function toCytoscapeElements(slice: GraphSlice, filters: ElementFilters = {}, entryWeights?: ReadonlyMap<string, number>): GraphElements {
  const beliefs = new Map(slice.beliefs.filter((b) => keepBelief(b, filters)).map((b) => [b.id, b]));
  const others = new Map<string, NodeElement>();
  for (const e of slice.evidence) others.set(e.id, evidenceNode(e));
  for (const m of slice.mutations) others.set(m.id, mutationNode(m));
  const droppedBeliefs = new Set(slice.beliefs.filter((b) => !beliefs.has(b.id)).map((b) => b.id));

  const edges: EdgeElement[] = [];
  const used = new Set<string>();
  const allBeliefs = new Map(slice.beliefs.map((b) => [b.id, b]));
  for (const stored of slice.edges) {
    const edge = stored.live && !decisionStands(stored, allBeliefs) ? { ...stored, live: false } : stored;
    if (filters.edgeTypes && filters.edgeTypes.length > 0 && !filters.edgeTypes.includes(edge.kind)) continue;
    if (droppedBeliefs.has(edge.from) || droppedBeliefs.has(edge.to)) continue;
    const known = (id: string) => beliefs.has(id) || others.has(id);
    if (!known(edge.from) || !known(edge.to)) continue;
    used.add(edge.from);
    used.add(edge.to);
    edges.push({
      group: "edges",
      data: {
        id: edge.seq !== null ? `${edge.kind}:${edge.from}>${edge.to}#${edge.seq}` : `${edge.kind}:${edge.from}>${edge.to}`,
        source: edge.from,
        target: edge.to,
        type: edge.kind,
        live: edge.live,
        seq: edge.seq,
        weight: edgeWeight(edge, entryWeights),
      },
    });
  }
  const nodes = [...[...beliefs.values()].map(beliefNode), ...[...others.entries()].filter(([id]) => used.has(id)).map(([, node]) => node)];
  return { nodes, edges };
}
