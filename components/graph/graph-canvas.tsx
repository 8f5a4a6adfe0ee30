"use client";

import cytoscape, { type Core, type ElementDefinition, type EventObject, type LayoutOptions } from "cytoscape";
import fcose from "cytoscape-fcose";
import { forwardRef, useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent } from "react";
import { graphStylesheet, type StyledEdge, type StyledNode } from "./graph-style";
import { isArrowKey, nodeInDirection, type PlacedNode } from "./graph-keyboard";
import { LABEL_MAX_PX, LABEL_PX, nodeImportance, pickLabels, ringAround, type LabelCandidate } from "./graph-labels";

let fcoseRegistered = false;
function registerFcose(): void {
  if (fcoseRegistered) return;
  cytoscape.use(fcose);
  fcoseRegistered = true;
}

/** Above this many elements the WebGL renderer draws the graph (canvas 2D falls under 30 fps around there). */
export const WEBGL_THRESHOLD = 2_000;
const FIRST_VIEW_MAX_ZOOM = 1.5;
export type RendererChoice = "auto" | "canvas" | "webgl";

/**
 * "auto" picks WebGL above the threshold only when the GPU is real: software WebGL (SwiftShader, llvmpipe) drew 5 000
 * elements at 1.4 fps against canvas 2D's 37 fps on this machine (BENCHMARKS.md, UI).
 */
export function shouldUseWebgl(choice: RendererChoice, elementCount: number, hardwareWebgl: boolean): boolean {
  return choice === "webgl" || (choice === "auto" && hardwareWebgl && elementCount > WEBGL_THRESHOLD);
}

export function isSoftwareWebgl(rendererName: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software|basic render driver/i.test(rendererName);
}

let hardwareWebglCache: boolean | null = null;
/** Whether this browser has hardware-accelerated WebGL 2 (probed once; false on the server). */
function hasHardwareWebgl(): boolean {
  if (typeof document === "undefined") return false;
  if (hardwareWebglCache !== null) return hardwareWebglCache;
  try {
    const gl = document.createElement("canvas").getContext("webgl2");
    if (!gl) return (hardwareWebglCache = false);
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension("WEBGL_lose_context")?.loseContext();
    hardwareWebglCache = !isSoftwareWebgl(name);
  } catch {
    hardwareWebglCache = false;
  }
  return hardwareWebglCache;
}

/**
 * fcose settings by size: animated "default" quality for small graphs, then no animation, then "draft" (spectral
 * only, no force refinement) above 1 000 nodes where the refinement costs seconds for little visible gain.
 * `incremental` keeps current positions (expansion) instead of starting from a spectral layout.
 */
export function layoutOptions(nodeCount: number, incremental: boolean): LayoutOptions {
  return {
    name: "fcose",
    quality: nodeCount > 1_000 ? "draft" : "default",
    randomize: !incremental,
    animate: nodeCount <= 300,
    animationDuration: 400,
    // The canvas fits the result itself, without measuring labels (fitView).
    fit: false,
    // Labels count as node area in small graphs so they do not overlap; on large ones that costs too much.
    nodeDimensionsIncludeLabels: nodeCount <= 300,
    nodeRepulsion: nodeCount <= 300 ? 2_500 : 6_000,
    idealEdgeLength: nodeCount <= 300 ? 60 : 70,
    // Without the layout-utilities extension fcose does not pack components: stronger gravity keeps disconnected
    // pieces of a small graph close together instead of spread across the canvas.
    gravity: nodeCount <= 300 ? 2 : 0.25,
    numIter: nodeCount > 2_000 ? 800 : 2_500,
  } as LayoutOptions;
}

export interface GraphCanvasHandle {
  /** PNG of the whole graph (not just the viewport), 2× scale, on the page's background. */
  png(): Blob | null;
  fit(): void;
  /** Marks these nodes (search matches), fades the rest and centres the view on them; an empty list clears. */
  highlight(ids: readonly string[]): void;
  /** The Cytoscape instance, for benchmarks and diagnostics; null before mount and after unmount. */
  cy(): Core | null;
}

export interface RenderStats {
  elements: number;
  renderer: "canvas" | "webgl";
  /** Milliseconds from receiving the elements to the first frame drawn after the layout settled. */
  ms: number;
  /** Of which the layout (0 when none ran). */
  layoutMs: number;
}

export interface GraphCanvasProps {
  nodes: readonly StyledNode[];
  edges: readonly StyledEdge[];
  renderer?: RendererChoice;
  /** "preset" keeps positions given in the elements (benchmarks, saved views); default fcose. */
  layout?: "fcose" | "preset";
  selectedId: string | null;
  onSelect(id: string | null): void;
  onExpand(id: string): void;
  onOpen(id: string): void;
  onRendered?(stats: RenderStats): void;
  label: string;
}

