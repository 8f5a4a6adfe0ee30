"use client";

import { useQueries } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useRef, useState } from "react";
import { graphSliceAction, type GraphSliceResult } from "@/lib/actions/graph-actions";
import { toCytoscapeElements } from "@/lib/graph/cytoscape-elements";
import type { GraphSlice } from "@/lib/graph/graph-store";
import { AsOfSlider } from "./as-of-slider";
import { GraphCanvas, type GraphCanvasHandle, type RenderStats } from "./graph-canvas";
import { GraphFiltersForm } from "./graph-filters-form";
import { GraphLegend } from "./graph-legend";
import { GraphSidePanel, type SelectedNode } from "./graph-side-panel";
import { styleEdge, styleNode } from "./graph-style";
import { elementFiltersOf, graphViewSearchParams, hasFilters, parseGraphViewParams, withoutFilters, type GraphViewParams } from "./graph-view-params";
import { mergeGraphSlices } from "./merge-graph-slices";

interface Props {
  /** The scope's slug (URLs) and id (what items carry; others are references cited from elsewhere). */
  scope: string;
  scopeId: string;
  scopeName: string;
  /** ISO times bounding the "as of" slider. */
  createdAt: string;
  now: string;
}

async function fetchSlice(scope: string, asOf: string | undefined, nodeId: string | undefined): Promise<GraphSliceResult> {
  const result = await graphSliceAction({ scope, ...(asOf ? { asOf } : {}), ...(nodeId ? { nodeId, depth: 1 } : {}) });
  if (!result.ok) throw new Error(result.error.message);
  return result.data;
}

