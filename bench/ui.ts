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
const SIZES = flag("sizes", "1000,5000,20000").split(",").map(Number);
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
  writeFileSync(join(dir, "index.html"), `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body style="margin:0"><div id="root"></div><script src="bench.js"></script></body></html>`);
}

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const files: Record<string, [string, string]> = { "/": ["index.html", "text/html"], "/bench.js": ["bench.js", "text/javascript"], "/layout-worker.js": ["layout-worker.js", "text/javascript"] };
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "credence-bench-ui-"));
  await bundle(dir);
  const { server, url } = await serve(dir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // Same flags as the e2e suite: no GPU, so WebGL runs on SwiftShader (software).
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--enable-unsafe-swiftshader"],
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