/**
 * The Cytoscape canvas. The `cy` instance is created once per renderer (switching canvas ⇄ WebGL needs a new one),
 * destroyed on unmount; element changes are applied as a diff inside one batch; events go up as callbacks.
 */
export const GraphCanvas = forwardRef<GraphCanvasHandle, GraphCanvasProps>(function GraphCanvas(props, ref) {
  const { nodes, edges, renderer = "auto", layout = "fcose", selectedId, label } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  const callbacks = useRef(props);
  useEffect(() => {
    callbacks.current = props;
  });
  const webgl = shouldUseWebgl(renderer, nodes.length + edges.length, renderer === "auto" && nodes.length + edges.length > WEBGL_THRESHOLD && hasHardwareWebgl());
  const dark = usePrefersDark();
  const darkRef = useRef(dark);
  darkRef.current = dark;
  // Where every node was last placed: a node that comes back (filters, time travel) returns to its place.
  const positions = useRef(new Map<string, { x: number; y: number }>());
  const importance = useRef(new Map<string, number>());
  const pinned = useRef(new Set<string>());
  const relabelRef = useRef<() => void>(() => undefined);

  useEffect(
    function createCy() {
      registerFcose();
      const container = containerRef.current;
      if (!container) return;
      const cy = cytoscape({
        container,
        style: graphStylesheet() as unknown as cytoscape.StylesheetJson,
        minZoom: 0.02,
        maxZoom: 6,
        boxSelectionEnabled: false,
        selectionType: "single",
        // Operating systems default to 400–500 ms for a double click; Cytoscape's 250 ms misses slower hands.
        multiClickDebounceTime: 400,
        textureOnViewport: !webgl,
        hideEdgesOnViewport: false,
        // Options of the (experimental) WebGL renderer, absent from @types/cytoscape 3.21.
        ...({ webgl, webglBgColor: darkRef.current ? [9, 9, 11] : [255, 255, 255] } as object),
      });
      cy.style(graphStylesheet(darkRef.current) as unknown as cytoscape.StylesheetJson);
      // Labels follow the viewport once it rests (a relabel per wheel notch would slow zooming down), and only when the
      // view moved enough to change which labels fit: zoom by more than 10 %, or a pan of a quarter of the canvas.
      let timer: ReturnType<typeof setTimeout> | undefined;
      let labelled = { zoom: 0, x: 0, y: 0 };
      const relabel = () => {
        if (cy.destroyed()) return;
        labelled = { zoom: cy.zoom(), ...cy.pan() };
        applyLabels(cy, importance.current, pinned.current);
      };
      relabelRef.current = relabel;
      cy.on("viewport", () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          const pan = cy.pan();
          const zoomMoved = Math.abs(Math.log(cy.zoom() / (labelled.zoom || 1))) > Math.log(1.1);
          const panMoved = Math.abs(pan.x - labelled.x) > cy.width() / 4 || Math.abs(pan.y - labelled.y) > cy.height() / 4;
          if (zoomMoved || panMoved) relabel();
        }, 250);
      });
      cy.on("tap", "node", (event: EventObject) => callbacks.current.onSelect(event.target.id() as string));
      cy.on("tap", (event: EventObject) => {
        if (event.target === cy) callbacks.current.onSelect(null);
      });
      cy.on("dbltap", "node", (event: EventObject) => callbacks.current.onExpand(event.target.id() as string));
      cyRef.current = cy;
      return function destroyCy() {
        clearTimeout(timer);
        cy.nodes().forEach((n) => {
          positions.current.set(n.id(), { ...n.position() });
        });
        cyRef.current = null;
        cy.destroy();
      };
    },
    [webgl],
  );

  useEffect(
    function syncElements() {
      const cy = cyRef.current;
      if (!cy) return;
      const started = performance.now();
      const wanted = new Map<string, StyledNode | StyledEdge>();
      for (const n of nodes) wanted.set(n.data.id, n);
      for (const e of edges) wanted.set(e.data.id, e);
      const wasEmpty = cy.elements().empty();
      const added: ElementDefinition[] = [];
      let removed = 0;
      const neighbours = adjacency(edges);
      importance.current = new Map(nodes.map((n) => [n.data.id, nodeImportance(n.data.kind, neighbours.get(n.data.id)?.length ?? 0, n.data.tension ?? 0, n.data.credence ?? 0)]));
      cy.nodes().forEach((n) => {
        positions.current.set(n.id(), { ...n.position() });
      });
      // New nodes: a remembered place, else beside an anchor already on screen (ring), else left to the layout.
      const unplaced: string[] = [];
      const ringed = new Map<string, string[]>();
      cy.batch(() => {
        cy.elements().forEach((ele) => {
          const next = wanted.get(ele.id());
          if (!next) {
            ele.remove();
            removed += 1;
          }
          else ele.data(next.data);
        });
        for (const [id, element] of wanted) {
          if (cy.getElementById(id).nonempty()) continue;
          const definition: ElementDefinition = { group: element.group, data: { ...element.data } };
          if (element.group === "nodes") {
            const remembered = positions.current.get(id);
            const anchor = wasEmpty ? undefined : (neighbours.get(id) ?? []).find((other) => cy.getElementById(other).nonempty());
            if (element.position) definition.position = { ...element.position };
            else if (remembered) definition.position = { ...remembered };
            else if (anchor) {
              const list = ringed.get(anchor);
              if (list) list.push(id);
              else ringed.set(anchor, [id]);
            } else unplaced.push(id);
          }
          added.push(definition);
        }
        if (added.length > 0) cy.add(added);
        for (const [anchorId, ids] of ringed) {
          const anchor = cy.getElementById(anchorId).position();
          const start = (hash(anchorId) % 360) * (Math.PI / 180);
          ids.forEach((id, i) => cy.getElementById(id).position(ringAround(anchor, ids.length, i, start)));
        }
      });
      // The WebGL renderer emits no "render" event: the frame after next is the first one that has been drawn.
      let layoutMs = 0;
      const report = () => {
        relabelRef.current();
        cy.forceRender();
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            if (cy.destroyed()) return;
            callbacks.current.onRendered?.({ elements: cy.elements().length, renderer: webgl ? "webgl" : "canvas", ms: performance.now() - started, layoutMs });
          }),
        );
      };
      const addedIds = new Set(added.filter((d) => d.group === "nodes").map((d) => String(d.data.id)));
      if (layout === "preset" || unplaced.length === 0) {
        // Nothing new without a place: no layout runs, so what the user was looking at stays where it was. The view is
        // re-fitted when it was empty or narrowed (filters), and otherwise only when new nodes fell outside it.
        if (wasEmpty || (removed > 0 && addedIds.size === 0)) fitView(cy);
        else if (addedIds.size > 0 && !insideViewport(cy, addedIds)) fitView(cy);
        report();
        return;
      }
      const run = cy.layout(layoutOptions(cy.nodes().length, !wasEmpty));
      const layoutStarted = performance.now();
      run.one("layoutstop", () => {
        layoutMs = performance.now() - layoutStarted;
        fitView(cy);
        report();
      });
      run.run();
      return function stopLayout() {
        if (!cy.destroyed()) run.stop();
      };
    },
    // createCy runs first in the same commit when `webgl` changes, so a new instance is filled right away.
    [nodes, edges, layout, webgl],
  );

  useEffect(
    function syncSelection() {
      const cy = cyRef.current;
      if (!cy) return;
      cy.$(":selected").unselect();
      for (const id of [...pinned.current]) if (id.startsWith("sel:")) pinned.current.delete(id);
      if (!selectedId) return relabelRef.current();
      const node = cy.getElementById(selectedId);
      if (node.empty()) return;
      pinned.current.add(`sel:${selectedId}`);
      node.select();
      relabelRef.current();
      const box = cy.extent();
      const p = node.position();
      if (p.x < box.x1 || p.x > box.x2 || p.y < box.y1 || p.y > box.y2) cy.center(node);
    },
    [selectedId, nodes, webgl],
  );

  useEffect(
    function followColourScheme() {
      const cy = cyRef.current;
      if (!cy) return;
      cy.style(graphStylesheet(dark) as unknown as cytoscape.StylesheetJson);
    },
    [dark, webgl],
  );

  useImperativeHandle(ref, () => ({
    png() {
      const cy = cyRef.current;
      if (!cy || cy.elements().empty()) return null;
      return cy.png({ output: "blob", full: true, scale: 2, bg: darkRef.current ? "#09090b" : "#ffffff", maxWidth: 8_000, maxHeight: 8_000 });
    },
    fit() {
      if (cyRef.current) fitView(cyRef.current);
    },
    highlight(ids) {
      const cy = cyRef.current;
      if (!cy) return;
      for (const id of [...pinned.current]) if (!id.startsWith("sel:")) pinned.current.delete(id);
      const wanted = new Set(ids);
      const matches = cy.nodes().filter((n) => wanted.has(n.id()));
      cy.batch(() => {
        cy.elements().removeClass("match faded");
        if (matches.nonempty()) {
          matches.addClass("match");
          cy.elements().difference(matches.closedNeighborhood()).addClass("faded");
        }
      });
      for (const id of ids) pinned.current.add(id);
      if (matches.nonempty()) fitView(cy, matches);
      relabelRef.current();
    },
    cy() {
      return cyRef.current;
    },
  }));

  function placed(): PlacedNode[] {
    const cy = cyRef.current;
    if (!cy) return [];
    return cy.nodes().map((n) => ({ id: n.id(), x: n.position().x, y: n.position().y }));
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const { onSelect, onOpen } = callbacks.current;
    if (isArrowKey(event.key)) {
      event.preventDefault();
      const next = nodeInDirection(placed(), selectedId, event.key);
      if (next) onSelect(next);
    } else if (event.key === "Enter" && selectedId) {
      event.preventDefault();
      onOpen(selectedId);
    } else if (event.key === "Escape") {
      onSelect(null);
    } else if (event.key === "+" || event.key === "=" || event.key === "-") {
      const cy = cyRef.current;
      if (!cy) return;
      const factor = event.key === "-" ? 1 / 1.25 : 1.25;
      cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    }
  }

  return (
    <div
      ref={containerRef}
      role="application"
      aria-label={label}
      aria-roledescription="graph"
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="graph-canvas"
      data-renderer={webgl ? "webgl" : "canvas"}
      data-graph-canvas=""
      // Inline size too: Cytoscape needs a sized container even where the Tailwind sheet is absent (benchmark page).
      // The focus ring is drawn by the frame around it (globals.css), which does not clip it.
      style={{ width: "100%", height: "100%", outline: "none" }}
    />
  );
});

