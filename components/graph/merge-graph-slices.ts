import type { GraphSlice } from "@/lib/graph/graph-store";

/** Union of slices (focus + expanded neighbourhoods): nodes by id, edges by (kind, from, to, seq); first copy wins. */
export function mergeGraphSlices(slices: readonly GraphSlice[]): GraphSlice {
  if (slices.length === 1 && slices[0]) return slices[0];
  const beliefs = new Map<string, GraphSlice["beliefs"][number]>();
  const evidence = new Map<string, GraphSlice["evidence"][number]>();
  const mutations = new Map<string, GraphSlice["mutations"][number]>();
  const edges = new Map<string, GraphSlice["edges"][number]>();
  for (const slice of slices) {
    for (const b of slice.beliefs) if (!beliefs.has(b.id)) beliefs.set(b.id, b);
    for (const e of slice.evidence) if (!evidence.has(e.id)) evidence.set(e.id, e);
    for (const m of slice.mutations) if (!mutations.has(m.id)) mutations.set(m.id, m);
    for (const e of slice.edges) {
      const key = `${e.kind}\u0000${e.from}\u0000${e.to}\u0000${e.seq ?? ""}`;
      if (!edges.has(key)) edges.set(key, e);
    }
  }
  return { beliefs: [...beliefs.values()], evidence: [...evidence.values()], mutations: [...mutations.values()], edges: [...edges.values()] };
}
