import { describe, expect, it } from "vitest";
import { relationSignals } from "./reader";

const belief = (text: string) => ({ id: "b", text });

describe("a negated bound clears a polarity flip only when the value falls inside the belief's bound", () => {
  it("keeps a denial when the only numeric agreement is a loose count in another noun", () => {
    const s = relationSignals("The museum is not open to the public; no more than 30 people work there.", belief("The museum is open to the public and admits at most 50 visitors."));
    expect(s.rebut.some((r) => r.startsWith("negation on the same clause"))).toBe(true);
  });

  it("reads a negated bound inside the belief's bound as no denial", () => {
    const s = relationSignals("The queue never held more than 35 jobs last month.", belief("The queue holds at most 40 jobs."));
    expect(s.rebut).toEqual([]);
  });
});
