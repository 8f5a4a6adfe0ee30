import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EngineError } from "./errors";
import type { ConflictReport, MutationRecord } from "./model";
import { defaultParams } from "./params";
import { checkOscillation, freezeTopic, isFrozen, leftBeliefs, liftFreeze, stabilityReport } from "./stability";
import { beliefKey } from "./topic";
import { at, makeMutationRecord } from "./testing/fixtures";

const report = (existingText: string, existingBeliefId = "bE"): ConflictReport => ({
  existingBeliefId,
  existingText,
  existingCredence: 0.8,
  similarity: 0.8,
  moreSpecific: false,
  differentContext: false,
  contradictedByStrongEvidence: true,
  strongRebuttalSeqs: [2],
  proposedContextTags: [],
  existingContextTags: [],
  decision: "supersede",
  reasoning: "",
  assessor: "caller",
});

const A = "We deploy from the main branch.";
const B = "We deploy from the protected release branch.";

const supersede = (from: string, to: string, minutes: number, over: Partial<MutationRecord> = {}) =>
  makeMutationRecord({ belief: to, decision: "supersede", mutationType: "superseded", conflictReport: report(from), time: at(minutes), ...over });

describe("oscillation hard stop", () => {
  const base = { freeze: null, similarityToLeft: new Map<string, number>(), keyOf: beliefKey };

  it("flags A→B→A by key and blocks the third write", () => {
    const records = [makeMutationRecord({ belief: A, time: at(0) }), supersede(A, B, 10)];
    const block = checkOscillation({ ...base, records, proposal: { key: beliefKey(A), text: A } }, defaultParams);
    expect(block?.code).toBe("oscillation_hard_stop");
    expect(block && block.code === "oscillation_hard_stop" ? block.returnsTo.text : null).toBe(A);
    expect(checkOscillation({ ...base, records, proposal: { key: beliefKey(B), text: B } }, defaultParams)).toBeNull();
  });

  it("flags a return by similarity > 0.9 but not at 0.9", () => {
    const s = supersede(A, B, 10);
    const text = "We deploy from main.";
    const over = checkOscillation({ ...base, records: [s], proposal: { key: beliefKey(text), text }, similarityToLeft: new Map([[s.id, 0.91]]) }, defaultParams);
    expect(over?.code).toBe("oscillation_hard_stop");
    const at09 = checkOscillation({ ...base, records: [s], proposal: { key: beliefKey(text), text }, similarityToLeft: new Map([[s.id, 0.9]]) }, defaultParams);
    expect(at09).toBeNull();
  });

  it("ignores blocked, rejected and pending records and counts approved supersede resolutions", () => {
    const blocked = supersede(A, B, 10, { status: "blocked" });
    const rejected = supersede(A, B, 11, { status: "rejected" });
    const pending = supersede(A, B, 12, { status: "pending_review", decision: "review" });
    expect(leftBeliefs([blocked, rejected, pending], beliefKey)).toEqual([]);
    const approved = makeMutationRecord({
      belief: B,
      decision: "review",
      status: "approved",
      conflictReport: report(A),
      review: { decision: "approve", resolution: "supersede", note: "ok", reviewer: "r", time: at(20) },
      time: at(12),
    });
    expect(leftBeliefs([approved], beliefKey).map((l) => l.text)).toEqual([A]);
  });

  it("a retired belief is a belief the topic left", () => {
    const retire = makeMutationRecord({ belief: A, decision: "retire", mutationType: "retired", beliefIds: ["bA"], time: at(5) });
    const block = checkOscillation({ ...base, records: [retire], proposal: { key: beliefKey(A), text: A } }, defaultParams);
    expect(block?.code).toBe("oscillation_hard_stop");
  });

  it("a frozen topic blocks everything; a lifted freeze forgets returns before the block", () => {
    const s = supersede(A, B, 10);
    const blocked = makeMutationRecord({ belief: A, decision: "blocked", status: "blocked", time: at(20) });
    const freeze = freezeTopic("scope_a", "deploy-branch", blocked.id, "A→B→A");
    expect(isFrozen(freeze)).toBe(true);
    const other = "Deploys need two approvals.";
    expect(checkOscillation({ ...base, freeze, records: [s, blocked], proposal: { key: beliefKey(other), text: other } }, defaultParams)?.code).toBe("topic_frozen");
    const lifted = liftFreeze(freeze, "scope_a", "deploy-branch", "evidence reviewed");
    expect(lifted).toEqual({ scope: "scope_a", topic: "deploy-branch", frozen: false, reason: "evidence reviewed", byMutationId: null });
    expect(checkOscillation({ ...base, freeze: lifted, records: [s, blocked], proposal: { key: beliefKey(A), text: A } }, defaultParams)).toBeNull();
    expect(() => liftFreeze(lifted, "scope_a", "deploy-branch", "again")).toThrow(EngineError);
    expect(() => liftFreeze(null, "scope_a", "deploy-branch", "none")).toThrow(EngineError);
  });

  it("any alternation X→Y→X over generated texts is stopped at the third write (property)", () => {
    const sentence = fc.array(fc.constantFrom("deploy", "main", "release", "branch", "ship", "tag", "hotfix", "staging"), { minLength: 2, maxLength: 5 }).map((w) => w.join(" ") + ".");
    fc.assert(
      fc.property(sentence, sentence, fc.nat(10_000), (x, y, minutes) => {
        fc.pre(beliefKey(x) !== beliefKey(y));
        const records = [makeMutationRecord({ belief: x, time: at(minutes) }), supersede(x, y, minutes + 1)];
        expect(checkOscillation({ ...base, records, proposal: { key: beliefKey(x), text: x } }, defaultParams)?.code).toBe("oscillation_hard_stop");
      }),
      { numRuns: 300 },
    );
  });
});

