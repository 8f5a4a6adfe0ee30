import { describe, expect, it } from "vitest";
import type { Belief, Evidence } from "@/lib/engine";
import { diffSlices } from "./graph-diff";

const belief = (id: string, credence: number, tension = 0, status: Belief["status"] = "supported"): Belief => ({ id, credence, tension, status }) as unknown as Belief;
const evidence = (id: string, retractedAt: string | null = null): Evidence => ({ id, retractedAt }) as unknown as Evidence;

describe("diffSlices", () => {
  it("lists added, removed and moved beliefs and evidence registered or retracted in between", () => {
    const before = { beliefs: [belief("a", 0.5), belief("b", 0.8), belief("c", 0.6)], evidence: [evidence("e1"), evidence("e2")] };
    const after = { beliefs: [belief("a", 0.502), belief("b", 0.3, 0.4, "disputed"), belief("d", 0.7)], evidence: [evidence("e1", "2026-01-01T00:00:00Z"), evidence("e2"), evidence("e3")] };
    const diff = diffSlices(before, after);
    expect(diff.added.map((b) => b.id)).toEqual(["d"]);
    expect(diff.removed.map((b) => b.id)).toEqual(["c"]);
    expect(diff.changed.map((c) => [c.before.credence, c.after.credence, c.after.status])).toEqual([[0.8, 0.3, "disputed"]]);
    expect(diff.evidenceAdded.map((e) => e.id)).toEqual(["e3"]);
    expect(diff.evidenceRetracted.map((e) => e.id)).toEqual(["e1"]);
  });

  it("finds nothing between a slice and itself", () => {
    const slice = { beliefs: [belief("a", 0.5)], evidence: [evidence("e1")] };
    expect(diffSlices(slice, slice)).toEqual({ added: [], removed: [], changed: [], evidenceAdded: [], evidenceRetracted: [] });
  });
});
