/**
 * The one way the interface writes a moment: absolute, in UTC, to the minute, with the zone ("2026-12-05 14:03 UTC"),
 * so every reader sees the same text whatever their locale or clock. The relative form ("3 hours ago") is a hint shown
 * on hover, computed against a clock the caller passes (the browser's, after it has mounted).
 */

/** A moment as ISO text, a Date or epoch milliseconds. */
export type Moment = string | Date | number;

function epochOf(at: Moment): number {
  return typeof at === "number" ? at : typeof at === "string" ? Date.parse(at) : at.getTime();
}

/** "2026-12-05 14:03 UTC"; an unreadable moment gives "unknown time" rather than throwing inside a render. */
export function formatUtc(at: Moment): string {
  const t = epochOf(at);
  if (!Number.isFinite(t)) return "unknown time";
  return `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "always" });

/**
 * "3 hours ago", "in 2 days", or "just now" within 45 seconds either way. The largest whole unit is used, rounded
 * down (1 h 59 min is "1 hour ago"), so the hint never claims more time than has passed.
 */
export function relativeTime(at: Moment, now: Moment): string {
  const t = epochOf(at);
  const n = epochOf(now);
  if (!Number.isFinite(t) || !Number.isFinite(n)) return "unknown time";
  const seconds = (t - n) / 1000;
  const size = Math.abs(seconds);
  if (size < 45) return "just now";
  for (const [unit, length] of UNITS) {
    if (size >= length) return relative.format(Math.sign(seconds) * Math.floor(size / length), unit);
  }
  return relative.format(Math.sign(seconds), "minute");
}
