/**
 * The fcose layout off the main thread: a headless Cytoscape instance (nodes sized as on the page, no labels) lays out
 * the graph it is sent and posts the positions back (components/graph/graph-layout.ts has the message format).
 */
import cytoscape, { type ElementDefinition } from "cytoscape";
import fcose from "cytoscape-fcose";
import { layoutOptions, type LayoutRequest, type LayoutResponse } from "./graph-layout";

cytoscape.use(fcose);

interface WorkerScope {
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null;
  postMessage(message: LayoutResponse, transfer: Transferable[]): void;
}
const scope = (typeof self === "undefined" ? {} : self) as unknown as WorkerScope;

export function layOut(request: LayoutRequest): Float64Array {
  const elements: ElementDefinition[] = [];
  request.nodes.forEach((id, i) => {
    const x = request.positions[2 * i];
    const y = request.positions[2 * i + 1];
    const placed = request.incremental && x !== undefined && y !== undefined && !Number.isNaN(x) && !Number.isNaN(y);
    elements.push({ group: "nodes", data: { id, size: request.sizes[i] ?? 16 }, ...(placed ? { position: { x, y } } : {}) });
  });
  for (let i = 0; i + 1 < request.edges.length; i += 2) {
    const s = request.nodes[request.edges[i] ?? 0];
    const t = request.nodes[request.edges[i + 1] ?? 0];
    if (s !== undefined && t !== undefined) elements.push({ group: "edges", data: { id: `e${i}`, source: s, target: t } });
  }
  const cy = cytoscape({
    headless: true,
    styleEnabled: true,
    elements,
    style: [{ selector: "node", style: { width: "data(size)", height: "data(size)", label: "" } }],
  });
  cy.layout({ ...layoutOptions(request.nodes.length, request.incremental), animate: false, nodeDimensionsIncludeLabels: false } as cytoscape.LayoutOptions).run();
  const out = new Float64Array(request.nodes.length * 2);
  request.nodes.forEach((id, i) => {
    const p = cy.getElementById(id).position();
    out[2 * i] = p.x;
    out[2 * i + 1] = p.y;
  });
  cy.destroy();
  return out;
}

// Only inside a worker (the module is also imported by its unit test under Node, where `self` does not exist).
if (typeof self !== "undefined") scope.onmessage = (event) => {
  const request = event.data;
  const started = performance.now();
  try {
    const positions = layOut(request);
    scope.postMessage({ id: request.id, ok: true, positions, layoutMs: performance.now() - started }, [positions.buffer]);
  } catch (error) {
    scope.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }, []);
  }
};
