/**
 * The seeds' own stories walked through assimilate / retract on an in-memory store (mixle, memnode, Sonality).
 */
import { describe, expect, it } from "vitest";
import { MemoryStore } from "./testing/memory-store";
import {
  assimilate,
  defaultParams,
  isGrounded,
  minutesAfter,
  replay,
  retract,
  type BeliefRecord,
  type EvidenceInput,
  type EvidenceKind,
} from "./index";

const P = defaultParams;

function world() {
  const store = new MemoryStore();
  let cs = 0;
  const say = async (beliefId: string, text: string, evidence: EvidenceInput[], minute: number, actor = "agent") => {
    const existing = store.beliefs.get(beliefId);
    const res = await assimilate({
      target: existing ? { existing } : { create: { id: beliefId, scope: "team", topic: "t", text } },
      evidence,
      resolver: store.resolverFor(["team", "public"]),
      params: P,
      time: minutesAfter(minute),
      actor,
      changeSetId: `cs-${++cs}`,
    });
    store.apply(res.changeSet);
    return res;
  };
  const ev = (id: string, kind: EvidenceKind, ess: number | null = null) => store.addEvidence(id, "team", kind, { ess });
  const get = (id: string) => store.beliefs.get(id) as BeliefRecord;
  return { store, say, ev, get };
}

const DAY = 24 * 60;

describe("memnode: the deploy-branch contradiction", () => {
  it("keeps both claims, with a standing rebuttal and visible tension, instead of overwriting", async () => {
    const { say, ev, get } = world();
    ev("monday-chat", "observation");
    ev("thursday-chat", "observation");
    ev("repo-settings", "document");
    await say("main", "The team deploys from the main branch.", [{ sourceId: "monday-chat", tier: "observation" }], 0, "alice");
    // Thursday: a different teammate; the statement becomes a belief of its own and rebuts the Monday claim.
    await say("release", "Deploys go out from the protected release branch.", [{ sourceId: "thursday-chat", tier: "observation" }], 3 * DAY, "bob");
    await say("main", "", [{ sourceId: "thursday-chat", tier: "observation", relation: "REBUTS", weight: 0.8 }], 3 * DAY, "bob");
    await say("release", "", [{ sourceId: "repo-settings", tier: "document" }], 3 * DAY + 30, "carol");
    await say("main", "", [{ sourceId: "repo-settings", tier: "document", relation: "REBUTS", weight: 0.9 }], 3 * DAY + 30, "carol");

    const main = replay(get("main").history, P);
    const release = replay(get("release").history, P);
    expect(main.realRebuttals.map((r) => r.sourceId)).toEqual(["thursday-chat", "repo-settings"]);
    expect(main.tension).toBeGreaterThan(0.25);
    expect(main.credence).toBeLessThan(0.5);
    expect(release.credence).toBeGreaterThan(0.7);
    expect(release.status).toBe("supported");
    // Nothing was deleted: the Monday entry is still in the trail, counted.
    expect(get("main").history[0]).toMatchObject({ type: "entry", sourceId: "monday-chat", verified: true });
    expect(main.supportCount).toBe(1);
  });
});

