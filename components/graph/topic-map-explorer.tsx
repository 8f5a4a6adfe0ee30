"use client";

import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { graphExpandAction, graphOverviewAction, graphViewAction, graphViewsAction, saveGraphViewAction } from "@/lib/actions/graph-actions";
import type { GraphExpansion } from "@/lib/beliefs/belief-services";
import type { GraphPositions, GraphViewRecord } from "@/lib/beliefs/graph-view-services";
import { GraphCanvas, type GraphCanvasHandle, type RenderStats } from "./graph-canvas";
import { GraphKey, GraphLegend } from "./graph-legend";
import { GraphSidePanel } from "./graph-side-panel";
import { layoutTopics, localGraphElements, topicMapElements, topicNodeId, type Point } from "./topic-map";

interface Props {
  scope: string;
  scopeId: string;
  scopeName: string;
  /** Editors (and above) save the layout and named views; every reader opens them. */
  canSave: boolean;
}

/** The map's view state, in the URL so it can be shared: expanded topics, the local graph and its depth, a saved view. */
interface MapView {
  topics: string[];
  local?: string;
  depth: number;
  node?: string;
  view?: string;
}

function parseMapView(params: { get(name: string): string | null }): MapView {
  const topics = (params.get("topics") ?? "").split(",").map((t) => t.trim()).filter(Boolean).slice(0, 50);
  const depth = Math.min(3, Math.max(1, Number(params.get("depth") ?? "1") || 1));
  const pick = (name: string) => {
    const v = params.get(name)?.trim();
    return v ? v.slice(0, 500) : undefined;
  };
  return { topics: [...new Set(topics)], depth, local: pick("local"), node: pick("node"), view: pick("view") };
}

function mapViewQuery(view: MapView): string {
  const q = new URLSearchParams();
  if (view.view) q.set("view", view.view);
  if (view.topics.length > 0) q.set("topics", view.topics.join(","));
  if (view.local) q.set("local", view.local);
  if (view.local && view.depth !== 1) q.set("depth", String(view.depth));
  if (view.node) q.set("node", view.node);
  return q.toString();
}

async function unwrap<T>(result: Promise<{ ok: true; data: T } | { ok: false; error: { message: string } }>): Promise<T> {
  const r = await result;
  if (!r.ok) throw new Error(r.error.message);
  return r.data;
}

const toolButton = "rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800";

/**
 * The graph of a large scope: its topic map first, then one expansion at a time (a topic in place into its beliefs,
 * a belief into its local graph with a depth slider). Positions come from the scope's saved layout (or the
 * deterministic topic layout when none is saved), so a revisit draws the same picture without running a layout.
 */
