/**
 * The ingest pipeline through the services with a scripted assessor (the same port as the heuristic and OpenAI
 * ones): contraction from accumulated contradiction propagates grounding loss to citers in the same change-set, and a
 * failing assessment writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedAssessor } from "@/lib/engine/testing/scripted-assessor";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { DAY, openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

describe("ingest with a scripted assessor", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("three strong rebuttals trigger a contraction that retires the belief and strips its citers", async () => {
    const assessor = scriptedAssessor({
      ess: [{ text: /./, ess: 0.8, reasoningType: "empirical", manipulative: false }],
      relations: [
        { evidence: /cold|empty|miss/i, belief: /^The cache is warmed/, relation: "REBUTS", strength: 0.9 },
        { evidence: /^Load test/, belief: /^Startup takes long/, relation: "SUPPORTS", strength: 0.3 },
      ],
      similarity: [
        { a: /cold|empty|miss/i, b: /^The cache is warmed/, value: 0.5 },
        { a: /^Load test/, b: /^Startup takes long/, value: 0.5 },
      ],
      contractions: [{ belief: /^The cache is warmed/, contract: true, severity: 1, reasoning: "Three measurements contradict it." }],
    });
    const services = h.withAssessor(assessor);
    const ed = h.callers.editor;
    const home = h.scopes.home;
    const base = await services.assimilate(ed, home, {
      claim: "The cache is warmed at startup.",
      evidence: [{ sourceId: (await services.registerEvidence(ed, home, { kind: "observation", text: "Startup log shows warming." })).evidence.id, tier: "observation" }],
    });
    const citer = await services.assimilate(ed, home, { claim: "Startup takes long because the cache is warmed.", evidence: [{ sourceId: base.belief.id, tier: "observation" }] });
    expect(citer.entries[0]).toMatchObject({ verified: true, launderingReason: null, effectiveTier: "observation" });

    const texts = ["Measured: the cache was cold after the 09:00 restart.", "Monitoring: cache empty for ten minutes after deploy.", "Load test: 100% cache miss rate right after startup."];
    const results = [];
    for (const text of texts) {
      h.clock.advance(DAY);
      results.push(await services.ingest(ed, home, { text }));
    }
    expect(results.map((r) => r.disagreements.map((d) => d.beliefId))).toEqual([[base.belief.id], [base.belief.id], [base.belief.id]]);
    expect(results[2]?.contractions).toEqual([{ beliefId: base.belief.id, severity: 1, reasoning: "Three measurements contradict it." }]);
    expect(results[2]?.changes.find((c) => c.beliefId === citer.belief.id)).toMatchObject({ created: false });
    const after = await services.getBelief(ed, home, { beliefId: base.belief.id });
    expect(after.belief.status).toBe("contracted");
    const citerAfter = await services.getBelief(ed, home, { beliefId: citer.belief.id });
    // The citer is both revised by the third ingest and stripped by its cascade, in one change-set.
    expect(citerAfter.history.map((i) => i.type)).toEqual(["entry", "entry", "stripped"]);
    expect(citerAfter.history.slice(1).map((i) => i.changeSet)).toEqual([results[2]?.changeSetId, results[2]?.changeSetId]);
    expect((await services.replayCheck(h.callers.viewer, home)).ok).toBe(true);
  });

  it("a failing assessment answers assessment_failed and writes nothing", async () => {
    const services = h.withAssessor(scriptedAssessor({ failing: ["assessEvidence"] }));
    const before = await h.services.exportScope(h.callers.viewer, h.scopes.home);
    const error = await services.ingest(h.callers.editor, h.scopes.home, { text: "Anything at all." }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BeliefServiceError);
    expect((error as BeliefServiceError).code).toBe("assessment_failed");
    expect(await h.services.exportScope(h.callers.viewer, h.scopes.home)).toEqual(before);
  });
});
