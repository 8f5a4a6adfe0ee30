import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { BeliefRecord, EvidenceEntry, EvidenceKind, HistoryItem } from "./model";
import { defaultParams } from "./params";
import { checkReplay } from "./replay";
import { EngineError } from "./errors";
import { inlineIds, parseMutationRequest, proposeMutation, recheckConflict, reviewMutation, undoReview, type MutationInput, type MutationRequestInput } from "./mutation";
import { liftFreeze } from "./stability";
import { at, entryAt, makeEvidence, storedRecord } from "./testing/fixtures";
import { applyChangeSet, emptyGraph, memoryCitationIndex, memoryResolver, topicStateOf, type MemoryGraph } from "./testing/memory-graph";
import { scriptedAssessor, type AssessorScript } from "./testing/scripted-assessor";

const SCOPE = "scope_a";
const params = defaultParams;

function stored(id: string, text: string, history: HistoryItem[], topic = "deploy-approvals"): BeliefRecord {
  return storedRecord(id, text, history, { topic });
}

/** E: well supported (credence ≈ 0.87), optionally with a strong real rebuttal. */
function existing(text: string, strongRebuttal = false, id = "b_e"): BeliefRecord {
  const h: HistoryItem[] = [
    entryAt(1, { sourceId: "ev_doc1", changeSet: "c1", time: at(0) }),
    entryAt(2, { sourceId: "ev_doc2", changeSet: "c2", time: at(60) }),
    entryAt(3, { sourceId: "ev_doc3", changeSet: "c3", time: at(120) }),
  ];
  if (strongRebuttal) h.push(entryAt(4, { sourceId: "ev_incident", relation: "REBUTS", weight: 0.6, changeSet: "c4", time: at(180) }));
  return stored(id, text, h);
}

function graphWith(records: BeliefRecord[]): MemoryGraph {
  const g = emptyGraph();
  const evidence = new Map(g.evidence);
  const add = (id: string, kind: EvidenceKind, scope = SCOPE) => evidence.set(id, makeEvidence(`evidence ${id}`, { id, kind, scope }));
  add("ev_judgment_1", "observation");
  add("ev_judgment_2", "observation");
  add("ev_exec_7", "executable_check");
  add("ev_model_3", "model_output");
  add("ev_other_scope", "document", "scope_b");
  return { ...g, evidence, beliefs: new Map(records.map((r) => [r.belief.id, r])) };
}

let n = 0;
function run(graph: MemoryGraph, body: MutationRequestInput | Record<string, unknown>, script: AssessorScript = {}, over: Partial<MutationInput> = {}) {
  const k = ++n;
  const assessor = scriptedAssessor(script);
  const resolver = memoryResolver(graph, [SCOPE], params);
  const input: MutationInput = {
    body,
    scope: SCOPE,
    actor: "judge",
    now: at(24 * 60 + k),
    mutationId: `m_${k}`,
    changeSetId: `cs_m${k}`,
    newBeliefId: `b_n${k}`,
    candidates: [...graph.beliefs.values()],
    loadTopic: async (topic) => topicStateOf(graph, SCOPE, topic),
    ...over,
  };
  return { assessor, resolver, promise: proposeMutation(input, { assessor, resolver, params }) };
}

const body = (over: Partial<MutationRequestInput> = {}): MutationRequestInput => ({
  belief: "Deploys to production require two approvals.",
  strength: 0.6,
  reason: "Seen in judgment ev_judgment_1.",
  sourceEvent: "ev_judgment_1",
  mutationType: "new",
  ...over,
});

function expectInvariant(graph: MemoryGraph, ids: readonly string[]) {
  for (const id of ids) {
    const r = graph.beliefs.get(id);
    expect(r, id).toBeDefined();
    if (r) expect(checkReplay(r.belief, r.history, params).mismatches).toEqual([]);
  }
}

const E_TEXT = "Deploys to production require two approvals.";

