import { describe, expect, it } from "vitest";
import { stabilityByTopic } from "./stability-by-topic";

describe("stabilityByTopic", () => {
  it("groups flags per topic, most severe first, ignoring unflagged mutations", () => {
    const result = stabilityByTopic([
      { topic: "rate limit", flags: ["drift_warning"], time: "2026-01-05T00:00:00.000Z" },
      { topic: "rate limit", flags: ["drift_warning"], time: "2026-01-06T00:00:00.000Z" },
      { topic: "backups", flags: ["architectural_review"], time: "2026-01-01T00:00:00.000Z" },
      { topic: "backups", flags: ["drift_warning", "oscillation_hard_stop"], time: "2026-01-02T00:00:00.000Z" },
      { topic: "quiet", flags: [], time: "2026-01-07T00:00:00.000Z" },
    ]);
    expect(result).toEqual([
      { topic: "backups", flags: ["oscillation_hard_stop", "architectural_review", "drift_warning"], flagged: 2, lastFlaggedAt: "2026-01-02T00:00:00.000Z" },
      { topic: "rate limit", flags: ["drift_warning"], flagged: 2, lastFlaggedAt: "2026-01-06T00:00:00.000Z" },
    ]);
  });

  it("drops a hard stop once its topic's freeze is lifted, keeping the topic's other warnings", () => {
    const journal = [
      { topic: "backups", flags: ["drift_warning", "oscillation_hard_stop"] as const, time: "2026-01-02T00:00:00.000Z" },
      { topic: "cache", flags: ["oscillation_hard_stop"] as const, time: "2026-01-03T00:00:00.000Z" },
    ].map((m) => ({ ...m, flags: [...m.flags] }));
    expect(stabilityByTopic(journal, new Set(["cache"]))).toEqual([
      { topic: "cache", flags: ["oscillation_hard_stop"], flagged: 1, lastFlaggedAt: "2026-01-03T00:00:00.000Z" },
      { topic: "backups", flags: ["drift_warning"], flagged: 1, lastFlaggedAt: "2026-01-02T00:00:00.000Z" },
    ]);
    expect(stabilityByTopic(journal, new Set())).toEqual([{ topic: "backups", flags: ["drift_warning"], flagged: 1, lastFlaggedAt: "2026-01-02T00:00:00.000Z" }]);
  });

  it("is empty for a quiet journal", () => {
    expect(stabilityByTopic([])).toEqual([]);
  });
});
