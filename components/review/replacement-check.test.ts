import { describe, expect, it } from "vitest";
import { figuresLine, weakerBy, weakerWarning } from "./replacement-check";

const strong = { text: "The nightly export finishes by 03:00.", credence: 0.97, supportCount: 4 };
const weak = { text: "The nightly export finishes by 05:00.", credence: 0.59, supportCount: 1 };

describe("replacement check", () => {
  it("names each way a replacement is weaker: lower credence, fewer supporting entries", () => {
    expect(weakerBy(weak, strong)).toEqual(["its credence is 0.59 against 0.97", "it rests on 1 supporting entry against 4"]);
    expect(weakerWarning("supersede", weak, strong)).toBe("The replacement is weaker than the belief it replaces: its credence is 0.59 against 0.97, and it rests on 1 supporting entry against 4.");
    expect(weakerWarning("merge", { ...weak, supportCount: 4 }, strong)).toBe("The refinement is weaker than the belief it refines: its credence is 0.59 against 0.97.");
  });

  it("says nothing when the replacement is at least as strong, or differs only below what is shown", () => {
    expect(weakerWarning("supersede", strong, weak)).toBeNull();
    expect(weakerWarning("supersede", { ...strong, credence: 0.9701 }, { ...strong, credence: 0.9749 })).toBeNull();
    expect(weakerBy({ ...strong, supportCount: 5 }, strong)).toEqual([]);
  });

  it("lists a belief's figures with the entry count in words", () => {
    expect(figuresLine(strong)).toBe("credence 0.97, 4 supporting entries");
    expect(figuresLine(weak)).toBe("credence 0.59, 1 supporting entry");
  });
});
