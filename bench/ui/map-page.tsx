/**
 * The topic-map benchmark page (bundled by bench/ui.ts): a generated scope of `?map=N` beliefs in topics → its
 * overview and topic pages as the server answers them (bench/topic-scope.ts) → topicMapElements → GraphCanvas with
 * preset positions, the explorer's own pipeline without Next.js or a database. The data is made before the clock
 * starts (the server's work is not the page's), and the page keeps only what the server would have sent (the overview
 * and the pages of the three largest topics, which the driver expands): the generated scope's garbage is collected
 * before the clock starts where the browser exposes `gc` (bench/ui.ts launches it so), rather than inside the
 * measured render. With `window.__storedPositions` set (a revisit), those positions are drawn as stored and no layout
 * is computed. Publishes `window.__bench` for the driver.
 */
import { createRoot } from "react-dom/client";
import { createRef, useMemo, useState } from "react";
import { GraphCanvas, type GraphCanvasHandle, type RenderStats } from "@/components/graph/graph-canvas";
import { layoutTopics, topicMapElements, type Point } from "@/components/graph/topic-map";
import type { GraphExpansion, GraphOverviewResult } from "@/lib/beliefs/belief-services";
import { generateTopicScope, overviewOf, topicPageOf } from "../topic-scope";

interface MapBench {
  startedAt: number;
  rendered: (RenderStats & { sinceStartMs: number }) | null;
  /** Milliseconds spent computing the topic layout (0 on a revisit). */
  topicLayoutMs: number;
  /** Milliseconds spent building the styled elements (`topicMapElements`) for the first render. */
  elementsMs: number;
  error: string | null;
  expand(topic: string): Promise<number>;
  topics: string[];
  positions(): Record<string, [number, number]>;
  pan(ms: number): Promise<{ fps: number; frames: number; worstFrameMs: number }>;
}
const w = window as unknown as { __bench: MapBench; __storedPositions?: Record<string, [number, number]> };

const size = Number(new URLSearchParams(location.search).get("map") ?? "2000");
/** What the server answers: the overview, and the pages of the largest topics (the ones the driver expands). */
function served(): { overview: GraphOverviewResult; pages: Map<string, GraphExpansion> } {
  const data = generateTopicScope(size);
  const overview = overviewOf(data);
  const largest = [...overview.topics].sort((a, b) => b.beliefs - a.beliefs).slice(0, 3);
  return { overview, pages: new Map(largest.map((t) => [t.topic, topicPageOf(data, t.topic)])) };
}
const { overview, pages } = served();
const handle = createRef<GraphCanvasHandle>();
let onRender: ((stats: RenderStats) => void) | null = null;
let expandTopic: (topic: string) => void = () => undefined;

function App() {
  const [expanded, setExpanded] = useState<Map<string, GraphExpansion[]>>(() => new Map());
  expandTopic = (topic) => setExpanded((m) => new Map(m).set(topic, [pages.get(topic)!]));
  const { topicPositions, fixed } = useMemo(() => {
    const stored = w.__storedPositions;
    if (stored) return { topicPositions: new Map<string, Point>(), fixed: new Map(Object.entries(stored).map(([id, [x, y]]) => [id, { x, y }])) };
    const started = performance.now();
    const placed = layoutTopics(overview.topics, overview.links);
    w.__bench.topicLayoutMs = performance.now() - started;
    return { topicPositions: placed, fixed: new Map<string, Point>() };
  }, []);
  const map = useMemo(() => {
    const started = performance.now();
    const elements = topicMapElements({ overview, expanded, topicPositions, fixed });
    if (expanded.size === 0) w.__bench.elementsMs = performance.now() - started;
    return elements;
  }, [expanded, topicPositions, fixed]);
  return (
    <div style={{ width: "1200px", height: "760px" }}>
      <GraphCanvas
        ref={handle}
        nodes={map.nodes}
        edges={map.edges}
        layout="preset"
        renderer="canvas"
        selectedId={null}
        onSelect={() => undefined}
        onExpand={() => undefined}
        onOpen={() => undefined}
        onRendered={(stats) => {
          if (!w.__bench.rendered) w.__bench.rendered = { ...stats, sinceStartMs: performance.now() - w.__bench.startedAt };
          onRender?.(stats);
        }}
        label="topic map benchmark"
      />
    </div>
  );
}

w.__bench = {
  startedAt: 0,
  rendered: null,
  topicLayoutMs: 0,
  elementsMs: 0,
  error: null,
  topics: [...pages.keys()],
  /** Expands a topic; resolves with the milliseconds until its beliefs are drawn. */
  expand(topic) {
    return new Promise((resolve) => {
      const started = performance.now();
      onRender = () => {
        onRender = null;
        resolve(performance.now() - started);
      };
      expandTopic(topic);
    });
  },
  positions() {
    const cy = handle.current?.cy();
    const out: Record<string, [number, number]> = {};
    cy?.nodes().forEach((n) => {
      out[n.id()] = [n.position().x, n.position().y];
    });
    return out;
  },
  pan(ms) {
    const cy = handle.current?.cy();
    if (!cy) return Promise.reject(new Error("no graph"));
    return new Promise((resolve) => {
      let frames = 0;
      let worst = 0;
      const start = performance.now();
      let last = start;
      const step = (t: number) => {
        frames += 1;
        worst = Math.max(worst, t - last);
        last = t;
        cy.panBy({ x: frames % 240 < 120 ? 4 : -4, y: 2 * Math.sin(frames / 20) });
        if (t - start < ms) requestAnimationFrame(step);
        else resolve({ fps: (frames - 1) / ((t - start) / 1000), frames, worstFrameMs: worst });
      };
      requestAnimationFrame(step);
    });
  },
};
window.addEventListener("error", (e) => {
  w.__bench.error = String(e.message);
});
const root = document.getElementById("root");
if (!root) throw new Error("no #root");
(window as unknown as { gc?: () => void }).gc?.();
w.__bench.startedAt = performance.now();
createRoot(root).render(<App />);
