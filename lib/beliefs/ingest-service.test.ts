/**
 * ingest through the services on embedded PGlite with the offline reader: a dry run reports what it would write and
 * writes nothing; a commit stores the evidence and the beliefs it reports; a second text about the same thing is read
 * against the belief the first one created. An ingest that loses races reads each relation once; one that finds the
 * write gate busy, with a reader that is not the offline one, reads its text outside the gate first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Assessor } from "@/lib/engine";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { errorOf, MINUTE, openBeliefHarness, type BeliefHarness } from "./testing/belief-harness";
import { racingStore } from "./testing/racing-store";

describe("ingest", () => {
  let h: BeliefHarness;
  const count = async () => (await h.services.listBeliefs(h.callers.viewer, h.scopes.home, { liveOnly: false, limit: 1000 })).length;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a dry run reports the beliefs it would create and writes nothing", async () => {
    const dry = await h.services.ingest(h.callers.editor, h.scopes.home, { text: "The staging cluster is rebuilt every Sunday night.", dryRun: true });
    expect(dry.outcome).toBe("dry_run");
    expect(dry.changes.some((c) => c.created)).toBe(true);
    expect(await count()).toBe(0);
  });

  it("a commit stores the evidence and the beliefs it reports, and the next text about them relates to them", async () => {
    const first = await h.services.ingest(h.callers.editor, h.scopes.home, { text: "The staging cluster is rebuilt every Sunday night." });
    expect(first.outcome).toBe("committed");
    expect((await h.services.getEvidence(h.callers.viewer, h.scopes.home, { evidenceId: first.evidence.id })).text).toBe("The staging cluster is rebuilt every Sunday night.");
    const created = first.changes.filter((c) => c.created).map((c) => c.beliefId);
    expect(created.length).toBeGreaterThan(0);
    expect(await count()).toBe(created.length);
    h.clock.advance(MINUTE);
    const second = await h.services.ingest(h.callers.editor, h.scopes.home, { text: "Last Sunday night the staging cluster was rebuilt from scratch, as it is every week." });
    // The offline reader is not sure enough to commit to SUPPORTS here: the reading is kept on the belief as an
    // undecided link, which leaves its credence where it was.
    expect(second.undecided).toEqual(expect.arrayContaining([expect.objectContaining({ beliefId: created[0], guess: "SUPPORTS" })]));
    expect(second.relations.map((r) => r.beliefId)).not.toContain(created[0]);
    const touched = second.changes.find((c) => c.beliefId === created[0]);
    expect(touched?.before).toBeTruthy();
    expect(touched?.after.credence).toBe(touched?.before?.credence);
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
  });

  it("a claim reported through a frame is stored without it; the evidence keeps the text as written", async () => {
    const text = "Last quarter's inventory count found that the spare laptops are kept in room four.";
    const result = await h.services.ingest(h.callers.editor, h.scopes.home, { text });
    expect(result.claims).toEqual(["The spare laptops are kept in room four."]);
    expect(result.changes.filter((c) => c.created).map((c) => c.text)).toEqual(["The spare laptops are kept in room four."]);
    expect((await h.services.getEvidence(h.callers.viewer, h.scopes.home, { evidenceId: result.evidence.id })).text).toBe(text);
  });

  it("a viewer may not ingest", async () => {
    expect((await errorOf(h.services.ingest(h.callers.viewer, h.scopes.home, { text: "Viewers cannot ingest." }))).code).toBe("forbidden");
  });
});

describe("ingest's candidates, claim by claim", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("a claim meets the belief it restates even when the rest of the text matches fifty others better", async () => {
    const write = async (text: string) => {
      const r = await h.services.ingest(h.callers.editor, h.scopes.home, { text });
      expect(r.changes.filter((c) => c.created)).toHaveLength(1);
      h.clock.advance(MINUTE);
    };
    // Sixty beliefs that hold every word of the text's first sentence, and sixty rivals of its second (each states a
    // number the others do not, so none restates another).
    for (let i = 1; i <= 60; i++) await write(`The nightly integration suite for the billing service runs on the shared staging cluster in rack ${i}.`);
    for (let i = 1; i <= 60; i++) await write(`Invoices are archived in vault ${i} for ${i + 10} years.`);
    const invoices = "Invoices are archived in the vault.";
    await write(invoices);
    const archived = (await h.services.listBeliefs(h.callers.viewer, h.scopes.home, { limit: 1000 })).find((b) => b.text === invoices);
    expect(archived).toBeTruthy();

    // Ranked as one query, the first sentence's sixty beliefs filled the fifty candidates and the second sentence,
    // not meeting its own belief, made a duplicate of it.
    const result = await h.services.ingest(h.callers.editor, h.scopes.home, {
      text: `The nightly integration suite for the billing service runs on the shared staging cluster. ${invoices}`,
      dryRun: true,
    });
    expect(result.claims).toEqual(["The nightly integration suite for the billing service runs on the shared staging cluster.", invoices]);
    expect(result.changes.filter((c) => c.created).map((c) => c.text)).not.toContain(invoices);
    expect(result.changes.find((c) => c.beliefId === archived?.id)).toBeTruthy();
  });
});

describe("ingest that loses a race", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("reads its claims and each relation once and runs again on fresh rows until it commits", async () => {
    const reader = createHeuristicAssessor();
    let extractions = 0;
    const relationReadings: string[] = [];
    const counting: Assessor = {
      ...reader,
      extractClaims: async (text) => {
        extractions += 1;
        return reader.extractClaims(text);
      },
      assessRelation: async (evidence, belief) => {
        relationReadings.push(`${evidence} / ${belief.id}`);
        return reader.assessRelation(evidence, belief);
      },
    };
    // A belief the text is about, so that each attempt reads the claims against it.
    const held = await h.services.assimilate(h.callers.editor, h.scopes.home, { claim: "The build cache is cleared every Monday morning.", evidence: [{ sourceId: null, tier: "document" }] });
    // The store refuses the first two change-sets as lost races (nothing written), as a concurrent writer would.
    const racing = racingStore(h.store, 2);
    const services = h.withAssessor(counting, { store: racing.store });
    const result = await services.ingest(h.callers.editor, h.scopes.home, { text: "The build cache is cleared every Monday. Nightly builds take forty minutes." });
    expect(result.outcome).toBe("committed");
    expect(racing.refusalsLeft()).toBe(0);
    expect(extractions).toBe(1);
    // Each claim was read against the held belief once, not once an attempt.
    expect(relationReadings.filter((r) => r.endsWith(held.belief.id)).length).toBeGreaterThan(0);
    expect(new Set(relationReadings).size).toBe(relationReadings.length);
    const created = result.changes.filter((c) => c.created).map((c) => c.text);
    expect(created.length).toBeGreaterThan(0);
    const stored = await h.services.listBeliefs(h.callers.viewer, h.scopes.home, { liveOnly: false, limit: 100 });
    expect(stored.map((b) => b.text).sort()).toEqual([held.belief.text, ...created].sort());
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
  });
});

describe("ingest behind a busy write gate, with a reader that is not the offline one", () => {
  let h: BeliefHarness;
  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
  });
  afterAll(async () => {
    await h?.close();
  });

  it("reads its text while another write holds the gate, and in the gate does not read it again", async () => {
    const offline = createHeuristicAssessor();
    // An LLM stands in: not the offline reader (so the write rehearses), each relation reading recorded.
    const readings: string[] = [];
    let firstReadingOfSecond: () => void = () => {};
    const secondRead = new Promise<void>((resolve) => (firstReadingOfSecond = resolve));
    const llm: Assessor = {
      ...offline,
      heuristic: false,
      assessRelation: async (evidence, belief) => {
        readings.push(`${evidence} / ${belief.id}`);
        if (evidence.includes("deploy window")) firstReadingOfSecond();
        return offline.assessRelation(evidence, belief);
      },
    };
    await h.services.assimilate(h.callers.editor, h.scopes.home, { claim: "Releases ship on Tuesday afternoons.", evidence: [{ sourceId: null, tier: "document" }] });
    // The first write loses its first race, so it runs its second attempt in the gate; that attempt's commit waits
    // until the second write has read its text (or 10 s, so that a write that cannot read before it queues fails
    // the order below instead of hanging).
    let firstInGate: () => void = () => {};
    const inGate = new Promise<void>((resolve) => (firstInGate = resolve));
    const order: string[] = [];
    const racing = racingStore(h.store, 1, async (n) => {
      if (n !== 2) return;
      firstInGate();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const gaveUp = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("the first write gave up waiting"), 10_000)));
      order.push(await Promise.race([secondRead.then(() => "the second write read its text"), gaveUp]));
      clearTimeout(timer);
    });
    const services = h.withAssessor(llm, { store: racing.store });
    const first = services.ingest(h.callers.editor, h.scopes.home, { text: "Releases ship on Tuesday afternoons after the review." });
    await inGate;
    const second = await services.ingest(h.callers.editor, h.scopes.home, { text: "The deploy window for releases is Tuesday afternoon." });
    expect((await first).outcome).toBe("committed");
    expect(second.outcome).toBe("committed");
    expect(order).toEqual(["the second write read its text"]);
    // The second write read each relation once: its rehearsal's readings were kept for its attempt in the gate.
    const secondReadings = readings.filter((r) => r.startsWith("The deploy window"));
    expect(secondReadings.length).toBeGreaterThan(0);
    expect(new Set(secondReadings).size).toBe(secondReadings.length);
    expect((await h.services.replayCheck(h.callers.viewer, h.scopes.home)).ok).toBe(true);
  });
});