function download(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** The scope's graph explorer: data through React Query, view state in the URL, drawing in `GraphCanvas`. */
export function GraphExplorer({ scope, scopeId, scopeName, createdAt, now }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const view = useMemo(() => parseGraphViewParams(searchParams), [searchParams]);
  const canvas = useRef<GraphCanvasHandle>(null);
  const [stats, setStats] = useState<RenderStats | null>(null);

  // Native history calls sync with useSearchParams without a server round trip (the page itself ignores the query).
  // Filters, focus and time get a history entry (Back undoes them); selecting a node replaces the current one.
  const setView = useCallback(
    (next: GraphViewParams, options: { replace?: boolean } = {}) => {
      const query = graphViewSearchParams(next).toString();
      const url = query ? `${pathname}?${query}` : pathname;
      if (options.replace) window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
    },
    [pathname],
  );

  // Whole scope, or the focus node's neighbourhood plus every expanded one.
  const starts = view.nodeId ? [view.nodeId, ...view.expand.filter((id) => id !== view.nodeId)] : [undefined];
  const queries = useQueries({
    queries: starts.map((nodeId) => ({
      queryKey: ["graph", scope, view.asOf ?? null, nodeId ?? null],
      queryFn: () => fetchSlice(scope, view.asOf, nodeId),
      placeholderData: (previous: GraphSliceResult | undefined) => previous,
    })),
  });
  const loaded = queries.map((q) => q.data).filter((d): d is GraphSliceResult => d !== undefined);
  const error = queries.find((q) => q.error)?.error ?? null;
  const pending = queries.some((q) => q.isPending);
  const fetching = queries.some((q) => q.isFetching);
  const dataKey = queries.map((q) => q.dataUpdatedAt).join(",");

  const { slice, weights } = useMemo(() => {
    const parts = loaded;
    const merged: GraphSlice = parts.length > 0 ? mergeGraphSlices(parts.map((p) => p.slice)) : { beliefs: [], evidence: [], mutations: [], edges: [] };
    return { slice: merged, weights: new Map(parts.flatMap((p) => Object.entries(p.weights))) };
    // Keyed on dataUpdatedAt: `loaded` is a new array every render, its members change only with the data.
  }, [dataKey]);

  // Keyed on the filters' JSON: selecting a node changes the view but must not rebuild every element.
  const filtersKey = JSON.stringify(elementFiltersOf(view));
  const filters = useMemo(() => JSON.parse(filtersKey) as ReturnType<typeof elementFiltersOf>, [filtersKey]);
  const elements = useMemo(() => toCytoscapeElements(slice, filters, weights), [slice, filters, weights]);
  const nodes = useMemo(() => elements.nodes.map(styleNode), [elements]);
  const edges = useMemo(() => elements.edges.map(styleEdge), [elements]);
  const topics = useMemo(() => [...new Set(slice.beliefs.filter((b) => b.scope === scopeId).map((b) => b.topic))].sort(), [slice]);
  const shownBeliefs = elements.nodes.filter((n) => n.data.kind === "belief").length;

  const selected = useMemo((): SelectedNode | null => {
    if (!view.node) return null;
    const belief = slice.beliefs.find((b) => b.id === view.node);
    if (belief) return { kind: "belief", belief };
    const evidence = slice.evidence.find((e) => e.id === view.node);
    if (evidence) return { kind: "evidence", evidence };
    const mutation = slice.mutations.find((m) => m.id === view.node);
    return mutation ? { kind: "mutation", mutation } : null;
  }, [slice, view.node]);

  const setFilters = useCallback((next: GraphViewParams) => setView(next), [setView]);
  const select = useCallback(
    (id: string | null) => {
      if ((id ?? undefined) !== view.node) setView({ ...view, node: id ?? undefined }, { replace: true });
    },
    [setView, view],
  );
  const focus = useCallback((id: string) => setView({ ...view, nodeId: id, expand: [], node: id }), [setView, view]);
  const expand = useCallback(
    (id: string) => {
      if (!view.nodeId) return focus(id);
      if (id === view.nodeId || view.expand.includes(id)) return;
      setView({ ...view, expand: [...view.expand, id], node: id });
    },
    [focus, setView, view],
  );
  const open = useCallback(
    (id: string) => {
      const belief = slice.beliefs.find((b) => b.id === id);
      if (belief && belief.scope === scopeId) router.push(`/scopes/${scope}/beliefs/${encodeURIComponent(id)}`);
      else document.getElementById("graph-panel-title")?.focus();
    },
    [router, scope, scopeId, slice],
  );

  function exportPng() {
    const blob = canvas.current?.png();
    if (blob) download(`${scope}-graph.png`, blob);
  }

  function exportJson() {
    const body = { format: "credence.graph-view", scope, asOf: view.asOf ?? null, view: Object.fromEntries(graphViewSearchParams(view)), nodes: elements.nodes, edges: elements.edges };
    download(`${scope}-graph.json`, new Blob([JSON.stringify(body, null, 2)], { type: "application/json" }));
  }

  const emptyScope = !pending && !error && slice.beliefs.length === 0 && slice.evidence.length === 0;
  const emptyFilter = !pending && !error && !emptyScope && elements.nodes.length === 0;
  const selectedLabel = elements.nodes.find((n) => n.data.id === view.node)?.data.label;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{scopeName}: graph</h1>
        {view.nodeId ? (
          <span className="rounded bg-sky-100 px-2 py-0.5 text-xs text-sky-900 dark:bg-sky-900 dark:text-sky-100" data-testid="graph-focus">
            Neighbourhood of one node{view.expand.length > 0 ? ` + ${view.expand.length} expanded` : ""}
            <button type="button" className="ml-2 underline" onClick={() => setView({ ...view, nodeId: undefined, expand: [] })}>Show whole scope</button>
          </span>
        ) : null}
        <div className="ml-auto flex gap-2 text-sm">
          <button type="button" className="rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800" onClick={() => canvas.current?.fit()} disabled={elements.nodes.length === 0}>Fit</button>
          <button type="button" className="rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800" onClick={exportPng} disabled={elements.nodes.length === 0}>Export PNG</button>
          <button type="button" className="rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800" onClick={exportJson} disabled={elements.nodes.length === 0}>Export JSON</button>
        </div>
      </div>
      <AsOfSlider from={createdAt} to={now} asOf={view.asOf} onChange={(asOf) => setView({ ...view, asOf })} />
      <div className="grid gap-4 lg:grid-cols-[15rem_minmax(0,1fr)_18rem]">
        <div className="space-y-4">
          <GraphFiltersForm view={view} topics={topics} onChange={setFilters} />
          <GraphLegend />
        </div>
        <div className="relative h-[70vh] min-h-[420px] overflow-hidden rounded-lg border border-zinc-200 bg-white dark:border-zinc-800">
          <GraphCanvas
            ref={canvas}
            nodes={nodes}
            edges={edges}
            selectedId={view.node ?? null}
            onSelect={select}
            onExpand={expand}
            onOpen={open}
            onRendered={setStats}
            label={`Belief graph of ${scopeName}: arrow keys or Tab move between nodes, Enter opens, Escape clears, + and − zoom`}
          />
          {pending ? <div className="absolute inset-0 animate-pulse bg-zinc-100 dark:bg-zinc-900" data-testid="graph-loading" aria-label="Loading the graph" /> : null}
          {error ? (
            <p role="alert" className="absolute inset-x-4 top-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">{error.message}</p>
          ) : null}
          {emptyScope ? (
            <div className="absolute inset-0 flex items-center justify-center p-8 text-center text-zinc-600" data-testid="graph-empty">
              {view.asOf ? "Nothing had been written to this scope yet at that moment." : "No beliefs in this scope yet. Agents add them through the API with a token from the scope settings."}
            </div>
          ) : null}
          {emptyFilter ? (
            <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-8 text-center text-zinc-600" data-testid="graph-empty-filter">
              <p>No belief matches these filters.</p>
              {hasFilters(view) ? <button type="button" className="text-sky-700 underline" onClick={() => setView(withoutFilters(view))}>Clear filters</button> : null}
            </div>
          ) : null}
          <p className="pointer-events-none absolute bottom-1 left-2 text-xs text-zinc-500" data-testid="graph-stats">
            {shownBeliefs} beliefs · {elements.nodes.length} nodes · {elements.edges.length} edges{stats ? ` · ${stats.renderer}` : ""}
            {fetching && !pending ? " · updating…" : ""}
          </p>
          <p className="sr-only" aria-live="polite">{selectedLabel ? `Selected: ${selectedLabel}` : ""}</p>
        </div>
        <div>
          {selected ? (
            <GraphSidePanel scope={scope} scopeId={scopeId} node={selected} focused={view.nodeId !== undefined} onFocus={focus} onExpand={expand} onClose={() => select(null)} />
          ) : (
            <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
              Click a node for its details; double-click to expand its neighbourhood. With the graph focused, arrow keys and Tab move between nodes and Enter opens one.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
