/**
 * The explorer's exports an analyst can take elsewhere, pure: GraphML (Gephi, yEd, Cytoscape desktop) and CSV of
 * the shown beliefs and edges. Every text is escaped for its format; CSV cells that a spreadsheet would read as a
 * formula (=, +, -, @, tab, CR) are prefixed with an apostrophe.
 */
import type { Belief } from "@/lib/engine";
import type { GraphElements, NodeElement } from "./cytoscape-elements";

function xml(text: string): string {
  // XML 1.0 cannot carry most control characters at all: they are dropped.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

type NodeKey = keyof NodeElement["data"];
const NODE_KEYS: readonly { key: NodeKey; type: "string" | "double" | "boolean" }[] = [
  { key: "kind", type: "string" },
  { key: "label", type: "string" },
  { key: "scope", type: "string" },
  { key: "credence", type: "double" },
  { key: "confidence", type: "double" },
  { key: "tension", type: "double" },
  { key: "status", type: "string" },
  { key: "topic", type: "string" },
  { key: "evidenceKind", type: "string" },
  { key: "retracted", type: "boolean" },
  { key: "decision", type: "string" },
  { key: "mutationStatus", type: "string" },
];
const EDGE_KEYS = [
  { key: "type", type: "string" },
  { key: "live", type: "boolean" },
  { key: "weight", type: "double" },
  { key: "seq", type: "int" },
] as const;

/** GraphML 1.0 of the shown elements: node and edge attributes declared as typed keys; `text` holds full texts by id. */
export function toGraphML(elements: GraphElements, texts: ReadonlyMap<string, string> = new Map()): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
    '  <key id="text" for="node" attr.name="text" attr.type="string"/>',
    ...NODE_KEYS.map((k) => `  <key id="${k.key}" for="node" attr.name="${k.key}" attr.type="${k.type}"/>`),
    ...EDGE_KEYS.map((k) => `  <key id="e_${k.key}" for="edge" attr.name="${k.key}" attr.type="${k.type}"/>`),
    '  <graph id="G" edgedefault="directed">',
  ];
  for (const node of elements.nodes) {
    lines.push(`    <node id="${xml(node.data.id)}">`);
    const text = texts.get(node.data.id);
    if (text !== undefined) lines.push(`      <data key="text">${xml(text)}</data>`);
    for (const { key } of NODE_KEYS) {
      const value = node.data[key];
      if (value !== undefined && value !== null) lines.push(`      <data key="${key}">${xml(String(value))}</data>`);
    }
    lines.push("    </node>");
  }
  for (const edge of elements.edges) {
    lines.push(`    <edge id="${xml(edge.data.id)}" source="${xml(edge.data.source)}" target="${xml(edge.data.target)}">`);
    for (const { key } of EDGE_KEYS) {
      const value = edge.data[key];
      if (value !== null) lines.push(`      <data key="e_${key}">${xml(String(value))}</data>`);
    }
    lines.push("    </edge>");
  }
  lines.push("  </graph>", "</graphml>", "");
  return lines.join("\n");
}

/** One CSV cell (RFC 4180 quoting; formula-looking cells neutralised with a leading apostrophe). */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** The shown beliefs, one row each, full text. */
export function beliefsCsv(beliefs: readonly Belief[]): string {
  return csv([
    ["id", "text", "topic", "status", "credence", "confidence", "tension", "supporting", "rebutting", "created_at", "updated_at"],
    ...beliefs.map((b) => [b.id, b.text, b.topic, b.status, b.credence, b.confidence, b.tension, b.supportCount, b.contradictCount, b.createdAt, b.updatedAt]),
  ]);
}

/** The shown edges, one row each. */
export function edgesCsv(elements: GraphElements): string {
  return csv([["source", "target", "type", "live", "weight", "seq"], ...elements.edges.map((e) => [e.data.source, e.data.target, e.data.type, e.data.live, e.data.weight, e.data.seq])]);
}
