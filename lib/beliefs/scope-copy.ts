/**
 * A scope export given new ids, so it can be imported beside the scope it came from: item ids are unique across the
 * whole store, and importing an export unchanged into the same server is refused (`import_conflict`). Every belief,
 * evidence and mutation id gets a fresh one, and every string value in the document equal to one of those ids (history
 * entries' sources, supersession and duplicate links, review links, conflict reports, edges, mutation lists) is
 * rewritten the same way, so the copy's links point at the copy. Ids of items outside the export (cited through a
 * grant) are left as they are; ids written inside free text (a reason quoting "ev_12") are not rewritten.
 */
import type { ScopeExport } from "@/lib/graph/graph-store";

export type FreshId = (kind: "belief" | "evidence" | "mutation") => string;

export function rekeyScopeExport(data: ScopeExport, freshId: FreshId): ScopeExport {
  const renamed = new Map<string, string>();
  for (const { belief } of data.beliefs) renamed.set(belief.id, freshId("belief"));
  for (const evidence of data.evidence) renamed.set(evidence.id, freshId("evidence"));
  for (const mutation of data.mutations) renamed.set(mutation.id, freshId("mutation"));
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return renamed.get(value) ?? value;
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) out[key] = walk(inner);
      return out;
    }
    return value;
  };
  return walk(data) as ScopeExport;
}
