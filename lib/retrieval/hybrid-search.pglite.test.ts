/**
 * The hybrid ranking's two sides on a real SQL store (PGlite): how many best lexical candidates it asks the store's
 * top-k for and how many nearest beliefs it asks the vector search for, by default and when the caller asks for fewer
 * (`lexicalCandidates`, `vectorCandidates`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LetterEmbedder } from "@/lib/embed/testing/letter-embedder";
import type { VectorSearchOptions } from "@/lib/graph/embeddings";
import type { GraphStore, TopKOptions } from "@/lib/graph/graph-store";
import { makePgliteHarness } from "@/lib/graph/sql/testing/sql-harness";
import type { GraphStoreHarness } from "@/lib/graph/testing/graph-store-contract";
import { LEXICAL_CANDIDATES, LEXICAL_CANDIDATES_MIN, rankHybrid, VECTOR_CANDIDATES, VECTOR_CANDIDATES_MIN } from "./hybrid-search";
import { SemanticMatcher } from "./semantic-matcher";

describe("hybrid ranking: the candidates asked of the store", () => {
  let h: GraphStoreHarness;
  /** The k of every searchTopK the real store answered. */
  const asked: number[] = [];
  /** The k of every vectorSearch the real store answered. */
  const nearest: number[] = [];
  let store: GraphStore;

  beforeAll(async () => {
    h = await makePgliteHarness();
    store = new Proxy(h.store, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if ((property !== "searchTopK" && property !== "vectorSearch") || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
        return (...args: unknown[]) => {
          if (property === "searchTopK") asked.push((args[2] as TopKOptions).k ?? -1);
          else nearest.push((args[2] as VectorSearchOptions).k);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const view = { homeScopeId: "s1", visibleScopeIds: ["s1"] };

  it("asks for 5 k lexical candidates by default (at least LEXICAL_CANDIDATES_MIN, at most LEXICAL_CANDIDATES unless k is more), and for the caller's number when given", async () => {
    const matcher = new SemanticMatcher(new LetterEmbedder());
    asked.length = 0;
    for (const k of [1, 10, 15, 50, 200]) await rankHybrid({ store, matcher }, view, "backups run hourly", { k, scope: "s1" });
    await rankHybrid({ store, matcher }, view, "backups run hourly", { k: 20, scope: "s1", lexicalCandidates: 30 });
    expect(asked).toEqual([LEXICAL_CANDIDATES_MIN, LEXICAL_CANDIDATES_MIN, 75, LEXICAL_CANDIDATES, 200, 30]);
  });

  it("asks the vector search for 10 k nearest by default (at least VECTOR_CANDIDATES_MIN, at most VECTOR_CANDIDATES), and for the caller's number when given", async () => {
    const matcher = new SemanticMatcher(new LetterEmbedder());
    nearest.length = 0;
    for (const k of [1, 10, 15, 20, 50]) await rankHybrid({ store, matcher }, view, "backups run hourly", { k, scope: "s1" });
    await rankHybrid({ store, matcher }, view, "backups run hourly", { k: 20, scope: "s1", vectorCandidates: 60 });
    expect(nearest).toEqual([VECTOR_CANDIDATES_MIN, VECTOR_CANDIDATES_MIN, 150, VECTOR_CANDIDATES, VECTOR_CANDIDATES, 60]);
  });
});