describe("drift and supersession counting", () => {
  it("warns on the sixth mutation within 7 days, not on the fifth, and forgets older ones", () => {
    const five = Array.from({ length: 5 }, (_, i) => makeMutationRecord({ time: at(i * 60) }));
    expect(stabilityReport(five.slice(0, 4), "new", at(300), defaultParams).flags).toEqual([]);
    const sixth = stabilityReport(five, "new", at(300), defaultParams);
    expect(sixth.mutationsInWindow).toBe(6);
    expect(sixth.flags).toEqual(["drift_warning"]);
    const later = stabilityReport(five, "new", at(7 * 24 * 60 + 1), defaultParams);
    expect(later.flags).toEqual([]);
    const withBlocked = [...five.slice(0, 4), makeMutationRecord({ status: "blocked", time: at(10) }), makeMutationRecord({ status: "rejected", time: at(11) })];
    expect(stabilityReport(withBlocked, "new", at(300), defaultParams).mutationsInWindow).toBe(5);
    const reinforcements = Array.from({ length: 9 }, (_, i) => makeMutationRecord({ decision: "reinforce", time: at(i) }));
    expect(stabilityReport(reinforcements, "reinforce", at(300), defaultParams)).toMatchObject({ mutationsInWindow: 0, flags: [] });
  });

  it("counts the drift window in event time: a journal imported in one minute but observed weeks apart does not drift", () => {
    const DAY = 24 * 60;
    // Six mutations journaled within one minute, each observed a week after the one before.
    const weekly = Array.from({ length: 5 }, (_, i) => makeMutationRecord({ time: at(100 * DAY), observedAt: at(i * 7 * DAY) }));
    expect(stabilityReport(weekly, "new", at(35 * DAY), defaultParams)).toMatchObject({ mutationsInWindow: 1, flags: [] });
    // The same journal observed within one week drifts.
    const sameWeek = weekly.map((r, i) => ({ ...r, observedAt: at(i * 60) }));
    expect(stabilityReport(sameWeek, "new", at(300), defaultParams).flags).toEqual(["drift_warning"]);
  });

  it("flags the fourth supersession of a topic for architectural review", () => {
    const three = [supersede(A, B, 0), supersede(B, "C.", 1), supersede("C.", "D.", 2)];
    expect(stabilityReport(three, "coexist", at(3), defaultParams).flags).not.toContain("architectural_review");
    const fourth = stabilityReport(three, "supersede", at(3), defaultParams);
    expect(fourth.supersessions).toBe(4);
    expect(fourth.flags).toContain("architectural_review");
    expect(fourth.warnings).toHaveLength(1);
  });
});
