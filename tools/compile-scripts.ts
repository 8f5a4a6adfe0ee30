/**
 * `npm run build`'s last step: compiles the entry points that `npm start`, `npm run cli` and `npm run mcp` run
 * (bin/run.mjs) into plain ES modules (lib/ops/compiled-script.ts), so they start without compiling TypeScript.
 */
import path from "node:path";
import { compiledScript } from "@/lib/ops/compiled-script";

for (const name of ["serve", "cli", "mcp"]) {
  const started = performance.now();
  const file = compiledScript(path.join("bin", `${name}.ts`));
  console.log(`compile-scripts: bin/${name}.ts → ${path.relative(process.cwd(), file)} (${Math.round(performance.now() - started)} ms)`);
}
