import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { extractQuantity, harvest, splitSentences, withoutFraming } from "./harvest";

describe("splitSentences", () => {
  it("keeps abbreviations, initials and decimals inside one sentence", () => {
    expect(splitSentences("Dr. Smith measured a p-value of 0.05. J. Doe agreed, e.g. in the review. It costs $3.50 per unit.")).toEqual([
      "Dr. Smith measured a p-value of 0.05.",
      "J. Doe agreed, e.g. in the review.",
      "It costs $3.50 per unit.",
    ]);
  });

  it("keeps a quoted multi-sentence statement with the sentence that quotes it", () => {
    expect(splitSentences('He said "Deploy now. Please." We did not.')).toEqual(['He said "Deploy now. Please."', "We did not."]);
    expect(splitSentences("She wrote: “It works. Really.” Then left.")).toEqual(["She wrote: “It works. Really.”", "Then left."]);
  });

  it("splits list items into claims and drops their markers", () => {
    const text = "Findings:\n- Deploys go from release.\n- Main never ships\n1. Tests run on CI.\n2) Reviews are required.";
    expect(splitSentences(text)).toEqual([
      "Findings:",
      "Deploys go from release.",
      "Main never ships",
      "Tests run on CI.",
      "Reviews are required.",
    ]);
  });

  it("keeps a leading initial and lettered list items apart", () => {
    expect(splitSentences("A. Smith wrote it.\na) First point.\n(b) Second point.")).toEqual(["A. Smith wrote it.", "First point.", "Second point."]);
  });

  it("re-joins hard-wrapped lines and separates paragraphs", () => {
    expect(splitSentences("The team deploys\nfrom the release branch. Pushing to main\nships nothing.\n\nNew paragraph here.")).toEqual([
      "The team deploys from the release branch.",
      "Pushing to main ships nothing.",
      "New paragraph here.",
    ]);
  });

  it("handles question marks, exclamations and ellipses", () => {
    expect(splitSentences("Version 3.2 is out! Is it stable? Yes... mostly.")).toEqual(["Version 3.2 is out!", "Is it stable?", "Yes... mostly."]);
  });

  it("never loses or invents letters (property)", () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,8}$/);
    const sentence = fc.tuple(fc.array(word, { minLength: 1, maxLength: 6 }), fc.constantFrom(".", "!", "?")).map(([w, p]) => w.join(" ") + p);
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 8 }), (sentences) => {
        const text = sentences.join(" ");
        const letters = (s: string) => s.replace(/[^A-Za-z]/g, "");
        expect(letters(splitSentences(text).join(""))).toBe(letters(text));
        expect(harvest(text, { name: "m" }, { minLetters: 0 }).length).toBe(splitSentences(text).length);
      }),
      { numRuns: 300 },
    );
  });
});

describe("extractQuantity", () => {
  it.each([
    ["Open-source projects patched vulnerabilities 3.2x faster.", { value: 3.2, unit: "x" }],
    ["A 2024 study of 500 CVEs found it.", { value: 500, unit: "CVEs" }],
    ["Error rate fell to 45% last week.", { value: 45, unit: "%" }],
    ["The cooling window is 10 min long.", { value: 10, unit: "min" }],
    ["It costs $3.50 per unit.", { value: 3.5, unit: "USD" }],
    ["We have 1,250 users.", { value: 1250, unit: "users" }],
    ["The threshold is 0.05.", { value: 0.05, unit: "" }],
    ["Latency is 2000 ms at p99.", { value: 2000, unit: "ms" }],
  ])("%s", (text, expected) => {
    expect(extractQuantity(text)).toEqual(expected);
  });

  it("ignores years and version strings", () => {
    expect(extractQuantity("In 2024 the team moved.")).toBeUndefined();
    expect(extractQuantity("Upgrade to 3.2.1 soon.")).toBeUndefined();
    expect(extractQuantity("No numbers here.")).toBeUndefined();
  });
});

