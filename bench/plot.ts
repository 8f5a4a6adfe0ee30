/**
 * Growth curves for BENCHMARKS.md: latency against corpus size on log–log axes, one line per series (solid p95,
 * dashed p50), written as a self-contained SVG (no fonts to fetch, no script). The benches call `growthSvg` with the
 * figures they just measured; a target is drawn as a horizontal rule so a miss is visible at a glance.
 *
 * As a command: `npx tsx bench/plot.ts --in RECORD.jsonl --out growth.svg [--metric search|recall]` draws
 * what `bench:retrieval --record RECORD.jsonl` appended (the newest row per store and size wins): the top-k path of
 * each store and, lighter, its exhaustive baseline from the same runs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";

export interface GrowthPoint {
  size: number;
  p50: number;
  p95: number;
}

export interface GrowthSeries {
  label: string;
  points: GrowthPoint[];
  /** A baseline: drawn thin and pale in the colour of the series before it. */
  faint?: boolean;
}

export interface GrowthTarget {
  label: string;
  ms: number;
}

export interface GrowthPlotOptions {
  title: string;
  /** Subtitle: the machine, the load average, the date. */
  note: string;
  targets?: GrowthTarget[];
}

const PALETTE = ["#0b6e99", "#c2410c", "#15803d", "#7c3aed", "#b91c1c", "#4b5563"];
const WIDTH = 820;
const HEIGHT = 420;
const PAD = { left: 70, right: 260, top: 56, bottom: 52 };

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Powers of ten covering [min, max] (at least one decade). */
function decades(min: number, max: number): number[] {
  const lo = Math.floor(Math.log10(Math.max(min, 1e-3)));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(max, 1e-3))));
  return Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i));
}

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000} M` : n >= 1_000 ? `${n / 1_000} k` : `${n}`);

export function growthSvg(series: readonly GrowthSeries[], options: GrowthPlotOptions): string {
  const points = series.flatMap((s) => s.points);
  const xs = decades(Math.min(...points.map((p) => p.size)), Math.max(...points.map((p) => p.size)));
  const ms = [...points.flatMap((p) => [p.p50, p.p95]), ...(options.targets ?? []).map((t) => t.ms)];
  const ys = decades(Math.min(...ms), Math.max(...ms));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const [x0, x1] = [Math.log10(xs[0]!), Math.log10(xs.at(-1)!)];
  const [y0, y1] = [Math.log10(ys[0]!), Math.log10(ys.at(-1)!)];
  const x = (v: number) => PAD.left + ((Math.log10(v) - x0) / (x1 - x0 || 1)) * plotW;
  const y = (v: number) => PAD.top + plotH - ((Math.log10(Math.max(v, ys[0]!)) - y0) / (y1 - y0 || 1)) * plotH;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  out.push(`<text x="${PAD.left}" y="22" font-size="15" font-weight="bold">${escapeXml(options.title)}</text>`);
  out.push(`<text x="${PAD.left}" y="40" fill="#52525b">${escapeXml(options.note)}</text>`);
  for (const v of xs) {
    out.push(`<line x1="${x(v)}" y1="${PAD.top}" x2="${x(v)}" y2="${PAD.top + plotH}" stroke="#e4e4e7"/>`);
    out.push(`<text x="${x(v)}" y="${PAD.top + plotH + 18}" text-anchor="middle">${label(v)}</text>`);
  }
  for (const v of ys) {
    out.push(`<line x1="${PAD.left}" y1="${y(v)}" x2="${PAD.left + plotW}" y2="${y(v)}" stroke="#e4e4e7"/>`);
    out.push(`<text x="${PAD.left - 8}" y="${y(v) + 4}" text-anchor="end">${v >= 1 ? v.toLocaleString("en") : v} ms</text>`);
  }
  out.push(`<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 12}" text-anchor="middle" fill="#52525b">beliefs in the scope (log)</text>`);
  for (const t of options.targets ?? []) {
    out.push(`<line x1="${PAD.left}" y1="${y(t.ms)}" x2="${PAD.left + plotW}" y2="${y(t.ms)}" stroke="#dc2626" stroke-dasharray="2 3"/>`);
    out.push(`<text x="${PAD.left + 4}" y="${y(t.ms) - 4}" fill="#dc2626">${escapeXml(t.label)}</text>`);
  }
  let group = -1;
  series.forEach((s, i) => {
    if (!s.faint || group < 0) group++;
    const colour = PALETTE[group % PALETTE.length]!;
    const opacity = s.faint ? 0.4 : 1;
    const sorted = [...s.points].sort((a, b) => a.size - b.size);
    const path = (pick: (p: GrowthPoint) => number) => sorted.map((p, j) => `${j === 0 ? "M" : "L"}${x(p.size).toFixed(1)},${y(pick(p)).toFixed(1)}`).join(" ");
    out.push(`<g opacity="${opacity}">`);
    out.push(`<path d="${path((p) => p.p95)}" fill="none" stroke="${colour}" stroke-width="2.5"/>`);
    out.push(`<path d="${path((p) => p.p50)}" fill="none" stroke="${colour}" stroke-width="1.5" stroke-dasharray="5 4"/>`);
    for (const p of sorted) out.push(`<circle cx="${x(p.size).toFixed(1)}" cy="${y(p.p95).toFixed(1)}" r="3.5" fill="${colour}"/>`);
    const ly = PAD.top + 14 + i * 20;
    out.push(`<line x1="${PAD.left + plotW + 16}" y1="${ly - 4}" x2="${PAD.left + plotW + 40}" y2="${ly - 4}" stroke="${colour}" stroke-width="2.5"/>`);
    out.push(`<text x="${PAD.left + plotW + 46}" y="${ly}">${escapeXml(s.label)}</text>`);
    out.push("</g>");
  });
  const ly = PAD.top + 14 + series.length * 20 + 8;
  out.push(`<text x="${PAD.left + plotW + 16}" y="${ly}" fill="#52525b">solid: p95 · dashed: p50</text>`);
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

