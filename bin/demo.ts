/**
 * `npm run demo`: everything a newcomer needs on the embedded default — generate the Prisma client, build the app if
 * the sources changed since the last build, then serve it with the demo seeded (PGlite in ./.data, offline assessor,
 * no services, no keys).
 */
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry === "generated" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

console.log("credence demo: generating the Prisma client");
run("npm", ["run", "--silent", "prisma:generate"]);

// The offline embedding model (set-up, never at request time). Without it the app still runs, matching by words only.
if (spawnSync("npm", ["run", "--silent", "model:fetch"], { stdio: "inherit" }).status !== 0) {
  console.log("credence demo: continuing without the embedding model (matching by words only)");
}

const buildId = ".next/BUILD_ID";
const sources = Math.max(...["app", "components", "lib", "public", "package-lock.json", "next.config.js"].map(newestMtime));
if (!existsSync(buildId) || statSync(buildId).mtimeMs < sources) {
  console.log("credence demo: building the app (once per source change)");
  run("npx", ["next", "build"], { ...process.env, NODE_ENV: "production" });
}
// The server, CLI and MCP bridge bundled into plain JavaScript (~0.2 s when nothing changed): bin/run.mjs then starts
// the server without compiling TypeScript.
run("npx", ["tsx", "tools/compile-scripts.ts"]);

const child = spawn(process.execPath, ["bin/run.mjs", "serve", "--demo", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