describe("validation (422 with field-level errors)", () => {
  it("names every missing or invalid field", async () => {
    const g = graphWith([]);
    const err = await run(g, { strength: 2, mutationType: "rewritten" }).promise.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).fields.map((f) => f.field).sort()).toEqual(["belief", "mutationType", "reason", "sourceEvent", "strength"]);
  });

  it("refuses fragments, questions, several sentences, unknown keys", async () => {
    const g = graphWith([]);
    for (const belief of ["Deploys.", "Do deploys need approvals?", "Deploys need approvals. Tests must pass."]) {
      const err = await run(g, body({ belief })).promise.catch((e: unknown) => e);
      expect((err as EngineError).fields.map((f) => f.field)).toEqual(["belief"]);
    }
    const extra = await run(g, { ...body(), strengthh: 1 }).promise.catch((e: unknown) => e);
    expect(extra).toBeInstanceOf(EngineError);
  });

  it("a reason must cite a resolvable id; hidden and missing ids fail identically, with the same lookups", async () => {
    const g = graphWith([]);
    const vague = await run(g, body({ reason: "It seems right." })).promise.catch((e: unknown) => e);
    expect((vague as EngineError).fields).toEqual([{ field: "reason", message: "reason must cite at least one evidence id that resolves (inline or in evidenceIds)" }]);
    const listed = await run(g, body({ reason: "See the attached evidence.", evidenceIds: ["ev_judgment_2"] })).promise;
    expect(listed.mutation.evidenceIds).toEqual(["ev_judgment_2"]);

    const hidden = run(g, body({ reason: "per ev_other_scope", sourceEvent: "ev_other_scope" }));
    const missing = run(g, body({ reason: "per ev_nowhere_9", sourceEvent: "ev_nowhere_9" }));
    const [he, me] = await Promise.all([hidden.promise.catch((e: unknown) => e), missing.promise.catch((e: unknown) => e)]);
    expect(he).toBeInstanceOf(EngineError);
    expect(me).toBeInstanceOf(EngineError);
    expect((he as EngineError).fields).toEqual([{ field: "reason", message: "reason must cite at least one evidence id that resolves (inline or in evidenceIds)" }, { field: "sourceEvent", message: "sourceEvent does not resolve" }]);
    expect((he as EngineError).fields).toEqual((me as EngineError).fields);
    expect(hidden.resolver.lookups.length).toBe(missing.resolver.lookups.length);
  });

  it("finds inline ids", () => {
    expect(inlineIds("Per ev_12 and judgment-7 (see dream:3); it seems right.")).toEqual(["ev_12", "judgment-7", "dream:3"]);
  });

  it("parseMutationRequest defaults lists", async () => {
    const v = await parseMutationRequest(body(), memoryResolver(graphWith([]), [SCOPE], params));
    expect(v.request.contextTags).toEqual([]);
    expect(v.evidenceIds).toEqual(["ev_judgment_1"]);
  });
});

describe("reinforcement", () => {
  it("same key: no conflict check, the source event adds one support weighted by the declared strength", async () => {
    const e = existing(E_TEXT);
    const g = graphWith([e]);
    const { assessor, promise } = run(g, body({ belief: "deploys to production require two approvals", mutationType: "updated", strength: 0.7 }));
    const r = await promise;
    expect(r).toMatchObject({ decision: "reinforce", status: "applied", existingBeliefId: "b_e", warnings: [] });
    expect(assessor.calls.map((c) => c.method)).not.toContain("analyseConflict");
    const entry = r.changeSet.history[0]?.items[0] as EvidenceEntry;
    expect(entry).toMatchObject({ relation: "SUPPORTS", weight: 0.7, tier: "observation", effectiveTier: "observation", verified: true, sourceId: "ev_judgment_1" });
    const after = applyChangeSet(g, r.changeSet);
    expectInvariant(after, ["b_e"]);
    expect(r.grantedCredence).toBeCloseTo(after.beliefs.get("b_e")?.belief.credence ?? NaN, 12);
    expect(r.changeSet.edges).toEqual([{ kind: "CONCERNS", from: r.mutation.id, to: "b_e", time: r.mutation.time, changeSet: r.mutation.changeSet }]);
  });

  it("warns when the caller asked for something else", async () => {
    const r = await run(graphWith([existing(E_TEXT)]), body({ mutationType: "new" })).promise;
    expect(r.decision).toBe("reinforce");
    expect(r.warnings).toEqual(['mutationType "new" asked for new; the protocol decided reinforce.']);
  });
});

