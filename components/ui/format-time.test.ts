import { describe, expect, it } from "vitest";
import { formatUtc, relativeTime } from "./format-time";

describe("formatUtc", () => {
  it("writes the minute in UTC with the zone, whatever the input's offset", () => {
    expect(formatUtc("2026-12-05T14:03:59.999Z")).toBe("2026-12-05 14:03 UTC");
    expect(formatUtc("2026-12-05T15:03:00+01:00")).toBe("2026-12-05 14:03 UTC");
    expect(formatUtc(new Date(Date.UTC(2027, 0, 1, 0, 0)))).toBe("2027-01-01 00:00 UTC");
    expect(formatUtc(Date.UTC(2026, 1, 28, 23, 59, 30))).toBe("2026-02-28 23:59 UTC");
  });

  it("names an unreadable moment instead of throwing", () => {
    expect(formatUtc("not a date")).toBe("unknown time");
  });
});

describe("relativeTime", () => {
  const now = "2026-12-05T14:03:00Z";
  const before = (seconds: number) => new Date(Date.parse(now) - seconds * 1000).toISOString();

  it("says just now within 45 seconds, past or future", () => {
    expect(relativeTime(before(44), now)).toBe("just now");
    expect(relativeTime(before(-30), now)).toBe("just now");
  });

  it("uses the largest whole unit, rounded down", () => {
    expect(relativeTime(before(45), now)).toBe("1 minute ago");
    expect(relativeTime(before(3 * 3600 + 59 * 60), now)).toBe("3 hours ago");
    expect(relativeTime(before(119 * 60), now)).toBe("1 hour ago");
    expect(relativeTime(before(2 * 86400), now)).toBe("2 days ago");
    expect(relativeTime(before(15 * 86400), now)).toBe("2 weeks ago");
    expect(relativeTime(before(61 * 86400), now)).toBe("2 months ago");
    expect(relativeTime(before(800 * 86400), now)).toBe("2 years ago");
  });

  it("writes a future moment as in …", () => {
    expect(relativeTime(before(-2 * 3600), now)).toBe("in 2 hours");
  });
});
