import { describe, expect, it } from "vitest";
import type { Belief } from "@/lib/engine/model";
import type { GraphExpansion, GraphOverviewResult } from "@/lib/beliefs/belief-services";
import type { StyledNode } from "./graph-style";
import { layoutTopics, localGraphElements, topicMapElements, topicNodeId, topicSize, type Point } from "./topic-map";

function belief(id: string, topic: string, tension = 0): Belief {
  return {
    id, scope: "s", topic, text: `Claim ${id} about ${topic}.`, key: id, quantity: null, contextTags: [], validFrom: "2026-01-01T00:00:00.000Z", supersedesId: null,
    version: 1, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", credence: 0.6, valence: 0.2, confidence: 0.3, uncertainty: 0.7,
    supportCount: 1, contradictCount: 0, evidenceCount: 1, supportWeight: 1, rebuttalWeight: 0, tension, status: "provisional", reviewState: "none", validUntil: null, paramsVersion: "p",
  };
}

const topics = Array.from({ length: 30 }, (_, i) => ({ topic: `t${String(i).padStart(2, "0")}`, beliefs: 10 + ((i * 37) % 90), live: 10, maxTension: (i % 5) / 5, contested: i % 3, updatedAt: "2026-01-01T00:00:00.000Z" }));
const links = Array.from({ length: 40 }, (_, i) => ({ from: `t${String(i % 30).padStart(2, "0")}`, to: `t${String((i * 7 + 3) % 30).padStart(2, "0")}`, relations: 1 + (i % 6), rebuttals: i % 2 })).filter((l, i, all) => l.from < l.to && all.findIndex((m) => m.from === l.from && m.to === l.to) === i);
const overview: GraphOverviewResult = { scope: "s", beliefs: topics.reduce((s, t) => s + t.beliefs, 0), topics, links, contested: [belief("hot", "t01", 0.8)], recent: [belief("new", "t02")] };

describe("layoutTopics", () => {
  it("places the same topics at the same points every time, whatever order they arrive in", () => {
    const a = layoutTopics(topics, links);
    const b = layoutTopics([...topics].reverse(), [...links].reverse());
    expect([...a.entries()].sort()).toEqual([...b.entries()].sort());
    expect(a.size).toBe(topics.length);
  });

  it("never lets two topics overlap", () => {
    const at = layoutTopics(topics, links);
    for (const x of topics)
      for (const y of topics) {
        if (x.topic >= y.topic) continue;
        const p = at.get(x.topic)!;
        const q = at.get(y.topic)!;
        expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeGreaterThanOrEqual((topicSize(x.beliefs) + topicSize(y.beliefs)) / 2);
      }
  });
});

/** Pairs of drawn nodes whose discs overlap (topics as their circumscribed circle). */
function overlaps(nodes: readonly StyledNode[]): string[] {
  const bad: string[] = [];
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++) {
      const [a, b] = [nodes[i]!, nodes[j]!];
      if (Math.hypot(a.position!.x - b.position!.x, a.position!.y - b.position!.y) < (a.data.size + b.data.size) / 2) bad.push(`${a.data.id}|${b.data.id}`);
    }
  return bad;
}

const pageOf = (topic: string, count: number): GraphExpansion => ({
  beliefs: Array.from({ length: count }, (_, i) => ({ ...belief(`${topic}-b${i}`, topic, (i % 7) / 7), credence: (i % 10) / 10 })),
  evidence: [],
  mutations: [],
  edges: [],
  next: null,
});

const at = (map: { nodes: StyledNode[] }, id: string) => map.nodes.find((n) => n.data.id === id)?.position;

