/**
 * bin/run.mjs (`npm start`, `npm run cli`, `npm run mcp`): the compiled module while every file bundled into it is as
 * it was compiled, the sources through tsx otherwise. Run in a scratch root of its own (the launcher, a small script,
 * its manifest), so no repository file is touched; the manifest case compiles bin/cli.ts into the repository's own
 * cache, as the suites' servers and CLI calls do.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { compiledScript, type ScriptManifest } from "@/lib/ops/compiled-script";

const run = promisify(execFile);
let root: string;
const cacheDir = () => path.join(root, "node_modules", ".cache", "credence-scripts");

/** bin/hello.ts prints `text` and its first argument; it imports through the scratch root's tsconfig `@/` path. */
async function writeScript(text: string): Promise<void> {
  await writeFile(path.join(root, "greeting.ts"), `export const greeting: string = ${JSON.stringify(text)};\n`);
  await writeFile(path.join(root, "bin", "hello.ts"), `import { greeting } from "@/greeting";\nconst who: string = process.argv[2] ?? "nobody";\nconsole.log(greeting + " " + who);\n`);
}

/** A compiled module and its manifest, as compiled-script.ts leaves them, recording bin/hello.ts as it is now. */
async function writeCompiled(): Promise<void> {
  await mkdir(path.join(cacheDir(), "bin-hello-0"), { recursive: true });
  await writeFile(path.join(cacheDir(), "bin-hello-0", "bin-hello.mjs"), `console.log("compiled " + (process.argv[2] ?? "nobody"));\n`);
  const inputs = await Promise.all(["bin/hello.ts", "greeting.ts"].map(async (file) => {
    const now = await stat(path.join(root, file));
    return { file, size: now.size, mtimeMs: now.mtimeMs };
  }));
  const manifest: ScriptManifest = { module: "node_modules/.cache/credence-scripts/bin-hello-0/bin-hello.mjs", inputs };
  await writeFile(path.join(cacheDir(), "bin-hello.json"), JSON.stringify(manifest));
}

/** Started from another directory than the root, as an MCP client starts the bridge. */
const launch = (...args: string[]) => run(process.execPath, [path.join(root, "bin", "run.mjs"), ...args], { cwd: tmpdir() });

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "credence-run-"));
  await mkdir(path.join(root, "bin"));
  await writeFile(path.join(root, "package.json"), JSON.stringify({ type: "module" }), "utf8");
  await writeFile(path.join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["./*"] } } }), "utf8");
  await copyFile(path.join(process.cwd(), "bin", "run.mjs"), path.join(root, "bin", "run.mjs"));
  // tsx (the fallback) resolves from the scratch root's node_modules: the repository's packages, and the cache dir.
  await mkdir(path.join(root, "node_modules", ".cache"), { recursive: true });
  await symlink(path.join(process.cwd(), "node_modules", "tsx"), path.join(root, "node_modules", "tsx"));
  await writeScript("sources");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("bin/run.mjs", () => {
  it("runs the compiled module with the script's own arguments while its sources are unchanged", async () => {
    await writeCompiled();
    expect((await launch("hello", "ana")).stdout.trim()).toBe("compiled ana");
  });

  it("runs the sources through tsx when there is no compiled module, or a bundled file changed since", async () => {
    expect((await launch("hello", "bo")).stdout.trim()).toBe("sources bo");
    await writeCompiled();
    await writeScript("edited");
    expect((await launch("hello", "cy")).stdout.trim()).toBe("edited cy");
  });

  it("notices an edit that keeps a bundled file's size (its time changed), and a compiled module that is gone", async () => {
    await writeCompiled();
    await writeScript("SOURCES");
    const later = new Date(Date.now() + 5_000);
    await utimes(path.join(root, "greeting.ts"), later, later);
    expect((await launch("hello", "di")).stdout.trim()).toBe("SOURCES di");
    await writeCompiled();
    expect((await launch("hello", "ed")).stdout.trim()).toBe("compiled ed");
    await rm(path.join(cacheDir(), "bin-hello-0"), { recursive: true });
    expect((await launch("hello", "fa")).stdout.trim()).toBe("SOURCES fa");
  });

  it("refuses a name that is not a script in bin/ with its usage and exit status 2", async () => {
    for (const name of ["nosuch", "../etc", ""]) {
      const failure = await launch(name).then(() => null, (error: { code: number; stderr: string }) => error);
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toMatch(/usage: node bin\/run\.mjs NAME/);
    }
  });
});

describe("compiledScript's manifest", () => {
  it("names the compiled module and every repository file bundled into it, with its size and time", async () => {
    const file = compiledScript(path.join("bin", "cli.ts"));
    const manifest = JSON.parse(await readFile(path.join("node_modules", ".cache", "credence-scripts", "bin-cli.json"), "utf8")) as ScriptManifest;
    expect(path.resolve(manifest.module)).toBe(file);
    const files = manifest.inputs.map((i) => i.file);
    expect(files).toContain("bin/cli.ts");
    expect(files.some((f) => f.startsWith("lib/"))).toBe(true);
    expect(files.some((f) => f.includes("node_modules"))).toBe(false);
    for (const input of manifest.inputs.slice(0, 20)) {
      const now = await stat(input.file);
      expect([input.size, input.mtimeMs]).toEqual([now.size, now.mtimeMs]);
    }
  });
});
