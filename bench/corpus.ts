/**
 * The one generator of benchmark data: seeded random numbers, a made-up vocabulary with a Zipf-like skew, sentences,
 * beliefs, evidence, change-sets, long histories and graph slices. Every benchmark draws from here, so two benchmarks
 * that measure the same kind of data measure the same data (the stores' `bench:store` columns compare like with like,
 * `bench:write` stores the history `bench:engine` replays). No Node-only imports: the `bench:ui` page bundles it for
 * the browser.
 */
import {
  emptyChangeSet,
  makeContraction,
  makeEntry,
  makeRetracted,
  makeRevised,
  TIERS,
  type Belief,
  type ChangeSet,
  type Evidence,
  type HistoryItem,
} from "@/lib/engine";

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

/**
 * `count` words drawn Zipf-like (index = ⌊size · u^skew⌋: low indices are common, so queries hit small and large
 * candidate sets alike) from the first `vocabulary` words of VOCAB.
 */
export function words(r: () => number, count: number, { vocabulary = VOCAB.length, skew = 2 } = {}): string {
  const size = Math.min(vocabulary, VOCAB.length);
  return Array.from({ length: count }, () => VOCAB[Math.floor(size * r() ** skew)] ?? "x").join(" ");
}

export function sentence(r: () => number, count = 8): string {
  return `${words(r, count)}.`;
}

let idCounter = 0;
/** This run's id, in every generated id and in the Neo4j bench namespace. */
export const run = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(3)), (b) => b.toString(16).padStart(2, "0")).join("");
/** Ids unique across runs and processes sharing one database. */
export const nid = (prefix: string) => `${prefix}_${run}_${(++idCounter).toString(36)}`;

export function belief(scope: string, text: string, at: string, overrides: Partial<Belief> = {}): Belief {
  return {
    id: overrides.id ?? nid("b"),
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
    ...overrides,
  };
}

export function evidence(scope: string, at: string, overrides: Partial<Evidence> = {}): Evidence {
  return { id: overrides.id ?? nid("ev"), scope, kind: "document", text: "bench source", uri: null, registeredBy: "bench", ess: null, reasoningType: null, discarded: false, createdAt: at, retractedAt: null, ...overrides };
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


/**
 * A long history with a realistic mix: 10 entries per change-set, 7 actors, all six tiers, 15 % rebuttals, 5 %
 * contextualising, 10 % unverified, 1 % retracted, 1 % revised, one contraction (from 100 entries on); deterministic
 * for `n`. Without `sources` the entries cite made-up ids (`src-0` … `src-3999`, 5 % cite nothing, 3 % are marked
 * laundered): for the pure engine. With `sources` they cite those ids (Evidence rows a store holds) and none is
 * laundered.
 */
export function history(n: number, sources?: readonly string[]): HistoryItem[] {
  const r = rng(n);
  const items: HistoryItem[] = [];
  let seq = 0;
  for (let k = 0; k < n; k++) {
    const cs = Math.floor(k / 10);
    const x = r();
    const tier = TIERS[Math.floor(r() * TIERS.length)] ?? "document";
    const verified = r() > 0.1;
    const cites = r() >= 0.05;
    const sourceId = !cites ? null : sources ? (sources[Math.floor(r() * sources.length)] ?? null) : `src-${Math.floor(r() * 4000)}`;
    items.push(
      makeEntry({
        seq: ++seq,
        sourceId,
        sourceKind: sources || verified ? "evidence" : null,
        relation: x < 0.15 ? "REBUTS" : x < 0.2 ? "CONTEXTUALIZES" : "SUPPORTS",
        tier,
        verified,
        effectiveTier: verified ? tier : "model_assertion",
        weight: r(),
        ess: 0.3 + 0.7 * r(),
        launderingReason: !sources && r() < 0.03 ? "ungrounded_belief" : null,
        actor: `actor-${cs % 7}`,
        time: iso(cs * 4 * 60_000),
        changeSet: `cs-${cs}`,
      }),
    );
  }
  const last = iso(n * 60_000);
  for (let k = 0; k < Math.floor(n / 100); k++) {
    items.push(makeRetracted({ seq: ++seq, targetSeq: 1 + Math.floor(r() * n), time: last }));
    items.push(makeRevised({ seq: ++seq, targetSeq: 1 + Math.floor(r() * n), weight: r(), time: last }));
  }
  if (n >= 100) items.push(makeContraction({ seq: ++seq, severity: 0.2, time: last }));
  return items;
}
