/**
 * retract through the services on embedded PGlite: a dry run reports and writes nothing; the real one withdraws the
 * source's entries, strips the citers of a belief that lost its support, and marks the evidence retracted; a source
 * the caller may not edit, or cannot see, is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

describe("retract", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("dry run first, then the retraction and its cascade; state equals replay", async () => {
    const ed = h.callers.editor;
    const home = h.scopes.home;
    const doc = await h.services.registerEvidence(ed, home, { kind: "document", text: "Audit memo: the archive bucket is write-once.", assess: false });
    const a = await h.services.assimilate(ed, home, { claim: "The archive bucket is write-once.", evidence: [{ sourceId: doc.evidence.id, tier: "document" }] });
    const b = await h.services.assimilate(ed, home, { claim: "Archived invoices cannot be altered.", evidence: [{ sourceId: a.belief.id, tier: "document" }] });
    const dry = await h.services.retract(ed, home, { sourceId: doc.evidence.id, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, changeSetId: null });
    expect(dry.touched.map((t) => [t.beliefId, t.retractedSeqs.length, t.strippedSeqs.length])).toEqual([
      [a.belief.id, 1, 0],
      [b.belief.id, 0, 1],
    ]);
    expect((await h.services.getBelief(ed, home, { beliefId: a.belief.id })).belief.version).toBe(a.belief.version);
    const real = await h.services.retract(ed, home, { sourceId: doc.evidence.id });
    expect(real.changeSetId).not.toBeNull();
    expect(real.touched.find((t) => t.beliefId === a.belief.id)?.after.credence).toBeCloseTo(0.5, 12);
    expect((await h.services.getBelief(ed, home, { beliefId: b.belief.id })).history.map((i) => i.type)).toEqual(["entry", "stripped"]);
    expect((await h.services.getEvidence(ed, home, { evidenceId: doc.evidence.id })).retractedAt).not.toBeNull();
    expect((await h.services.replayCheck(h.callers.viewer, home)).ok).toBe(true);
  });

  it("a viewer of the source's scope is forbidden; an unknown or hidden source is not_found", async () => {
    const doc = await h.services.registerEvidence(h.callers.editor, h.scopes.home, { kind: "document", text: "Vendor note.", assess: false });
    expect((await errorOf(h.services.retract(h.callers.viewer, h.scopes.home, { sourceId: doc.evidence.id }))).code).toBe("forbidden");
    expect((await errorOf(h.services.retract(h.callers.editor, h.scopes.home, { sourceId: "ev_missing" }))).code).toBe("not_found");
    const hidden = await h.services.registerEvidence(h.callers.secretOwner, h.scopes.secret, { kind: "document", text: "Secret memo.", assess: false });
    expect((await errorOf(h.services.retract(h.callers.editor, h.scopes.home, { sourceId: hidden.evidence.id }))).code).toBe("not_found");
  });
});
