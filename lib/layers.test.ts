/**
 * The layer rule (LAYERS in eslint.config.mjs) run through ESLint's own API: an upward import fails with a message
 * naming both layers, whether it is written with the alias, as a relative path or as a type; the same import from a
 * test, or a downward one, passes; and every source folder of the repository has a layer.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { LAYERS } from "../eslint.config.mjs";

const root = path.resolve(import.meta.dirname, "..");
// The cycle check walks the whole import graph behind each fixture; it has its own lint run, not this test.
const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { "import-x/no-cycle": "off" } } });

/** The layer-rule messages for `code` linted as if it were the file at `file` (relative to the repository root). */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "import-x/no-restricted-paths").map((m) => m.message);
}

describe("the layer rule", () => {
  it("fails an upward import from identity to the application layer, naming both layers", async () => {
    const errors = await layerErrors("lib/identity/upward-fixture.ts", 'import { getBeliefServices } from "@/lib/beliefs/get-belief-services";\nexport const f = getBeliefServices;\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/identity layer .* below the application layer/);
  });

  it("fails an upward import written as a relative path or as a type only", async () => {
    expect(await layerErrors("lib/access/upward-fixture.ts", 'import type { BeliefServices } from "../beliefs/belief-services";\nexport type S = BeliefServices;\n')).toHaveLength(1);
    expect(await layerErrors("lib/engine/upward-fixture.ts", 'export { issueFields } from "../errors/belief-service-error";\n')).toHaveLength(1);
    expect(await layerErrors("lib/reading/upward-fixture.ts", 'export const load = () => import("@/lib/graph/graph-store");\n')).toHaveLength(1);
  });

  it("passes a downward import and the same upward import from a test", async () => {
    expect(await layerErrors("lib/beliefs/downward-fixture.ts", 'import { scopeNotFoundError } from "@/lib/errors/belief-service-error";\nexport const f = scopeNotFoundError;\n')).toEqual([]);
    expect(await layerErrors("lib/identity/upward-fixture.test.ts", 'import { getBeliefServices } from "@/lib/beliefs/get-belief-services";\nexport const f = getBeliefServices;\n')).toEqual([]);
  });

  it("places every folder and top-level file of lib/, and every top-level source folder, in exactly one layer", () => {
    const placed = LAYERS.flatMap((layer) => layer.paths);
    expect(new Set(placed).size).toBe(placed.length);
    for (const p of placed) expect(existsSync(path.join(root, p)), p).toBe(true);
    const lib = readdirSync(path.join(root, "lib"), { withFileTypes: true })
      .filter((e) => (e.isDirectory() && e.name !== "testing") || (e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)))
      .map((e) => `lib/${e.name}`);
    const topLevel = ["app", "components", "bin", "bench", "research", "tools"].filter((d) => existsSync(path.join(root, d)));
    expect([...lib, ...topLevel].filter((p) => !placed.includes(p))).toEqual([]);
  });
});