describe("the Judge's decision tree", () => {
  it("merge: N more specific than E → both persist, N REFINES E, N inherits E's topic", async () => {
    const g = graphWith([existing(E_TEXT)]);
    const r = await run(g, body({ belief: "Deploys to production require two approvals from senior engineers.", mutationType: "merged" })).promise;
    expect(r).toMatchObject({ decision: "merge", status: "applied", warnings: [] });
    expect(r.conflictReport).toMatchObject({ existingBeliefId: "b_e", moreSpecific: true, decision: "merge" });
    expect(r.changeSet.edges.filter((e) => e.kind === "REFINES")).toEqual([expect.objectContaining({ from: r.beliefId, to: "b_e" })]);
    const after = applyChangeSet(g, r.changeSet);
    expect(after.beliefs.get(r.beliefId ?? "")?.belief.topic).toBe("deploy-approvals");
    expect(after.beliefs.get("b_e")?.belief.status).not.toBe("superseded");
    expectInvariant(after, [r.beliefId ?? "", "b_e"]);
  });

  it("supersede: E has a real rebuttal of assessed strength ≥ 0.5 → E closed (validUntil = now), N.supersedesId = E", async () => {
    const g = graphWith([existing(E_TEXT, true)]);
    const { promise } = run(g, body({ belief: "Deploys to production require one approval.", mutationType: "superseded", reason: "ev_exec_7 shows it", sourceEvent: "ev_exec_7" }));
    const r = await promise;
    expect(r).toMatchObject({ decision: "supersede", status: "applied", warnings: [] });
    expect(r.conflictReport).toMatchObject({ contradictedByStrongEvidence: true, strongRebuttalSeqs: [4], moreSpecific: false });
    const after = applyChangeSet(g, r.changeSet);
    const e = after.beliefs.get("b_e")?.belief;
    const nb = after.beliefs.get(r.beliefId ?? "")?.belief;
    expect(e).toMatchObject({ status: "superseded", validUntil: r.mutation.time });
    expect(nb).toMatchObject({ supersedesId: "b_e", topic: "deploy-approvals" });
    expect(r.changeSet.edges.filter((x) => x.kind === "SUPERSEDES")).toEqual([expect.objectContaining({ from: nb?.id, to: "b_e" })]);
    expect((r.changeSet.history.find((h) => h.beliefId === nb?.id)?.items[0] as EvidenceEntry).effectiveTier).toBe("executable_check");
    expectInvariant(after, ["b_e", nb?.id ?? ""]);
  });

  it("a rebuttal below 0.5, or one that is retracted, does not supersede", async () => {
    const weak = existing(E_TEXT);
    const h = [...weak.history, entryAt(4, { sourceId: "ev_incident", relation: "REBUTS", weight: 0.49, changeSet: "c4", time: at(180) })];
    const r = await run(graphWith([stored("b_e", E_TEXT, h)]), body({ belief: "Deploys to production require one approval." })).promise;
    expect(r.decision).toBe("review");
    const strong = existing(E_TEXT, true);
    const retracted = stored("b_e", E_TEXT, [...strong.history, { type: "retracted", seq: 5, time: at(200), actor: "x", changeSet: "c5", targetSeq: 4, sourceId: "ev_incident" }]);
    expect((await run(graphWith([retracted]), body({ belief: "Deploys to production require one approval." })).promise).decision).toBe("review");
  });

  it("coexist: different contexts → both persist with context tags, a CONTEXTUALIZES entry that moves nothing", async () => {
    const e = existing(E_TEXT);
    const g = graphWith([e]);
    const script: AssessorScript = { conflicts: [{ differentContext: true, moreSpecific: false, proposedContextTags: ["internal tools"], existingContextTags: ["production repo"] }] };
    const r = await run(g, body({ belief: "Deploys to production require one approval.", mutationType: "coexisting" }), script).promise;
    expect(r.decision).toBe("coexist");
    const after = applyChangeSet(g, r.changeSet);
    const eAfter = after.beliefs.get("b_e");
    expect(eAfter?.belief.contextTags).toEqual(["production repo"]);
    expect(after.beliefs.get(r.beliefId ?? "")?.belief.contextTags).toEqual(["internal tools"]);
    expect(eAfter?.history.at(-1)).toMatchObject({ type: "entry", relation: "CONTEXTUALIZES", sourceId: r.beliefId, contribution: 0 });
    expect(eAfter?.belief.credence).toBeCloseTo(e.belief.credence, 12);
    expectInvariant(after, ["b_e", r.beliefId ?? ""]);
  });

  it("review: otherwise N is stored pending_review and never auto-resolved; a reviewer resolves it", async () => {
    const e = existing(E_TEXT);
    const g = graphWith([e]);
    const r = await run(g, body({ belief: "Deploys to production require one approval.", mutationType: "superseded" })).promise;
    expect(r).toMatchObject({ decision: "review", status: "pending_review" });
    expect(r.warnings[0]).toMatch(/asked for supersede; the protocol decided review/);
    const after = applyChangeSet(g, r.changeSet);
    const nRec = after.beliefs.get(r.beliefId ?? "") as BeliefRecord;
    expect(nRec.belief.reviewState).toBe("pending_review");
    expectInvariant(after, [nRec.belief.id]);

    const review = (b: unknown) =>
      reviewMutation({ body: b, mutation: r.mutation, proposed: nRec, existing: after.beliefs.get("b_e") ?? null, reviewer: "jd", now: at(3000), changeSetId: "cs_rev" }, { params });

    const coexist = await review({ decision: "approve", note: "both hold" });
    expect(coexist.resolution).toBe("coexist");
    expect(coexist.mutation).toMatchObject({ status: "approved", review: { decision: "approve", resolution: "coexist", reviewer: "jd", note: "both hold" } });
    const g2 = applyChangeSet(after, coexist.changeSet);
    expect(g2.beliefs.get(nRec.belief.id)?.belief.reviewState).toBe("none");
    expect(g2.mutations.get(r.mutation.id)?.status).toBe("approved");
    expectInvariant(g2, [nRec.belief.id, "b_e"]);

    const sup = await review({ decision: "approve", resolution: "supersede", note: "newer rule" });
    const g3 = applyChangeSet(after, sup.changeSet);
    expect(g3.beliefs.get("b_e")?.belief.status).toBe("superseded");
    expect(g3.beliefs.get(nRec.belief.id)?.belief.supersedesId).toBe("b_e");

    const merge = await review({ decision: "approve", resolution: "merge", note: "refinement" });
    expect(merge.changeSet.edges).toEqual([expect.objectContaining({ kind: "REFINES", from: nRec.belief.id, to: "b_e" })]);

    const rej = await review({ decision: "reject", note: "wrong" });
    const g4 = applyChangeSet(after, rej.changeSet);
    expect(g4.beliefs.get(nRec.belief.id)?.belief.status).toBe("retired");
    expect(g4.mutations.get(r.mutation.id)?.status).toBe("rejected");

    await expect(review({ decision: "reject", resolution: "merge", note: "x" })).rejects.toBeInstanceOf(EngineError);
    await expect(review({ decision: "approve" })).rejects.toBeInstanceOf(EngineError);
    await expect(
      reviewMutation({ body: { decision: "approve", note: "again" }, mutation: coexist.mutation, proposed: nRec, existing: null, reviewer: "jd", now: at(3001), changeSetId: "x" }, { params }),
    ).rejects.toMatchObject({ name: "EngineError", code: "not_pending" });
  });

  it("the decision path is walked again against the existing belief as it stands now, not as it stood at proposal", async () => {
    const e = existing(E_TEXT);
    const g = graphWith([e]);
    const proposal = "Deploys to production require one approval.";
    const r = await run(g, body({ belief: proposal, mutationType: "superseded" })).promise;
    const atProposal = r.conflictReport;
    expect(atProposal).toMatchObject({ decision: "review", contradictedByStrongEvidence: false });
    if (!atProposal) return;
    const assessor = scriptedAssessor();

    expect(r.mutation.via).toBeUndefined();
    const viaToken = await run(g, body({ belief: proposal, mutationType: "superseded" }), {}, { via: { kind: "token", tokenId: "t1", tokenName: "ci-bot" } }).promise;
    expect(viaToken.mutation.via).toEqual({ kind: "token", tokenId: "t1", tokenName: "ci-bot" });

    const same = await recheckConflict({ proposal, existing: e, atProposal }, { assessor, params });
    expect(same).toMatchObject({ conflict: true, report: { decision: "review", contradictedByStrongEvidence: false } });
    expect(same.report.existingCredence).toBeCloseTo(atProposal.existingCredence, 12);

    // A strong real rebuttal arrives after the proposal: the protocol would now supersede.
    const rebutted = existing(E_TEXT, true);
    const now = await recheckConflict({ proposal, existing: rebutted, atProposal }, { assessor, params });
    expect(now).toMatchObject({ conflict: true, report: { decision: "supersede", contradictedByStrongEvidence: true, strongRebuttalSeqs: [4] } });
    expect(now.report.existingCredence).toBeLessThan(atProposal.existingCredence);

    // The existing belief ended since: no conflict partner, the protocol would add the proposal as new.
    const ended = { ...e, history: [...e.history, { type: "superseded" as const, seq: 4, time: at(500), actor: "x", changeSet: "c_sup", byBeliefId: "b_other" }] };
    const gone = await recheckConflict({ proposal, existing: ended, atProposal }, { assessor, params });
    expect(gone).toMatchObject({ conflict: false, existingStatus: "superseded", report: { decision: "new", moreSpecific: atProposal.moreSpecific } });
  });

  it("an approved supersede is undone in a new change-set: E live again as it stood, N back in the queue, both decisions kept", async () => {
    const e = existing(E_TEXT);
    const g = graphWith([e]);
    const r = await run(g, body({ belief: "Deploys to production require one approval.", mutationType: "superseded", topic: "approvals-n" })).promise;
    const after = applyChangeSet(g, r.changeSet);
    const nId = r.beliefId ?? "";
    const sup = await reviewMutation(
      { body: { decision: "approve", resolution: "supersede", note: "newer rule" }, mutation: r.mutation, proposed: after.beliefs.get(nId) as BeliefRecord, existing: after.beliefs.get("b_e") ?? null, reviewer: "jd", now: at(3000), changeSetId: "cs_rev" },
      { params },
    );
    const superseded = applyChangeSet(after, sup.changeSet);
    expect(superseded.beliefs.get("b_e")?.belief.status).toBe("superseded");
    expect(superseded.beliefs.get(nId)?.belief.topic).toBe(e.belief.topic);

    const undo = (graph: MemoryGraph, b: unknown, mutation = sup.mutation) =>
      undoReview({ body: b, mutation, proposed: graph.beliefs.get(nId) as BeliefRecord, existing: graph.beliefs.get("b_e") ?? null, reviewer: "rae", now: at(3100), changeSetId: "cs_undo" }, { params });
    expect(() => undo(superseded, {})).toThrow(EngineError);
    const u = undo(superseded, { note: "approved by mistake" });
    expect(u.changeSet.id).toBe("cs_undo");
    const restored = applyChangeSet(superseded, u.changeSet);
    const eNow = restored.beliefs.get("b_e");
    const nNow = restored.beliefs.get(nId);
    expect(eNow?.belief).toMatchObject({ status: e.belief.status, validUntil: null });
    expect(eNow?.belief.credence).toBeCloseTo(e.belief.credence, 12);
    expect(eNow?.history.slice(-2).map((h) => h.type)).toEqual(["superseded", "reinstated"]);
    expect(nNow?.belief).toMatchObject({ reviewState: "pending_review", supersedesId: null, topic: r.mutation.topic });
    expect(nNow?.history.slice(-2).map((h) => (h.type === "review" ? `review ${h.action}` : h.type))).toEqual(["review approved", "review requested"]);
    expect(u.mutation).toMatchObject({ status: "pending_review", review: null, undone: [{ resolution: "supersede", reviewer: "jd", note: "newer rule", undoneBy: "rae", undoNote: "approved by mistake", undoChangeSet: "cs_undo" }] });
    expect(restored.mutations.get(r.mutation.id)?.status).toBe("pending_review");
    expectInvariant(restored, ["b_e", nId]);

    // Undone once, it is pending again: no second undo; a reviewer decides it afresh.
    expect(() => undo(restored, { note: "again" }, u.mutation)).toThrow(expect.objectContaining({ code: "not_undoable" }));
    const coexist = await reviewMutation(
      { body: { decision: "approve", resolution: "coexist", note: "both hold after all" }, mutation: u.mutation, proposed: nNow as BeliefRecord, existing: eNow ?? null, reviewer: "rae", now: at(3200), changeSetId: "cs_rev2" },
      { params },
    );
    expect(coexist.mutation).toMatchObject({ status: "approved", undone: [expect.objectContaining({ undoneBy: "rae" })] });
  });

  it("an undo is refused when the decision's effect has moved on: N ended since, or E no longer superseded by N", async () => {
    const e = existing(E_TEXT);
    const g = graphWith([e]);
    const r = await run(g, body({ belief: "Deploys to production require one approval.", mutationType: "superseded" })).promise;
    const after = applyChangeSet(g, r.changeSet);
    const nId = r.beliefId ?? "";
    const approve = (resolution: "supersede" | "merge" | "coexist") =>
      reviewMutation({ body: { decision: "approve", resolution, note: "ok" }, mutation: r.mutation, proposed: after.beliefs.get(nId) as BeliefRecord, existing: after.beliefs.get("b_e") ?? null, reviewer: "jd", now: at(3000), changeSetId: "cs_rev" }, { params });
    const undoIn = (graph: MemoryGraph, mutation: typeof r.mutation) => () =>
      undoReview({ body: { note: "undo" }, mutation, proposed: graph.beliefs.get(nId) as BeliefRecord, existing: graph.beliefs.get("b_e") ?? null, reviewer: "rae", now: at(3100), changeSetId: "cs_undo" }, { params });

    const coexist = await approve("coexist");
    expect(undoIn(applyChangeSet(after, coexist.changeSet), coexist.mutation)).toThrow(expect.objectContaining({ code: "not_undoable" }));

    const merge = await approve("merge");
    const merged = applyChangeSet(after, merge.changeSet);
    const mergeUndo = undoIn(merged, merge.mutation)();
    expect(applyChangeSet(merged, mergeUndo.changeSet).beliefs.get(nId)?.belief.reviewState).toBe("pending_review");

    const sup = await approve("supersede");
    const superseded = applyChangeSet(after, sup.changeSet);
    const nRec = superseded.beliefs.get(nId) as BeliefRecord;
    const retiredN = { ...superseded, beliefs: new Map(superseded.beliefs).set(nId, { ...nRec, history: [...nRec.history, { type: "retired" as const, seq: nRec.history.length + 1, time: at(3050), actor: "x", changeSet: "c_ret" }] }) };
    expect(undoIn(retiredN, sup.mutation)).toThrow(/has been retired since/);
    const eRec = superseded.beliefs.get("b_e") as BeliefRecord;
    const reinstatedE = { ...superseded, beliefs: new Map(superseded.beliefs).set("b_e", { ...eRec, history: [...eRec.history, { type: "reinstated" as const, seq: eRec.history.length + 1, time: at(3050), actor: "x", changeSet: "c_re" }] }) };
    expect(undoIn(reinstatedE, sup.mutation)).toThrow(/no longer superseded/);
  });

  it("no conflict when E's credence is not above 0.7 or similarity not above 0.7 → new", async () => {
    const weakE = stored("b_e", E_TEXT, [entryAt(1, { sourceId: "ev_doc1", tier: "observation", effectiveTier: "observation" })]);
    const r = await run(graphWith([weakE]), body({ belief: "Deploys to production require one approval." })).promise;
    expect(r).toMatchObject({ decision: "new", conflictReport: null });
    const far = await run(graphWith([existing(E_TEXT)]), body({ belief: "Lunch is served at noon daily." })).promise;
    expect(far.decision).toBe("new");
  });

  it("retire: the matching live belief is retired", async () => {
    const g = graphWith([existing(E_TEXT)]);
    const r = await run(g, body({ mutationType: "retired" })).promise;
    expect(r).toMatchObject({ decision: "retire", existingBeliefId: "b_e", warnings: [] });
    const after = applyChangeSet(g, r.changeSet);
    expect(after.beliefs.get("b_e")?.belief.status).toBe("retired");
    const none = await run(graphWith([]), body({ mutationType: "retired" })).promise.catch((e: unknown) => e);
    expect((none as EngineError).fields[0]?.field).toBe("belief");
  });
});