const LABELLED_FIT_MAX_NODES = 300;
/**
 * Fits the nodes (their labels too up to 300 nodes; beyond, measuring every label text costs seconds) into the
 * viewport with 30 px padding: zoom = min((W − 60)/w, (H − 60)/h), capped at 1.5× (a handful of nodes would otherwise
 * be blown up to maxZoom).
 */
function fitView(cy: Core, only?: cytoscape.CollectionReturnValue): void {
  const nodes = only ?? cy.nodes();
  if (nodes.empty()) return;
  const box = nodes.boundingBox({ includeLabels: nodes.length <= LABELLED_FIT_MAX_NODES, includeOverlays: false });
  const width = cy.width();
  const height = cy.height();
  const zoom = Math.min(FIRST_VIEW_MAX_ZOOM, (width - 60) / Math.max(box.w, 1), (height - 60) / Math.max(box.h, 1));
  const level = Math.max(cy.minZoom(), zoom);
  cy.viewport({ zoom: level, pan: { x: width / 2 - level * (box.x1 + box.w / 2), y: height / 2 - level * (box.y1 + box.h / 2) } });
}

function insideViewport(cy: Core, ids: ReadonlySet<string>): boolean {
  const box = cy.extent();
  for (const id of ids) {
    const p = cy.getElementById(id).position();
    if (p.x < box.x1 || p.x > box.x2 || p.y < box.y1 || p.y > box.y2) return false;
  }
  return true;
}

