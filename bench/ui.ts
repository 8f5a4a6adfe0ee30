/**
 * `npm run bench:ui`: rendering benchmark of the graph explorer in headless Chromium, canvas vs WebGL renderer.
 *
 * The page (bench/ui/page.tsx, bundled here with esbuild) feeds a generated scope through the real pipeline
 * (toCytoscapeElements → styles → GraphCanvas with its fcose layout policy) without Next.js or a database.
 * Per row: time to first full render = navigation start → first frame drawn after the layout stopped (median of
 * `--runs`), and fps while panning = animation frames per second while the viewport is panned a few px every frame
 * for 3 s (frames that take longer to draw lower it). Prints a markdown table.
 * Layouts above 300 nodes run in a Web Worker (components/graph/layout-worker.ts, bundled beside the page); `--layouts
 * worker,main` measures both that and fcose on the main thread (the baseline) in the same run.
 * Flags: --sizes 1000,5000,20000  --renderers canvas,webgl  --layouts worker,main  --runs 3  --pan-ms 3000
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser } from "@playwright/test";

const args = process.argv.slice(2);
function flag(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return (i >= 0 ? args[i + 1] : undefined) ?? fallback;
}
const SIZES = flag("sizes", "1000,5000,20000").split(",").filter(Boolean).map(Number);
/** Scopes (beliefs) drawn as their topic map, against the 50-node demo graph in the same run; `--maps ""` skips. */
const MAPS = flag("maps", "2000,20000").split(",").filter(Boolean).map(Number);
const RENDERERS = flag("renderers", "canvas,webgl").split(",");
const LAYOUTS = flag("layouts", "worker,main").split(",");
const RUNS = Number(flag("runs", "3"));
const PAN_MS = Number(flag("pan-ms", "3000"));
const RENDER_TIMEOUT_MS = 600_000;
const root = fileURLToPath(new URL("..", import.meta.url));

async function bundle(dir: string): Promise<void> {
  await build({
    entryPoints: [join(root, "bench/ui/page.tsx")],
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    jsx: "automatic",
    alias: { "@": root.replace(/\/$/, "") },
    define: { "process.env.NODE_ENV": '"production"' },
    outfile: join(dir, "bench.js"),
    logLevel: "error",
  });
  await build({
    entryPoints: [join(root, "components/graph/layout-worker.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    alias: { "@": root.replace(/\/$/, "") },
    define: { "process.env.NODE_ENV": '"production"' },
    outfile: join(dir, "layout-worker.js"),
    logLevel: "error",
  });
  await build({
    entryPoints: [join(root, "bench/ui/map-page.tsx")],
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    jsx: "automatic",
    alias: { "@": root.replace(/\/$/, "") },
    define: { "process.env.NODE_ENV": '"production"' },
    outfile: join(dir, "map.js"),
    logLevel: "error",
  });
  writeFileSync(join(dir, "map.html"), `<!doctype html><html><head><meta charset="utf-8"><title>map bench</title></head><body style="margin:0"><div id="root"></div><script src="map.js"></script></body></html>`);
  writeFileSync(join(dir, "index.html"), `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body style="margin:0"><div id="root"></div><script src="bench.js"></script></body></html>`);
}

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const files: Record<string, [string, string]> = { "/": ["index.html", "text/html"], "/bench.js": ["bench.js", "text/javascript"], "/layout-worker.js": ["layout-worker.js", "text/javascript"], "/map.html": ["map.html", "text/html"], "/map.js": ["map.js", "text/javascript"] };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? "/", "http://x").pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file[1] }).end(readFileSync(join(dir, file[0])));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    resolve({ server, url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/` });
  }));
}

interface Row {
  n: number;
  /** 1-minute load average when the row finished. */
  load: number;
  elements: number;
  renderer: string;
  layout: string;
  drawn: string;
  renderMs: number[];
  layoutMs: number[];
  fcoseMs: number[];
  fps: number;
  worstFrameMs: number;
}

interface BenchState {
  rendered: { ms: number; layoutMs: number; layoutIn: string; sinceNavigationMs: number; renderer: string; elements: number } | null;
  error: string | null;
}

async function measure(browser: Browser, url: string, n: number, renderer: string, layout: string): Promise<Row> {
  const row: Row = { n, load: 0, elements: 0, renderer, layout, drawn: "", renderMs: [], layoutMs: [], fcoseMs: [], fps: 0, worstFrameMs: 0 };
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage({ viewport: { width: 1240, height: 800 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${url}?n=${n}&renderer=${renderer}&layout=${layout}`, { waitUntil: "commit", timeout: RENDER_TIMEOUT_MS });
    await page.waitForFunction(() => {
      const b = (window as unknown as { __bench?: BenchState }).__bench;
      return Boolean(b && (b.rendered || b.error));
    }, undefined, { timeout: RENDER_TIMEOUT_MS, polling: 100 });
    const state = await page.evaluate(() => (window as unknown as { __bench: BenchState }).__bench);
    if (!state.rendered) throw new Error(`render failed (${n}, ${renderer}): ${state.error ?? errors.join("; ")}`);
    row.elements = state.rendered.elements;
    row.drawn = state.rendered.renderer;
    row.layout = state.rendered.layoutIn;
    row.renderMs.push(state.rendered.sinceNavigationMs);
    row.layoutMs.push(state.rendered.ms);
    row.fcoseMs.push(state.rendered.layoutMs);
    if (run === RUNS - 1) {
      await page.waitForTimeout(500);
      const pan = await page.evaluate((ms) => (window as unknown as { __bench: { pan(ms: number): Promise<{ fps: number; worstFrameMs: number }> } }).__bench.pan(ms), PAN_MS);
      row.fps = pan.fps;
      row.worstFrameMs = pan.worstFrameMs;
    }
    if (errors.length > 0) console.error(`page errors (${n}, ${renderer}): ${errors.join("; ")}`);
    await page.close();
  }
  row.load = loadavg()[0] ?? 0;
  return row;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

