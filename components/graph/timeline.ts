/** Pure helpers for the time slider over a scope's change-sets (ordered by time). */

import { formatUtc } from "@/components/ui/format-time";

export interface TimePoint {
  time: string;
}

/** The last change at or before `asOf` (0 when `asOf` precedes them all). */
export function changeIndexAt(changes: readonly TimePoint[], asOf: string): number {
  const t = Date.parse(asOf);
  let found = 0;
  for (let i = 0; i < changes.length; i++) {
    if (Date.parse(changes[i]!.time) <= t) found = i;
    else break;
  }
  return found;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Date ticks: the first change of each UTC day ("16 Nov"), thinned to at most `max` evenly spread ones; the first and
 * the last day are always kept.
 */
export function dayTicks(changes: readonly TimePoint[], max = 8): { index: number; label: string }[] {
  const days: { index: number; label: string }[] = [];
  let previous = "";
  changes.forEach((c, index) => {
    const d = new Date(Date.parse(c.time));
    const day = d.toISOString().slice(0, 10);
    if (day !== previous) days.push({ index, label: `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}` });
    previous = day;
  });
  if (days.length <= max) return days;
  const step = (days.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => days[Math.round(i * step)]!);
}

/**
 * Times as a reader picks between them: one per minute shown (`formatUtc`), the latest of each, in order. Several
 * change-sets written within a minute would otherwise list the same label several times.
 */
export function distinctMinutes(times: readonly string[]): string[] {
  const byLabel = new Map<string, string>();
  for (const t of times) {
    const label = formatUtc(t);
    const kept = byLabel.get(label);
    if (kept === undefined || Date.parse(t) > Date.parse(kept)) byLabel.set(label, t);
  }
  return [...byLabel.values()].sort((a, b) => Date.parse(a) - Date.parse(b));
}
