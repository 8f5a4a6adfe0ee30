import { describe, expect, it } from "vitest";
import { antonymConflicts, effectDirection, negationCues } from "./negation-cues";

describe("negationCues", () => {
  it("finds explicit negators, contractions included", () => {
    expect(negationCues("Pushing to main never ships anything.").negations).toEqual(["never"]);
    expect(negationCues("The job didn't run.").negations).toEqual(["didnt"]);
  });

  it("ignores idioms that do not negate", () => {
    expect(negationCues("It is not only fast but cheap, no doubt.").negations).toEqual([]);
  });

  it("finds implicit reversals and changes of state", () => {
    expect(negationCues("Latency was unchanged after the fix.").reversals).toContain("unchanged");
    expect(negationCues("The gain disappeared later.").reversals).toContain("disappeared");
    expect(negationCues("The service was rewritten in Rust and the Go code archived.").changes).toEqual(["rewritten", "archived"]);
    expect(negationCues("Carol moved to the search team.").changes).toContain("moved to");
    expect(negationCues("The team deploys from main.").changes).toEqual([]);
  });
});

describe("effectDirection", () => {
  it("reads increases and decreases", () => {
    expect(effectDirection("Conversion increased.")).toBeGreaterThan(0);
    expect(effectDirection("Engineers merged 18% fewer pull requests.")).toBeLessThan(0);
  });

  it("reads a from-to pair of numbers", () => {
    expect(effectDirection("Median load went from 1.8 s to 0.6 s.")).toBeLessThan(0);
    expect(effectDirection("Signups went from 10 to 30 a day.")).toBeGreaterThan(0);
  });

  it("flips on a negative-valence noun unless it is remedied", () => {
    expect(effectDirection("The audit found a higher rate of unpatched vulnerabilities.")).toBeLessThan(0);
    expect(effectDirection("They patched vulnerabilities faster.")).toBeGreaterThan(0);
  });
});

describe("antonymConflicts", () => {
  it("finds table antonyms and prefix negations", () => {
    expect(antonymConflicts("The package is insecure.", "The package is secure.")).toEqual(["secure/insecure"]);
    expect(antonymConflicts("The build is unstable.", "The build is stable.")).toContain("stable/unstable");
    expect(antonymConflicts("Backups are unavailable.", "Backups are available.")).toContain("available/unavailable");
  });

  it("finds nothing when the evidence repeats the belief word", () => {
    expect(antonymConflicts("Secure, not insecure.", "The package is secure.")).toEqual([]);
  });
});
