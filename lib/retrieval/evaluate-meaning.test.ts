import { describe, expect, it } from "vitest";
import { RESTATEMENT_FLOOR, restatementBelowFloor } from "./evaluate-meaning";

describe("restatement floor", () => {
  it("names each held-out split under its floor, and none without an embedding model", () => {
    expect(restatementBelowFloor({ lines: [], restatement: {} })).toEqual([]);
    expect(restatementBelowFloor({ lines: [], restatement: { dev: 0.1, holdout: RESTATEMENT_FLOOR.holdout, holdout2: RESTATEMENT_FLOOR.holdout2 } })).toEqual([]);
    expect(restatementBelowFloor({ lines: [], restatement: { holdout: 0.5, holdout2: 0.99 } })).toEqual([`restatement holdout: accuracy must be ≥ ${RESTATEMENT_FLOOR.holdout * 100}%`]);
  });
});
