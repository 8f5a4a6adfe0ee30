/**
 * The other side of a belief's conflicts, read from its graph neighbourhood (two hops: its sources, then what those
 * sources bear on), one item per source that carries a conflict:
 * - `this_rebuts`: a source that supports this belief rebuts others (this belief's side wins or holds against them);
 * - `rebuts_this`: a source that rebuts this belief supports others (their side is the one against it).
 * A belief cited directly as a source is its own side. A text with several claims bears on several beliefs; which
 * claim did what is not recorded on the entries, so an item names every belief the source bears on that way.
 */
import type { Belief } from "@/lib/engine/model";
import type { GraphEdge, GraphSlice } from "@/lib/graph/graph-store";

export interface ConflictSide {
  side: "this_rebuts" | "rebuts_this";
  sourceId: string;
  /** The source's text when it is evidence the slice holds; null for a cited belief (it is `beliefs[0]` or this one). */
  text: string | null;
  /** The beliefs on the other side through this source. */
  beliefs: Belief[];
}

const ENTRY_KINDS: ReadonlySet<string> = new Set(["SUPPORTS", "REBUTS", "CONTEXTUALIZES"]);

export function rivalsOf(beliefId: string, slice: GraphSlice): ConflictSide[] {
  const beliefs = new Map(slice.beliefs.map((b) => [b.id, b]));
  const evidenceText = new Map(slice.evidence.map((e) => [e.id, e.text]));
  const entries = slice.edges.filter((e): e is GraphEdge & { beliefId: string } => e.live && e.beliefId !== null && ENTRY_KINDS.has(e.kind));
  // How each source bears on this belief now.
  const onThis = new Map<string, Set<string>>();
  for (const e of entries) if (e.beliefId === beliefId) onThis.set(e.from, (onThis.get(e.from) ?? new Set()).add(e.kind));
  const found = new Map<string, ConflictSide>();
  const add = (side: ConflictSide["side"], sourceId: string, other: string) => {
    const belief = beliefs.get(other);
    if (!belief || other === beliefId) return;
    const key = `${side}\u0000${sourceId}`;
    const item = found.get(key) ?? { side, sourceId, text: evidenceText.get(sourceId) ?? null, beliefs: [] };
    if (!item.beliefs.some((b) => b.id === other)) item.beliefs.push(belief);
    found.set(key, item);
  };
  for (const e of entries) {
    if (e.beliefId === beliefId) {
      // A belief cited directly as a rebuttal of this one is its own side.
      if (e.kind === "REBUTS" && beliefs.has(e.from)) add("rebuts_this", e.from, e.from);
      continue;
    }
    if (e.from === beliefId) {
      if (e.kind === "REBUTS") add("this_rebuts", beliefId, e.beliefId);
      continue;
    }
    const here = onThis.get(e.from);
    if (!here) continue;
    if (here.has("SUPPORTS") && e.kind === "REBUTS") add("this_rebuts", e.from, e.beliefId);
    if (here.has("REBUTS") && e.kind === "SUPPORTS") add("rebuts_this", e.from, e.beliefId);
  }
  const items = [...found.values()];
  for (const item of items) item.beliefs.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return items.sort((a, b) => (a.side !== b.side ? (a.side === "rebuts_this" ? -1 : 1) : a.sourceId < b.sourceId ? -1 : 1));
}
