/**
 * reviseEntry through the services on embedded PGlite: a revised weight or relation replays the belief as if the entry
 * had carried it, a missing entry is an invalid `seq`, and only an editor may revise.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

describe("reviseEntry", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a lower weight lowers the credence, a flipped relation turns it, and the history keeps both revisions", async () => {
    const doc = await h.services.registerEvidence(h.callers.editor, h.scopes.home, { kind: "document", text: "Load balancer spec: idle timeout 60 s.", assess: false });
    const a = await h.services.assimilate(h.callers.editor, h.scopes.home, { claim: "The load balancer drops idle connections after 60 s.", evidence: [{ sourceId: doc.evidence.id, tier: "document" }] });
    const seq = a.entries[0]?.seq as number;
    const lighter = await h.services.reviseEntry(h.callers.editor, h.scopes.home, { beliefId: a.belief.id, seq, weight: 0.4, reason: "The spec is for an older model." });
    expect(lighter.belief.credence).toBeLessThan(a.belief.credence);
    expect(lighter.belief.credence).toBeGreaterThan(0.5);
    const flipped = await h.services.reviseEntry(h.callers.editor, h.scopes.home, { beliefId: a.belief.id, seq, relation: "REBUTS", reason: "The spec says 600 s." });
    expect(flipped.belief.credence).toBeLessThan(0.5);
    expect(flipped.history.filter((i) => i.type === "revised")).toHaveLength(2);
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
  });

  it("a missing entry is invalid on seq; a missing belief is not_found; a viewer is forbidden", async () => {
    const a = await h.services.assimilate(h.callers.editor, h.scopes.home, { claim: "Nightly reports are emailed at 7.", evidence: [{ sourceId: null, tier: "model_assertion" }] });
    const noEntry = await errorOf(h.services.reviseEntry(h.callers.editor, h.scopes.home, { beliefId: a.belief.id, seq: 99, weight: 0, reason: "x" }));
    expect(noEntry.code).toBe("invalid");
    expect(noEntry.details.fields?.map((f) => f.field)).toEqual(["seq"]);
    expect((await errorOf(h.services.reviseEntry(h.callers.editor, h.scopes.home, { beliefId: "b_missing", seq: 1, weight: 0, reason: "x" }))).code).toBe("not_found");
    expect((await errorOf(h.services.reviseEntry(h.callers.viewer, h.scopes.home, { beliefId: a.belief.id, seq: 1, weight: 0, reason: "x" }))).code).toBe("forbidden");
  });
});