/**
 * Puts labels on the nodes `pickLabels` chooses for this viewport and zoom, sized in graph units so they read at
 * LABEL_PX on screen (never below 12 graph units when zoomed in past 1).
 */
function applyLabels(cy: Core, importance: ReadonlyMap<string, number>, pinned: ReadonlySet<string>): void {
  const zoom = cy.zoom();
  const candidates: LabelCandidate[] = [];
  cy.nodes().forEach((n) => {
    const p = n.renderedPosition();
    const label = String(n.data("label") ?? "");
    candidates.push({ id: n.id(), x: p.x, y: p.y, size: Number(n.data("size") ?? 16) * zoom, chars: label.length, importance: importance.get(n.id()) ?? 0 });
  });
  const pins = new Set([...pinned].map((id) => (id.startsWith("sel:") ? id.slice(4) : id)));
  const keep = new Set(pickLabels(candidates, { width: cy.width(), height: cy.height() }, pins));
  const scale = 1 / Math.min(1, zoom);
  const fs = LABEL_PX * scale;
  const tw = LABEL_MAX_PX * scale;
  // What is on screen, for tests and diagnostics: how many labels and the zoom they were chosen for.
  cy.container()?.setAttribute("data-labels", String(keep.size));
  cy.container()?.setAttribute("data-zoom", zoom.toFixed(3));
  cy.batch(() => {
    cy.nodes(".lbl").forEach((n) => {
      if (!keep.has(n.id())) n.removeClass("lbl");
    });
    for (const id of keep) {
      const n = cy.getElementById(id);
      if (n.data("fs") !== fs) n.data({ fs, tw, tm: 3 * scale });
      n.addClass("lbl");
    }
  });
}

function usePrefersDark(): boolean {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-color-scheme: dark)");
    setDark(query.matches);
    const onChange = (e: MediaQueryListEvent) => setDark(e.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return dark;
}

function adjacency(edges: readonly StyledEdge[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of edges) {
    for (const [a, b] of [[e.data.source, e.data.target], [e.data.target, e.data.source]] as const) {
      const list = out.get(a);
      if (list) list.push(b);
      else out.set(a, [b]);
    }
  }
  return out;
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) >>> 0;
  return h;
}