const percentiles = z.object({ p50: z.number(), p95: z.number() }).nullable();
const recordRow = z.object({
  at: z.string(),
  backend: z.string(),
  size: z.number(),
  search: percentiles,
  searchBaseline: percentiles,
  recall: percentiles,
  recallBaseline: percentiles,
  load: z.tuple([z.number(), z.number()]),
});
type RecordRow = z.infer<typeof recordRow>;

/** Series from bench:retrieval's record: per store, the newest row of each size, top-k and exhaustive. */
export function retrievalSeries(rows: readonly RecordRow[], metric: "search" | "recall"): GrowthSeries[] {
  const newest = new Map<string, RecordRow>();
  for (const row of rows) {
    const k = `${row.backend}\u0000${row.size}`;
    const seen = newest.get(k);
    if (!seen || seen.at <= row.at) newest.set(k, row);
  }
  const backends = [...new Set([...newest.values()].map((r) => r.backend))];
  const series = (backend: string, pick: (r: RecordRow) => RecordRow["search"], label: string): GrowthSeries => ({
    label,
    points: [...newest.values()].filter((r) => r.backend === backend).flatMap((r) => {
      const v = pick(r);
      return v ? [{ size: r.size, p50: v.p50, p95: v.p95 }] : [];
    }),
  });
  return backends.flatMap((b) => [
    series(b, (r) => r[metric], `${b}`),
    { ...series(b, (r) => (metric === "search" ? r.searchBaseline : r.recallBaseline), `${b}, exhaustive`), faint: true },
  ]).filter((s) => s.points.length > 0);
}

function main(): void {
  const { values } = parseArgs({ options: { in: { type: "string" }, out: { type: "string" }, metric: { type: "string", default: "search" }, note: { type: "string", default: "" } } });
  if (!values.in || !values.out || (values.metric !== "search" && values.metric !== "recall")) {
    console.error("usage: tsx bench/plot.ts --in RECORD.jsonl --out FILE.svg [--metric search|recall] [--note TEXT]");
    process.exit(2);
  }
  const rows = readFileSync(values.in, "utf8").split("\n").filter((l) => l.trim()).map((l) => recordRow.parse(JSON.parse(l)));
  const loads = rows.flatMap((r) => r.load);
  const note = values.note || `2-core machine; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the runs`;
  const svg = growthSvg(retrievalSeries(rows, values.metric), {
    title: `${values.metric === "search" ? "Search" : "Recall"} latency against size (k = 10)`,
    note,
    targets: [{ label: "target: p95 ≤ 50 ms at 100 k", ms: 50 }, { label: "target: p95 ≤ 100 ms at 1 M", ms: 100 }],
  });
  writeFileSync(values.out, svg);
  console.log(`bench-plot: ${values.out}`);
}

if (process.argv[1] && /bench-plot\.ts$/.test(process.argv[1])) main();
