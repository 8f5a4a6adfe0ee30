/**
 * A scope export shaped like a real team's (the CLI's `import` format): beliefs in topics of uneven size, each with
 * evidence entries (mostly supporting, some rebutting) and some citing other beliefs, within their topic mostly and
 * across topics sometimes. Stored fields are the engine's replay of each history, so the scope passes `replay-check`.
 * Deterministic for (beliefs, seed), ids included. The graph benchmark and the large-scope browser journeys use it.
 */
import { makeEntry, paramsVersion, resolveParams, type Belief, type Evidence, type EvidenceEntry } from "@/lib/engine";
import { derivedFields, replay, withEntryOutputs } from "@/lib/engine/replay";
import type { GraphExpansion, GraphOverviewResult } from "@/lib/beliefs/belief-services";
import type { ScopeExport, TopicEdge } from "@/lib/graph/graph-store";
import { rng, words } from "./corpus";

const AREAS = ["deploys", "backups", "billing", "search", "auth", "alerts", "storage", "queues", "mobile", "pricing", "hiring", "vendors", "privacy", "latency", "releases", "onboarding"];
const ASPECTS = ["policy", "tooling", "incidents", "costs", "owners", "limits", "schedule", "audits"];

export interface TopicScopeOptions {
  scope?: string;
  seed?: number;
  /** Mean beliefs per topic (sizes vary from a fifth to twice this). */
  perTopic?: number;
}

export function generateTopicScope(beliefs: number, options: TopicScopeOptions = {}): ScopeExport {
  const scope = options.scope ?? "bench-scope";
  const r = rng(options.seed ?? 11);
  const perTopic = options.perTopic ?? 50;
  const params = resolveParams({});
  const version = paramsVersion(params);
  const t0 = Date.parse("2026-11-02T08:00:00.000Z");
  const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();

  // Topic sizes: uneven, summing to `beliefs`.
  const topics: { name: string; size: number }[] = [];
  let left = beliefs;
  for (let i = 0; left > 0; i++) {
    const size = Math.min(left, Math.max(3, Math.round(perTopic * (0.2 + 1.8 * r()))));
    const name = `${AREAS[i % AREAS.length]}-${ASPECTS[Math.floor(i / AREAS.length) % ASPECTS.length]}${i >= AREAS.length * ASPECTS.length ? `-${i}` : ""}`;
    topics.push({ name, size });
    left -= size;
  }
  const topicOf: string[] = [];
  topics.forEach((t) => {
    for (let k = 0; k < t.size; k++) topicOf.push(t.name);
  });
  const firstOfTopic = new Map<string, number>();
  topicOf.forEach((t, i) => {
    if (!firstOfTopic.has(t)) firstOfTopic.set(t, i);
  });

  const pad = (i: number) => String(i).padStart(6, "0");
  const evidence: Evidence[] = [];
  const evidenceCount = Math.max(1, Math.round(beliefs * 0.5));
  for (let i = 0; i < evidenceCount; i++) {
    evidence.push({ id: `ev-${pad(i)}`, scope, kind: "document", text: `Report ${i}: ${words(r, 7)}.`, uri: null, registeredBy: "bench", ess: 0.8, reasoningType: "documentary", discarded: false, createdAt: at(i % 600), retractedAt: null });
  }
  const records: ScopeExport["beliefs"][number][] = [];
  for (let i = 0; i < beliefs; i++) {
    const topic = topicOf[i] ?? "misc";
    // Beliefs of every topic are written all along the scope's life, not topic after topic.
    const created = at(600 + Math.floor(r() * beliefs * 4));
    const items: EvidenceEntry[] = [];
    const entries = 1 + Math.floor(r() * 3);
    const contested = r() < 0.12;
    for (let k = 0; k < entries; k++) {
      const ev = evidence[Math.floor(((i / beliefs) * evidenceCount + r() * 30) % evidenceCount)]!;
      const relation = contested && k === entries - 1 ? "REBUTS" : r() < 0.06 ? "REBUTS" : "SUPPORTS";
      items.push(makeEntry({ seq: items.length + 1, sourceId: ev.id, sourceKind: "evidence", relation, tier: "document", weight: 0.4 + 0.6 * r(), ess: 0.8, time: new Date(Date.parse(created) + (k + 1) * 60_000).toISOString(), actor: "bench", changeSet: `cs-${pad(i)}` }));
    }
    // Citations of earlier beliefs: of the same topic mostly, of another topic one time in five.
    if (i > 0 && r() < 0.35) {
      const sameTopic = r() < 0.8;
      const first = firstOfTopic.get(topic) ?? 0;
      const target = sameTopic && i > first ? first + Math.floor(r() * (i - first)) : Math.floor(r() * i);
      items.push(makeEntry({ seq: items.length + 1, sourceId: `b-${pad(target)}`, sourceKind: "belief", relation: r() < 0.25 ? "REBUTS" : "SUPPORTS", tier: "document", weight: 0.5, ess: 0.8, time: new Date(Date.parse(created) + (entries + 1) * 60_000).toISOString(), actor: "bench", changeSet: `cs-${pad(i)}` }));
    }
    const text = `${topic.replace(/-/g, " ")} ${i}: ${words(r, 6)}.`;
    const state = replay(items, params);
    const history = withEntryOutputs(items, state);
    const last = history.at(-1)?.time ?? created;
    const belief: Belief = {
      id: `b-${pad(i)}`, scope, topic, text, key: text.toLowerCase(), quantity: null, contextTags: [], validFrom: created, supersedesId: null,
      version: history.length, createdAt: created, updatedAt: last, ...derivedFields(state), paramsVersion: version,
    };
    records.push({ belief, history });
  }
  return {
    format: "credence.scope-export",
    formatVersion: 1,
    scope,
    beliefs: records.sort((a, b) => (a.belief.id < b.belief.id ? -1 : 1)),
    evidence,
    mutations: [],
    edges: [],
    topicFreezes: [],
  };
}

