import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "./testing/memory-store";
import { assimilate, checkReplay, defaultParams, derivedFields, minutesAfter, replay, type AssimilateResult, type EvidenceInput, type Tier } from "./index";

const P = defaultParams;
let counter = 0;

async function write(
  store: MemoryStore,
  beliefId: string,
  evidence: EvidenceInput[],
  opts: { scope?: string; view?: string[]; minute?: number; actor?: string } = {},
): Promise<AssimilateResult> {
  const scope = opts.scope ?? "home";
  const existing = store.beliefs.get(beliefId);
  const res = await assimilate({
    target: existing ? { existing } : { create: { id: beliefId, scope, topic: "t", text: `Claim ${beliefId}.` } },
    evidence,
    resolver: store.resolverFor(opts.view ?? [scope]),
    params: P,
    time: minutesAfter(opts.minute ?? counter++ * 20),
    actor: opts.actor ?? "agent",
    changeSetId: `cs-${counter++}`,
  });
  store.apply(res.changeSet);
  return res;
}

const sup = (sourceId: string | null, tier: Tier = "document"): EvidenceInput => ({ sourceId, tier, relation: "SUPPORTS" });

describe("assimilate: verification", () => {
  it("records a missing source as unverified, earning model-assertion strength only", async () => {
    const store = new MemoryStore();
    const res = await write(store, "b1", [sup("made-up-id", "held_out_truth")]);
    expect(res.entries[0]).toMatchObject({ verified: false, effectiveTier: "model_assertion", launderingReason: null, sourceKind: null });
    expect(res.write.state.credence).toBeCloseTo(1 / (1 + Math.exp(-0.25)), 12);
  });

  it("caps the tier by the evidence kind and takes the evidence's ESS", async () => {
    const store = new MemoryStore();
    store.addEvidence("obs", "home", "observation", { ess: 0.6 });
    store.addEvidence("gpt", "home", "model_output");
    const res = await write(store, "b1", [sup("obs", "held_out_truth"), sup("gpt", "document")]);
    expect(res.entries.map((e) => [e.effectiveTier, e.ess, e.verified])).toEqual([
      ["observation", 0.6, true],
      ["model_assertion", 1, true],
    ]);
  });

  it("treats a cited mutation and a discarded evidence item as unverified", async () => {
    const store = new MemoryStore();
    store.addMutation("m1", "home");
    store.addEvidence("bad", "home", "document", { discarded: true });
    const res = await write(store, "b1", [sup("m1"), sup("bad")]);
    expect(res.entries.map((e) => [e.verified, e.effectiveTier, e.sourceKind])).toEqual([
      [false, "model_assertion", "mutation"],
      [false, "model_assertion", "evidence"],
    ]);
  });

  it("writes an entry citing retracted evidence together with its retracted event", async () => {
    const store = new MemoryStore();
    store.addEvidence("old", "home", "document", { retractedAt: minutesAfter(0) });
    const res = await write(store, "b1", [sup("old")]);
    expect(res.write.append.items.map((i) => i.type)).toEqual(["entry", "retracted"]);
    expect(res.write.state.credence).toBe(0.5);
  });

  it("validates input and names the bad fields", async () => {
    const store = new MemoryStore();
    await expect(
      assimilate({
        target: { create: { id: "x", scope: "home", topic: "t", text: "X." } },
        evidence: [{ sourceId: "e", tier: "gold", weight: 3 }],
        resolver: store.resolverFor(["home"]),
        params: P,
        time: minutesAfter(0),
        actor: "a",
        changeSetId: "c",
      }),
    ).rejects.toMatchObject({ issues: expect.arrayContaining([expect.objectContaining({ path: [0, "tier"] }), expect.objectContaining({ path: [0, "weight"] })]) });
  });
});

