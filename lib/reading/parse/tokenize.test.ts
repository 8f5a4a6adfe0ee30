import { describe, expect, it } from "vitest";
import { contentStems, porterStem, stemWord, tokenize } from "./tokenize";

describe("porterStem", () => {
  it("matches Porter's published examples", () => {
    const golden: Record<string, string> = {
      caresses: "caress", ponies: "poni", cats: "cat", agreed: "agre", plastered: "plaster", motoring: "motor",
      hopping: "hop", filing: "file", happy: "happi", relational: "relat", conditional: "condit", rational: "ration",
      digitizer: "digit", generalization: "gener", hopefulness: "hope", electrical: "electr", adjustment: "adjust",
      controll: "control", roll: "roll", sky: "sky",
    };
    for (const [word, stem] of Object.entries(golden)) expect(porterStem(word), word).toBe(stem);
  });

  it("brings derivations of one word together", () => {
    expect(porterStem("productivity")).toBe(porterStem("productive"));
    expect(stemWord("deploys")).toBe(stemWord("deployment"));
    expect(stemWord("remotely")).toBe(stemWord("remote"));
  });

  it("lemmatises irregular forms", () => {
    expect(stemWord("written")).toBe("write");
    expect(stemWord("led")).toBe(stemWord("leads"));
    expect(stemWord("fell")).toBe("fall");
  });
});

describe("tokenize", () => {
  it("keeps clock times and decimals whole, drops possessives, splits hyphens", () => {
    expect(tokenize("Alice's job ran at 02:00, 1.8 s, on-call").map((t) => t.word)).toEqual([
      "alice", "job", "ran", "at", "02:00", "1.8", "s", "on", "call",
    ]);
  });

  it("content stems skip stop words and numbers", () => {
    expect([...contentStems("The team deploys to production from the main branch in 2024.")]).toEqual([
      "team", "deploi", "product", "main", "branch",
    ]);
  });
});
