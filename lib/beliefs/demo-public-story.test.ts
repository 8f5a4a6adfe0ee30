import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPublicStory, type PublicStoryReport } from "./demo-public-story";
import { openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

describe("the public demo scope's story", () => {
  let h: BeliefHarness;
  let story: PublicStoryReport;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
    story = await seedPublicStory(h.services, { scopeSlug: h.scopes.open, author: h.callers.secretOwner, clock: h.clock, start: "2026-04-06T00:00:00.000Z" });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("shows a visitor with no membership three grounded beliefs, the SMS one disputed and the most contested", async () => {
    const seen = await h.services.listBeliefs(h.callers.outsider, h.scopes.open, {});
    expect(seen.map((b) => b.id).sort()).toEqual(Object.values(story.beliefs).sort());
    const byId = new Map(seen.map((b) => [b.id, b]));
    const sms = byId.get(story.beliefs.smsCodes)!;
    const passkeys = byId.get(story.beliefs.passkeys)!;
    expect(sms.status).toBe("disputed");
    expect(sms.tension).toBeGreaterThan(0.5);
    expect(Math.max(...seen.filter((b) => b.id !== sms.id).map((b) => b.tension))).toBeLessThan(sms.tension);
    expect(sms.credence).toBeLessThan(0.5);
    expect(passkeys.credence).toBeGreaterThan(0.6);
    expect(byId.get(story.beliefs.enrolment)!.credence).toBeGreaterThan(0.5);
  });

  it("replays to what is stored, with every entry verified and nothing laundered", async () => {
    expect((await h.services.replayCheck(h.callers.secretOwner, h.scopes.open, {})).ok).toBe(true);
    const data = await h.services.exportScope(h.callers.outsider, h.scopes.open);
    const entries = data.beliefs.flatMap((r) => r.history).filter((item) => item.type === "entry");
    expect(entries).toHaveLength(9);
    for (const entry of entries) expect(entry).toMatchObject({ verified: true, launderingReason: null });
    // The story's history spans several days, as a notebook kept over a week would.
    const times = data.beliefs.flatMap((r) => r.history.map((item) => Date.parse(item.time)));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(4 * 24 * 3_600_000);
  });
});
