import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCommand, importCommand, paramsSetCommand, paramsShowCommand, replayCheckCommand, type CliIo } from "./cli-commands";
import { seedDemoStories } from "./demo-stories";
import { openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

function io(stdin = ""): CliIo & { stdout: string; stderr: string[] } {
  const captured = { stdout: "", stderr: [] as string[] };
  return Object.assign(captured, {
    out: (text: string) => {
      captured.stdout += text;
    },
    err: (line: string) => {
      captured.stderr.push(line);
    },
    readStdin: async () => stdin,
  });
}

describe("CLI commands: replay check, export, import", () => {
  let source: BeliefHarness;
  let target: BeliefHarness;
  beforeAll(async () => {
    [source, target] = await Promise.all([openBeliefHarness("pglite"), openBeliefHarness("pglite")]);
    await seedDemoStories(source.services, {
      scopeSlug: source.scopes.home,
      users: { owner: source.callers.owner, editor: source.callers.editor, reviewer: source.callers.reviewer },
      clock: source.clock,
      start: "2026-02-02T00:00:00.000Z",
    });
  });
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it("export → import → export round-trips exactly (up to the scope id the import rewrites)", async () => {
    const first = io();
    expect(await exportCommand(source.services, { scope: source.scopes.home }, first)).toBe(0);
    expect(JSON.parse(first.stdout).beliefs.length).toBeGreaterThan(10);
    const imported = io(first.stdout);
    expect(await importCommand(target.services, { scope: target.scopes.home }, imported)).toBe(0);
    expect(imported.stderr[0]).toMatch(/^imported into/);
    const second = io();
    expect(await exportCommand(target.services, { scope: target.scopes.home }, second)).toBe(0);
    expect(second.stdout).toBe(first.stdout.replaceAll(source.scopeIds.home, target.scopeIds.home));
    // A second import into the now non-empty scope is refused with exit code 1.
    const again = io(first.stdout);
    expect(await importCommand(target.services, { scope: target.scopes.home }, again)).toBe(1);
    expect(again.stderr[0]).toMatch(/^conflict:/);
    expect(await importCommand(target.services, { scope: target.scopes.home }, io("not json"))).toBe(1);
    expect(await exportCommand(target.services, { scope: "no-such-scope" }, io())).toBe(1);
  });

  it("replay check exits 0 when stored == replay and 1 on a mismatch, naming the belief and field", async () => {
    const ok = io();
    expect(await replayCheckCommand(source.services, {}, ok)).toBe(0);
    expect(ok.stdout).toContain(`${source.scopes.home}\t`);
    const [victim] = await source.services.listBeliefs(source.callers.viewer, source.scopes.home, { limit: 1 });
    await source.db.sql.query(`UPDATE graph_beliefs SET data = jsonb_set(data, '{credence}', '0.123'::jsonb) WHERE id = $1`, [victim?.id]);
    const bad = io();
    expect(await replayCheckCommand(source.services, { scope: source.scopes.home }, bad)).toBe(1);
    expect(bad.stdout).toContain(`${victim?.id}\tcredence\tstored 0.123`);
  });

  it("params set / show: a new version from stdin JSON; bad JSON or bad keys exit 1", async () => {
    const set = io('{"essThreshold":0.45}');
    expect(await paramsSetCommand(target.services, { scope: target.scopes.home }, set)).toBe(0);
    expect(set.stderr[0]).toMatch(/^parameter set version 1 /);
    const shown = io();
    expect(await paramsShowCommand(target.services, { scope: target.scopes.home }, shown)).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ version: 1, input: { essThreshold: 0.45 }, params: { essThreshold: 0.45 } });
    expect(await paramsSetCommand(target.services, { scope: target.scopes.home }, io("{"))).toBe(1);
    const unknownKey = io('{"noSuchParameter":1}');
    expect(await paramsSetCommand(target.services, { scope: target.scopes.home }, unknownKey)).toBe(1);
    expect(unknownKey.stderr[0]).toMatch(/^invalid:/);
  });
});
