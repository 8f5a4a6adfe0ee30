import { describe, expect, it } from "vitest";
import { compareQuantifiers, compareQuantities, numericQuantities } from "./numeric-cues";

describe("numericQuantities", () => {
  it("reads numbers with their unit, clock times and percentages", () => {
    expect(numericQuantities("The limit is 1,000 requests at 2 a.m. for 40% of users")).toEqual([
      { value: 120, unit: "time" },
      { value: 1000, unit: "request" },
      { value: 40, unit: "%" },
    ]);
    expect(numericQuantities("at 02:00 and 14:30")).toEqual([
      { value: 120, unit: "time" },
      { value: 870, unit: "time" },
    ]);
    expect(numericQuantities("3.2x faster")).toEqual([{ value: 3.2, unit: "x" }]);
  });

  it("reads number words with a unit and skips years", () => {
    expect(numericQuantities("five minutes in 2024")).toEqual([{ value: 5, unit: "minut" }]);
  });

  it("keeps a bound stated before the number", () => {
    expect(numericQuantities("within five minutes, after 8 a.m., at noon")).toEqual([
      { value: 480, unit: "time", bound: ">" },
      { value: 720, unit: "time" },
      { value: 5, unit: "minut", bound: "<" },
    ]);
  });
});

describe("compareQuantities", () => {
  it("matches the same quantity in another notation", () => {
    const c = compareQuantities("a snapshot at 02:00 each day", "Backups run at 2 a.m.");
    expect(c.matches).toEqual([{ value: 120, unit: "time" }]);
    expect(c.conflicts).toEqual([]);
  });

  it("finds a conflicting value of the same unit", () => {
    const c = compareQuantities("the limit is 1000 requests per minute", "The limit is 100 requests per minute.");
    expect(c.conflicts).toHaveLength(1);
    expect(c.matches).toEqual([]);
  });

  it("checks a value against a bound and a bound against a bound", () => {
    expect(compareQuantities("the run ends around 4:30", "The job finishes before 6 a.m.").matches).toHaveLength(1);
    expect(compareQuantities("the run regularly ends after 8 a.m.", "The job finishes before 6 a.m.").conflicts).toHaveLength(1);
    expect(compareQuantities("it loads in 1.2 seconds", "It loads in under two seconds.").matches).toHaveLength(1);
    expect(compareQuantities("it loads in under 3 seconds", "It loads in under two seconds.")).toEqual({ matches: [], conflicts: [] });
  });

  it("ignores quantities of other units", () => {
    const c = compareQuantities("the job took 30 seconds", "The limit is 100 requests per minute.");
    expect(c).toEqual({ matches: [], conflicts: [] });
  });
});

describe("compareQuantifiers", () => {
  it("finds a counterexample to a universal claim", () => {
    expect(compareQuantifiers("Not all deploys use main.", "All deploys use main.").counterexample).toBe(true);
  });

  it("finds a narrowing of a universal claim", () => {
    expect(compareQuantifiers("Deploys mostly use main.", "Every deploy uses main.")).toEqual({ counterexample: false, narrowing: true });
    expect(compareQuantifiers("Deploys mostly use main.", "Deploys usually use main.").narrowing).toBe(false);
  });
});