describe("Sonality: the open-source-security evidence chain, and a retraction", () => {
  it("moves in proportion to assessed strength, caps a citer at the cited support, and cascades a retraction", async () => {
    const { store, say, ev, get } = world();
    ev("cve-study-2024", "document", 0.72);
    ev("data-contradicts", "document", 0.58);
    ev("meta-analysis", "document", 0.81);
    const claim = "Open-source software tends to be more secure than proprietary alternatives.";
    await say("oss", claim, [{ sourceId: "cve-study-2024", tier: "document", weight: 0.65 }], 0, "a1");
    await say("oss", "", [{ sourceId: "data-contradicts", tier: "document", relation: "REBUTS", weight: 0.45 }], 60, "a2");
    await say("oss", "", [{ sourceId: "meta-analysis", tier: "document", weight: 0.78 }], 120, "a3");
    const oss = replay(get("oss").history, P);
    expect(oss.supportCount).toBe(2);
    expect(oss.contradictCount).toBe(1);
    expect(oss.credence).toBeGreaterThan(0.5);
    expect(oss.credence).toBeLessThan(0.8);
    expect(oss.tension).toBeGreaterThan(0);
    expect(get("oss").history[0]).toMatchObject({ ess: 0.72, weight: 0.65 });

    // A policy belief cites the OSS belief claiming a held-out truth: it earns at most the cited support's tier.
    const policy = await say("policy", "Prefer open-source dependencies for security-critical code.", [{ sourceId: "oss", tier: "held_out_truth" }], 180, "a4");
    expect(policy.entries[0]).toMatchObject({ verified: true, effectiveTier: "document", launderingReason: null });

    // Retracting one study leaves the OSS belief grounded by the other: the policy citation stands.
    const first = await retract("cve-study-2024", { index: store.citationIndex, paramsFor: () => P, time: minutesAfter(300), actor: "editor", changeSetId: "r1" });
    store.apply(first.changeSet);
    expect(first.touched.map((t) => t.beliefId)).toEqual(["oss"]);
    expect(isGrounded(replay(get("oss").history, P))).toBe(true);
    // Retracting the meta-analysis too: the OSS belief loses its last real support; the policy citation is stripped.
    const dry = await retract("meta-analysis", { index: store.citationIndex, paramsFor: () => P, time: minutesAfter(400), actor: "editor", changeSetId: "r2" }, { dryRun: true });
    expect(get("policy").history).toHaveLength(1);
    const second = await retract("meta-analysis", { index: store.citationIndex, paramsFor: () => P, time: minutesAfter(400), actor: "editor", changeSetId: "r2" });
    expect(dry.touched).toEqual(second.touched);
    store.apply(second.changeSet);
    expect(second.touched.map((t) => [t.beliefId, t.retractedSeqs, t.strippedSeqs])).toEqual([
      ["oss", [3], []],
      ["policy", [], [1]],
    ]);
    expect(get("policy").belief.credence).toBe(0.5);
    expect(get("oss").belief.credence).toBeLessThan(0.5);
    // Regaining support does not restore the stripped citation.
    ev("new-study", "document");
    await say("oss", "", [{ sourceId: "new-study", tier: "document" }], 500, "a5");
    expect(get("policy").belief.credence).toBe(0.5);
  });
});

describe("mixle: a laundering attempt", () => {
  it("cannot bootstrap credence past the cap from model say-so, self-citation or an ungrounded peer", async () => {
    const { say, ev, get, store } = world();
    ev("gpt-answer", "model_output");
    const a = await say("a", "Our service handles 1M requests per second.", [{ sourceId: "gpt-answer", tier: "held_out_truth" }], 0);
    expect(a.entries[0]).toMatchObject({ verified: true, effectiveTier: "model_assertion" });
    const b = await say("b", "Our service is the fastest in the market.", [{ sourceId: "a", tier: "executable_check" }], 10);
    expect(b.entries[0]?.launderingReason).toBe("ungrounded_belief");
    const back = await say("a", "", [{ sourceId: "b", tier: "held_out_truth" }, { sourceId: "a", tier: "held_out_truth" }, { sourceId: "fabricated-benchmark-77", tier: "measurement" }], 20);
    expect(back.entries.map((e) => e.launderingReason ?? (e.verified ? "verified" : "unverified"))).toEqual([
      "ungrounded_belief",
      "self_citation",
      "unverified",
    ]);
    for (let i = 0; i < 30; i++) await say("a", "", [{ sourceId: null, tier: "held_out_truth" }], 30 + i * 15, `bot${i}`);
    expect(get("a").belief.credence).toBeLessThanOrEqual(P.modelAssertionCap + 1e-12);
    expect(get("b").belief.credence).toBe(0.5);
    // Real evidence for A makes B's *later* citation count, but the laundered entry stays zero in the trail.
    ev("load-test", "measurement");
    await say("a", "", [{ sourceId: "load-test", tier: "measurement" }], 600, "sre");
    const again = await say("b", "", [{ sourceId: "a", tier: "executable_check" }], 700);
    expect(again.entries[0]).toMatchObject({ launderingReason: null, effectiveTier: "measurement" });
    expect(replay(get("b").history, P).entries[0]?.zeroReason).toBe("laundered");
    expect(store.beliefs.size).toBe(2);
  });
});
