import { describe, expect, it } from "vitest";
import { changeIndexAt, dayTicks, distinctMinutes } from "./timeline";
import { formatUtc } from "@/components/ui/format-time";

const changes = ["2026-11-16T09:00:00.000Z", "2026-11-16T15:00:00.000Z", "2026-11-18T10:00:00.000Z", "2026-12-01T08:30:00.000Z"].map((time) => ({ time }));

describe("timeline", () => {
  it("finds the last change at or before a time", () => {
    expect(changeIndexAt(changes, "2000-01-01T00:00:00Z")).toBe(0);
    expect(changeIndexAt(changes, "2026-11-16T15:00:00.000Z")).toBe(1);
    expect(changeIndexAt(changes, "2026-11-20T00:00:00Z")).toBe(2);
    expect(changeIndexAt(changes, "2030-01-01T00:00:00Z")).toBe(3);
  });

  it("ticks the first change of each day, thinned but keeping both ends", () => {
    expect(dayTicks(changes)).toEqual([
      { index: 0, label: "16 Nov" },
      { index: 2, label: "18 Nov" },
      { index: 3, label: "1 Dec" },
    ]);
    const many = Array.from({ length: 30 }, (_, i) => ({ time: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() }));
    const ticks = dayTicks(many, 5);
    expect(ticks).toHaveLength(5);
    expect(ticks[0]).toEqual({ index: 0, label: "1 Jan" });
    expect(ticks[4]).toEqual({ index: 29, label: "30 Jan" });
  });

  it("formats in UTC to the minute", () => {
    expect(formatUtc("2026-11-16T09:05:59.999Z")).toBe("2026-11-16 09:05 UTC");
  });

  it("offers one time per minute shown, the latest of each, in order", () => {
    const times = ["2026-11-16T09:00:05.000Z", "2026-11-16T09:00:41.000Z", "2026-11-16T09:00:12.000Z", "2026-11-16T09:01:00.000Z", "2026-11-16T09:00:59.999Z"];
    const kept = distinctMinutes(times);
    expect(kept).toEqual(["2026-11-16T09:00:59.999Z", "2026-11-16T09:01:00.000Z"]);
    expect(new Set(kept.map(formatUtc)).size).toBe(kept.length);
    expect(distinctMinutes([])).toEqual([]);
  });
});