describe("harvest", () => {
  it("stamps every claim with its producer, index, quantity and tier", () => {
    const claims = harvest("Deploys go from release. Tests take 12 min.", { name: "judge", model: "gpt-x", confidence: 0.8 });
    expect(claims).toEqual([
      { text: "Deploys go from release.", index: 0, producedBy: { name: "judge", kind: "model", model: "gpt-x", confidence: 0.8 }, tier: "model_assertion" },
      {
        text: "Tests take 12 min.",
        index: 1,
        producedBy: { name: "judge", kind: "model", model: "gpt-x", confidence: 0.8 },
        quantity: { value: 12, unit: "min" },
        tier: "model_assertion",
      },
    ]);
  });

  it("marks claims sourced when the producer names a source, drops fragments, respects the cap", () => {
    const claims = harvest("Ok. The main branch is protected. Release ships.", { name: "agent", kind: "agent", sourceId: "ev_1" }, { maxClaims: 1 });
    expect(claims.map((c) => [c.text, c.tier])).toEqual([["The main branch is protected.", "sourced"]]);
  });

  it("rejects an invalid producer", () => {
    expect(() => harvest("x", { name: "" })).toThrow();
    expect(() => harvest("x", { name: "m", confidence: 2 })).toThrow();
  });
});

describe("framing labels", () => {
  it("drops a short label before a colon, keeps times, short values and long leads", () => {
    expect(withoutFraming("Post-incident review, 28 November: deploys still go out from the protected release branch.")).toBe(
      "Deploys still go out from the protected release branch.",
    );
    expect(withoutFraming("Standup notes: the cache is warm again.")).toBe("The cache is warm again.");
    expect(withoutFraming("Yesterday's load test showed that the queue drains in under a minute.")).toBe("The queue drains in under a minute.");
    expect(withoutFraming("The vendor has confirmed that the licence covers both offices.")).toBe("The licence covers both offices.");
    expect(withoutFraming("A review of the billing code revealed that refunds are rounded down.")).toBe("Refunds are rounded down.");
    expect(withoutFraming("The facilities team says that the lift is serviced every March.")).toBe("The lift is serviced every March.");
    expect(withoutFraming("According to the on-call log, the pager fired twice on Tuesday.")).toBe("The pager fired twice on Tuesday.");
    expect(withoutFraming("Status update: the spring survey found that most desks face a window.")).toBe("Most desks face a window.");
    // Negated, doubting or hedged sources, long sources and short remainders keep the sentence whole.
    expect(withoutFraming("The audit did not find that the lift is serviced every March.")).toBe("The audit did not find that the lift is serviced every March.");
    expect(withoutFraming("Nobody has shown that the queue drains in under a minute.")).toBe("Nobody has shown that the queue drains in under a minute.");
    expect(withoutFraming("The benchmark suggests that the queue drains in under a minute.")).toBe("The benchmark suggests that the queue drains in under a minute.");
    expect(withoutFraming("The long and careful review by the three people from the platform and billing teams found that refunds are rounded down.")).toBe(
      "The long and careful review by the three people from the platform and billing teams found that refunds are rounded down.",
    );
    expect(withoutFraming("The test showed that it works.")).toBe("The test showed that it works.");
    expect(withoutFraming("The chart shows the queue draining in under a minute.")).toBe("The chart shows the queue draining in under a minute.");
    expect(withoutFraming("The rotation changes at 10:00 every Monday.")).toBe("The rotation changes at 10:00 every Monday.");
    expect(withoutFraming("Backups: hourly.")).toBe("Backups: hourly.");
    expect(withoutFraming("The survey refutes the rumour: rents went up in every district.")).toBe(
      "The survey refutes the rumour: rents went up in every district.",
    );
    expect(withoutFraming("After a long discussion with the whole platform team on Friday: we keep the cache.")).toBe(
      "After a long discussion with the whole platform team on Friday: we keep the cache.",
    );
    expect(harvest("Retro, 3 May: Lunch moves to noon. Tests pass.", { name: "gpt" }).map((c) => c.text)).toEqual(["Lunch moves to noon.", "Tests pass."]);
  });
});
