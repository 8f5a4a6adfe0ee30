/**
 * An ingest edited before its commit, through the services on embedded PGlite with a scripted reader: relations and
 * claims left out write nothing, a changed relation is written as the reader's entry plus the person's correction,
 * and an edit that names what the reading did not produce (or a reading that changed since the dry run) is refused
 * with nothing written.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { scriptedAssessor } from "@/lib/engine/testing/scripted-assessor";
import type { BeliefServices } from "./belief-services";
import { errorOf, MINUTE, openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";

const TEXT = "The invoice export finishes before dawn. The archive disk is not full.";

describe("ingest with edits", () => {
  let h: BeliefHarness;
  let services: BeliefServices;
  const ids = { early: "", late: "", disk: "" };
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
    services = h.withAssessor(
      scriptedAssessor({
        ess: [{ text: /./, ess: 0.7, reasoningType: "empirical", manipulative: false }],
        relations: [
          { evidence: /invoice export finishes before dawn/, belief: /finishes early/, relation: "SUPPORTS", strength: 0.8, reasoning: "Same schedule." },
          { evidence: /invoice export finishes before dawn/, belief: /runs past noon/, relation: "REBUTS", strength: 0.7, reasoning: "Opposite schedule." },
          { evidence: /archive disk is not full/, belief: /archive disk is full/, relation: "REBUTS", strength: 0.9, reasoning: "Negation." },
          { evidence: /archive disk is not full/, belief: /runs past noon/, relation: "UNDECIDED", guess: "SUPPORTS", reasoning: "Not sure." },
        ],
        similarity: [
          { a: /invoice export finishes before dawn/, b: /finishes early/, value: 0.6 },
          { a: /invoice export finishes before dawn/, b: /runs past noon/, value: 0.5 },
          { a: /archive disk is not full/, b: /archive disk is full/, value: 0.7 },
          { a: /archive disk is not full/, b: /runs past noon/, value: 0.35 },
        ],
      }),
    );
    const ed = h.callers.editor;
    const home = h.scopes.home;
    const source = (await services.registerEvidence(ed, home, { kind: "observation", text: "An operator wrote down the schedule." })).evidence.id;
    const make = async (claim: string) => (await services.assimilate(ed, home, { claim, match: "exact", evidence: [{ sourceId: source, tier: "observation" }] })).belief.id;
    ids.early = await make("The invoice export finishes early in the morning.");
    ids.late = await make("The invoice export runs past noon.");
    ids.disk = await make("The archive disk is full.");
  });
  beforeEach(() => h.clock.advance(MINUTE));
  afterAll(async () => {
    await h?.close();
  });

  const entriesOf = async (beliefId: string, evidenceId: string) =>
    (await services.getBelief(h.callers.viewer, h.scopes.home, { beliefId })).history.filter((i) => i.type === "entry" && i.sourceId === evidenceId);

  it("a dry run names each relation by claim index and belief, with a plan id", async () => {
    const dry = await services.ingest(h.callers.editor, h.scopes.home, { text: TEXT, dryRun: true });
    expect(dry.claims).toHaveLength(2);
    expect(dry.planId).toMatch(/^plan_/);
    expect(dry.relations.map((r) => [r.claimIndex, r.beliefId, r.relation, r.readerRelation])).toEqual(
      expect.arrayContaining([
        [0, ids.early, "SUPPORTS", null],
        [0, ids.late, "REBUTS", null],
        [1, ids.disk, "REBUTS", null],
      ]),
    );
    expect(dry.excluded).toEqual({ claims: [], relations: [] });
    // The same text reads the same way again: the plan id is stable.
    expect((await services.ingest(h.callers.editor, h.scopes.home, { text: TEXT, dryRun: true })).planId).toBe(dry.planId);
  });

  it("refuses edits that name what the reading did not produce, and writes nothing", async () => {
    const before = await services.exportScope(h.callers.viewer, h.scopes.home);
    const cases: { edits: unknown; code: string; field: string }[] = [
      { edits: { excludeClaims: [5] }, code: "invalid", field: "edits.excludeClaims" },
      { edits: { excludeRelations: [{ claim: 1, beliefId: ids.early }] }, code: "invalid", field: "edits.excludeRelations.0" },
      { edits: { overrides: [{ claim: 0, beliefId: "belief_nowhere", relation: "REBUTS" }] }, code: "invalid", field: "edits.overrides.0" },
      {
        edits: { excludeRelations: [{ claim: 0, beliefId: ids.late }], overrides: [{ claim: 0, beliefId: ids.late, relation: "SUPPORTS" }] },
        code: "invalid",
        field: "edits.overrides.0",
      },
      { edits: { excludeClaims: [0], excludeRelations: [{ claim: 0, beliefId: ids.late }] }, code: "invalid", field: "edits.excludeRelations.0" },
      { edits: { overrides: [{ claim: 0, beliefId: ids.late, relation: "DISAGREES" }] }, code: "invalid", field: "edits.overrides.0.relation" },
      { edits: { excludeClaims: [-1] }, code: "invalid", field: "edits.excludeClaims.0" },
      { edits: { planId: "plan_from_another_reading" }, code: "conflict", field: "edits.planId" },
    ];
    for (const { edits, code, field } of cases) {
      const error = await errorOf(services.ingest(h.callers.editor, h.scopes.home, { text: TEXT, edits }));
      expect({ code: error.code, fields: error.details.fields?.map((f) => f.field) }).toEqual({ code, fields: [field] });
    }
    expect(await services.exportScope(h.callers.viewer, h.scopes.home)).toEqual(before);
  });

  it("commits exactly the edited plan: a relation left out is absent, a changed one is audited as the person's", async () => {
    const ed = h.callers.editor;
    const home = h.scopes.home;
    const dry = await services.ingest(ed, home, { text: TEXT, dryRun: true });
    const lateBefore = (await services.getBelief(h.callers.viewer, home, { beliefId: ids.late })).belief;
    const committed = await services.ingest(ed, home, {
      text: TEXT,
      edits: {
        planId: dry.planId,
        excludeRelations: [{ claim: 0, beliefId: ids.late }],
        overrides: [{ claim: 1, beliefId: ids.disk, relation: "CONTEXTUALIZES", reason: "The note is about another disk." }],
      },
    });
    expect(committed.outcome).toBe("committed");
    expect(committed.planId).toBe(dry.planId);
    expect(committed.relations.map((r) => [r.claimIndex, r.beliefId, r.relation, r.readerRelation])).toEqual([
      [0, ids.early, "SUPPORTS", null],
      [1, ids.disk, "CONTEXTUALIZES", "REBUTS"],
    ]);
    expect(committed.excluded.relations).toEqual([expect.objectContaining({ claimIndex: 0, beliefId: ids.late, relation: "REBUTS" })]);
    expect(committed.disagreements).toEqual([]);
    const evidenceId = committed.evidence.id;

    expect(await entriesOf(ids.late, evidenceId)).toEqual([]);
    const late = await services.getBelief(h.callers.viewer, home, { beliefId: ids.late });
    // The other claim's undecided reading of that belief is not left behind as a link either: a person read it.
    expect(dry.undecided.map((u) => [u.beliefId, u.guess])).toEqual([[ids.late, "SUPPORTS"]]);
    expect(late.history.filter((i) => i.type === "undecided")).toEqual([]);
    expect(late.belief.credence).toBe(lateBefore.credence);
    expect(late.belief.version).toBe(lateBefore.version);
    expect(await entriesOf(ids.early, evidenceId)).toEqual([expect.objectContaining({ relation: "SUPPORTS" })]);

    const disk = await services.getBelief(h.callers.viewer, home, { beliefId: ids.disk });
    const [entry] = disk.history.filter((i) => i.type === "entry" && i.sourceId === evidenceId);
    expect(entry).toMatchObject({ relation: "REBUTS", changeSet: committed.changeSetId });
    const revised = disk.history.filter((i) => i.type === "revised");
    expect(revised).toEqual([
      expect.objectContaining({ targetSeq: entry?.seq, relation: "CONTEXTUALIZES", reason: "The note is about another disk.", changeSet: committed.changeSetId }),
    ]);
    expect(revised[0]?.actor).toBe(entry?.actor);
    // CONTEXTUALIZES moves nothing: the disk belief keeps no rebuttal from this text.
    expect(disk.belief.tension).toBe(0);
    expect((await services.replayCheck(h.callers.viewer, home)).ok).toBe(true);
  });

  it("a claim left out creates and relates nothing; a relation changed without a reason says a person changed it", async () => {
    const ed = h.callers.editor;
    const home = h.scopes.home;
    const text = "The label printer needs a restart. The invoice export finishes before dawn.";
    const dry = await services.ingest(ed, home, { text, dryRun: true });
    expect(dry.changes.filter((c) => c.created).map((c) => c.text)).toContain("The label printer needs a restart.");
    const count = async () => (await services.listBeliefs(h.callers.viewer, home, { liveOnly: false, limit: 1000 })).length;
    const beliefsBefore = await count();
    const committed = await services.ingest(ed, home, {
      text,
      edits: { planId: dry.planId, excludeClaims: [0], overrides: [{ claim: 1, beliefId: ids.late, relation: "UNRELATED" }] },
    });
    expect(committed.excluded.claims).toEqual([0]);
    expect(committed.changes.map((c) => c.text)).not.toContain("The label printer needs a restart.");
    // Claim 1 ("finishes before dawn") restates no belief; it is the only new one.
    expect((await count()) - beliefsBefore).toBe(committed.changes.filter((c) => c.created).length);
    const late = await services.getBelief(h.callers.viewer, home, { beliefId: ids.late });
    const revised = late.history.filter((i) => i.type === "revised" && i.changeSet === committed.changeSetId);
    expect(revised).toEqual([expect.objectContaining({ relation: "UNRELATED", reason: "changed by a person before the ingest was committed" })]);
    expect(committed.disagreements).toEqual([]);
    expect((await services.replayCheck(h.callers.viewer, home)).ok).toBe(true);
  });
});
