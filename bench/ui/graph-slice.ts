/**
 * A generated scope for the rendering benchmark: `elements` ≈ nodes + edges, 40 % nodes (60 % beliefs, 35 %
 * evidence, 5 % mutations) and 60 % edges (evidence → belief SUPPORTS 60 % / REBUTS 25 % / CONTEXTUALIZES 15 %,
 * belief → belief SUPERSEDES / REFINES / SYNTHESIZES for one edge in ten, mutation → belief CONCERNS for one in
 * twenty). Beliefs cluster by topic (50 per topic) so the layout has structure. Deterministic for a seed (the
 * random numbers of bench/corpus.ts).
 */
import type { Belief, Evidence, MutationRecord } from "@/lib/engine/model";
import type { GraphEdge, GraphSlice } from "@/lib/graph/graph-store";
import { iso, rng } from "../corpus";

const TIME = iso(0);
const WORDS = ["deploy", "branch", "main", "release", "staging", "audit", "token", "cache", "latency", "rollback", "vendor", "patch", "policy", "queue", "schema"];

export function generateGraphSlice(elements: number, seed = 7): GraphSlice {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const nodeCount = Math.max(3, Math.round(elements * 0.4));
  const edgeCount = Math.max(0, elements - nodeCount);
  const beliefCount = Math.max(1, Math.round(nodeCount * 0.6));
  const mutationCount = Math.max(0, Math.round(nodeCount * 0.05));
  const evidenceCount = Math.max(1, nodeCount - beliefCount - mutationCount);

  const beliefs: Belief[] = Array.from({ length: beliefCount }, (_, i) => {
    const credence = random();
    const tension = random() < 0.7 ? random() * 0.2 : random();
    const text = `Claim ${i}: the ${pick(WORDS)} ${pick(WORDS)} holds for ${pick(WORDS)}`;
    return {
      id: `b${i}`, scope: "bench", topic: `topic-${Math.floor(i / 50)}`, text, key: text, quantity: null, contextTags: [], validFrom: TIME, supersedesId: null,
      version: 1, createdAt: TIME, updatedAt: TIME, credence, valence: 2 * credence - 1, confidence: random(), uncertainty: 0.5, supportCount: 1,
      contradictCount: 0, evidenceCount: 1, supportWeight: 1, rebuttalWeight: 0, tension, status: tension > 0.5 ? "disputed" : credence > 0.7 ? "supported" : "provisional",
      reviewState: "none", validUntil: null, paramsVersion: "p1",
    };
  });
  const evidence: Evidence[] = Array.from({ length: evidenceCount }, (_, i) => ({
    id: `e${i}`, scope: "bench", kind: "document", text: `Document ${i} about ${pick(WORDS)}`, uri: null, registeredBy: "bench", ess: null,
    reasoningType: null, discarded: false, createdAt: TIME, retractedAt: random() < 0.02 ? TIME : null,
  }));
  const mutations: MutationRecord[] = Array.from({ length: mutationCount }, (_, i) => ({
    id: `m${i}`, scope: "bench", topic: "topic-0", belief: `Proposal ${i}`, strength: 0.5, grantedCredence: null, reason: "bench", evidenceIds: [],
    sourceEvent: "bench", mutationType: "create", decision: "coexist", status: "applied", warnings: [], flags: [], conflictReport: null,
    beliefIds: [], review: null, actor: "bench", time: TIME,
  }) as unknown as MutationRecord);

  // Edges stay inside a topic's neighbourhood (±1 topic) most of the time, as real scopes do.
  const nearBelief = (anchor: number) => Math.min(beliefCount - 1, Math.max(0, anchor + Math.floor((random() - 0.5) * 100)));
  const edges: GraphEdge[] = [];
  for (let i = 0; i < edgeCount; i++) {
    const roll = random();
    const anchor = Math.floor(random() * beliefCount);
    const to = `b${nearBelief(anchor)}`;
    if (roll < 0.05 && mutationCount > 0) {
      edges.push({ kind: "CONCERNS", from: `m${Math.floor(random() * mutationCount)}`, to, beliefId: null, seq: null, live: true, time: TIME, changeSet: "c" });
    } else if (roll < 0.15) {
      const from = `b${nearBelief(anchor)}`;
      if (from !== to) edges.push({ kind: pick(["SUPERSEDES", "REFINES", "SYNTHESIZES"] as const), from, to, beliefId: null, seq: null, live: true, time: TIME, changeSet: "c" });
    } else {
      const r = random();
      const kind = r < 0.6 ? "SUPPORTS" : r < 0.85 ? "REBUTS" : "CONTEXTUALIZES";
      edges.push({ kind, from: `e${Math.floor((anchor / beliefCount) * evidenceCount + random() * 20) % evidenceCount}`, to, beliefId: to, seq: i + 1, live: random() > 0.03, time: TIME, changeSet: "c" });
    }
  }
  return { beliefs, evidence, mutations, edges };
}
