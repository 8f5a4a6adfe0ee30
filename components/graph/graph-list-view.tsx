import type { EdgeElement, NodeElement } from "@/lib/graph/cytoscape-elements";
import { EDGE_LABELS } from "./graph-legend";

const ROW_LIMIT = 500;

/**
 * The same elements as the canvas, as a table for keyboard and screen-reader users: one row per node with its figures
 * and its links; a row's button selects the node (the side panel opens) like a click on the canvas.
 */
export function GraphListView({ nodes, edges, selectedId, matches, onSelect }: { nodes: readonly NodeElement[]; edges: readonly EdgeElement[]; selectedId: string | null; matches: ReadonlySet<string>; onSelect(id: string): void }) {
  const labels = new Map(nodes.map((n) => [n.data.id, n.data.label]));
  const links = new Map<string, string[]>();
  for (const e of edges) {
    const line = `${labels.get(e.data.source) ?? e.data.source} ${EDGE_LABELS[e.data.type]} this${e.data.live ? "" : " (no longer live)"}`;
    const list = links.get(e.data.target);
    if (list) list.push(line);
    else links.set(e.data.target, [line]);
  }
  const order = [...nodes].sort((a, b) => rank(a) - rank(b) || (b.data.tension ?? 0) - (a.data.tension ?? 0) || a.data.label.localeCompare(b.data.label));
  const shown = order.slice(0, ROW_LIMIT);
  return (
    <div className="h-full overflow-auto" data-testid="graph-list">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Nodes of the graph, beliefs first, most contested first</caption>
        <thead className="sticky top-0 bg-zinc-50 text-xs uppercase text-zinc-600 dark:bg-zinc-900 dark:text-zinc-300">
          <tr>
            <th scope="col" className="px-3 py-2">Node</th>
            <th scope="col" className="px-3 py-2">Kind</th>
            <th scope="col" className="px-3 py-2 text-right">Credence</th>
            <th scope="col" className="px-3 py-2 text-right">Tension</th>
            <th scope="col" className="px-3 py-2">Bearing on it</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((n) => (
            <tr key={n.data.id} className={`border-t border-zinc-100 align-top dark:border-zinc-800 ${n.data.id === selectedId ? "bg-pink-50 dark:bg-pink-950/40" : matches.has(n.data.id) ? "bg-yellow-50 dark:bg-yellow-950/40" : ""}`}>
              <td className="px-3 py-2">
                <button type="button" className="text-left text-sky-800 hover:underline dark:text-sky-300" onClick={() => onSelect(n.data.id)} aria-current={n.data.id === selectedId ? "true" : undefined}>
                  {n.data.label}
                </button>
              </td>
              <td className="px-3 py-2 text-zinc-700 dark:text-zinc-300">{n.data.kind === "belief" ? `belief · ${n.data.status ?? ""}` : n.data.kind === "evidence" ? `evidence · ${n.data.evidenceKind ?? ""}` : "mutation"}</td>
              <td className="px-3 py-2 text-right tabular-nums">{n.data.credence !== undefined ? n.data.credence.toFixed(2) : ""}</td>
              <td className="px-3 py-2 text-right tabular-nums">{n.data.tension !== undefined ? n.data.tension.toFixed(2) : ""}</td>
              <td className="px-3 py-2 text-xs text-zinc-700 dark:text-zinc-300">
                {(links.get(n.data.id) ?? []).slice(0, 6).map((l, i) => <div key={i}>{l}</div>)}
                {(links.get(n.data.id)?.length ?? 0) > 6 ? <div>… and {(links.get(n.data.id)?.length ?? 0) - 6} more</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {order.length > ROW_LIMIT ? <p className="p-3 text-sm text-zinc-600 dark:text-zinc-400">Showing {ROW_LIMIT} of {order.length} nodes: narrow the view with filters.</p> : null}
    </div>
  );
}

function rank(n: NodeElement): number {
  return n.data.kind === "belief" ? 0 : n.data.kind === "mutation" ? 1 : 2;
}
