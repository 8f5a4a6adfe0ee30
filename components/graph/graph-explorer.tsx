"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { searchBeliefsAction } from "@/lib/actions/belief-actions";
import { graphSliceAction, graphTimelineAction, type GraphSliceResult, type TimelineChange } from "@/lib/actions/graph-actions";
import { toCytoscapeElements } from "@/lib/graph/cytoscape-elements";
import { beliefsCsv, edgesCsv, toGraphML } from "@/lib/graph/graph-exports";
import type { GraphSlice } from "@/lib/graph/graph-store";
import { AsOfSlider } from "./as-of-slider";
import { GraphCanvas, type GraphCanvasHandle, type RenderStats } from "./graph-canvas";
import { GraphDiffView } from "./graph-diff-view";
import { GraphFiltersForm } from "./graph-filters-form";
import { GraphKey, GraphLegend } from "./graph-legend";
import { GraphListView } from "./graph-list-view";
import { GraphSidePanel, type SelectedNode } from "./graph-side-panel";
import { styleEdge, styleNode } from "./graph-style";
import {
  activePreset,
  applyPreset,
  elementFiltersOf,
  GRAPH_PRESETS,
  graphViewSearchParams,
  hasFilters,
  parseGraphViewParams,
  TEXT_FILTER_MAX,
  withoutFilters,
  type GraphViewParams,
} from "./graph-view-params";
import { mergeGraphSlices } from "./merge-graph-slices";
import { distinctMinutes } from "./timeline";
import { formatUtc } from "@/components/ui/format-time";

interface Props {
  /** The scope's slug (URLs) and id (what items carry; others are references cited from elsewhere). */
  scope: string;
  scopeId: string;
  scopeName: string;
  /** ISO times: the scope's creation and the page's "now", bounds of the slider when the history cannot be read. */
  createdAt: string;
  now: string;
  /** The viewer may change the scope's records (editor or above): the panel then offers relation corrections. */
  canEdit?: boolean;
}

async function fetchSlice(scope: string, asOf: string | undefined, nodeId: string | undefined): Promise<GraphSliceResult> {
  const result = await graphSliceAction({ scope, ...(asOf ? { asOf } : {}), ...(nodeId ? { nodeId, depth: 1 } : {}) });
  if (!result.ok) throw new Error(result.error.message);
  return result.data;
}

async function fetchTimeline(scope: string): Promise<TimelineChange[]> {
  const result = await graphTimelineAction({ scope });
  if (!result.ok) throw new Error(result.error.message);
  return result.data.changes;
}