describe("topicMapElements", () => {
  const topicPositions = layoutTopics(topics, links);

  it("draws one node per topic, the contested and recent beliefs orbiting theirs, and the links, none overlapping", () => {
    const map = topicMapElements({ overview, expanded: new Map(), topicPositions, fixed: new Map() });
    expect(map.nodes.filter((n) => n.data.kind === "topic")).toHaveLength(30);
    expect(map.nodes.map((n) => n.data.id)).toEqual(expect.arrayContaining(["hot", "new"]));
    expect(map.edges).toHaveLength(links.length);
    const hot = at(map, "hot")!;
    const t01 = at(map, topicNodeId("t01"))!;
    expect(Math.hypot(hot.x - t01.x, hot.y - t01.y)).toBeLessThan(topicSize(topics[1]!.beliefs) / 2 + 80);
    expect(map.nodes.every((n) => n.position !== undefined)).toBe(true);
    expect(overlaps(map.nodes)).toEqual([]);
  });

  it("expands a topic where it stood, its beliefs packed without overlap, the most contested at the centre; the others make room", () => {
    const page: GraphExpansion = {
      ...pageOf("t05", 60),
      edges: [
        { kind: "REBUTS", from: "t05-b1", to: "t05-b2", beliefId: "t05-b2", seq: 1, live: true, time: "2026-01-01T00:00:00.000Z", changeSet: "c", fromTopic: "t05", toTopic: "t05" },
        { kind: "SUPPORTS", from: "x9", to: "t05-b1", beliefId: "t05-b1", seq: 2, live: true, time: "2026-01-01T00:00:00.000Z", changeSet: "c", fromTopic: "t09", toTopic: "t05" },
      ],
    };
    const before = topicMapElements({ overview, expanded: new Map(), topicPositions, fixed: new Map() });
    const map = topicMapElements({ overview, expanded: new Map([["t05", [page]]]), topicPositions, fixed: new Map() });
    const ids = map.nodes.map((n) => n.data.id);
    expect(ids).not.toContain(topicNodeId("t05"));
    expect(ids.filter((id) => id.startsWith("t05-b"))).toHaveLength(60);
    expect(overlaps(map.nodes)).toEqual([]);
    // At the centre: where the topic stood, and one of its most contested beliefs.
    const centre = at(before, topicNodeId("t05"))!;
    expect(map.nodes.find((n) => n.position!.x === centre.x && n.position!.y === centre.y)?.data.tension).toBeCloseTo(6 / 7, 6);
    expect(map.edges.map((e) => [e.data.source, e.data.target])).toEqual(expect.arrayContaining([["t05-b1", "t05-b2"], ["t05-b1", topicNodeId("t09")]]));
    // A topic that moved made room: it is farther from the expansion than it was.
    let moved = 0;
    for (const t of topics) {
      if (t.topic === "t05") continue;
      const [p, q] = [at(before, topicNodeId(t.topic))!, at(map, topicNodeId(t.topic))!];
      if (p.x === q.x && p.y === q.y) continue;
      moved += 1;
      expect(Math.hypot(q.x - centre.x, q.y - centre.y)).toBeGreaterThan(Math.hypot(p.x - centre.x, p.y - centre.y));
    }
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(topics.length - 1);
  });

  it("keeps two expanded neighbours and every orbit apart", () => {
    const map = topicMapElements({ overview, expanded: new Map([["t05", [pageOf("t05", 80)]], ["t06", [pageOf("t06", 40)]]]), topicPositions, fixed: new Map() });
    expect(overlaps(map.nodes)).toEqual([]);
  });

  it("draws a stored picture as stored: the drawn positions, stored and drawn again, come back the same", () => {
    const expanded = new Map([["t05", [pageOf("t05", 60)]]]);
    const first = topicMapElements({ overview, expanded, topicPositions, fixed: new Map() });
    // What a saved view stores: every node drawn, and where each expanded topic stands.
    const stored = new Map([...first.nodes.map((n): [string, Point] => [n.data.id, n.position!]), ...first.centres]);
    expect([...first.centres.keys()]).toEqual([topicNodeId("t05")]);
    const again = topicMapElements({ overview, expanded, topicPositions: new Map(), fixed: stored });
    expect(again.nodes.map((n) => [n.data.id, n.position])).toEqual(first.nodes.map((n) => [n.data.id, n.position]));
  });

  it("expands the same from the computed layout and from the stored collapsed map (a scope's saved layout)", () => {
    const expanded = new Map([["t05", [pageOf("t05", 60)]]]);
    const collapsed = topicMapElements({ overview, expanded: new Map(), topicPositions, fixed: new Map() });
    const stored = new Map(collapsed.nodes.filter((n) => n.data.kind === "topic").map((n): [string, Point] => [n.data.id, n.position!]));
    const fromComputed = topicMapElements({ overview, expanded, topicPositions, fixed: new Map() });
    const fromStored = topicMapElements({ overview, expanded, topicPositions, fixed: stored });
    expect(fromStored.nodes.map((n) => [n.data.id, n.position])).toEqual(fromComputed.nodes.map((n) => [n.data.id, n.position]));
  });

  it("keeps a pinned node where the user put it, and its orbit follows it", () => {
    const fixed = new Map([[topicNodeId("t01"), { x: 1234, y: -55 }]]);
    const map = topicMapElements({ overview, expanded: new Map(), topicPositions, fixed, pinned: new Set([topicNodeId("t01")]) });
    expect(at(map, topicNodeId("t01"))).toEqual({ x: 1234, y: -55 });
    const hot = at(map, "hot")!;
    expect(Math.hypot(hot.x - 1234, hot.y + 55)).toBeLessThan(topicSize(topics[1]!.beliefs) / 2 + 80);
    const pinnedBelief = topicMapElements({ overview, expanded: new Map(), topicPositions, fixed: new Map([["hot", { x: 9, y: 9 }]]), pinned: new Set(["hot"]) });
    expect(at(pinnedBelief, "hot")).toEqual({ x: 9, y: 9 });
  });
});

