import { describe, expect, it } from "vitest";
import { splitForIngest } from "./split-for-ingest";

describe("splitForIngest", () => {
  it("keeps short text whole and drops blank input", () => {
    expect(splitForIngest("  Deploys go from main.\n\nSecond paragraph.  ", 100)).toEqual(["Deploys go from main.\n\nSecond paragraph."]);
    expect(splitForIngest(" \n\n ", 100)).toEqual([]);
  });

  it("packs paragraphs greedily under the limit, in order", () => {
    const paras = ["a".repeat(40), "b".repeat(40), "c".repeat(40)];
    const parts = splitForIngest(paras.join("\n\n"), 90);
    expect(parts).toEqual([`${paras[0]}\n\n${paras[1]}`, paras[2]]);
  });

  it("cuts an over-long paragraph at sentence ends and never exceeds the limit", () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} says something.`).join(" ");
    const parts = splitForIngest(text, 120);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(120);
    expect(parts.join(" ").replace(/\s+/g, " ")).toBe(text);
  });

  it("cuts a sentence with no end mark at the limit", () => {
    const parts = splitForIngest("x".repeat(250), 100);
    expect(parts.map((p) => p.length)).toEqual([100, 100, 50]);
  });
});
