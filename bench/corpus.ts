/**
 * The benchmark corpus every store's `bench:store` rows are measured on (SQL in `bench/store.ts`, Neo4j in
 * `bench/neo4j-store.ts`): the same seeded vocabulary, sentences, beliefs, evidence and change-sets, so the columns
 * of the table compare like with like.
 */
import { randomBytes } from "node:crypto";
import { emptyChangeSet, type Belief, type ChangeSet, type Evidence, type HistoryItem } from "@/lib/engine";

export const BATCH = 2_000;
export const SINGLE = 200;
export const QUERIES = 60;
export const CHAIN = 10_000;

export const T0 = Date.parse("2026-01-05T09:00:00.000Z");
export const iso = (ms: number) => new Date(T0 + ms).toISOString();

/** Deterministic pseudo-random numbers (mulberry32) so every run writes the same corpus. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const VOCAB = Array.from({ length: 3_000 }, (_, i) => {
  const syl = ["ka", "lo", "mi", "ren", "tus", "dor", "ve", "sal", "pri", "gon", "el", "ba"];
  let w = "";
  let x = i + 7;
  for (let k = 0; k < 3; k++) {
    w += syl[x % syl.length];
    x = Math.floor(x / syl.length) + k * 5;
  }
  return `${w}${i % 10 === 0 ? "" : i.toString(36)}`;
});

export function sentence(r: () => number, words = 8): string {
  // Zipf-like: low indices are common, so queries hit small and large candidate sets alike.
  const pick = () => VOCAB[Math.floor(VOCAB.length * r() ** 2)] ?? "x";
  return `${Array.from({ length: words }, pick).join(" ")}.`;
}

let idCounter = 0;
/** This run's id, in every generated id and in the Neo4j bench namespace. */
export const run = randomBytes(3).toString("hex");
/** Ids unique across runs and processes sharing one database. */
export const nid = (prefix: string) => `${prefix}_${run}_${(++idCounter).toString(36)}`;

export function belief(scope: string, text: string, at: string): Belief {
  return {
    id: nid("b"),
    scope,
    topic: "bench",
    text,
    key: `${text.toLowerCase()} ${idCounter}`,
    quantity: null,
    contextTags: [],
    validFrom: at,
    supersedesId: null,
    version: 1,
    createdAt: at,
    updatedAt: at,
    credence: 0.6224593312018546,
    valence: 0.2449186624037092,
    confidence: 0.1,
    uncertainty: 0.9,
    supportCount: 1,
    contradictCount: 0,
    evidenceCount: 1,
    supportWeight: 0.5,
    rebuttalWeight: 0,
    tension: 0,
    status: "provisional",
    reviewState: "none",
    validUntil: null,
    paramsVersion: "bench",
  };
}

export function evidence(scope: string, at: string): Evidence {
  return { id: nid("ev"), scope, kind: "document", text: "bench source", uri: null, registeredBy: "bench", ess: null, reasoningType: null, discarded: false, createdAt: at, retractedAt: null };
}

export function entry(sourceId: string, at: string, sourceKind: "evidence" | "belief" = "evidence"): HistoryItem {
  return {
    type: "entry",
    seq: 1,
    time: at,
    actor: "bench",
    changeSet: "bench",
    sourceId,
    sourceKind,
    relation: "SUPPORTS",
    tier: "document",
    weight: 1,
    ess: 1,
    verified: true,
    effectiveTier: "document",
    launderingReason: null,
    reasoning: null,
    assessor: "caller",
    contribution: 0.5,
    effectiveWeight: 1,
  };
}

/** One change-set of `n` new beliefs, each with one verified entry citing its own Evidence item. */
export function batch(scope: string, n: number, r: () => number, at: string): ChangeSet {
  const cs = emptyChangeSet(nid("cs"), "bench", at);
  const evs: Evidence[] = [];
  const beliefs: Belief[] = [];
  const history: { beliefId: string; items: HistoryItem[] }[] = [];
  for (let i = 0; i < n; i++) {
    const ev = evidence(scope, at);
    const b = belief(scope, sentence(r), at);
    evs.push(ev);
    beliefs.push(b);
    history.push({ beliefId: b.id, items: [entry(ev.id, at)] });
  }
  return { ...cs, evidence: evs, beliefs: beliefs.map((b) => ({ belief: b, expectedVersion: null })), history };
}

