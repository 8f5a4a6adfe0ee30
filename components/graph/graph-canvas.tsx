"use client";

import cytoscape, { type Core, type ElementDefinition, type EventObject } from "cytoscape";
import fcose from "cytoscape-fcose";
import { forwardRef, useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent } from "react";
import { graphStylesheet, type StyledEdge, type StyledNode } from "./graph-style";
import { isArrowKey, nodeInDirection, type PlacedNode } from "./graph-keyboard";
import { layoutOptions, layoutRequest, parseLayoutResponse, WORKER_LAYOUT_MIN_NODES } from "./graph-layout";
import { defaultLayoutWorker, type LayoutWorkerFactory } from "./layout-worker-client";
import { LABEL_MAX_PX, LABEL_PX, nodeImportance, pickLabelSides, readableView, ringAround, type LabelCandidate, type LabelledNode } from "./graph-labels";

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
 * elements at 1.4 fps against canvas 2D's 37 fps on this machine (docs/bench-history.md, UI).
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

export { layoutOptions } from "./graph-layout";

export interface GraphCanvasHandle {
  /** PNG of the whole graph (not just the viewport), 2× scale, on the page's background. */
  png(): Blob | null;
  fit(): void;
  /** Marks these nodes (search matches), fades the rest and centres the view on them; an empty list clears. */
  highlight(ids: readonly string[]): void;
  /** The Cytoscape instance, for benchmarks and diagnostics; null before mount and after unmount. */
  cy(): Core | null;
  /**
   * Pans (never zooms) so the node sits in the part of the canvas that is on screen above `obscuredBottom` px of the
   * window (a bottom sheet on a phone covers the rest).
   */
  reveal(id: string, obscuredBottom: number): void;
}

export interface RenderStats {
  elements: number;
  renderer: "canvas" | "webgl";
  /** Milliseconds from receiving the elements to the first frame drawn after the layout settled. */
  ms: number;
  /** Of which the layout (0 when none ran). */
  layoutMs: number;
  /** Where the layout ran. */
  layoutIn: "none" | "main" | "worker";
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
  /** A node the user dragged to a new place (pins it there). */
  onMoved?(id: string, position: { x: number; y: number }): void;
  label: string;
  /** Where layouts of more than WORKER_LAYOUT_MIN_NODES nodes run; null = on the main thread. Default: the bundled worker. */
  layoutWorker?: LayoutWorkerFactory | null;
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
  // The scheme the instance's stylesheet was made for: a new stylesheet restyles every element, so it is set only
  // when the scheme changes (not again on mount, which would style a large graph twice before its first frame).
  const styledDark = useRef<boolean | null>(null);
  // Where every node was last placed: a node that comes back (filters, time travel) returns to its place.
  const positions = useRef(new Map<string, { x: number; y: number }>());
  const importance = useRef(new Map<string, number>());
  const pinned = useRef(new Set<string>());
  const relabelRef = useRef<() => void>(() => undefined);
  // The layout worker, started on the first large layout and ended with the component; null after it failed once.
  const workerRef = useRef<Worker | null | undefined>(undefined);
  const requestIds = useRef(0);
  useEffect(
    () => () => {
      workerRef.current?.terminate();
      workerRef.current = undefined;
    },
    [],
  );
  function layoutWorker(): Worker | null {
    if (workerRef.current !== undefined) return workerRef.current;
    const factory = callbacks.current.layoutWorker === undefined ? defaultLayoutWorker : callbacks.current.layoutWorker;
    try {
      workerRef.current = factory && typeof Worker !== "undefined" ? factory() : null;
    } catch (error) {
      console.warn("graph: layout worker unavailable, laying out on the main thread", error);
      workerRef.current = null;
    }
    return workerRef.current;
  }