describe("strength is credence from evidence", () => {
  it("a declared 1.0 from one observation is granted far less; the journal keeps both", async () => {
    const r = await run(graphWith([]), body({ strength: 1 })).promise;
    expect(r.mutation.strength).toBe(1);
    expect(r.grantedCredence).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 12);
    const model = await run(graphWith([]), body({ strength: 1, sourceEvent: "ev_model_3", reason: "ev_model_3" })).promise;
    expect(model.grantedCredence).toBeLessThanOrEqual(params.modelAssertionCap + 1e-12);
  });

  it("no declared strength or source kind yields credence ≥ 0.9 or confidence ≥ 0.4 for a new belief (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom("ev_judgment_1", "ev_exec_7", "ev_model_3"), async (strength, source) => {
        const g = graphWith([]);
        const r = await run(g, body({ strength, sourceEvent: source, reason: source })).promise;
        const after = applyChangeSet(g, r.changeSet);
        const b = after.beliefs.get(r.beliefId ?? "")?.belief;
        expect(b?.credence).toBeLessThan(0.9);
        expect(b?.confidence).toBeLessThan(0.4);
      }),
      { numRuns: 60 },
    );
  });
});

describe("stability monitor through the protocol", () => {
  it("A→B→A: the third write is blocked, journaled, the topic frozen; a reviewer lifts the freeze", async () => {
    const A = "Deploys to production require two approvals.";
    const B = "Deploys to production require one approval.";
    let g = graphWith([existing(A, true)]);
    const toB = await run(g, body({ belief: B, mutationType: "superseded", topic: "deploy-approvals" })).promise;
    expect(toB.decision).toBe("supersede");
    g = applyChangeSet(g, toB.changeSet);

    const back = await run(g, body({ belief: A, mutationType: "superseded", topic: "deploy-approvals" })).promise;
    expect(back).toMatchObject({ decision: "blocked", status: "blocked", flags: ["oscillation_hard_stop"] });
    expect(back.blocked?.code).toBe("oscillation_hard_stop");
    expect(back.changeSet.beliefs).toEqual([]);
    expect(back.changeSet.history).toEqual([]);
    expect(back.changeSet.mutations).toEqual([back.mutation]);
    expect(back.changeSet.topicFreezes).toEqual([{ scope: SCOPE, topic: "deploy-approvals", frozen: true, reason: back.warnings[0], byMutationId: back.mutation.id }]);
    g = applyChangeSet(g, back.changeSet);

    const other = await run(g, body({ belief: "Deploys to production need a green pipeline.", topic: "deploy-approvals" })).promise;
    expect(other.blocked?.code).toBe("topic_frozen");
    expect(other.changeSet.topicFreezes).toEqual([]);

    const freeze = topicStateOf(g, SCOPE, "deploy-approvals").freeze;
    g = applyChangeSet(g, { ...toB.changeSet, id: "lift", beliefs: [], history: [], entryOutputs: [], edges: [], mutations: [], topicFreezes: [liftFreeze(freeze, SCOPE, "deploy-approvals", "evidence reviewed")] });
    const again = await run(g, body({ belief: "Deploys to production need a green pipeline.", topic: "deploy-approvals" })).promise;
    expect(again.blocked).toBeNull();
  });

  it("the sixth mutation of a topic within 7 days carries a drift warning", async () => {
    let g = graphWith([]);
    const flags: string[][] = [];
    for (let i = 0; i < 6; i++) {
      const r = await run(g, body({ belief: `Service number ${i} deploys on Fridays only.`, topic: "release-days" })).promise;
      flags.push([...r.flags]);
      g = applyChangeSet(g, r.changeSet);
    }
    expect(flags.slice(0, 5).every((f) => f.length === 0)).toBe(true);
    expect(flags[5]).toEqual(["drift_warning"]);
  });
});

