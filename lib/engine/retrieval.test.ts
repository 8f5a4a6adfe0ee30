import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isLiveCandidate, lexicalSimilarity, relevanceScorer, retrieve, stem, tokenize, type RetrievalCandidate } from "./retrieval";

const belief = (id: string, text: string, credence: number, extra: Partial<RetrievalCandidate> = {}): RetrievalCandidate => ({
  id,
  scope: "s1",
  text,
  credence,
  status: "provisional",
  ...extra,
});

describe("tokenize and similarity", () => {
  it("stems inflections alike and drops stopwords and negations", () => {
    expect(tokenize("The team deploys; deployed; deploying")).toEqual(["team", "deploy", "deploy", "deploy"]);
    expect(tokenize("Pushing to main doesn't ship anything")).toEqual(["push", "main", "ship", "anything"]);
    expect(stem("policies")).toBe("policy");
    expect(stem("status")).toBe("status");
  });

  it("lexicalSimilarity is symmetric, in [0,1] and 1 on identical term sets (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const s = lexicalSimilarity(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(lexicalSimilarity(b, a)).toBe(s);
      }),
      { numRuns: 300 },
    );
    expect(lexicalSimilarity("We deploy from main", "we deployed from Main!")).toBe(1);
  });
});

describe("relevanceScorer", () => {
  it("prefers rarer query terms and more focused texts, within [0,1]", () => {
    const corpus = ["deploy branch release", "deploy pipeline docs", "deploy the cafe menu today for everyone now", "deploy release"];
    const s = relevanceScorer("which branch do we deploy from", corpus);
    expect(s.score("deploy branch release")).toBeGreaterThan(s.score("deploy pipeline docs"));
    expect(s.score("deploy release")).toBeGreaterThan(s.score("deploy the cafe menu today for everyone now"));
    expect(s.score("unrelated words entirely")).toBe(0);
    for (const text of corpus) expect(s.score(text)).toBeLessThanOrEqual(1);
  });
});

describe("retrieve", () => {
  it("ranks by relevance × credence and truncates to k", () => {
    const out = retrieve(
      "deploy branch",
      [belief("a", "We deploy from the release branch", 0.9), belief("b", "We deploy from the main branch", 0.3), belief("c", "Lunch is at noon", 0.99)],
      { k: 2 },
    );
    expect(out.map((r) => r.belief.id)).toEqual(["a", "b"]);
    expect(out[0]?.score).toBeCloseTo((out[0]?.relevance ?? 0) * 0.9, 12);
  });

  it("filters liveness, scope, credence, status, topic and tags before truncation", () => {
    const cands = [
      belief("ended", "deploy branch", 0.9, { status: "superseded" }),
      belief("closed", "deploy branch", 0.9, { validUntil: "2026-01-01T00:00:00Z" }),
      belief("other", "deploy branch", 0.9, { scope: "s2" }),
      belief("weak", "deploy branch", 0.2),
      belief("tagged", "deploy branch notes", 0.8, { topic: "deploy", contextTags: ["prod", "repo"] }),
    ];
    expect(retrieve("deploy branch", cands, { scope: "s1", minCredence: 0.5 }).map((r) => r.belief.id)).toEqual(["tagged"]);
    expect(retrieve("deploy branch", cands, { contextTags: ["prod"], topic: "deploy" }).map((r) => r.belief.id)).toEqual(["tagged"]);
    expect(retrieve("deploy branch", cands, { statuses: ["superseded"], includeEnded: true }).map((r) => r.belief.id)).toEqual(["ended"]);
    expect(retrieve("deploy branch", cands, { asOf: "2025-12-31T00:00:00Z", scope: "s1", minCredence: 0.85 }).map((r) => r.belief.id)).toEqual(["closed"]);
  });

  it("isLiveCandidate ends a belief at its validUntil", () => {
    expect(isLiveCandidate({ status: "supported", validUntil: "2026-01-01T00:00:00Z" }, "2026-01-01T00:00:00Z")).toBe(false);
    expect(isLiveCandidate({ status: "supported", validUntil: null })).toBe(true);
    expect(isLiveCandidate({ status: "contracted" })).toBe(false);
  });

  it("1 000 better-matching non-qualifying items still return the one qualifying belief (property)", () => {
    const reason = fc.constantFrom<"scope" | "credence" | "status" | "ended">("scope", "credence", "status", "ended");
    fc.assert(
      fc.property(fc.array(reason, { minLength: 1000, maxLength: 1000 }), fc.double({ min: 0.5, max: 1, noNaN: true }), fc.nat(1000), (reasons, credence, at) => {
        const noise = reasons.map((r, i) =>
          belief(`n${i}`, "which branch do we deploy from release main", 1, {
            ...(r === "scope" ? { scope: "other" } : {}),
            ...(r === "credence" ? { credence: 0.1 } : {}),
            ...(r === "status" ? { status: "superseded" } : {}),
            ...(r === "ended" ? { validUntil: "2020-01-01T00:00:00Z" } : {}),
          }),
        );
        const target = belief("target", "we deploy from release", credence);
        const candidates = [...noise.slice(0, at), target, ...noise.slice(at)];
        const out = retrieve("which branch do we deploy from", candidates, { k: 1, scope: "s1", minCredence: 0.4, asOf: "2026-06-01T00:00:00Z" });
        expect(out.map((r) => r.belief.id)).toEqual(["target"]);
      }),
      { numRuns: 100 },
    );
  });

  it("is independent of candidate order (property)", () => {
    const cand = fc.record({ id: fc.uuid(), text: fc.constantFrom("deploy main", "deploy release branch", "branch policy", "cafe"), credence: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(fc.uniqueArray(cand, { selector: (c) => c.id, maxLength: 30 }), (cs) => {
        const bs = cs.map((c) => belief(c.id, c.text, c.credence));
        const a = retrieve("deploy branch", bs, { k: 5 }).map((r) => r.belief.id);
        const b = retrieve("deploy branch", [...bs].reverse(), { k: 5 }).map((r) => r.belief.id);
        expect(b).toEqual(a);
      }),
      { numRuns: 200 },
    );
  });
});
