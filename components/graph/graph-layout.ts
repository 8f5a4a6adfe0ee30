/**
 * The fcose layout policy and the message format of the layout worker (components/graph/layout-worker.ts). Pure: no
 * React, no DOM, so the worker bundle carries only Cytoscape, fcose and this file.
 */
import type { LayoutOptions } from "cytoscape";

/**
 * Graphs with more nodes than this are laid out in a Web Worker (the page stays responsive, and the main thread adds
 * and styles the elements while the worker computes); smaller ones on the main thread, animated and with their labels
 * counted as node area (a worker cannot measure label text), where fcose takes well under a frame budget per step.
 */
export const WORKER_LAYOUT_MIN_NODES = 300;

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
    animate: nodeCount <= WORKER_LAYOUT_MIN_NODES,
    animationDuration: 400,
    // The canvas fits the result itself, without measuring labels (fitView).
    fit: false,
    // Labels count as node area in small graphs so they do not overlap; on large ones that costs too much.
    nodeDimensionsIncludeLabels: nodeCount <= WORKER_LAYOUT_MIN_NODES,
    nodeRepulsion: nodeCount <= 300 ? 2_500 : 6_000,
    idealEdgeLength: nodeCount <= 300 ? 60 : 70,
    // Without the layout-utilities extension fcose does not pack components: stronger gravity keeps disconnected
    // pieces of a small graph close together instead of spread across the canvas.
    gravity: nodeCount <= 300 ? 2 : 0.25,
    numIter: nodeCount > 2_000 ? 800 : 2_500,
  } as LayoutOptions;
}

/** What the page sends the worker: node ids with their diameter, edges by index, and known positions (incremental). */
export interface LayoutRequest {
  id: number;
  nodes: string[];
  sizes: Float64Array;
  /** Pairs of node indexes (source, target). */
  edges: Uint32Array;
  /** x, y per node; NaN where the node has no position yet. Only read when `incremental`. */
  positions: Float64Array;
  incremental: boolean;
}

/** The worker's answer: x, y per node in the request's order, or why it failed. */
export type LayoutResponse = { id: number; ok: true; positions: Float64Array; layoutMs: number } | { id: number; ok: false; error: string };

/** Builds a request from the graph as the canvas holds it. */
export function layoutRequest(
  id: number,
  nodes: readonly { id: string; size: number; position?: { x: number; y: number } }[],
  edges: readonly { source: string; target: string }[],
  incremental: boolean,
): LayoutRequest {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const pairs: number[] = [];
  for (const e of edges) {
    const s = index.get(e.source);
    const t = index.get(e.target);
    if (s !== undefined && t !== undefined) pairs.push(s, t);
  }
  const positions = new Float64Array(nodes.length * 2).fill(Number.NaN);
  nodes.forEach((n, i) => {
    if (n.position) {
      positions[2 * i] = n.position.x;
      positions[2 * i + 1] = n.position.y;
    }
  });
  return { id, nodes: nodes.map((n) => n.id), sizes: Float64Array.from(nodes, (n) => n.size), edges: Uint32Array.from(pairs), positions, incremental };
}

/** A worker's message, checked before it is trusted (it crosses a thread boundary). */
export function parseLayoutResponse(data: unknown, expectedNodes: number): LayoutResponse | null {
  if (typeof data !== "object" || data === null) return null;
  const d = data as Record<string, unknown>;
  if (typeof d.id !== "number") return null;
  if (d.ok === false) return { id: d.id, ok: false, error: String(d.error) };
  if (d.ok !== true || !(d.positions instanceof Float64Array) || d.positions.length !== expectedNodes * 2 || typeof d.layoutMs !== "number") return null;
  return { id: d.id, ok: true, positions: d.positions, layoutMs: d.layoutMs };
}
