import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { scriptCommand } from "./lib/ops/compiled-script";

// One fresh embedded data folder per run, shared by the server and the CLI the specs call (workers inherit the env).
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "credence-e2e-"));
process.env.E2E_PORT ??= "3107";
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
// The server, compiled once (lib/ops/compiled-script.ts): it starts without npx and tsx in front of it.
const server = scriptCommand("bin/serve.ts", ["--port", process.env.E2E_PORT]);
// Debian's headless shell when it is installed: the build of Chromium that Playwright itself runs headless. It draws
// the same pages as the full browser's headless mode (a screenshot compared), and the 43 journeys took 973 s of
// test time in it against 1 341 s in the full browser on a 2-core machine, where the run is CPU-bound.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  timeout: 180_000,
  // A graph page asks for its data only once its bundle is compiled and hydrated: on a two-core machine with both
  // workers' Chromiums busy, a trace showed the first request 12 s after the page arrived (the server answered in
  // 0.1–0.2 s), so 10 s failed journeys that were only slow. A wrong page still fails, 20 s later.
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: [server.command, ...server.args].join(" "),
    url: `${baseURL}/signin`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: { CREDENCE_DATA_DIR: process.env.E2E_DATA_DIR, NODE_ENV: "production", DATABASE_URL: "" },
  },
});
