/**
 * Undecided readings through the services (PGlite): an ingest the reader cannot decide leaves an undecided link that
 * moves nothing, the queue lists it with its evidence, a viewer of another scope sees nothing, and a decision moves
 * credence at once with stored == replay. A near-duplicate claim is kept apart and listed as a possible duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedAssessor } from "@/lib/engine/testing/scripted-assessor";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { DAY, openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

describe("undecided readings and possible duplicates through the services", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("keeps an undecided reading with no effect, lists it, and a decision applies it", async () => {
    const assessor = scriptedAssessor({
      ess: [{ text: /./, ess: 0.8, reasoningType: "empirical", manipulative: false }],
      relations: [{ evidence: /copy of last month/i, belief: /^Staging mirrors/, relation: "UNDECIDED", guess: "REBUTS", confidence: 0.41, reasoning: "about staging, direction unclear" }],
      similarity: [{ a: /copy of last month/i, b: /^Staging mirrors/, value: 0.55 }],
    });
    const services = h.withAssessor(assessor);
    const { editor: ed, viewer } = h.callers;
    const home = h.scopes.home;
    const source = await services.registerEvidence(ed, home, { kind: "observation", text: "The staging runbook says so." });
    const base = await services.assimilate(ed, home, { claim: "Staging mirrors production.", evidence: [{ sourceId: source.evidence.id, tier: "observation" }] });
    h.clock.advance(DAY);

    const ingested = await services.ingest(ed, home, { text: "Staging runs a copy of last month's production data." });
    expect(ingested.undecided).toEqual([expect.objectContaining({ beliefId: base.belief.id, guess: "REBUTS", confidence: 0.41, text: "Staging mirrors production." })]);
    const held = await services.getBelief(viewer, home, { beliefId: base.belief.id });
    expect(held.belief.credence).toBe(base.belief.credence);
    expect(held.belief.tension).toBe(base.belief.tension);
    expect(held.openReadings.undecided).toHaveLength(1);

    const queue = await services.listReadings(viewer, home);
    expect(queue.undecided).toHaveLength(1);
    const [item] = queue.undecided;
    expect(item?.belief.id).toBe(base.belief.id);
    expect(item?.evidence?.text).toBe("Staging runs a copy of last month's production data.");
    expect(item?.reading).toMatchObject({ guess: "REBUTS", confidence: 0.41 });
    const previewed = new Map(item?.preview.map((p) => [p.decision, p.credence]));
    expect(previewed.get("REBUTS")).toBeLessThan(base.belief.credence);
    expect(previewed.get("SUPPORTS")).toBeGreaterThan(base.belief.credence);
    expect(previewed.get("UNRELATED")).toBeCloseTo(base.belief.credence, 12);
    await expect(services.listReadings(h.callers.outsider, home)).rejects.toMatchObject({ code: "not_found" });

    const decide = { beliefId: base.belief.id, seq: item?.reading.seq ?? 0, decision: "REBUTS", reason: "last month's data is not production" };
    await expect(services.decideReading(viewer, home, decide)).rejects.toMatchObject({ code: "forbidden" });
    await expect(services.decideReading(ed, home, { ...decide, decision: "DISTINCT" })).rejects.toBeInstanceOf(BeliefServiceError);
    h.clock.advance(DAY);
    const decided = await services.decideReading(ed, home, decide);
    expect(decided.entrySeq).not.toBeNull();
    expect(decided.belief.credence).toBeLessThan(base.belief.credence);
    expect((await services.listReadings(viewer, home)).undecided).toEqual([]);
    await expect(services.decideReading(ed, home, decide)).rejects.toMatchObject({ code: "conflict" });
    expect((await services.replayCheck(viewer, home)).ok).toBe(true);

    const decidedSeq = decided.history.find((x) => x.type === "decided" && x.targetSeq === decide.seq)?.seq ?? 0;
    const undo = { beliefId: base.belief.id, seq: decidedSeq, reason: "read too quickly" };
    await expect(services.undoReadingDecision(viewer, home, undo)).rejects.toMatchObject({ code: "forbidden" });
    const undone = await services.undoReadingDecision(ed, home, undo);
    expect(undone.belief.credence).toBeCloseTo(base.belief.credence, 12);
    expect((await services.listReadings(viewer, home)).undecided.map((u) => u.evidence?.id)).toEqual([item?.evidence?.id]);
    await expect(services.undoReadingDecision(ed, home, undo)).rejects.toMatchObject({ code: "conflict" });
    expect((await services.replayCheck(viewer, home)).ok).toBe(true);
  });

  it("keeps a near-duplicate claim apart and lists it as a possible duplicate until kept apart", async () => {
    const assessor = scriptedAssessor({
      ess: [{ text: /./, ess: 0.8, reasoningType: "empirical", manipulative: false }],
      similarity: [{ a: /nightly backup/i, b: /^Backups run every night/, value: 0.84 }],
      relations: [{ relation: "UNRELATED" }],
    });
    const services = h.withAssessor(assessor);
    const { editor: ed, viewer } = h.callers;
    const home = h.scopes.home;
    const source = await services.registerEvidence(ed, home, { kind: "observation", text: "The cron table." });
    const base = await services.assimilate(ed, home, { claim: "Backups run every night.", evidence: [{ sourceId: source.evidence.id, tier: "observation" }] });
    const ingested = await services.ingest(ed, home, { text: "The nightly backup job copies the main database." });
    expect(ingested.possibleDuplicates).toEqual([expect.objectContaining({ otherBeliefId: base.belief.id, score: 0.84 })]);
    const queue = await services.listReadings(viewer, home);
    const dup = queue.possibleDuplicates.find((d) => d.other?.id === base.belief.id);
    expect(dup?.belief.text).toBe("The nightly backup job copies the main database.");
    await services.decideReading(ed, home, { beliefId: dup?.belief.id, seq: dup?.link.seq, decision: "DISTINCT", reason: "one is about the job, the other about its schedule" });
    expect((await services.listReadings(viewer, home)).possibleDuplicates.filter((d) => d.other?.id === base.belief.id)).toEqual([]);
  });
});