describe("assimilate: anti-laundering", () => {
  it("launders self-citation", async () => {
    const store = new MemoryStore();
    store.addEvidence("e1", "home");
    await write(store, "b1", [sup("e1")]);
    const before = store.beliefs.get("b1")?.belief;
    const res = await write(store, "b1", [sup("b1", "held_out_truth")]);
    expect(res.entries[0]?.launderingReason).toBe("self_citation");
    expect(res.write.state.credence).toBe(before?.credence);
  });

  it("launders a citation of an ungrounded peer and grants a grounded peer at most its strongest real tier", async () => {
    const store = new MemoryStore();
    await write(store, "peer", [sup(null, "held_out_truth")]);
    const laundered = await write(store, "b1", [sup("peer", "held_out_truth")]);
    expect(laundered.entries[0]).toMatchObject({ verified: true, launderingReason: "ungrounded_belief", effectiveTier: "model_assertion" });
    expect(laundered.write.state.credence).toBe(0.5);

    store.addEvidence("obs", "home", "observation");
    await write(store, "grounded", [sup("obs", "observation")]);
    const ok = await write(store, "b2", [sup("grounded", "held_out_truth")]);
    expect(ok.entries[0]).toMatchObject({ verified: true, launderingReason: null, effectiveTier: "observation", sourceKind: "belief" });
  });

  it("launders cycles of any length", async () => {
    const store = new MemoryStore();
    store.addEvidence("e", "home");
    await write(store, "a", [sup("e")]);
    let prev = "a";
    for (let i = 0; i < 20; i++) {
      await write(store, `n${i}`, [sup(prev)]);
      prev = `n${i}`;
    }
    const back = await write(store, "a", [sup("n19")]);
    expect(back.entries[0]?.launderingReason).toBe("citation_cycle");
    const two = await write(store, "a", [sup("n0")]);
    expect(two.entries[0]?.launderingReason).toBe("citation_cycle");
  });

  it("walks proof chains through the caller's view: hidden grounding does not count", async () => {
    const store = new MemoryStore();
    store.addEvidence("secret", "private");
    await write(store, "inner", [sup("secret")], { scope: "private", view: ["private"] });
    await write(store, "bridge", [sup("inner")], { scope: "shared", view: ["shared", "private"] });
    const outsider = await write(store, "b1", [sup("bridge")], { view: ["home", "shared"] });
    expect(outsider.entries[0]?.launderingReason).toBe("ungrounded_belief");
    const insider = await write(store, "b2", [sup("bridge")], { view: ["home", "shared", "private"] });
    expect(insider.entries[0]?.launderingReason).toBeNull();
  });

  it("gives a hidden id exactly the effect of a missing id, with the same lookup sequence", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Tier>("observation", "document", "held_out_truth"),
        fc.constantFrom("evidence", "grounded", "ungrounded"),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (tier, hiddenKind, weight) => {
          const store = new MemoryStore();
          store.addEvidence("e0", "home");
          store.addEvidence("x-ev", "other");
          await write(store, "base", [sup("e0")], { minute: 0 });
          if (hiddenKind === "grounded") await write(store, "x-b", [sup("x-ev")], { scope: "other", view: ["other"], minute: 0 });
          if (hiddenKind === "ungrounded") await write(store, "x-b", [sup(null)], { scope: "other", view: ["other"], minute: 0 });
          const hiddenId = hiddenKind === "evidence" ? "x-ev" : "x-b";
          const snapshot = store.beliefs.get("base");
          const run = async (id: string) => {
            const r = store.resolverFor(["home"]);
            const res = await assimilate({
              target: { existing: snapshot as NonNullable<typeof snapshot> },
              evidence: [{ sourceId: id, tier, weight, relation: "SUPPORTS" }],
              resolver: r,
              params: P,
              time: minutesAfter(60),
              actor: "a",
              changeSetId: "c",
            });
            return { state: derivedFields(res.write.state), entry: { ...res.entries[0], sourceId: "*" }, lookups: r.log.map((l) => (l === id ? "*" : l)) };
          };
          const hidden = await run(hiddenId);
          const missing = await run("does-not-exist");
          expect(hidden).toEqual(missing);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("changes nothing when a laundered entry (self, cycle, ungrounded peer) is added: credence, n, counts, cooling clock", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Tier>("observation", "document", "measurement"), { minLength: 1, maxLength: 4 }),
        fc.constantFrom("self", "cycle", "peer"),
        fc.integer({ min: 0, max: 15 }),
        async (tiers, how, gap) => {
          const store = new MemoryStore();
          tiers.forEach((_, i) => store.addEvidence(`e${i}`, "home"));
          await write(store, "b", tiers.map((t, i) => sup(`e${i}`, t)), { minute: 0, actor: "x" });
          await write(store, "peer", [sup(null)], { minute: 0 });
          await write(store, "c", [sup("b")], { minute: 0 });
          const before = store.beliefs.get("b") as NonNullable<ReturnType<typeof store.beliefs.get>>;
          const source = how === "self" ? "b" : how === "cycle" ? "c" : "peer";
          const laundered = await write(store, "b", [{ sourceId: source, tier: "held_out_truth", relation: "SUPPORTS" }], { minute: gap, actor: "x" });
          expect(laundered.entries[0]?.launderingReason).not.toBeNull();
          const a = replay(before.history, P);
          const b = laundered.write.state;
          expect({ ...derivedFields(b), n: b.n }).toEqual({ ...derivedFields(a), n: a.n });
          // The cooling clock did not move: a real entry right after is cooled exactly as if the laundered one never came.
          store.addEvidence("next", "home");
          const after = await write(store, "b", [sup("next")], { minute: gap + 1, actor: "x" });
          const direct = await assimilate({
            target: { existing: before },
            evidence: [sup("next")],
            resolver: store.resolverFor(["home"]),
            params: P,
            time: minutesAfter(gap + 1),
            actor: "x",
            changeSetId: "direct",
          });
          expect(after.write.state.credence).toBeCloseTo(direct.write.state.credence, 12);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps stored == replay after any sequence of assimilations (the store checks on every write)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            belief: fc.constantFrom("p", "q", "r"),
            source: fc.constantFrom("e0", "e1", "e2", "p", "q", "r", "nope", null),
            relation: fc.constantFrom("SUPPORTS" as const, "REBUTS" as const, "CONTEXTUALIZES" as const),
            tier: fc.constantFrom<Tier>("model_assertion", "observation", "document", "held_out_truth"),
            minute: fc.integer({ min: 0, max: 30 }),
            actor: fc.constantFrom("x", "y"),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        async (ops) => {
          const store = new MemoryStore();
          for (const e of ["e0", "e1", "e2"]) store.addEvidence(e, "home");
          let t = 0;
          for (const op of ops) {
            t += op.minute;
            await write(store, op.belief, [{ sourceId: op.source, relation: op.relation, tier: op.tier }], { minute: t, actor: op.actor });
          }
          for (const rec of store.beliefs.values()) expect(checkReplay(rec.belief, rec.history, P).mismatches).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
