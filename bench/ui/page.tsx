/**
 * The rendering benchmark's page script (bundled by bench/ui.ts): the real pipeline — generated GraphSlice →
 * toCytoscapeElements → styleNode/styleEdge → GraphCanvas — without Next.js or a database. Configured by the query
 * string (`n`, `renderer`), it publishes `window.__bench` for the driver.
 */
import { createRoot } from "react-dom/client";
import { createRef } from "react";
import { toCytoscapeElements } from "@/lib/graph/cytoscape-elements";
import { GraphCanvas, type GraphCanvasHandle, type RenderStats } from "@/components/graph/graph-canvas";
import { styleEdge, styleNode } from "@/components/graph/graph-style";
import { generateGraphSlice } from "./graph-slice";

interface BenchWindow {
  __bench: { expanded: string[]; nodePosition(): { x: number; y: number } | null; rendered: (RenderStats & { sinceNavigationMs: number }) | null; error: string | null; pan(ms: number): Promise<{ fps: number; frames: number; worstFrameMs: number }> };
}

const query = new URLSearchParams(location.search);
const n = Number(query.get("n") ?? "1000");
const renderer = query.get("renderer") === "webgl" ? "webgl" : "canvas";
// `layout=main` keeps fcose on the main thread (the baseline); otherwise the worker bundled beside this script.
const layoutWorker = query.get("layout") === "main" ? null : () => new Worker("layout-worker.js", { name: "graph-layout" });
const elements = toCytoscapeElements(generateGraphSlice(n));
const nodes = elements.nodes.map(styleNode);
const edges = elements.edges.map(styleEdge);
const handle = createRef<GraphCanvasHandle>();
const bench = window as unknown as BenchWindow;

bench.__bench = {
  expanded: [],
  /** Page coordinates of the first node (for input tests). */
  nodePosition() {
    const cy = handle.current?.cy();
    const node = cy?.nodes().first();
    if (!cy || !node || node.empty()) return null;
    const box = cy.container()?.getBoundingClientRect();
    return { x: (box?.left ?? 0) + node.renderedPosition().x, y: (box?.top ?? 0) + node.renderedPosition().y };
  },
  rendered: null,
  error: null,
  /** Pans a few px every animation frame for `ms`; fps = frames / seconds, so a slow draw lowers it. */
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
  bench.__bench.error = String(e.message);
});

const root = document.getElementById("root");
if (!root) throw new Error("no #root");
createRoot(root).render(
  <div style={{ width: "1200px", height: "760px" }}>
    <GraphCanvas
      ref={handle}
      nodes={nodes}
      edges={edges}
      renderer={renderer}
      selectedId={null}
      onSelect={() => undefined}
      onExpand={(id) => {
        bench.__bench.expanded.push(id);
      }}
      onOpen={() => undefined}
      onRendered={(stats) => {
        bench.__bench.rendered = { ...stats, sinceNavigationMs: performance.now() };
      }}
      label="benchmark graph"
      layoutWorker={layoutWorker}
    />
  </div>,
);