/**
 * What the store's `graphOverview` answers for this export (per-topic counts and highest tension, live relations
 * between topics, the most contested and most recent beliefs), computed in memory for the rendering benchmark.
 */
export function overviewOf(data: ScopeExport, notable = 40): GraphOverviewResult {
  const topics = new Map<string, { topic: string; beliefs: number; live: number; maxTension: number; contested: number; updatedAt: string }>();
  for (const { belief: b } of data.beliefs) {
    const t = topics.get(b.topic) ?? { topic: b.topic, beliefs: 0, live: 0, maxTension: 0, contested: 0, updatedAt: b.updatedAt };
    t.beliefs += 1;
    t.live += 1;
    t.maxTension = Math.max(t.maxTension, b.tension);
    if (b.tension >= 0.25) t.contested += 1;
    if (b.updatedAt > t.updatedAt) t.updatedAt = b.updatedAt;
    topics.set(b.topic, t);
  }
  const links = new Map<string, { from: string; to: string; relations: number; rebuttals: number }>();
  for (const e of beliefEdges(data)) {
    if (e.fromTopic === e.toTopic) continue;
    const [from, to] = [e.fromTopic, e.toTopic].sort() as [string, string];
    const l = links.get(`${from}|${to}`) ?? { from, to, relations: 0, rebuttals: 0 };
    l.relations += 1;
    if (e.kind === "REBUTS") l.rebuttals += 1;
    links.set(`${from}|${to}`, l);
  }
  const all = data.beliefs.map((r) => r.belief);
  return {
    scope: data.scope,
    beliefs: all.length,
    topics: [...topics.values()].sort((a, b) => (a.topic < b.topic ? -1 : 1)),
    links: [...links.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : 1)),
    contested: all.filter((b) => b.tension >= 0.25).sort((a, b) => b.tension - a.tension || (a.id < b.id ? -1 : 1)).slice(0, notable),
    recent: [...all].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id < b.id ? -1 : 1)).slice(0, notable),
  };
}

/** The live belief-to-belief entry edges of the export, with both ends' topics (`beliefLinks` of the store). */
export function beliefEdges(data: ScopeExport): TopicEdge[] {
  const topicOf = new Map(data.beliefs.map((r) => [r.belief.id, r.belief.topic]));
  const out: TopicEdge[] = [];
  for (const { belief, history } of data.beliefs)
    for (const item of history) {
      if (item.type !== "entry" || item.sourceKind !== "belief" || item.sourceId === null) continue;
      const fromTopic = topicOf.get(item.sourceId);
      if (fromTopic === undefined) continue;
      out.push({ kind: item.relation, from: item.sourceId, to: belief.id, beliefId: belief.id, seq: item.seq, live: true, time: item.time, changeSet: item.changeSet, fromTopic, toTopic: belief.topic });
    }
  return out;
}

/** A topic's first page as `graphExpand` answers it: its beliefs (by id, at most `limit`) and the edges touching them. */
export function topicPageOf(data: ScopeExport, topic: string, limit = 300): GraphExpansion {
  const beliefs = data.beliefs.map((r) => r.belief).filter((b) => b.topic === topic).slice(0, limit);
  const ids = new Set(beliefs.map((b) => b.id));
  return { beliefs, evidence: [], mutations: [], edges: beliefEdges(data).filter((e) => ids.has(e.from) || ids.has(e.to)), next: null };
}
