/**
 * A repository script (`bin/serve.ts`, `bin/cli.ts`, …) compiled into one ES module for plain `node`, for the
 * places that start it as a child process many times: the test suites, the local cluster, the browser journeys.
 *
 * Why: tsx compiles with the same esbuild, but on every start, and its loader hooks see every import, packages
 * included. On the (loaded) 2-core machine a production server took ~22 s to serve through tsx and ~13 s from the
 * compiled files; an operator CLI call took half the CPU time. What runs is the same code: the repository's own
 * modules are bundled, every package stays an import resolved from node_modules as under tsx.
 *
 * The files go to a folder named by the hash of their contents, so an edited script never runs stale, and processes that
 * compile the same script at once write the same bytes (a temporary folder renamed into place, never a half-written one).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";

/** Below node_modules, so the compiled files resolve packages from the repository's node_modules. */
const CACHE_DIR = path.join("node_modules", ".cache", "credence-scripts");

const compiled = new Map<string, string>();

/** The compiled form of `script` (a path relative to `root`, or absolute); compiled once per process. */
export function compiledScript(script: string, root: string = process.cwd()): string {
  const entry = path.resolve(root, script);
  const known = compiled.get(entry);
  if (known) return known;
  const name = path.relative(root, entry).replace(/\.[cm]?ts$/, "").replace(/[^A-Za-z0-9]+/g, "-");
  const buildStarted = Date.now();
  const result = buildSync({
    entryPoints: { [name]: entry },
    absWorkingDir: root,
    tsconfig: path.join(root, "tsconfig.json"),
    bundle: true,
    // A dynamic import stays one (its own chunk, loaded when reached), as under tsx: e.g. the Neo4j driver is loaded
    // only when NEO4J_URI selects it.
    splitting: true,
    outdir: "/",
    outExtension: { ".js": ".mjs" },
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    packages: "external",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const hash = createHash("sha256");
  for (const file of result.outputFiles) hash.update(file.path).update(file.contents);
  const dir = path.join(root, CACHE_DIR, `${name}-${hash.digest("hex").slice(0, 16)}`);
  if (!existsSync(dir)) {
    const temporary = `${dir}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    for (const file of result.outputFiles) {
      const target = path.join(temporary, file.path);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, file.contents);
    }
    try {
      renameSync(temporary, dir);
    } catch (error) {
      // Another process put the same files in place first.
      rmSync(temporary, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    }
  }
  const file = path.join(dir, `${name}.mjs`);
  writeManifest(root, name, file, Object.keys(result.metafile?.inputs ?? {}), buildStarted);
  compiled.set(entry, file);
  return file;
}

/**
 * What `bin/run.mjs` reads to start a script compiled: `<CACHE_DIR>/<name>.json` names the compiled module and every
 * repository file bundled into it with its size and modification time, so the launcher runs the compiled module only
 * while none of them changed (else the sources, through tsx). Written atomically (a temporary file renamed).
 */
export type ScriptManifest = { module: string; inputs: { file: string; size: number; mtimeMs: number }[] };

function writeManifest(root: string, name: string, file: string, inputs: readonly string[], buildStarted: number): void {
  const target = path.join(root, CACHE_DIR, `${name}.json`);
  const recorded = inputs.map((input) => {
    const stat = statSync(path.resolve(root, input));
    return { file: input, size: stat.size, mtimeMs: stat.mtimeMs };
  });
  // A file saved while esbuild read the sources may be in the bundle as it was before: no manifest, so the launcher
  // runs the sources until the next compile.
  if (recorded.some((input) => input.mtimeMs >= buildStarted)) {
    rmSync(target, { force: true });
    return;
  }
  const manifest: ScriptManifest = { module: path.relative(root, file), inputs: recorded };
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(manifest));
  renameSync(temporary, target);
}

/** The command and arguments that run `script` with `args` (for spawn/execFile). */
export function scriptCommand(script: string, args: readonly string[] = [], root: string = process.cwd()): { command: string; args: string[] } {
  return { command: process.execPath, args: [compiledScript(script, root), ...args] };
}
