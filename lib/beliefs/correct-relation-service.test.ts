/**
 * correctRelation through the services on embedded PGlite: a misread relation corrected moves credence and tension at
 * once, replay reproduces it, the undo (a correction back to `from`) returns the belief to where it was, the history
 * keeps who, when, from, to and why; hidden and missing ids answer alike, and only an editor may correct.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relationCorrections } from "@/lib/engine";
import { errorOf, openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

describe("correctRelation", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A belief with one document for it and one against it, both cited explicitly. */
  async function contested(claim: string) {
    const pro = await h.services.registerEvidence(h.callers.editor, h.scopes.home, { kind: "document", text: `${claim} The runbook says so.`, assess: false });
    const con = await h.services.registerEvidence(h.callers.editor, h.scopes.home, { kind: "document", text: `${claim} The audit found otherwise.`, assess: false });
    const a = await h.services.assimilate(h.callers.editor, h.scopes.home, {
      claim,
      evidence: [
        { sourceId: pro.evidence.id, tier: "document" },
        { sourceId: con.evidence.id, tier: "document", relation: "REBUTS" },
      ],
    });
    return { belief: a.belief, pro: pro.evidence.id, con: con.evidence.id };
  }

  it("moves credence and tension at once; the undo returns them; the history says who, when, from, to and why", async () => {
    const { belief, pro, con } = await contested("Staging mirrors the production network layout.");
    expect(belief.tension).toBeGreaterThan(0);
    const fixed = await h.services.correctRelation(h.callers.editor, h.scopes.home, { evidenceId: con, beliefId: belief.id, relation: "SUPPORTS", reason: "The audit agrees; the reader misread it." });
    expect(fixed.correction).toMatchObject({ evidenceId: con, beliefId: belief.id, from: "REBUTS", to: "SUPPORTS", reason: "The audit agrees; the reader misread it." });
    expect(fixed.before.credence).toBe(belief.credence);
    expect(fixed.after.credence).toBeGreaterThan(belief.credence);
    expect(fixed.after.tension).toBeLessThan(belief.tension);
    expect(fixed.belief.credence).toBe(fixed.after.credence);
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
    const stored = await h.services.getBelief(h.callers.viewer, h.scopes.home, { beliefId: belief.id });
    expect(stored.belief.credence).toBe(fixed.after.credence);

    const undone = await h.services.correctRelation(h.callers.editor, h.scopes.home, { evidenceId: con, beliefId: belief.id, relation: fixed.correction.from, reason: "Undo: I read the wrong audit." });
    expect(undone.correction).toMatchObject({ from: "SUPPORTS", to: "REBUTS" });
    expect(undone.belief.credence).toBeCloseTo(belief.credence, 12);
    expect(undone.belief.tension).toBeCloseTo(belief.tension, 12);
    const trail = relationCorrections(undone.history);
    expect(trail.map((c) => [c.sourceId, c.from, c.to, c.reason])).toEqual([
      [con, "REBUTS", "SUPPORTS", "The audit agrees; the reader misread it."],
      [con, "SUPPORTS", "REBUTS", "Undo: I read the wrong audit."],
    ]);
    expect(new Set(trail.map((c) => c.actor)).size).toBe(1);
    expect(trail.every((c) => c.actor.length > 0 && !Number.isNaN(Date.parse(c.time)))).toBe(true);
    // The other evidence was left alone.
    expect(trail.some((c) => c.sourceId === pro)).toBe(false);
  });

  it("UNRELATED takes the evidence out of the count without deleting it", async () => {
    const { belief, con } = await contested("The build cache is shared between branches.");
    const r = await h.services.correctRelation(h.callers.editor, h.scopes.home, { evidenceId: con, beliefId: belief.id, relation: "UNRELATED", reason: "The audit is about another cache." });
    expect(r.after.credence).toBeGreaterThan(belief.credence);
    expect(r.after.tension).toBe(0);
    expect(r.history.filter((i) => i.type === "entry")).toHaveLength(2);
    const detail = await h.services.getBelief(h.callers.viewer, h.scopes.home, { beliefId: belief.id });
    expect(detail.entries.find((e) => e.seq === r.correction.entrySeqs[0])?.zeroReason).toBe("unrelated");
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
  });

  it("names the field to fix; hidden and missing ids are both not_found; a viewer is forbidden", async () => {
    const { belief, pro } = await contested("Backups are verified every night.");
    const same = await errorOf(h.services.correctRelation(h.callers.editor, h.scopes.home, { evidenceId: pro, beliefId: belief.id, relation: "SUPPORTS", reason: "x" }));
    expect(same.code).toBe("invalid");
    expect(same.details.fields?.map((f) => f.field)).toEqual(["relation"]);
    const bad = await errorOf(h.services.correctRelation(h.callers.editor, h.scopes.home, { evidenceId: pro, beliefId: belief.id, relation: "MAYBE", reason: "" }));
    expect(bad.code).toBe("invalid");
    expect(bad.details.fields?.map((f) => f.field).sort()).toEqual(["reason", "relation"]);
    const other = await contested("Logs are kept for thirty days.");
    const unlinked = await errorOf(h.services.correctRelation(h.callers.editor, h.scopes.home, { evidenceId: other.pro, beliefId: belief.id, relation: "REBUTS", reason: "x" }));
    expect(unlinked.details.fields?.map((f) => f.field)).toEqual(["beliefId"]);

    const secretEvidence = await h.services.registerEvidence(h.callers.secretOwner, h.scopes.secret, { kind: "document", text: "Another team's note on backups.", assess: false });
    const hidden = await errorOf(h.services.correctRelation(h.callers.editor, h.scopes.home, { evidenceId: secretEvidence.evidence.id, beliefId: belief.id, relation: "REBUTS", reason: "x" }));
    const missing = await errorOf(h.services.correctRelation(h.callers.editor, h.scopes.home, { evidenceId: "ev_missing", beliefId: belief.id, relation: "REBUTS", reason: "x" }));
    expect([hidden.code, missing.code]).toEqual(["not_found", "not_found"]);
    expect(hidden.message.replace(secretEvidence.evidence.id, "ID")).toBe(missing.message.replace("ev_missing", "ID"));
    expect((await errorOf(h.services.correctRelation(h.callers.editor, h.scopes.home, { evidenceId: pro, beliefId: "b_missing", relation: "REBUTS", reason: "x" }))).code).toBe("not_found");
    expect((await errorOf(h.services.correctRelation(h.callers.viewer, h.scopes.home, { evidenceId: pro, beliefId: belief.id, relation: "REBUTS", reason: "x" }))).code).toBe("forbidden");
  });
});