export function TopicMapExplorer({ scope, scopeId, scopeName, canSave }: Props) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const view = useMemo(() => parseMapView(searchParams), [searchParams]);
  const canvas = useRef<GraphCanvasHandle>(null);
  const localCanvas = useRef<GraphCanvasHandle>(null);
  const queryClient = useQueryClient();
  const [stats, setStats] = useState<RenderStats | null>(null);
  const [moved, setMoved] = useState<Map<string, Point>>(() => new Map());
  const [status, setStatus] = useState<string>("");
  const [viewName, setViewName] = useState("");

  const setView = useCallback(
    (next: MapView, replace = false) => {
      const query = mapViewQuery(next);
      const url = query ? `${pathname}?${query}` : pathname;
      if (replace) window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
    },
    [pathname],
  );

  const overview = useQuery({ queryKey: ["graph-overview", scope], queryFn: () => unwrap(graphOverviewAction({ scope })), retry: false });
  // The scope's own layout ('') or the opened view: its positions win over computed ones.
  const saved = useQuery({ queryKey: ["graph-view", scope, view.view ?? ""], queryFn: () => unwrap(graphViewAction({ scope, name: view.view ?? "" })), retry: false });
  const views = useQuery({ queryKey: ["graph-views", scope], queryFn: () => unwrap(graphViewsAction({ scope })), retry: false });
  const pages = useQueries({
    queries: view.topics.map((topic) => ({
      queryKey: ["graph-expand", scope, "topic", topic],
      queryFn: () => unwrap(graphExpandAction({ scope, expand: { topic, limit: 300 } })),
      retry: false,
    })),
  });
  const local = useQuery({
    queryKey: ["graph-expand", scope, "belief", view.local ?? null, view.depth],
    queryFn: () => unwrap(graphExpandAction({ scope, expand: { belief: view.local ?? "", depth: view.depth, maxNodes: 300 } })),
    enabled: view.local !== undefined,
    placeholderData: (previous: GraphExpansion | undefined) => previous,
    retry: false,
  });

  // Opening a saved view applies what it shows (once per opened view).
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (!view.view || !saved.data || applied.current === view.view) return;
    applied.current = view.view;
    const s = saved.data.state;
    setView({ ...view, topics: s.topics, local: s.local, depth: s.depth ?? 1 }, true);
  }, [saved.data, view, setView]);

  const storedPositions = saved.data?.positions;
  const fixed = useMemo(() => {
    const out = new Map<string, Point>();
    for (const [id, [x, y]] of Object.entries(storedPositions ?? {})) out.set(id, { x, y });
    for (const [id, p] of moved) out.set(id, p);
    return out;
  }, [storedPositions, moved]);
  const pinnedIds = useMemo(() => new Set([...Object.entries(storedPositions ?? {}).filter(([, [, , pin]]) => pin === 1).map(([id]) => id), ...moved.keys()]), [storedPositions, moved]);

  const topicPositions = useMemo(() => (overview.data ? layoutTopics(overview.data.topics, overview.data.links) : new Map<string, Point>()), [overview.data]);
  const expanded = useMemo(() => {
    const out = new Map<string, GraphExpansion[]>();
    view.topics.forEach((topic, i) => {
      const data = pages[i]?.data;
      if (data) out.set(topic, [data]);
    });
    return out;
    // Keyed on the pages' data: the array from useQueries is new every render.
  }, [view.topics, pages.map((p) => p.dataUpdatedAt).join(",")]);

  const ready = overview.data !== undefined && !saved.isPending;
  const map = useMemo(
    () =>
      ready && overview.data
        ? topicMapElements({ overview: overview.data, expanded, topicPositions, fixed, pinned: pinnedIds })
        : { nodes: [], edges: [], beliefs: new Map<string, never>(), centres: new Map<string, Point>() },
    [ready, overview.data, expanded, topicPositions, fixed, pinnedIds],
  );
  // A belief's local graph is drawn on its own canvas, over the map (hidden meanwhile, untouched: closing it shows the
  // map exactly as it was left).
  const localMap = useMemo(() => (view.local && local.data ? localGraphElements(view.local, local.data) : null), [view.local, local.data]);
  const localRoot = view.local ? localMap?.beliefs.get(view.local) : undefined;
  // The map keeps the selection it had while a local graph is open over it (selecting may pan it).
  const mapSelected = useRef<string | null>(null);
  if (!localMap) mapSelected.current = view.node ?? null;

  // An editor's first visit stores the computed layout: later visits draw it without computing anything.
  const autosaved = useRef(false);
  useEffect(() => {
    if (!canSave || autosaved.current || !ready || !overview.data || view.view || saved.data !== null || topicPositions.size === 0) return;
    autosaved.current = true;
    // Where the topics are drawn with none expanded (their orbits given room), so that the stored layout is the drawn one.
    const positions: GraphPositions = {};
    for (const n of topicMapElements({ overview: overview.data, expanded: new Map(), topicPositions, fixed: new Map() }).nodes)
      if (n.data.kind === "topic" && n.position) positions[n.data.id] = [n.position.x, n.position.y, 0];
    void saveGraphViewAction({ scope, name: "", state: { topics: [] }, positions }).then((r) => {
      if (r.ok) queryClient.setQueryData(["graph-view", scope, ""], r.data);
    });
  }, [canSave, ready, view.view, saved.data, overview.data, topicPositions, scope, queryClient]);

  const selectedBelief = view.node ? (localMap?.beliefs.get(view.node) ?? map.beliefs.get(view.node)) : undefined;
  const selectedTopic = view.node?.startsWith("topic:") ? overview.data?.topics.find((t) => topicNodeId(t.topic) === view.node) : undefined;

  const expandTopic = (topic: string) => {
    if (view.topics.includes(topic)) return;
    setView({ ...view, topics: [...view.topics, topic], node: undefined });
  };
  const collapseTopic = (topic: string) => setView({ ...view, topics: view.topics.filter((t) => t !== topic) });
  const showLocal = (id: string) => setView({ ...view, local: id, node: id });
  const onExpand = (id: string) => {
    if (id.startsWith("topic:")) {
      const topic = overview.data?.topics.find((t) => topicNodeId(t.topic) === id)?.topic;
      if (topic) expandTopic(topic);
    } else if (map.beliefs.has(id)) showLocal(id);
  };
  const select = (id: string | null) => {
    if ((id ?? undefined) !== view.node) setView({ ...view, node: id ?? undefined }, true);
  };
  const onMoved = useCallback((id: string, p: Point) => setMoved((m) => new Map(m).set(id, { x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 })), []);

  function currentPositions(): GraphPositions {
    const out: GraphPositions = {};
    const cy = canvas.current?.cy();
    cy?.nodes().forEach((n) => {
      const p = n.position();
      out[n.id()] = [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10, pinnedIds.has(n.id()) ? 1 : 0];
    });
    // Where each expanded topic stands: its beliefs are drawn around it when the layout is opened again.
    for (const [id, p] of map.centres) out[id] ??= [p.x, p.y, pinnedIds.has(id) ? 1 : 0];
    return out;
  }
  async function save(name: string) {
    setStatus("Saving…");
    const state = { topics: view.topics, ...(view.local ? { local: view.local, depth: view.depth } : {}) };
    const result = await saveGraphViewAction({ scope, name, state, positions: currentPositions() });
    if (!result.ok) return setStatus(`Not saved: ${result.error.message}`);
    queryClient.setQueryData(["graph-view", scope, name], result.data satisfies GraphViewRecord);
    await queryClient.invalidateQueries({ queryKey: ["graph-views", scope] });
    setStatus(name ? `Saved the view “${name}”: every member of the scope can open it.` : "Saved this layout as the scope's own.");
  }

  // The first draw of a view waits for the topics it expands (from the URL or the opened saved view): the first view
  // (fitted, or zoomed in where labels read, on a phone) is then chosen for what the view shows, rather than re-fitted
  // wider when the topics arrive a moment later. Later expansions draw into the canvas already there.
  const canvasKey = view.view ?? "";
  const viewApplied = !view.view || !saved.data || saved.data.state.topics.every((t) => view.topics.includes(t));
  const settled = ready && viewApplied && pages.every((p) => !p.isPending);
  const [drawnKey, setDrawnKey] = useState<string | null>(null);
  if (settled && drawnKey !== canvasKey) setDrawnKey(canvasKey);
  const draw = settled || drawnKey === canvasKey;

  const error = overview.error ?? saved.error ?? pages.find((p) => p.error)?.error ?? local.error ?? null;
  const loading = !ready || pages.some((p) => p.isPending) || (view.local !== undefined && local.isPending);
  const o = overview.data;

  return (
    <div className="space-y-2" data-wide="">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-2 text-2xl font-semibold tracking-tight">{scopeName}: graph</h1>
        <span className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="graph-map-summary">
          {o ? `${o.beliefs.toLocaleString("en")} beliefs in ${o.topics.length} topics: the map first, then one topic or belief at a time` : "Loading the topic map…"}
        </span>
        <div className="ml-auto flex flex-wrap items-center gap-2 text-sm">
          <button type="button" className={toolButton} onClick={() => (localMap ? localCanvas : canvas).current?.fit()} disabled={map.nodes.length === 0}>Fit</button>
          {view.topics.length > 0 || view.local ? (
            <button type="button" className={toolButton} onClick={() => setView({ topics: [], depth: 1, ...(view.view ? { view: view.view } : {}) })}>Collapse all</button>
          ) : null}
          <label className="sr-only" htmlFor="graph-open-view">Open a saved view</label>
          <select
            id="graph-open-view"
            className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
            value={view.view ?? ""}
            onChange={(e) => {
              applied.current = null;
              setMoved(new Map());
              setView(e.target.value ? { topics: [], depth: 1, view: e.target.value } : { topics: [], depth: 1 });
            }}
            data-testid="graph-open-view"
          >
            <option value="">The scope&apos;s layout</option>
            {(views.data ?? []).map((v) => (
              <option key={v.name} value={v.name}>{v.name}</option>
            ))}
          </select>
          {canSave ? (
            <form
              className="flex gap-1"
              onSubmit={(e) => {
                e.preventDefault();
                const name = viewName.trim();
                if (name) void save(name).then(() => setView({ ...view, view: name }, true));
              }}
            >
              <label className="sr-only" htmlFor="graph-view-name">Name of the view to save</label>
              <input id="graph-view-name" value={viewName} onChange={(e) => setViewName(e.target.value)} maxLength={80} placeholder="View name" className="w-28 rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900" />
              <button type="submit" className={toolButton} disabled={!viewName.trim()}>Save view</button>
              <button type="button" className={toolButton} onClick={() => void save("")} title="Store where every node stands now as the scope's layout">Save layout</button>
            </form>
          ) : null}
        </div>
      </div>
      {view.local ? (
        <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="graph-local">
          <span className="min-w-0 max-w-full truncate sm:max-w-md" title={localRoot?.text}>
            Local graph of {localRoot ? <q>{localRoot.text}</q> : "one belief"}
          </span>
          <label htmlFor="graph-depth" className="text-zinc-600 dark:text-zinc-400">depth</label>
          <input id="graph-depth" type="range" min={1} max={3} step={1} value={view.depth} onChange={(e) => setView({ ...view, depth: Number(e.target.value) }, true)} className="w-28" />
          <span className="tabular-nums">{view.depth}</span>
          <button type="button" className="text-sky-700 underline dark:text-sky-400" onClick={() => setView({ ...view, local: undefined, depth: 1 })}>Close the local graph</button>
        </div>
      ) : null}
      {view.topics.length > 0 ? (
        <div className="flex flex-wrap items-center gap-1.5 text-xs" role="group" aria-label="Expanded topics">
          {view.topics.map((t) => (
            <button key={t} type="button" className="rounded-full border border-zinc-300 px-2 py-0.5 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800" onClick={() => collapseTopic(t)} title="Collapse this topic">
              {t} ×
            </button>
          ))}
        </div>
      ) : null}
      <GraphKey topics />
      <p role="status" className={`text-sm text-zinc-700 dark:text-zinc-300 ${status ? "" : "sr-only"}`} data-testid="graph-save-status">{status}</p>
      <div id="graph-frame" tabIndex={-1} className="graph-frame relative h-[62vh] min-h-[340px] overflow-hidden rounded-lg border border-zinc-200 bg-white lg:h-[calc(100vh-15rem)] lg:min-h-[480px] dark:border-zinc-800 dark:bg-zinc-950">
        {draw ? (
          <div className={`absolute inset-0 ${localMap ? "invisible" : ""}`} aria-hidden={localMap ? true : undefined} inert={localMap ? true : undefined} data-map-canvas="">
            <GraphCanvas
              key={canvasKey}
              ref={canvas}
              nodes={map.nodes}
              edges={map.edges}
              layout="preset"
              selectedId={localMap ? mapSelected.current : (view.node ?? null)}
              onSelect={select}
              onExpand={onExpand}
              onOpen={(id) => (id.startsWith("topic:") ? onExpand(id) : showLocal(id))}
              onRendered={setStats}
              onMoved={onMoved}
              label={`Topic map of ${scopeName}: ${map.nodes.length} nodes. Double-click a topic to expand it into its beliefs, a belief to see its local graph. Arrow keys move between nodes, Enter expands the selected one.`}
            />
          </div>
        ) : null}
        {localMap ? (
          <div className="absolute inset-0" data-local-canvas="">
            <GraphCanvas
              key={`local:${view.local}`}
              ref={localCanvas}
              nodes={localMap.nodes}
              edges={localMap.edges}
              layout="preset"
              selectedId={view.node ?? null}
              onSelect={select}
              onExpand={(id) => (localMap.beliefs.has(id) ? showLocal(id) : undefined)}
              onOpen={(id) => (localMap.beliefs.has(id) ? showLocal(id) : undefined)}
              label={`Local graph of one belief: ${localMap.nodes.length} nodes within ${view.depth} ${view.depth === 1 ? "step" : "steps"}. Double-click a belief to see its own local graph. Arrow keys move between nodes.`}
            />
          </div>
        ) : null}
        {loading ? <div className="pointer-events-none absolute right-2 top-2 rounded bg-white/90 px-2 py-1 text-xs dark:bg-zinc-950/90" data-testid="graph-loading">Loading…</div> : null}
        {error ? <p role="alert" className="absolute inset-x-4 top-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">{error.message}</p> : null}
        <p className="pointer-events-none absolute bottom-1 left-2 rounded bg-white/80 px-1 text-xs text-zinc-700 dark:bg-zinc-950/80 dark:text-zinc-300" data-testid="graph-stats">
          {(localMap ?? map).nodes.length} nodes · {(localMap ?? map).edges.length} edges{stats ? ` · ${stats.renderer}` : ""}
        </p>
        {selectedTopic ? (
          <div className="fixed inset-x-0 bottom-0 z-40 border-t border-zinc-300 bg-white p-4 text-sm shadow-2xl lg:absolute lg:inset-x-auto lg:bottom-auto lg:right-2 lg:top-2 lg:w-72 lg:rounded-lg lg:border dark:border-zinc-700 dark:bg-zinc-900" data-testid="graph-topic-panel">
            <h2 className="font-semibold">{selectedTopic.topic}</h2>
            <p className="mt-1 text-zinc-700 dark:text-zinc-300">
              {selectedTopic.beliefs} beliefs ({selectedTopic.live} live), {selectedTopic.contested} contested; highest tension {selectedTopic.maxTension.toFixed(2)}.
            </p>
            <div className="mt-2 flex gap-3">
              <button type="button" className="text-sky-700 underline dark:text-sky-400" onClick={() => expandTopic(selectedTopic.topic)}>Expand into its beliefs</button>
              <button type="button" className="text-zinc-600 underline dark:text-zinc-400" onClick={() => select(null)}>Close</button>
            </div>
          </div>
        ) : selectedBelief ? (
          <div className="fixed inset-x-0 bottom-0 z-40 max-h-[48vh] overflow-y-auto border-t border-zinc-300 bg-white shadow-2xl lg:absolute lg:inset-x-auto lg:bottom-auto lg:right-2 lg:top-2 lg:max-h-[calc(100%-1rem)] lg:w-80 lg:rounded-lg lg:border dark:border-zinc-700 dark:bg-zinc-900">
            <GraphSidePanel scope={scope} scopeId={scopeId} node={{ kind: "belief", belief: selectedBelief }} focused={false} onFocus={showLocal} onExpand={showLocal} onClose={() => select(null)} />
          </div>
        ) : null}
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Double-click a topic to expand it in place; double-click a belief for its local graph. Contested and recently changed beliefs orbit their topic at every level. Drag a node to pin it; editors save the layout or a named view for every member.{" "}
        <a className="underline" href={`${pathname}?whole=1`}>Draw the whole scope</a> (slow on large scopes; time travel is there).
      </p>
      <details className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
        <summary className="cursor-pointer text-sm font-semibold">Legend in full</summary>
        <div className="mt-2">
          <GraphLegend />
        </div>
      </details>
    </div>
  );
}
