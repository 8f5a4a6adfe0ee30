/**
 * assimilate through the services on embedded PGlite (the harness folds onto the checkpoint past two history items):
 * a new claim creates a belief, the same claim reinforces it, a named belief must exist and be live, and the stored
 * belief always equals the replay of its history. With the offline model, the restatement write policy: a reworded
 * claim reinforces the belief it restates, a rival that swaps one word is kept apart and queued as a possible duplicate.
 * A write that loses races reads each related belief once across its attempts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Assessor } from "@/lib/engine";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { RESTATES } from "@/lib/reading/restatement";
import { errorOf, MINUTE, openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";
import { racingStore } from "./testing/racing-store";

describe("assimilate", () => {
  let h: BeliefHarness;
  const doc = async (text: string) => (await h.services.registerEvidence(h.callers.editor, h.scopes.home, { kind: "document", text, assess: false })).evidence.id;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("creates a belief for a new claim, then reinforces the same belief when the claim comes again", async () => {
    const first = await h.services.assimilate(h.callers.editor, h.scopes.home, { claim: "The image registry keeps 30 days of tags.", evidence: [{ sourceId: await doc("Registry retention policy: 30 days."), tier: "document" }] });
    expect(first.created).toBe(true);
    expect(first.belief.credence).toBeGreaterThan(0.5);
    h.clock.advance(MINUTE);
    const again = await h.services.assimilate(h.callers.editor, h.scopes.home, { claim: "The image registry keeps 30 days of tags.", evidence: [{ sourceId: await doc("Registry admin page: retention 30 d."), tier: "document" }] });
    expect(again.created).toBe(false);
    expect(again.belief.id).toBe(first.belief.id);
    expect(again.belief.credence).toBeGreaterThan(first.belief.credence);
    expect(again.history.filter((i) => i.type === "entry")).toHaveLength(2);
  });

  it("writes to a belief named by id, past the checkpoint limit, and the answer carries the history up to this write", async () => {
    const created = await h.services.assimilate(h.callers.editor, h.scopes.home, { claim: "Backups are copied to a second region.", evidence: [{ sourceId: await doc("Backup runbook, section 2."), tier: "document" }] });
    let last = created;
    for (let i = 0; i < 4; i++) {
      h.clock.advance(MINUTE);
      last = await h.services.assimilate(h.callers.editor, h.scopes.home, { beliefId: created.belief.id, evidence: [{ sourceId: await doc(`Copy job log ${i}: eu-west to eu-central done.`), tier: "observation" }] });
    }
    expect(last.history.filter((i) => i.type === "entry")).toHaveLength(5);
    expect((await h.services.getBelief(h.callers.viewer, h.scopes.home, { beliefId: created.belief.id })).belief.credence).toBeCloseTo(last.belief.credence, 12);
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
  });

  it("a rebuttal lowers the credence", async () => {
    const base = await h.services.assimilate(h.callers.editor, h.scopes.home, { claim: "The VPN gateway supports IPv6.", evidence: [{ sourceId: await doc("Gateway datasheet lists IPv6."), tier: "document" }] });
    const rebutted = await h.services.assimilate(h.callers.editor, h.scopes.home, { beliefId: base.belief.id, evidence: [{ sourceId: await doc("Test from an IPv6-only host timed out."), tier: "observation", relation: "REBUTS" }] });
    expect(rebutted.belief.credence).toBeLessThan(base.belief.credence);
  });

  it("merges a reworded restatement, and keeps a one-word rival apart, linked as a possible duplicate in the readings queue", async () => {
    const services = h.withAssessor(createHeuristicAssessor(), { embedder: new LocalEmbedder() });
    const { editor: ed, viewer } = h.callers;
    const home = h.scopes.home;
    const webhook = await services.assimilate(ed, home, { claim: "The payments service retries a failed webhook three times.", evidence: [{ sourceId: await doc("Payments runbook: webhook retries."), tier: "document" }] });
    h.clock.advance(MINUTE);
    const reworded = await services.assimilate(ed, home, { claim: "A failed webhook is retried three times by the payments service.", evidence: [{ sourceId: await doc("Webhook delivery log, April."), tier: "observation" }] });
    expect(reworded).toMatchObject({ created: false, match: "restatement", possibleDuplicate: null });
    expect(reworded.belief.id).toBe(webhook.belief.id);

    const office = await services.assimilate(ed, home, { claim: "Engineers on the platform team work from the office.", evidence: [{ sourceId: await doc("Office badge report, March."), tier: "document" }] });
    expect(office.possibleDuplicate).toBeNull();
    h.clock.advance(MINUTE);
    const remote = await services.assimilate(ed, home, { claim: "Engineers on the platform team work remotely.", evidence: [{ sourceId: await doc("Platform team handbook: remote first."), tier: "document" }] });
    expect(remote).toMatchObject({ created: true, match: null });
    expect(remote.belief.id).not.toBe(office.belief.id);
    expect(remote.possibleDuplicate).toEqual({ beliefId: remote.belief.id, otherBeliefId: office.belief.id, score: expect.any(Number) });
    // The reader reads the two as one claim; only the write policy keeps them apart.
    expect(remote.possibleDuplicate?.score).toBeGreaterThanOrEqual(RESTATES);
    expect(remote.history.map((i) => i.type)).toEqual(["entry", "possible_duplicate"]);

    const queue = await services.listReadings(viewer, home);
    const listed = queue.possibleDuplicates.filter((d) => d.belief.id === remote.belief.id);
    expect(listed).toHaveLength(1);
    expect(listed[0]?.other?.id).toBe(office.belief.id);
    expect(listed[0]?.link.reasoning).toContain('one word swapped ("remotely" / "office")');

    // Harvest writes through the same policy.
    const staging = await services.assimilate(ed, home, { claim: "Release builds are signed with the staging key.", evidence: [{ sourceId: await doc("Signing config, build 12."), tier: "document" }] });
    h.clock.advance(MINUTE);
    const harvested = await services.harvest(ed, home, { text: "Release builds are signed with the production key.", producedBy: { name: "build-bot" }, commit: true });
    expect(harvested.assimilated).toHaveLength(1);
    const [production] = harvested.assimilated;
    expect(production).toMatchObject({ created: true, possibleDuplicate: { otherBeliefId: staging.belief.id } });
    expect((await services.listReadings(viewer, home)).possibleDuplicates.map((d) => [d.belief.id, d.other?.id])).toEqual(
      expect.arrayContaining([[remote.belief.id, office.belief.id], [production?.belief.id, staging.belief.id]]),
    );
    expect((await services.replayCheck(viewer, home)).ok).toBe(true);
  });

  it("an unknown belief is not_found, a viewer is forbidden, and neither writes anything", async () => {
    const before = (await h.services.listBeliefs(h.callers.viewer, h.scopes.home, { liveOnly: false, limit: 1000 })).length;
    const missing = await errorOf(h.services.assimilate(h.callers.editor, h.scopes.home, { beliefId: "b_missing", evidence: [{ sourceId: null, tier: "model_assertion" }] }));
    expect(missing.code).toBe("not_found");
    const viewer = await errorOf(h.services.assimilate(h.callers.viewer, h.scopes.home, { claim: "Viewers cannot write.", evidence: [{ sourceId: null, tier: "model_assertion" }] }));
    expect(viewer.code).toBe("forbidden");
    expect((await h.services.listBeliefs(h.callers.viewer, h.scopes.home, { liveOnly: false, limit: 1000 })).length).toBe(before);
  });
});

describe("assimilate that loses a race", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("reads each related belief once and runs again on fresh rows until it commits", async () => {
    const reader = createHeuristicAssessor();
    const readings: string[] = [];
    const counting: Assessor = {
      ...reader,
      similarity: async (a, b) => (readings.push(`similarity ${a} / ${b}`), reader.similarity(a, b)),
      assessRelation: async (evidence, belief) => (readings.push(`relation ${evidence} / ${belief.id}`), reader.assessRelation(evidence, belief)),
    };
    const doc = async (text: string) => (await h.services.registerEvidence(h.callers.editor, h.scopes.home, { kind: "document", text, assess: false })).evidence.id;
    const held = await h.services.assimilate(h.callers.editor, h.scopes.home, { claim: "The nightly export job writes to the archive bucket.", evidence: [{ sourceId: await doc("Export runbook."), tier: "document" }] });
    // The store refuses the first two change-sets as lost races (nothing written), as a concurrent writer would.
    const racing = racingStore(h.store, 2);
    const services = h.withAssessor(counting, { store: racing.store });
    const written = await services.assimilate(h.callers.editor, h.scopes.home, {
      claim: "The nightly export job finishes before the archive bucket is snapshotted.",
      evidence: [{ sourceId: await doc("Export job log, last week."), tier: "observation" }],
    });
    expect(racing.refusalsLeft()).toBe(0);
    expect(written.created).toBe(true);
    // The held belief was read against the claim, once, though the write ran three times.
    expect(readings.some((r) => r.endsWith(held.belief.id) || r.endsWith(held.belief.text))).toBe(true);
    expect(new Set(readings).size).toBe(readings.length);
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
  });
});
