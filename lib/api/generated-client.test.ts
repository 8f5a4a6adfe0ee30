/**
 * A client generated from `/api/v1/openapi.json` with openapi-typescript type-checks the script that drives the seeds'
 * scenarios (`tools/api-client/seed-scenarios.ts`, run against the API by `openapi-contract.test.ts`): `tsc` compiles the
 * script against the types the live document generates today, alone (in a temporary project holding a fresh
 * generation, not the repository's path aliases). The generated types are not committed; `npm run api:types` writes them
 * beside the script for an editor.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { generateApiTypes } from "@/tools/api-client/generate";
import { openApiDocument } from "./openapi";

const run = promisify(execFile);
const ROOT = process.cwd();

describe("the client generated from the OpenAPI document", () => {
  it("type-checks the seeds' scenario script with tsc against a fresh generation; a misspelt parameter does not compile", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "credence-client-"));
    try {
      await writeFile(path.join(dir, "openapi-types.ts"), await generateApiTypes(openApiDocument()));
      for (const file of ["seed-scenarios.ts", "scenario-types.ts"]) await cp(path.join(ROOT, "tools", "api-client", file), path.join(dir, file));
      const tsconfig = {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023", "DOM"],
          module: "esnext",
          moduleResolution: "bundler",
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [path.join(ROOT, "node_modules", "@types")],
          paths: { "openapi-fetch": [path.join(ROOT, "node_modules", "openapi-fetch")] },
        },
        files: ["seed-scenarios.ts", "scenario-types.ts", "misspelt.ts"],
      };
      // Beside it, a copy with one misspelt query parameter: the types are not vacuous if that copy, and only it, fails.
      const script = await readFile(path.join(dir, "seed-scenarios.ts"), "utf8");
      const misspelt = script.replace('query: { q: "Which branch do we deploy from?" }', 'query: { query: "Which branch do we deploy from?" }');
      expect(misspelt).not.toBe(script);
      await writeFile(path.join(dir, "misspelt.ts"), misspelt);
      await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
      const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
      const output = await run(process.execPath, [tsc, "-p", dir], { cwd: dir }).then(
        ({ stdout }) => stdout,
        (error: { stdout?: string }) => error.stdout ?? "tsc failed without output",
      );
      const errors = output.split("\n").filter((line) => /error TS\d+/.test(line));
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.filter((line) => !line.startsWith("misspelt.ts("))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