function download(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

const toolButton = "rounded border border-zinc-300 px-2 py-1 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800";
/** Entry edges a relation correction applies to. */
const RELATION_KINDS: ReadonlySet<string> = new Set(["SUPPORTS", "REBUTS", "CONTEXTUALIZES"]);
const EMPTY_SLICE: GraphSlice = { beliefs: [], evidence: [], mutations: [], edges: [] };

/** The scope's graph explorer: data through React Query, view state in the URL, drawing in `GraphCanvas`. */
export function GraphExplorer({ scope, scopeId, scopeName, createdAt, now, canEdit = false }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const view = useMemo(() => parseGraphViewParams(searchParams), [searchParams]);
  const canvas = useRef<GraphCanvasHandle>(null);
  const [stats, setStats] = useState<RenderStats | null>(null);
  // A shared link with hand-set filters opens with them shown; presets and the plain view keep the canvas full width.
  const [filtersOpen, setFiltersOpen] = useState(() => hasFilters(view) && activePreset(view) === null);
  const [search, setSearch] = useState("");
  const [searchResult, setSearchResult] = useState<{ message: string; ids: string[]; error: boolean } | null>(null);
  const [compareTo, setCompareTo] = useState<string | null>(null);

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
      retry: false,
    })),
  });
  const timeline = useQuery({ queryKey: ["timeline", scope], queryFn: () => fetchTimeline(scope), retry: false, staleTime: 30_000 });
  const compare = useQuery({
    queryKey: ["graph", scope, compareTo === "now" ? null : compareTo, null],
    queryFn: () => fetchSlice(scope, compareTo === "now" || compareTo === null ? undefined : compareTo, undefined),
    enabled: compareTo !== null && view.asOf !== undefined,
  });
  const loaded = queries.map((q) => q.data).filter((d): d is GraphSliceResult => d !== undefined);
  const error = queries.find((q) => q.error)?.error ?? null;
  const pending = queries.some((q) => q.isPending);
  const fetching = queries.some((q) => q.isFetching);
  const dataKey = queries.map((q) => q.dataUpdatedAt).join(",");

  const { slice, weights } = useMemo(() => {
    const parts = loaded;
    const merged: GraphSlice = parts.length > 0 ? mergeGraphSlices(parts.map((p) => p.slice)) : EMPTY_SLICE;
    return { slice: merged, weights: new Map(parts.flatMap((p) => Object.entries(p.weights))) };
    // Keyed on dataUpdatedAt: `loaded` is a new array every render, its members change only with the data.
  }, [dataKey]);

  // The slider's stops: the history's change-sets; a reader who may not export the scope gets creation → now.
  const changes = useMemo((): TimelineChange[] => {
    if (timeline.data) return timeline.data;
    if (timeline.isPending) return [];
    return [
      { time: createdAt, changeSet: "created", beliefs: 0 },
      { time: now, changeSet: "now", beliefs: 0 },
    ];
  }, [timeline.data, timeline.isPending, createdAt, now]);
  const latest = changes.at(-1)?.time ?? now;

  // Keyed on the filters' JSON: selecting a node changes the view but must not rebuild every element.
  const filtersKey = JSON.stringify(elementFiltersOf(view));
  const filters = useMemo(() => JSON.parse(filtersKey) as ReturnType<typeof elementFiltersOf>, [filtersKey]);
  const elements = useMemo(() => toCytoscapeElements(slice, filters, weights), [slice, filters, weights]);
  const nodes = useMemo(() => elements.nodes.map(styleNode), [elements]);
  const edges = useMemo(() => elements.edges.map(styleEdge), [elements]);
  const topics = useMemo(() => [...new Set(slice.beliefs.filter((b) => b.scope === scopeId).map((b) => b.topic))].sort(), [slice, scopeId]);
  const shownBeliefs = elements.nodes.filter((n) => n.data.kind === "belief").length;
  const listMode = view.mode === "list";

  const selected = useMemo((): SelectedNode | null => {
    if (!view.node) return null;
    const belief = slice.beliefs.find((b) => b.id === view.node);
    if (belief) return { kind: "belief", belief };
    const evidence = slice.evidence.find((e) => e.id === view.node);
    if (evidence) return { kind: "evidence", evidence };
    const mutation = slice.mutations.find((m) => m.id === view.node);
    return mutation ? { kind: "mutation", mutation } : null;
  }, [slice, view.node]);
  // The selected evidence's live relations to the scope's own beliefs, as drawn now (not in a past view): what a
  // correction can change.
  const evidenceRelations = useMemo(() => {
    if (selected?.kind !== "evidence" || view.asOf !== undefined) return [];
    const beliefs = new Map(slice.beliefs.filter((b) => b.scope === scopeId).map((b) => [b.id, b]));
    return slice.edges.flatMap((e) => {
      const belief = e.from === selected.evidence.id && e.live && e.beliefId !== null && RELATION_KINDS.has(e.kind) ? beliefs.get(e.beliefId) : undefined;
      return belief ? [{ beliefId: belief.id, beliefText: belief.text, relation: e.kind, seq: e.seq }] : [];
    });
  }, [selected, slice, scopeId, view.asOf]);

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
  // On a phone the panel is a sheet over the bottom of the screen: the tapped node is panned into the part above it.
  const sheet = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!selected || listMode || !sheet.current || window.matchMedia("(min-width: 1024px)").matches) return;
    const id = view.node;
    const height = sheet.current.getBoundingClientRect().height;
    if (id) canvas.current?.reveal(id, height);
  }, [selected, view.node, listMode]);
  const open = useCallback(
    (id: string) => {
      const belief = slice.beliefs.find((b) => b.id === id);
      if (belief && belief.scope === scopeId) router.push(`/scopes/${scope}/beliefs/${encodeURIComponent(id)}`);
      else document.getElementById("graph-panel-title")?.focus();
    },
    [router, scope, scopeId, slice],
  );

  // Search highlights and centres; it never filters (the filter panel does). Texts are searched in full.
  const texts = useMemo(() => {
    const out = new Map<string, string>();
    for (const b of slice.beliefs) out.set(b.id, b.text);
    for (const e of slice.evidence) out.set(e.id, e.text);
    for (const m of slice.mutations) out.set(m.id, m.belief);
    return out;
  }, [slice]);
  // Each search gets a number: an answer that arrives after a newer search (or a new view) is dropped.
  const searchRun = useRef(0);
  async function runSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const run = ++searchRun.current;
    const q = search.trim();
    if (q.length === 0) {
      canvas.current?.highlight([]);
      setSearchResult(null);
      return;
    }
    if (q.length > TEXT_FILTER_MAX) {
      canvas.current?.highlight([]);
      setSearchResult({ message: `Search texts are limited to ${TEXT_FILTER_MAX} characters; this one has ${q.length.toLocaleString("en")}. Shorten it and search again.`, ids: [], error: true });
      return;
    }
    // Any node whose text contains what was typed, at once; then the beliefs the server finds by meaning (the hybrid
    // ranking the REST search uses), kept when they are in this view.
    const needle = q.toLowerCase();
    const byWords = elements.nodes.filter((n) => (texts.get(n.data.id) ?? n.data.label).toLowerCase().includes(needle)).map((n) => n.data.id);
    canvas.current?.highlight(byWords);
    setSearchResult({ message: "Searching…", ids: byWords, error: false });
    const found = await searchBeliefsAction({ scope, q });
    if (run !== searchRun.current) return;
    const inView = new Set(elements.nodes.map((n) => n.data.id));
    const byMeaning = found.ok ? found.data.map((m) => m.id).filter((id) => inView.has(id) && !byWords.includes(id)) : [];
    const ids = [...byWords, ...byMeaning];
    canvas.current?.highlight(ids);
    const shortQ = q.length > 60 ? `${q.slice(0, 59)}…` : q;
    const count = `${ids.length} node${ids.length === 1 ? "" : "s"} found`;
    const meaning = byMeaning.length === 0 ? "" : byWords.length === 0 ? " by meaning" : ` (${byMeaning.length} by meaning)`;
    const unavailable = found.ok ? "" : ` Search by meaning is unavailable: ${found.error.message}`;
    setSearchResult({
      message: ids.length === 0 ? `No node in this view mentions or means “${shortQ}”.${unavailable}` : `${count}${meaning}, highlighted and centred.${unavailable}`,
      ids,
      error: false,
    });
    if (ids.length === 1) select(ids[0]!);
  }
  // A new view (filters, time) drops stale highlights.
  useEffect(() => {
    searchRun.current++;
    setSearchResult(null);
  }, [elements]);
  const matches = useMemo(() => new Set(searchResult?.ids ?? []), [searchResult]);

  function exportPng() {
    const blob = canvas.current?.png();
    if (blob) download(`${scope}-graph.png`, blob);
  }
  function exportJson() {
    const body = { format: "credence.graph-view", scope, asOf: view.asOf ?? null, view: Object.fromEntries(graphViewSearchParams(view)), nodes: elements.nodes, edges: elements.edges };
    download(`${scope}-graph.json`, new Blob([JSON.stringify(body, null, 2)], { type: "application/json" }));
  }
  function exportGraphml() {
    download(`${scope}-graph.graphml`, new Blob([toGraphML(elements, texts)], { type: "application/graphml+xml" }));
  }
  function exportCsv(kind: "beliefs" | "edges") {
    const shown = new Set(elements.nodes.map((n) => n.data.id));
    const body = kind === "beliefs" ? beliefsCsv(slice.beliefs.filter((b) => shown.has(b.id))) : edgesCsv(elements);
    download(`${scope}-${kind}.csv`, new Blob([body], { type: "text/csv" }));
  }

  const missingFocus = Boolean(view.nodeId) && !pending && (error !== null || !texts.has(view.nodeId ?? ""));
  const emptyScope = !pending && !error && !missingFocus && slice.beliefs.length === 0 && slice.evidence.length === 0;
  const emptyFilter = !pending && !error && !emptyScope && !missingFocus && elements.nodes.length === 0;
  const selectedLabel = elements.nodes.find((n) => n.data.id === view.node)?.data.label;
  const preset = activePreset(view);
  const noElements = elements.nodes.length === 0;

  return (
    <div className="space-y-3" data-wide="">
      <a href="#graph-frame" className="sr-only focus:not-sr-only focus:inline-block focus:rounded focus:bg-white focus:px-2 focus:py-1 focus:text-sky-800 dark:focus:bg-zinc-900 dark:focus:text-sky-300">
        Skip to the graph
      </a>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-2 text-2xl font-semibold tracking-tight">{scopeName}: graph</h1>
        {view.nodeId ? (
          <span className="rounded bg-sky-100 px-2 py-0.5 text-xs text-sky-900 dark:bg-sky-900 dark:text-sky-100" data-testid="graph-focus">
            Neighbourhood of one node{view.expand.length > 0 ? ` + ${view.expand.length} expanded` : ""}
            <button type="button" className="ml-2 underline" onClick={() => setView({ ...view, nodeId: undefined, expand: [] })}>Show whole scope</button>
          </span>
        ) : null}
        <div className="ml-auto flex flex-wrap gap-2 text-sm">
          <button type="button" className={toolButton} aria-expanded={filtersOpen} aria-controls="graph-filters-panel" onClick={() => setFiltersOpen((o) => !o)} data-testid="graph-filters-toggle">
            Filters{hasFilters(view) ? ` (${Object.keys(elementFiltersOf(view)).length})` : ""}
          </button>
          <div role="group" aria-label="Show as" className="inline-flex overflow-hidden rounded border border-zinc-300 dark:border-zinc-700">
            <button type="button" aria-pressed={!listMode} className={`px-2 py-1 ${!listMode ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : ""}`} onClick={() => setView({ ...view, mode: undefined })}>Graph</button>
            <button type="button" aria-pressed={listMode} className={`px-2 py-1 ${listMode ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : ""}`} onClick={() => setView({ ...view, mode: "list" })}>List</button>
          </div>
          <button type="button" className={toolButton} onClick={() => canvas.current?.fit()} disabled={noElements || listMode}>Fit</button>
          <details className="relative">
            <summary className={`${toolButton} cursor-pointer list-none`}>Export</summary>
            <div className="absolute right-0 z-50 mt-1 flex w-52 flex-col rounded border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
              {(
                [
                  ["Export PNG", "image of the whole graph", exportPng],
                  ["Export JSON", "the elements shown", exportJson],
                  ["Export GraphML", "Gephi, yEd, Cytoscape", exportGraphml],
                  ["Export beliefs CSV", "one row per belief", () => exportCsv("beliefs")],
                  ["Export edges CSV", "one row per edge", () => exportCsv("edges")],
                ] as const
              ).map(([name, hint, run]) => (
                <button key={name} type="button" className="rounded px-2 py-1 text-left hover:bg-zinc-100 disabled:opacity-50 dark:hover:bg-zinc-800" onClick={run} disabled={noElements || (name === "Export PNG" && listMode)}>
                  {name}
                  <span className="block text-xs text-zinc-600 dark:text-zinc-400">{hint}</span>
                </button>
              ))}
            </div>
          </details>
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-zinc-600 dark:text-zinc-400" id="graph-presets-label">Show:</span>
        <div role="group" aria-labelledby="graph-presets-label" className="flex flex-wrap gap-1.5" data-testid="graph-presets">
          <button type="button" aria-pressed={!hasFilters(view)} className={presetClass(!hasFilters(view))} onClick={() => setView(withoutFilters(view))}>Everything</button>
          {GRAPH_PRESETS.map((p) => (
            <button key={p.id} type="button" title={p.hint} aria-pressed={preset === p.id} className={presetClass(preset === p.id)} onClick={() => setView(applyPreset(view, p.id, latest))}>
              {p.label}
            </button>
          ))}
        </div>
        <form role="search" aria-label="Find in the graph" className="ml-auto flex min-w-0 flex-1 gap-1 sm:max-w-sm" onSubmit={runSearch}>
          <label htmlFor="graph-search" className="sr-only">Find a node by its text</label>
          <input
            id="graph-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Find a node…"
            aria-invalid={searchResult?.error ?? false}
            aria-describedby="graph-search-result"
            className={`min-w-0 flex-1 rounded border bg-white px-2 py-1 dark:bg-zinc-900 ${searchResult?.error ? "border-red-600 dark:border-red-500" : "border-zinc-300 dark:border-zinc-700"}`}
          />
          <button type="submit" className={toolButton}>Find</button>
        </form>
      </div>
      <p id="graph-search-result" role="status" className={`text-sm ${searchResult?.error ? "text-red-700 dark:text-red-400" : "text-zinc-700 dark:text-zinc-300"} ${searchResult ? "" : "sr-only"}`} data-testid="graph-search-result">
        {searchResult?.message ?? ""}
      </p>
      <GraphKey />

      <div className={filtersOpen ? "grid gap-3 lg:grid-cols-[16rem_minmax(0,1fr)]" : ""}>
        {filtersOpen ? (
          <div id="graph-filters-panel" className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
            <GraphFiltersForm view={view} topics={topics} onChange={(next) => setView(next)} />
          </div>
        ) : null}
        <div id="graph-frame" tabIndex={-1} className="graph-frame relative h-[62vh] min-h-[340px] overflow-hidden rounded-lg border border-zinc-200 bg-white lg:h-[calc(100vh-16rem)] lg:min-h-[480px] dark:border-zinc-800 dark:bg-zinc-950">
          {listMode ? (
            <GraphListView nodes={elements.nodes} edges={elements.edges} selectedId={view.node ?? null} matches={matches} onSelect={(id) => select(id)} />
          ) : (
            <GraphCanvas
              ref={canvas}
              nodes={nodes}
              edges={edges}
              selectedId={view.node ?? null}
              onSelect={select}
              onExpand={expand}
              onOpen={open}
              onRendered={setStats}
              label={`Belief graph of ${scopeName}, ${elements.nodes.length} nodes. Arrow keys move between nodes, Enter opens the selected one, Escape clears, + and − zoom. The List view shows the same nodes as a table.`}
            />
          )}
          {/* A veil only: the stats line below says "Loading the graph…" (a label on a div without a role is prohibited ARIA). */}
          {pending ? <div className="absolute inset-0 animate-pulse bg-zinc-100 dark:bg-zinc-900" data-testid="graph-loading" aria-hidden="true" /> : null}
          {error && !missingFocus ? (
            <p role="alert" className="absolute inset-x-4 top-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">{error.message}</p>
          ) : null}
          {missingFocus ? (
            <div role="alert" className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-white/90 p-8 text-center dark:bg-zinc-950/90" data-testid="graph-unknown-node">
              <p>There is no node with the id “{(view.nodeId ?? "").slice(0, 80)}” in this scope{view.asOf ? " at that moment" : ""}, or you cannot see it.</p>
              <button type="button" className="text-sky-700 underline dark:text-sky-400" onClick={() => setView({ ...view, nodeId: undefined, expand: [], node: undefined })}>Show the whole scope</button>
            </div>
          ) : null}
          {emptyScope ? (
            <div className="absolute inset-0 flex items-center justify-center p-8 text-center text-zinc-700 dark:text-zinc-300" data-testid="graph-empty">
              {view.asOf ? "Nothing had been written to this scope yet at that moment." : "No beliefs in this scope yet. Agents and editors add them through the API or the Ingest page."}
            </div>
          ) : null}
          {emptyFilter ? (
            <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-8 text-center text-zinc-700 dark:text-zinc-300" data-testid="graph-empty-filter">
              <p>No belief matches these filters.</p>
              {hasFilters(view) ? <button type="button" className="text-sky-700 underline dark:text-sky-400" onClick={() => setView(withoutFilters(view))}>Clear filters</button> : null}
            </div>
          ) : null}
          <p className="pointer-events-none absolute bottom-1 left-2 rounded bg-white/80 px-1 text-xs text-zinc-700 dark:bg-zinc-950/80 dark:text-zinc-300" data-testid="graph-stats">
            {pending ? (
              "Loading the graph…"
            ) : (
              <>
                {counted(shownBeliefs, "belief")} · {counted(elements.nodes.length, "node")} · {counted(elements.edges.length, "edge")}
                {stats && !listMode ? ` · ${stats.renderer}` : ""}
                {fetching ? " · updating…" : ""}
              </>
            )}
          </p>
          <p className="sr-only" aria-live="polite">{selectedLabel ? `Selected: ${selectedLabel}` : ""}</p>
          {selected ? (
            <div ref={sheet} data-testid="graph-panel-sheet" className="fixed inset-x-0 bottom-0 z-40 max-h-[48vh] overflow-y-auto border-t border-zinc-300 bg-white shadow-2xl lg:absolute lg:inset-x-auto lg:bottom-auto lg:right-2 lg:top-2 lg:max-h-[calc(100%-1rem)] lg:w-80 lg:rounded-lg lg:border dark:border-zinc-700 dark:bg-zinc-900">
              <GraphSidePanel scope={scope} scopeId={scopeId} node={selected} relations={evidenceRelations} canEdit={canEdit} focused={view.nodeId !== undefined} onFocus={focus} onExpand={expand} onClose={() => select(null)} />
            </div>
          ) : null}
        </div>
      </div>
      {view.node && !selected && !pending ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="graph-selected-missing">The selected node is not in this view.</p>
      ) : null}
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Click a node for its details; double-click to add its neighbourhood. Keyboard: Tab reaches the graph in one stop, arrow keys move between nodes, Enter opens one.
      </p>

      <AsOfSlider changes={changes} asOf={view.asOf} onChange={(asOf) => setView({ ...view, asOf })} />
      {view.asOf ? (
        <GraphDiffView
          asOf={view.asOf}
          compareTo={compareTo}
          choices={distinctMinutes(changes.filter((c) => Date.parse(c.time) > Date.parse(view.asOf ?? "")).map((c) => c.time)).filter((t) => formatUtc(t) !== formatUtc(view.asOf ?? ""))}
          onCompare={setCompareTo}
          before={slice}
          after={compare.data?.slice ?? null}
          loading={compare.isFetching}
          scope={scope}
        />
      ) : null}

      <details className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
        <summary className="cursor-pointer text-sm font-semibold">Legend in full</summary>
        <div className="mt-2">
          <GraphLegend />
        </div>
      </details>
    </div>
  );
}

function presetClass(active: boolean): string {
  return `rounded-full border px-3 py-0.5 ${active ? "border-sky-700 bg-sky-700 text-white dark:border-sky-400 dark:bg-sky-400 dark:text-zinc-950" : "border-zinc-300 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"}`;
}

/** "1 belief", "2 beliefs", "0 edges". */
function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
