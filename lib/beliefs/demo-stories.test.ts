import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvidenceEntry } from "@/lib/engine";
import { demoStart, seedDemoStories, type DemoSeedReport } from "./demo-stories";
import { openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

describe("demo stories", () => {
  let h: BeliefHarness;
  let report: DemoSeedReport;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
    report = await seedDemoStories(h.services, {
      scopeSlug: h.scopes.home,
      users: { owner: h.callers.owner, editor: h.callers.editor, reviewer: h.callers.reviewer },
      clock: h.clock,
      start: "2026-02-02T00:00:00.000Z",
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  const belief = (role: string) => h.services.getBelief(h.callers.viewer, h.scopes.home, { beliefId: report.beliefs[role] as string });

  it("spans days of back-dated history and replays exactly", async () => {
    expect(Date.parse(report.span.to) - Date.parse(report.span.from)).toBeGreaterThan(7 * 86_400_000);
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
    expect(demoStart(new Date("2026-03-18T12:00:00Z"))).toBe("2026-03-02T00:00:00.000Z");
  });

  it("deploy branch: Monday's belief carries a live rebuttal; recall is contested with release dominant", async () => {
    const monday = await belief("deployMain");
    expect(monday.history.some((i) => i.type === "entry" && i.relation === "REBUTS" && i.verified)).toBe(true);
    const answer = await h.services.recall(h.callers.viewer, h.scopes.home, { q: "Which branch do we deploy from?" });
    expect(answer.mode).toBe("contested");
    expect(answer.dominantAnswer).toMatch(/release/i);
  });

  it("security chain, laundering and retraction show in the histories", async () => {
    const sla = await belief("ossSla");
    expect(sla.history.find((i): i is EvidenceEntry => i.type === "entry" && i.sourceId === report.beliefs.ossSecure)).toMatchObject({ verified: true, launderingReason: null });
    const vendor = await belief("vendorClaim");
    expect(vendor.history.some((i) => i.type === "entry" && i.launderingReason === "self_citation")).toBe(true);
    const laundered = await belief("vendorLaundered");
    expect(laundered.history.some((i) => i.type === "entry" && i.launderingReason === "ungrounded_belief")).toBe(true);
    expect((await belief("leftpad")).history.some((i) => i.type === "retracted")).toBe(true);
    expect((await belief("leftpadRemoval")).history.some((i) => i.type === "stripped")).toBe(true);
  });

  it("the monitor stopped an oscillation, a mutation waits for review, and a belief is disputed", async () => {
    expect(report.mutations.blocked).not.toBe("");
    expect((await belief("backupsHourly")).belief.status).toBe("superseded");
    const queue = await h.services.reviewQueue(h.callers.viewer, h.scopes.home);
    expect(queue.frozenTopics.map((f) => f.topic)).toEqual([report.frozenTopic]);
    expect(queue.pending.map((m) => m.id)).toEqual([report.mutations.pendingReview]);
    const autoscaler = await belief("autoscaler");
    expect(autoscaler.belief.status).toBe("disputed");
    expect(autoscaler.belief.tension).toBeGreaterThanOrEqual(0.5);
    expect(autoscaler.timeline.some((c) => c.status === "supported")).toBe(true);
  });
});