describe("grounding after a supersession", () => {
  it("a belief citing only the superseded belief gets its citation stripped, in the same change-set", async () => {
    const e = existing(E_TEXT, true);
    const citer = storedRecord("b_citer", "Release trains wait for two approvals.", [
      entryAt(1, { sourceId: "b_e", sourceKind: "belief", tier: "document", effectiveTier: "document", changeSet: "cc1", time: at(500) }),
    ]);
    let g = graphWith([e, citer]);
    const assessor = scriptedAssessor();
    const resolver = memoryResolver(g, [SCOPE], params);
    const r = await proposeMutation(
      {
        body: body({ belief: "Deploys to production require one approval.", mutationType: "superseded" }),
        scope: SCOPE,
        actor: "judge",
        now: at(2000),
        mutationId: "m_g",
        changeSetId: "cs_g",
        newBeliefId: "b_ng",
        candidates: [e],
        loadTopic: async (topic) => topicStateOf(g, SCOPE, topic),
      },
      { assessor, resolver, params, cascade: { index: memoryCitationIndex(g), paramsFor: () => params } },
    );
    expect(r.decision).toBe("supersede");
    const citerAppend = r.changeSet.history.find((h) => h.beliefId === "b_citer");
    expect(citerAppend?.items).toEqual([expect.objectContaining({ type: "stripped", targetSeq: 1, citedBeliefId: "b_e", changeSet: "cs_g" })]);
    g = applyChangeSet(g, r.changeSet);
    expectInvariant(g, ["b_e", "b_ng", "b_citer"]);
    expect(g.beliefs.get("b_citer")?.belief.credence).toBe(0.5);
  });
});
