import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { seedDemoStories } from "./demo-stories";
import { openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

async function failure(promise: Promise<unknown>): Promise<BeliefServiceError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(BeliefServiceError);
  return error as BeliefServiceError;
}

describe("importing a scope's export beside it, into a new scope (the browser's restore)", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
    await seedDemoStories(h.services, {
      scopeSlug: h.scopes.home,
      users: { owner: h.callers.owner, editor: h.callers.editor, reviewer: h.callers.reviewer },
      clock: h.clock,
      start: "2026-02-02T00:00:00.000Z",
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("copies every belief under new ids into a scope it creates, owned by the caller", async () => {
    const data = await h.services.exportScope(h.callers.owner, h.scopes.home);
    const result = await h.services.importNewScope(h.callers.owner, { slug: "restored-copy", name: "Restored copy", data, freshIds: true });
    expect(result.beliefs).toBe(data.beliefs.length);
    expect((await h.services.getScope(h.callers.owner, "restored-copy"))?.role).toBe("owner");
    const texts = async (slug: string) => (await h.services.exportScope(h.callers.owner, slug)).beliefs.map((r) => r.belief.text).sort();
    expect(await texts("restored-copy")).toEqual(await texts(h.scopes.home));
    const copy = await h.services.exportScope(h.callers.owner, "restored-copy");
    const originalIds = new Set(data.beliefs.map((r) => r.belief.id));
    expect(copy.beliefs.some((r) => originalIds.has(r.belief.id))).toBe(false);
    // The copy replays to the stored figures, like the original.
    expect((await h.services.replayCheck(h.callers.owner, "restored-copy", {})).ok).toBe(true);
  });

  it("leaves nothing behind when the file is wrong or the import is refused", async () => {
    const wrong = await failure(h.services.importNewScope(h.callers.owner, { slug: "never-made", name: "Never", data: { hello: "world" } }));
    expect(wrong.code).toBe("invalid");
    expect(await h.services.getScope(h.callers.owner, "never-made")).toBeNull();
    // Without new ids the export collides with the scope it came from: refused, and the scope made for it is gone again.
    const data = await h.services.exportScope(h.callers.owner, h.scopes.home);
    const clash = await failure(h.services.importNewScope(h.callers.owner, { slug: "clashing", name: "Clashing", data }));
    expect(clash.code).toBe("conflict");
    expect(await h.services.getScope(h.callers.owner, "clashing")).toBeNull();
    // An existing slug is refused before anything is written.
    expect((await failure(h.services.importNewScope(h.callers.owner, { slug: h.scopes.home, name: "Again", data, freshIds: true }))).code).toBe("conflict");
  });

  it("refuses a scope that is not empty, and a member below owner", async () => {
    const data = await h.services.exportScope(h.callers.owner, h.scopes.home);
    expect((await failure(h.services.importScope(h.callers.owner, h.scopes.home, { data, freshIds: true }))).code).toBe("conflict");
    expect((await failure(h.services.importScope(h.callers.editor, h.scopes.home, { data, freshIds: true }))).code).toBe("forbidden");
  });
});
