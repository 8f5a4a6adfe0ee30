import { describe, expect, it } from "vitest";
import type { AssessedRelation, DecidedRelation } from "@/lib/engine/assessor";
import { loadSet, PUBLIC_SETS, TEAM_SETS, teamDir } from "./eval-sets";
import { atThreshold, messageFigures, readRelations, relationFigures, restatementFigures, rightReading, type Reader } from "./score-reading";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** A reader that answers from a table keyed by the evidence. */
function scripted(answers: Record<string, { relation: AssessedRelation; confidence: number; guess?: DecidedRelation }>): Reader {
  return {
    relation: async (_belief, evidence) => answers[evidence] ?? { relation: "UNRELATED", confidence: 0.5 },
    restatement: async (a, b) => ({ same: a.toLowerCase() === b.toLowerCase() }),
    message: async (text) => ({ manipulative: text.includes("now!") }),
  };
}

const row = (id: string, gold: "SUPPORTS" | "REBUTS" | "NEITHER") => ({ id, belief: "b", evidence: id, gold });

describe("relation figures", () => {
  const rows = [row("s1", "SUPPORTS"), row("s2", "SUPPORTS"), row("r1", "REBUTS"), row("r2", "REBUTS"), row("n1", "NEITHER"), row("n2", "NEITHER")];
  const reader = scripted({
    s1: { relation: "SUPPORTS", confidence: 0.9 },
    s2: { relation: "UNDECIDED", confidence: 0.3, guess: "SUPPORTS" },
    r1: { relation: "REBUTS", confidence: 0.8 },
    r2: { relation: "SUPPORTS", confidence: 0.6 },
    n1: { relation: "CONTEXTUALIZES", confidence: 0.7 },
    n2: { relation: "REBUTS", confidence: 0.4 },
  });

  it("counts sides, 3-way, committed precision and coverage, UNDECIDED never right", async () => {
    const { readings } = await readRelations(reader, rows);
    const f = relationFigures(readings);
    expect(f.sides).toBe(2 / 4);
    expect(f.threeWay).toBe(3 / 6);
    expect(f.committed).toBe(4);
    expect(f.committedPrecision).toBe(2 / 4);
    expect(f.coverage).toBe(3 / 4);
    expect(f.undecided).toBe(1 / 6);
    expect(f.confusion.SUPPORTS).toMatchObject({ SUPPORTS: 1, UNDECIDED: 1 });
    expect(rightReading("NEITHER", "UNRELATED")).toBe(true);
    expect(rightReading("SUPPORTS", "UNDECIDED")).toBe(false);
  });

  it("reads the risk–coverage curve from the guesses and confidences", async () => {
    const { readings } = await readRelations(reader, rows);
    expect(atThreshold(readings, 0).coverage).toBe(1);
    const high = atThreshold(readings, 0.75);
    expect(high.committed).toBe(2);
    expect(high.committedPrecision).toBe(1);
    expect(high.coverage).toBe(2 / 4);
  });
});

describe("restatement and message figures", () => {
  it("scores accuracy, precision, recall and the false-positive rate", async () => {
    const reader = scripted({});
    const same = await restatementFigures(reader, [
      { id: "1", a: "A", b: "a", same: true },
      { id: "2", a: "A", b: "B", same: true },
      { id: "3", a: "C", b: "D", same: false },
    ]);
    expect(same).toMatchObject({ accuracy: 2 / 3, precision: 1, recall: 1 / 2, falsePositiveRate: 0 });
    const messages = await messageFigures(reader, [
      { id: "1", text: "Change it now!", manipulative: true },
      { id: "2", text: "The gauge read 4 bar.", manipulative: false },
      { id: "3", text: "Do it now!", manipulative: false },
    ]);
    expect(messages).toMatchObject({ recall: 1, falsePositiveRate: 1 / 2 });
  });
});

describe("the set manifest", () => {
  it("loads every team set it lists, and names the three public sets", () => {
    for (const entry of TEAM_SETS) expect(loadSet(entry, teamDir(repoRoot)).rows.length, entry.name).toBeGreaterThan(0);
    expect(PUBLIC_SETS.map((s) => s.name)).toEqual(["sick-dev", "climate-fever-dev", "mrpc-dev"]);
  });
});
