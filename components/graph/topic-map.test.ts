import { describe, expect, it } from "vitest";
import type { Belief } from "@/lib/engine/model";
import type { GraphExpansion, GraphOverviewResult } from "@/lib/beliefs/belief-services";
import { layoutTopics, topicMapElements, topicNodeId, topicSize } from "./topic-map";

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

describe("topicMapElements", () => {
  const topicPositions = layoutTopics(topics, links);

  it("draws one node per topic, the contested and recent beliefs beside theirs, and the links", () => {
    const map = topicMapElements({ overview, expanded: new Map(), local: null, topicPositions, fixed: new Map() });
    expect(map.nodes.filter((n) => n.data.kind === "topic")).toHaveLength(30);
    expect(map.nodes.map((n) => n.data.id)).toEqual(expect.arrayContaining(["hot", "new"]));
    expect(map.edges).toHaveLength(links.length);
    const hot = map.nodes.find((n) => n.data.id === "hot")!.position!;
    const t01 = topicPositions.get("t01")!;
    expect(Math.hypot(hot.x - t01.x, hot.y - t01.y)).toBeLessThan(topicSize(topics[1]!.beliefs) / 2 + 60);
    expect(map.nodes.every((n) => n.position !== undefined)).toBe(true);
  });

  it("expands a topic in place: its beliefs around where it stood, edges to other topics drawn to their topic node", () => {
    const page: GraphExpansion = {
      beliefs: [belief("a", "t05"), belief("b", "t05", 0.4)],
      evidence: [],
      mutations: [],
      edges: [
        { kind: "REBUTS", from: "a", to: "b", beliefId: "b", seq: 1, live: true, time: "2026-01-01T00:00:00.000Z", changeSet: "c", fromTopic: "t05", toTopic: "t05" },
        { kind: "SUPPORTS", from: "x9", to: "a", beliefId: "a", seq: 2, live: true, time: "2026-01-01T00:00:00.000Z", changeSet: "c", fromTopic: "t09", toTopic: "t05" },
      ],
      next: null,
    };
    const map = topicMapElements({ overview, expanded: new Map([["t05", [page]]]), local: null, topicPositions, fixed: new Map() });
    const ids = map.nodes.map((n) => n.data.id);
    expect(ids).not.toContain(topicNodeId("t05"));
    expect(ids).toEqual(expect.arrayContaining(["a", "b"]));
    const centre = topicPositions.get("t05")!;
    for (const id of ["a", "b"]) {
      const p = map.nodes.find((n) => n.data.id === id)!.position!;
      expect(Math.hypot(p.x - centre.x, p.y - centre.y)).toBeLessThan(60);
    }
    expect(map.edges.map((e) => [e.data.source, e.data.target])).toEqual(expect.arrayContaining([["a", "b"], ["a", topicNodeId("t09")]]));
    // Nothing else moved.
    const before = topicMapElements({ overview, expanded: new Map(), local: null, topicPositions, fixed: new Map() });
    const t09 = (m: typeof map) => m.nodes.find((n) => n.data.id === topicNodeId("t09"))!.position;
    expect(t09(map)).toEqual(t09(before));
  });

  it("keeps a moved or stored position over the computed one", () => {
    const fixed = new Map([[topicNodeId("t03"), { x: 1234, y: -55 }]]);
    const map = topicMapElements({ overview, expanded: new Map(), local: null, topicPositions, fixed });
    expect(map.nodes.find((n) => n.data.id === topicNodeId("t03"))!.position).toEqual({ x: 1234, y: -55 });
  });

  it("adds a belief's local graph on rings around it", () => {
    const expansion: GraphExpansion = {
      beliefs: [belief("hot", "t01", 0.8), belief("n1", "t01")],
      evidence: [{ id: "ev", scope: "s", kind: "document", text: "A memo.", uri: null, registeredBy: "u", ess: null, reasoningType: null, discarded: false, createdAt: "2026-01-01T00:00:00.000Z", retractedAt: null }],
      mutations: [],
      edges: [
        { kind: "SUPPORTS", from: "ev", to: "hot", beliefId: "hot", seq: 1, live: true, time: "2026-01-01T00:00:00.000Z", changeSet: "c" },
        { kind: "REBUTS", from: "n1", to: "hot", beliefId: "hot", seq: 2, live: true, time: "2026-01-01T00:00:00.000Z", changeSet: "c" },
      ],
      next: null,
    };
    const map = topicMapElements({ overview, expanded: new Map(), local: { id: "hot", expansion }, topicPositions, fixed: new Map() });
    const hot = map.nodes.find((n) => n.data.id === "hot")!.position!;
    for (const id of ["ev", "n1"]) {
      const p = map.nodes.find((n) => n.data.id === id)!.position!;
      expect(Math.hypot(p.x - hot.x, p.y - hot.y)).toBeCloseTo(90, 0);
    }
    expect(map.edges.filter((e) => e.data.target === "hot")).toHaveLength(2);
    // The view centres on the local graph: the belief and what hangs from it, nothing else.
    expect([...map.focus].sort()).toEqual(["ev", "hot", "n1"]);
    expect(topicMapElements({ overview, expanded: new Map(), local: null, topicPositions, fixed: new Map() }).focus).toEqual([]);
  });
});
