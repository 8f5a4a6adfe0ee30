/** `unionByRank`: the candidates of several rankings, rank by rank, each once. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unionByRank } from "./hybrid-search";

describe("unionByRank", () => {
  it("takes every ranking's first, then every ranking's second, and keeps a belief at its best rank", () => {
    expect(unionByRank([["a", "b", "c"], ["d", "a"], []])).toEqual(["a", "d", "b", "c"]);
    expect(unionByRank([])).toEqual([]);
  });

  it("holds every id of every ranking once, ordered by the best rank it has anywhere (property)", () => {
    const rankingOf = fc.uniqueArray(fc.constantFrom(..."abcdefghij"), { maxLength: 10 });
    fc.assert(
      fc.property(fc.array(rankingOf, { maxLength: 5 }), (rankings) => {
        const union = unionByRank(rankings);
        const all = new Set(rankings.flat());
        expect(new Set(union)).toEqual(all);
        expect(union).toHaveLength(all.size);
        const best = (id: string) => Math.min(...rankings.map((r) => (r.includes(id) ? r.indexOf(id) : Infinity)));
        for (let i = 1; i < union.length; i++) expect(best(union[i - 1] as string)).toBeLessThanOrEqual(best(union[i] as string));
      }),
    );
  });
});