  useEffect(
    function createCy() {
      registerFcose();
      const container = containerRef.current;
      if (!container) return;
      const cy = cytoscape({
        container,
        style: graphStylesheet(darkRef.current) as unknown as cytoscape.StylesheetJson,
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
      styledDark.current = darkRef.current;
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
      cy.on("dragfree", "node", (event: EventObject) => callbacks.current.onMoved?.(event.target.id() as string, { ...event.target.position() }));
      // The container changes size when the filter column folds or the phone rotates: Cytoscape must be told, or it
      // keeps drawing (and hit-testing taps) for the old size.
      let size = { width: container.clientWidth, height: container.clientHeight };
      const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => {
        if (cy.destroyed()) return;
        const next = { width: container.clientWidth, height: container.clientHeight };
        if (next.width === size.width && next.height === size.height) return;
        size = next;
        cy.resize();
        container.setAttribute("data-width", String(Math.round(cy.width())));
        relabel();
      });
      resized?.observe(container);
      container.setAttribute("data-width", String(Math.round(container.clientWidth)));
      // Cytoscape caches where its container sits on the page and maps taps through it; when content above the canvas
      // folds (the filter column on a phone) the canvas moves without changing size, and taps would land beside their
      // node. A pointer going down first checks the place and, if it moved, has Cytoscape measure again.
      let placedAt = container.getBoundingClientRect();
      const checkPlace = () => {
        const now = container.getBoundingClientRect();
        if (now.left !== placedAt.left || now.top !== placedAt.top) cy.resize();
        placedAt = now;
      };
      container.addEventListener("pointerdown", checkPlace, { capture: true });
      cyRef.current = cy;
      return function destroyCy() {
        resized?.disconnect();
        container.removeEventListener("pointerdown", checkPlace, { capture: true });
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
      const moved = new Set<string>();
      const neighbours = adjacency(edges);
      importance.current = new Map(nodes.map((n) => [n.data.id, nodeImportance(n.data.kind, neighbours.get(n.data.id)?.length ?? 0, n.data.tension ?? 0, n.data.credence ?? 0)]));
      cy.nodes().forEach((n) => {
        positions.current.set(n.id(), { ...n.position() });
      });
      let cancelled = false;
      let layoutMs = 0;
      let layoutIn: RenderStats["layoutIn"] = "none";
      const report = () => {
        relabelRef.current();
        cy.forceRender();
        // Where the last layout ran, for tests and diagnostics (the worker's bundle is checked in the browser journeys).
        cy.container()?.setAttribute("data-layout", layoutIn);
        // The WebGL renderer emits no "render" event: the frame after next is the first one that has been drawn.
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            if (cy.destroyed() || cancelled) return;
            callbacks.current.onRendered?.({ elements: cy.elements().length, renderer: webgl ? "webgl" : "canvas", ms: performance.now() - started, layoutMs, layoutIn });
          }),
        );
      };
      const mainThreadLayout = () => {
        layoutIn = "main";
        const run = cy.layout(layoutOptions(cy.nodes().length, !wasEmpty));
        const layoutStarted = performance.now();
        run.one("layoutstop", () => {
          layoutMs = performance.now() - layoutStarted;
          if (cancelled) return;
          if (wasEmpty) firstView(cy, importance.current);
          else fitView(cy);
          report();
        });
        run.run();
        return run;
      };
      let mainRun: cytoscape.Layouts | null = null;
      /**
       * Sends the layout to the worker; the positions come back and are applied in one batch. A failed worker hands
       * the layout to the main thread, for this and every later layout.
       */
      const workerLayout = (worker: Worker, request: ReturnType<typeof layoutRequest>, count: number) => {
        layoutIn = "worker";
        const fail = (reason: unknown) => {
          detach();
          releaseHeld();
          cy.container()?.removeAttribute("data-layout-pending");
          console.warn("graph: layout worker failed, laying out on the main thread:", reason);
          workerRef.current?.terminate();
          workerRef.current = null;
          if (!cancelled && !cy.destroyed()) mainRun = mainThreadLayout();
        };
        // A worker script that cannot load or throws reports an "error" event, never a message.
        const onError = (event: Event) => fail(event instanceof ErrorEvent ? event.message || "the worker script did not load" : "the worker script did not load");
        const onMessage = (event: MessageEvent) => {
          const response = parseLayoutResponse(event.data, count);
          if (!response || response.id !== request.id) return;
          detach();
          if (cancelled || cy.destroyed()) return;
          if (!response.ok) return fail(response.error);
          layoutMs = response.layoutMs;
          cy.batch(() => {
            request.nodes.forEach((id, i) => {
              const node = cy.getElementById(id);
              if (node.nonempty()) node.position({ x: response.positions[2 * i] ?? 0, y: response.positions[2 * i + 1] ?? 0 });
            });
          });
          releaseHeld();
          cy.container()?.removeAttribute("data-layout-pending");
          if (wasEmpty) firstView(cy, importance.current);
          else fitView(cy);
          report();
        };
        function detach() {
          worker.removeEventListener("message", onMessage);
          worker.removeEventListener("error", onError);
        }
        worker.addEventListener("message", onMessage);
        worker.addEventListener("error", onError);
        cy.container()?.setAttribute("data-layout-pending", "");
        worker.postMessage(request, [request.sizes.buffer, request.edges.buffer, request.positions.buffer]);
        return detach;
      };
      // A first view of a large graph with no known positions: the worker starts before the elements are added, so the
      // layout and the main thread's work (adding, styling) run side by side.
      let stopWorker: (() => void) | null = null;
      // While the worker lays out a first view, the elements are added inside a batch that stays open until the
      // positions arrive: nothing is drawn piled up at the origin, and everything is styled and drawn once, placed.
      let held = false;
      const releaseHeld = () => {
        if (!held) return;
        held = false;
        if (!cy.destroyed()) cy.endBatch();
      };
      const big = nodes.length > WORKER_LAYOUT_MIN_NODES && layout === "fcose";
      if (wasEmpty && big && nodes.every((n) => !n.position && !positions.current.has(n.data.id))) {
        const worker = layoutWorker();
        if (worker) {
          const request = layoutRequest(++requestIds.current, nodes.map((n) => ({ id: n.data.id, size: n.data.size })), edges.map((e) => e.data), false);
          stopWorker = workerLayout(worker, request, nodes.length);
          held = true;
          cy.startBatch();
        }
      }
      // New nodes: a remembered place, else beside an anchor already on screen (ring), else left to the layout.
      const unplaced: string[] = [];
      const ringed = new Map<string, string[]>();
      cy.batch(() => {
        if (wasEmpty) {
          // Nothing to diff against: skip the per-element lookups.
          for (const [, element] of wanted) {
            const definition: ElementDefinition = { group: element.group, data: { ...element.data } };
            if (element.group === "nodes") {
              const remembered = positions.current.get(element.data.id);
              if (element.position) definition.position = { ...element.position };
              else if (remembered) definition.position = { ...remembered };
              else unplaced.push(element.data.id);
            }
            added.push(definition);
          }
          if (added.length > 0) cy.add(added);
          return;
        }
        cy.elements().forEach((ele) => {
          const next = wanted.get(ele.id());
          if (!next) {
            ele.remove();
            removed += 1;
            return;
          }
          ele.data(next.data);
          // A node given a new place (others made room for an expansion) moves there; one without keeps its own.
          if (next.group === "nodes" && next.position) {
            const p = ele.position();
            if (Math.abs(p.x - next.position.x) > 0.01 || Math.abs(p.y - next.position.y) > 0.01) {
              ele.position({ ...next.position });
              moved.add(ele.id());
            }
          }
        });
        for (const [id, element] of wanted) {
          if (cy.getElementById(id).nonempty()) continue;
          const definition: ElementDefinition = { group: element.group, data: { ...element.data } };
          if (element.group === "nodes") {
            const remembered = positions.current.get(id);
            const anchor = (neighbours.get(id) ?? []).find((other) => cy.getElementById(other).nonempty());
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
      const cleanup = () => {
        cancelled = true;
        stopWorker?.();
        releaseHeld();
        cy.container()?.removeAttribute("data-layout-pending");
        if (mainRun && !cy.destroyed()) mainRun.stop();
      };
      if (stopWorker) return cleanup;
      const addedIds = new Set(added.filter((d) => d.group === "nodes").map((d) => String(d.data.id)));
      if (layout === "preset" || unplaced.length === 0) {
        // Nothing new without a place: no layout runs, so what the user was looking at stays where it was. The view is
        // re-fitted when it was empty or narrowed (filters), and otherwise only when new or moved nodes fell outside it.
        if (wasEmpty) firstView(cy, importance.current);
        else if (removed > 0 && addedIds.size === 0 && moved.size === 0) fitView(cy);
        else if (addedIds.size + moved.size > 0 && !insideViewport(cy, new Set([...addedIds, ...moved]))) fitView(cy);
        report();
        return cleanup;
      }
      const worker = cy.nodes().length > WORKER_LAYOUT_MIN_NODES ? layoutWorker() : null;
      if (worker) {
        const unplacedSet = new Set(unplaced);
        const request = layoutRequest(
          ++requestIds.current,
          cy.nodes().map((n) => ({ id: n.id(), size: Number(n.data("size") ?? 16), ...(unplacedSet.has(n.id()) ? {} : { position: { ...n.position() } }) })),
          cy.edges().map((e) => ({ source: e.source().id(), target: e.target().id() })),
          !wasEmpty,
        );
        stopWorker = workerLayout(worker, request, request.nodes.length);
      } else mainRun = mainThreadLayout();
      return cleanup;
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
      if (!cy || styledDark.current === dark) return;
      styledDark.current = dark;
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
    reveal(id, obscuredBottom) {
      const cy = cyRef.current;
      const box = cy?.container()?.getBoundingClientRect();
      const node = cy?.getElementById(id);
      if (!cy || !box || !node || node.empty()) return;
      const top = Math.max(0, box.top);
      const bottom = Math.min(box.bottom, window.innerHeight - obscuredBottom);
      if (bottom - top < 40) return;
      const p = node.renderedPosition();
      const y = box.top + p.y;
      const x = box.left + p.x;
      const dy = y < top + 20 || y > bottom - 20 ? (top + bottom) / 2 - y : 0;
      const dx = x < box.left + 20 || x > box.right - 20 ? box.left + box.width / 2 - x : 0;
      if (dx !== 0 || dy !== 0) cy.panBy({ x: dx, y: dy });
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
 * Fits the nodes (their labels too, unless `labels` is false, up to 300 nodes; beyond, measuring every label text costs seconds) into the
 * viewport with 30 px padding: zoom = min((W − 60)/w, (H − 60)/h), capped at 1.5× (a handful of nodes would otherwise
 * be blown up to maxZoom).
 */
function fitView(cy: Core, only?: cytoscape.CollectionReturnValue, labels = true): void {
  const nodes = only ?? cy.nodes();
  if (nodes.empty()) return;
  const box = nodes.boundingBox({ includeLabels: labels && nodes.length <= LABELLED_FIT_MAX_NODES, includeOverlays: false });
  const width = cy.width();
  const height = cy.height();
  const zoom = Math.min(FIRST_VIEW_MAX_ZOOM, (width - 60) / Math.max(box.w, 1), (height - 60) / Math.max(box.h, 1));
  const level = Math.max(cy.minZoom(), zoom);
  cy.viewport({ zoom: level, pan: { x: width / 2 - level * (box.x1 + box.w / 2), y: height / 2 - level * (box.y1 + box.h / 2) } });
}

/**
 * The first view of a graph: fitted, or, where the fitted view would name fewer than six nodes (a phone, a dense map),
 * the widest zoom around the most important node that names them (`readableView`). Fit shows the whole again.
 */
function firstView(cy: Core, importance: ReadonlyMap<string, number>): void {
  fitView(cy);
  const nodes: LabelledNode[] = [];
  cy.nodes().forEach((n) => {
    const p = n.position();
    nodes.push({ id: n.id(), x: p.x, y: p.y, size: Number(n.data("size") ?? 16), chars: String(n.data("label") ?? "").length, importance: importance.get(n.id()) ?? 0 });
  });
  const view = readableView(nodes, { width: cy.width(), height: cy.height() }, { zoom: cy.zoom(), pan: cy.pan() }, { maxZoom: FIRST_VIEW_MAX_ZOOM });
  cy.viewport(view);
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
 * Puts labels on the nodes `pickLabelSides` chooses for this viewport and zoom (under the node, or over it:
 * `.lbl-above`), sized in graph units so they read at LABEL_PX on screen (never below 12 graph units when zoomed in
 * past 1).
 */
function applyLabels(cy: Core, importance: ReadonlyMap<string, number>, pinned: ReadonlySet<string>): void {
  const zoom = cy.zoom();
  // Labels never go below LABEL_PX graph units, so past zoom 1 they grow on screen with the zoom.
  const textScale = Math.max(1, zoom);
  const candidates: LabelCandidate[] = [];
  cy.nodes().forEach((n) => {
    const p = n.renderedPosition();
    const label = String(n.data("label") ?? "");
    candidates.push({ id: n.id(), x: p.x, y: p.y, size: Number(n.data("size") ?? 16) * zoom, chars: label.length, importance: importance.get(n.id()) ?? 0, scale: textScale });
  });
  const pins = new Set([...pinned].map((id) => (id.startsWith("sel:") ? id.slice(4) : id)));
  const keep = pickLabelSides(candidates, { width: cy.width(), height: cy.height() }, pins);
  const scale = 1 / Math.min(1, zoom);
  const fs = LABEL_PX * scale;
  const tw = LABEL_MAX_PX * scale;
  // What is on screen, for tests and diagnostics: how many labels and the zoom they were chosen for.
  cy.container()?.setAttribute("data-labels", String(keep.size));
  cy.container()?.setAttribute("data-zoom", zoom.toFixed(3));
  cy.batch(() => {
    cy.nodes(".lbl").forEach((n) => {
      if (!keep.has(n.id())) n.removeClass("lbl lbl-above");
    });
    for (const [id, side] of keep) {
      const n = cy.getElementById(id);
      if (n.data("fs") !== fs) n.data({ fs, tw, tm: 3 * scale, tmu: -3 * scale });
      n.addClass("lbl");
      if (side === "above") n.addClass("lbl-above");
      else n.removeClass("lbl-above");
    }
  });
}

/**
 * Whether the page asks for the dark scheme. Read on the first client render (nothing in the markup depends on it, so
 * hydration is unaffected): a dark page's first frame is then styled once, dark, rather than light and then again.
 */
function usePrefersDark(): boolean {
  const [dark, setDark] = useState(() => typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches);
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
