import { describe, expect, it } from "vitest";
import { evidenceStrength } from "./evidence-cues";

describe("evidenceStrength", () => {
  it("ranks measured and statistical evidence above weak kinds", () => {
    const stat = evidenceStrength("A meta-analysis of 40 studies found a 12% reduction.");
    const logs = evidenceStrength("The CI logs show the job built commit 4f2a1c.");
    const anecdote = evidenceStrength("My cousin tried the diet and lost weight.");
    const hearsay = evidenceStrength("I heard that the service is written in Rust.");
    const authority = evidenceStrength("A famous CEO said remote work is dead, so it must be true.");
    expect(stat.type).toBe("statistical");
    expect(logs.type).toBe("empirical");
    expect(anecdote.type).toBe("anecdotal");
    expect(hearsay.type).toBe("hearsay");
    expect(authority.type).toBe("appeal_to_authority");
    for (const weak of [anecdote, hearsay, authority]) {
      expect(weak.ess).toBeLessThan(0.3);
      expect(weak.ess).toBeLessThan(logs.ess);
    }
    expect(stat.ess).toBeGreaterThan(0.7);
  });

  it("lowers ESS for hedges", () => {
    const plain = evidenceStrength("The benchmark shows p95 latency of 140 ms.");
    const hedged = evidenceStrength("The benchmark maybe shows p95 latency of 140 ms, not sure.");
    expect(hedged.hedges.length).toBeGreaterThan(0);
    expect(hedged.ess).toBeLessThan(plain.ess);
  });

  it("recognises documents and logical arguments", () => {
    expect(evidenceStrength("The signed report lists Bob as lead.").type).toBe("documentary");
    expect(evidenceStrength("If the key includes the id, then users cannot collide.").type).toBe("logical");
    expect(evidenceStrength("Hello there.").type).toBe("unknown");
  });
});
