/**
 * harvest through the services on embedded PGlite: a preview splits and writes nothing; a commit cites the producer's
 * output at the model-assertion tier, or a named source at the tier that source backs, and a claim that restates a
 * live belief reinforces it instead of creating a duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

describe("harvest", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a preview needs only read access and writes nothing; committing needs an editor", async () => {
    const text = "The mail relay rejects attachments over 25 MB. It retries deliveries for two days.";
    const preview = await h.services.harvest(h.callers.viewer, h.scopes.home, { text, producedBy: { name: "mail-bot" } });
    expect(preview.claims.map((c) => c.text)).toEqual(["The mail relay rejects attachments over 25 MB.", "It retries deliveries for two days."]);
    expect(preview).toMatchObject({ assimilated: [], evidence: null });
    expect(await h.services.listBeliefs(h.callers.viewer, h.scopes.home, { liveOnly: false, limit: 10 })).toEqual([]);
    expect((await errorOf(h.services.harvest(h.callers.viewer, h.scopes.home, { text, producedBy: { name: "mail-bot" }, commit: true }))).code).toBe("forbidden");
  });

  it("an unsourced commit stores the output as model_output evidence, cited by each claim as a model assertion", async () => {
    const done = await h.services.harvest(h.callers.editor, h.scopes.home, { text: "The print queue is flushed at midnight.", producedBy: { name: "ops-bot", model: "m2" }, commit: true });
    expect(done.evidence).toMatchObject({ kind: "model_output", text: "The print queue is flushed at midnight." });
    expect(done.assimilated).toHaveLength(1);
    expect(done.assimilated[0]?.entries[0]).toMatchObject({ sourceId: done.evidence?.id, effectiveTier: "model_assertion", reasoning: "harvested from ops-bot (m2)" });
  });

  it("a sourced commit cites the source at its tier, and the same claim again reinforces the belief", async () => {
    const log = await h.services.registerEvidence(h.callers.editor, h.scopes.home, { kind: "observation", text: "cron: badge sync ran 06:00, 06:15, 06:30", assess: false });
    const first = await h.services.harvest(h.callers.editor, h.scopes.home, { text: "The badge sync runs every fifteen minutes.", producedBy: { name: "ops-bot", sourceId: log.evidence.id }, commit: true });
    expect(first.evidence).toBeNull();
    const entry = first.assimilated[0]?.entries[0];
    expect(entry?.sourceId).toBe(log.evidence.id);
    expect(entry?.tier).not.toBe("model_assertion");
    const again = await h.services.harvest(h.callers.editor, h.scopes.home, { text: "The badge sync runs every fifteen minutes.", producedBy: { name: "ops-bot" }, commit: true });
    expect(again.assimilated[0]?.created).toBe(false);
    expect(again.assimilated[0]?.belief.id).toBe(first.assimilated[0]?.belief.id);
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
  });
});
