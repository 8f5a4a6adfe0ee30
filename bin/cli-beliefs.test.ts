import path from "node:path";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionPrincipal } from "@/lib/access/principal";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { createBeliefServices } from "@/lib/beliefs/create-belief-services";
import { seedDemoStories } from "@/lib/beliefs/demo-stories";
import { settableClock } from "@/lib/beliefs/settable-clock";
import { openDatabase } from "@/lib/db/database";
import { runScript } from "@/lib/db/spawn-script";
import { freshEmbeddedFolder } from "@/lib/db/testing/test-backends";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import { createScope } from "@/lib/identity/scopes";
import { createUser } from "@/lib/identity/users";

const CLI = path.join(process.cwd(), "bin", "cli.ts");
const SLOW = { timeout: 240_000 };

/** The belief commands as an operator runs them: real processes on a real embedded data folder. */
describe("cli: replay check, export, import", () => {
  let sourceDir: string;
  let targetDir: string;
  /** One CLI process on a data folder, optionally fed stdin. */
  const cli = (dataDir: string, args: string[], stdin = "") => runScript(CLI, args, { CREDENCE_DATA_DIR: dataDir, DATABASE_URL: "" }, stdin);

  beforeAll(async () => {
    [sourceDir, targetDir] = await Promise.all([freshEmbeddedFolder(), freshEmbeddedFolder()]);
    const target = await openDatabase({ dataDir: targetDir, owner: "test seeder" });
    try {
      const owner = await createUser(target, { email: "op@example.com", password: "op-password", name: "Op" });
      await createScope(target, { slug: "copy", name: "Copy", ownerId: owner.id });
    } finally {
      await target.close();
    }
    const db = await openDatabase({ dataDir: sourceDir, owner: "test seeder" });
    try {
      const owner = await createUser(db, { email: "op@example.com", password: "op-password", name: "Op" });
      await createScope(db, { slug: "source", name: "Source", ownerId: owner.id });
      const clock = settableClock();
      const services = createBeliefServices({ db, store: createSqlGraphStore({ sql: db.sql }), assessor: createHeuristicAssessor(), clock });
      const me = sessionPrincipal(owner.id);
      await seedDemoStories(services, { scopeSlug: "source", users: { owner: me, editor: me, reviewer: me }, clock, start: "2026-03-02T00:00:00.000Z" });
    } finally {
      await db.close();
    }
  }, 240_000);
  afterAll(async () => {
    for (const dir of [sourceDir, targetDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("checks every stored belief against its replay, exports, and imports into an empty scope", SLOW, async () => {
    const check = await cli(sourceDir, ["replay", "check", "--scope", "source"]);
    expect(check).toMatchObject({ code: 0, stderr: "" });
    expect(check.stdout).toMatch(/^source\t\d+ beliefs\tok\n$/);

    const exported = await cli(sourceDir, ["export", "--scope", "source"]);
    expect(exported.code).toBe(0);
    const data = JSON.parse(exported.stdout) as { format: string; beliefs: unknown[] };
    expect(data.format).toBe("credence.scope-export");
    expect(data.beliefs.length).toBeGreaterThan(10);

    const imported = await cli(targetDir, ["import", "--scope", "copy"], exported.stdout);
    expect(imported.code).toBe(0);
    const again = await cli(targetDir, ["export", "--scope", "copy"]);
    expect(again.code).toBe(0);
    // Exactly the same document, up to the scope id the import rewrote.
    const sourceScope = JSON.parse(exported.stdout).scope as string;
    const targetScope = JSON.parse(again.stdout).scope as string;
    expect(again.stdout).toBe(exported.stdout.replaceAll(sourceScope, targetScope));
    expect((await cli(targetDir, ["replay", "check", "--scope", "copy"])).code).toBe(0);

    const refused = await cli(targetDir, ["import", "--scope", "copy"], exported.stdout);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});
