import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BELIEF_STATUSES, EDGE_KINDS } from "@/lib/engine/model";
import { activePreset, applyPreset, elementFiltersOf, EMPTY_VIEW, GRAPH_PRESETS, graphViewSearchParams, hasFilters, parseGraphViewParams, withoutFilters, type GraphViewParams } from "./graph-view-params";

const parse = (query: string) => parseGraphViewParams(new URLSearchParams(query));

describe("graph view ⇄ URL", () => {
  it("reads the REST endpoint's parameter names", () => {
    const view = parse("status=disputed,supported&minTension=0.5&edgeTypes=REBUTS&edgeTypes=SUPPORTS&topic=deploy&text=main%20branch&asOf=2026-01-02T03:04:05.000Z&nodeId=b1&expand=b2,b3&node=b2");
    expect(view).toEqual({
      statuses: ["disputed", "supported"],
      edgeTypes: ["REBUTS", "SUPPORTS"],
      minTension: 0.5,
      topic: "deploy",
      text: "main branch",
      asOf: "2026-01-02T03:04:05.000Z",
      nodeId: "b1",
      expand: ["b2", "b3"],
      node: "b2",
    });
    expect(elementFiltersOf(view)).toEqual({ statuses: ["disputed", "supported"], edgeTypes: ["REBUTS", "SUPPORTS"], minTension: 0.5, topic: "deploy", text: "main branch" });
  });

  it("drops malformed values instead of failing", () => {
    expect(parse("status=bogus&minCredence=2&maxTension=abc&asOf=yesterday&edgeTypes=LIKES&topic=%20")).toEqual(EMPTY_VIEW);
  });

  it("writes a minimal canonical query", () => {
    expect(graphViewSearchParams(EMPTY_VIEW).toString()).toBe("");
    const view: GraphViewParams = { ...EMPTY_VIEW, statuses: ["supported", "disputed"], maxCredence: 0.3 };
    expect(graphViewSearchParams(view).toString()).toBe("status=supported%2Cdisputed&maxCredence=0.3");
  });

  it("round-trips any view through the URL", () => {
    const unit = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined });
    const word = fc.option(fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() === s && s.length > 0 && !s.includes(",")), { nil: undefined });
    const arbitrary = fc.record({
      statuses: fc.uniqueArray(fc.constantFrom(...BELIEF_STATUSES)),
      edgeTypes: fc.uniqueArray(fc.constantFrom(...EDGE_KINDS)),
      minCredence: unit,
      maxTension: unit,
      topic: word,
      text: word,
      nodeId: word,
      expand: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 10 }).filter((s) => s.trim() === s && s.length > 0 && !s.includes(","))),
      asOf: fc.option(fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }).map((d) => d.toISOString()), { nil: undefined }),
    });
    fc.assert(
      fc.property(arbitrary, (raw) => {
        const view = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)) as unknown as GraphViewParams;
        const back = parseGraphViewParams(graphViewSearchParams(view));
        expect(back).toEqual({ ...view, statuses: BELIEF_STATUSES.filter((s) => view.statuses.includes(s)), edgeTypes: EDGE_KINDS.filter((k) => view.edgeTypes.includes(k)) });
      }),
    );
  });

  it("clears filters but keeps time, focus and selection", () => {
    const view = parse("status=disputed&text=x&asOf=2026-01-02T03:04:05.000Z&nodeId=a&node=b");
    expect(hasFilters(view)).toBe(true);
    const cleared = withoutFilters(view);
    expect(hasFilters(cleared)).toBe(false);
    expect(graphViewSearchParams(cleared).toString()).toBe("asOf=2026-01-02T03%3A04%3A05.000Z&nodeId=a&node=b");
  });
});

describe("presets", () => {
  it("applies one filter per preset, keeps what is looked at, and recognises itself", () => {
    const base: GraphViewParams = { ...EMPTY_VIEW, topic: "x", asOf: "2026-01-02T00:00:00.000Z", node: "b1" };
    for (const { id } of GRAPH_PRESETS) {
      const view = applyPreset(base, id, "2026-12-01T00:00:00.000Z");
      expect(view.topic).toBeUndefined();
      expect(view.asOf).toBe(base.asOf);
      expect(view.node).toBe("b1");
      expect(activePreset(view)).toBe(id);
      expect(activePreset(parseGraphViewParams(graphViewSearchParams(view)))).toBe(id);
    }
    expect(applyPreset(EMPTY_VIEW, "recent", "2026-12-01T00:00:00.000Z").changedSince).toBe("2026-11-24T00:00:00.000Z");
    expect(applyPreset(EMPTY_VIEW, "contested", "2026-12-01T00:00:00.000Z").minTension).toBeLessThan(0.13);
    expect(activePreset(EMPTY_VIEW)).toBeNull();
  });
});