describe("localGraphElements", () => {
  it("draws a belief's neighbourhood on its own: the belief at the centre, one step away on a ring around it, two steps further out", () => {
    const expansion: GraphExpansion = {
      beliefs: [belief("hot", "t01", 0.8), belief("n1", "t01"), belief("n2", "t07")],
      evidence: [{ id: "ev", scope: "s", kind: "document", text: "A memo.", uri: null, registeredBy: "u", ess: null, reasoningType: null, discarded: false, createdAt: "2026-01-01T00:00:00.000Z", retractedAt: null }],
      mutations: [],
      edges: [
        { kind: "SUPPORTS", from: "ev", to: "hot", beliefId: "hot", seq: 1, live: true, time: "2026-01-01T00:00:00.000Z", changeSet: "c" },
        { kind: "REBUTS", from: "n1", to: "hot", beliefId: "hot", seq: 2, live: true, time: "2026-01-01T00:00:00.000Z", changeSet: "c" },
        { kind: "SUPPORTS", from: "n2", to: "n1", beliefId: "n1", seq: 3, live: true, time: "2026-01-01T00:00:00.000Z", changeSet: "c" },
      ],
      next: null,
    };
    const map = localGraphElements("hot", expansion);
    expect(map.nodes.map((n) => n.data.id).sort()).toEqual(["ev", "hot", "n1", "n2"]);
    expect(map.nodes.some((n) => n.data.kind === "topic")).toBe(false);
    const r = (id: string) => Math.hypot(at(map, id)!.x, at(map, id)!.y);
    expect(r("hot")).toBe(0);
    expect(r("ev")).toBeCloseTo(r("n1"), 0);
    expect(r("n2")).toBeGreaterThan(r("n1"));
    expect(overlaps(map.nodes)).toEqual([]);
    expect(map.edges).toHaveLength(3);
    expect([...map.beliefs.keys()].sort()).toEqual(["hot", "n1", "n2"]);
    expect(localGraphElements("hot", expansion).nodes).toEqual(map.nodes);
  });
});