interface MapRow {
  beliefs: number;
  demoMs: number;
  readyMs: number[];
  topicLayoutMs: number;
  elementsMs: number[];
  canvasMs: number[];
  drawn: number;
  expandMs: number[];
  fps: number;
  revisitMs: number;
  revisitSame: boolean;
  revisitLayoutMs: number;
  load: number;
}

interface MapState {
  rendered: { ms: number; sinceStartMs: number; elements: number; layoutIn: string } | null;
  topicLayoutMs: number;
  elementsMs: number;
  error: string | null;
  topics: string[];
}

/** The 50-node demo graph (125 generated elements, fcose on the main thread as the explorer runs it): first render, ms. */
async function demoMs(browser: Browser, url: string): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage({ viewport: { width: 1240, height: 800 } });
    await page.goto(`${url}?n=125&renderer=canvas`, { waitUntil: "commit" });
    await page.waitForFunction(() => Boolean((window as unknown as { __bench?: BenchState }).__bench?.rendered), undefined, { timeout: RENDER_TIMEOUT_MS, polling: 50 });
    times.push(await page.evaluate(() => (window as unknown as { __bench: BenchState }).__bench.rendered!.ms));
    await page.close();
  }
  return median(times);
}

async function measureMap(browser: Browser, url: string, beliefs: number, demo: number): Promise<MapRow> {
  const row: MapRow = { beliefs, demoMs: demo, readyMs: [], topicLayoutMs: 0, elementsMs: [], canvasMs: [], drawn: 0, expandMs: [], fps: 0, revisitMs: 0, revisitSame: false, revisitLayoutMs: -1, load: 0 };
  let first: Record<string, [number, number]> = {};
  const open = async (stored?: Record<string, [number, number]>) => {
    const page = await browser.newPage({ viewport: { width: 1240, height: 800 } });
    if (stored) await page.addInitScript((p) => ((window as unknown as { __storedPositions: unknown }).__storedPositions = p), stored);
    await page.goto(`${url}map.html?map=${beliefs}`, { waitUntil: "commit", timeout: RENDER_TIMEOUT_MS });
    await page.waitForFunction(() => {
      const b = (window as unknown as { __bench?: MapState }).__bench;
      return Boolean(b && (b.rendered || b.error));
    }, undefined, { timeout: RENDER_TIMEOUT_MS, polling: 50 });
    const state = await page.evaluate(() => (window as unknown as { __bench: MapState }).__bench);
    if (!state.rendered) throw new Error(`map render failed (${beliefs}): ${state.error}`);
    return { page, state };
  };
  for (let run = 0; run < RUNS; run++) {
    const { page, state } = await open();
    row.readyMs.push(state.rendered!.sinceStartMs);
    row.topicLayoutMs = state.topicLayoutMs;
    row.elementsMs.push(state.elementsMs);
    row.canvasMs.push(state.rendered!.ms);
    row.drawn = state.rendered!.elements;
    if (run === 0) first = await page.evaluate(() => (window as unknown as { __bench: { positions(): Record<string, [number, number]> } }).__bench.positions());
    if (run === RUNS - 1) {
      await page.waitForTimeout(300);
      row.fps = (await page.evaluate((ms) => (window as unknown as { __bench: { pan(ms: number): Promise<{ fps: number }> } }).__bench.pan(ms), PAN_MS)).fps;
      for (const topic of state.topics.slice(0, 3)) row.expandMs.push(await page.evaluate((t) => (window as unknown as { __bench: { expand(t: string): Promise<number> } }).__bench.expand(t), topic));
    }
    await page.close();
  }
  // A revisit: the stored positions drawn as they are, no layout computed; the same picture.
  const { page, state } = await open(first);
  row.revisitMs = state.rendered!.sinceStartMs;
  row.revisitLayoutMs = state.topicLayoutMs;
  const again = await page.evaluate(() => (window as unknown as { __bench: { positions(): Record<string, [number, number]> } }).__bench.positions());
  row.revisitSame = JSON.stringify(Object.entries(again).sort()) === JSON.stringify(Object.entries(first).sort()) && state.rendered!.layoutIn === "none";
  await page.close();
  row.load = loadavg()[0] ?? 0;
  return row;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "credence-bench-ui-"));
  await bundle(dir);
  const { server, url } = await serve(dir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // Same flags as the e2e suite: no GPU, so WebGL runs on SwiftShader (software).
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--enable-unsafe-swiftshader", "--js-flags=--expose-gc"],
  });
  try {
    const probe = await browser.newPage();
    await probe.goto(url + "?n=10&renderer=canvas");
    const gl = await probe.evaluate(() => {
      const ctx = document.createElement("canvas").getContext("webgl2");
      if (!ctx) return "no WebGL2";
      const info = ctx.getExtension("WEBGL_debug_renderer_info");
      return String(info ? ctx.getParameter(info.UNMASKED_RENDERER_WEBGL) : ctx.getParameter(ctx.RENDERER));
    });
    await probe.close();
    console.log(`Chromium ${browser.version()} headless, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}; WebGL: ${gl}; ${RUNS} runs per row, pan ${PAN_MS} ms; load average at start ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    const rows: Row[] = [];
    for (const n of SIZES) {
      for (const renderer of RENDERERS) {
        for (const layout of LAYOUTS) {
          const row = await measure(browser, url, n, renderer, layout);
          rows.push(row);
          console.error(`${n} ${renderer} ${row.layout}: ${median(row.renderMs).toFixed(0)} ms, ${row.fps.toFixed(1)} fps (load ${loadavg().map((l) => l.toFixed(1)).join(" ")})`);
        }
      }
    }
    const maps: MapRow[] = [];
    if (MAPS.length > 0) {
      const demo = await demoMs(browser, url);
      for (const beliefs of MAPS) {
        const row = await measureMap(browser, url, beliefs, demo);
        maps.push(row);
        console.error(`map ${beliefs}: ready ${median(row.readyMs).toFixed(0)} ms vs demo ${demo.toFixed(0)} ms (load ${loadavg().map((l) => l.toFixed(1)).join(" ")})`);
      }
    }
    if (maps.length > 0) {
      console.log("");
      console.log("| scope (beliefs) | drawn (nodes + edges) | topic map ready, median (ms) | 50-node demo, same run (ms) | ratio | of which topic layout (ms) | of which elements (ms) | of which canvas: add, style, fit, label, draw (ms) | expand one topic, median of 3 (ms) | panning (fps) | revisit ready (ms) | revisit: layout computed | revisit: same positions | load average (1 min) |");
      console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|");
      for (const r of maps) {
        const ready = median(r.readyMs);
        console.log(`| ${r.beliefs} | ${r.drawn} | ${ready.toFixed(0)} | ${r.demoMs.toFixed(0)} | ${(ready / r.demoMs).toFixed(2)}× | ${r.topicLayoutMs.toFixed(0)} | ${median(r.elementsMs).toFixed(0)} | ${median(r.canvasMs).toFixed(0)} | ${median(r.expandMs).toFixed(0)} | ${r.fps.toFixed(1)} | ${r.revisitMs.toFixed(0)} | ${r.revisitLayoutMs > 0 ? "yes" : "no"} | ${r.revisitSame ? "yes" : "NO"} | ${r.load.toFixed(1)} |`);
      }
    }
    if (rows.length === 0) return;
    console.log("");
    console.log("| generated elements | drawn (nodes + edges) | renderer | fcose runs in | first full render, median (ms) | of which layout + draw (ms) | of which fcose (ms) | panning (fps) | worst frame while panning (ms) | load average (1 min) |");
    console.log("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|");
    for (const r of rows) {
      console.log(`| ${r.n} | ${r.elements} | ${r.drawn} | ${r.layout} | ${median(r.renderMs).toFixed(0)} | ${median(r.layoutMs).toFixed(0)} | ${median(r.fcoseMs).toFixed(0)} | ${r.fps.toFixed(1)} | ${r.worstFrameMs.toFixed(0)} | ${r.load.toFixed(1)} |`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
