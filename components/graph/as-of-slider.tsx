"use client";

import { useEffect, useState } from "react";
import type { TimelineChange } from "@/lib/actions/graph-actions";
import { changeIndexAt, dayTicks } from "./timeline";
import { formatUtc } from "@/components/ui/format-time";
import { Time } from "@/components/ui/time";

/**
 * Time travel through the scope's history: the slider's stops are its change-sets, from the first to the last
 * (which is the present view), with date ticks, step buttons and play. The thumb moves freely; the view follows when
 * it rests (400 ms), so dragging does not queue a replay per stop.
 */
export function AsOfSlider({ changes, asOf, onChange }: { changes: readonly TimelineChange[]; asOf: string | undefined; onChange(asOf: string | undefined): void }) {
  const last = changes.length - 1;
  const committed = asOf ? changeIndexAt(changes, asOf) : last;
  // null: the thumb follows the URL; a number: the user moved it there and the view follows once it rests.
  const [moved, setMoved] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const index = moved ?? committed;
  useEffect(() => setMoved(null), [committed]);
  useEffect(
    function commitWhenResting() {
      if (moved === null || moved === committed || moved < 0 || moved > last) return;
      const time = moved >= last ? undefined : changes[moved]?.time;
      const timer = setTimeout(() => onChange(time), playing ? 0 : 400);
      return () => clearTimeout(timer);
    },
    [moved, committed, onChange, playing, changes, last],
  );
  const step = (delta: number) => setMoved(Math.max(0, Math.min(last, index + delta)));
  useEffect(
    function play() {
      if (!playing) return;
      if (index >= last) {
        setPlaying(false);
        return;
      }
      const timer = setTimeout(() => setMoved(Math.min(last, index + 1)), 1_200);
      return () => clearTimeout(timer);
    },
    [playing, index, last],
  );
  if (changes.length === 0) {
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="graph-as-of">
        No history yet: time travel starts with the first write.
      </p>
    );
  }
  const first = changes[0]!;
  const end = changes[last]!;
  const at = changes[Math.max(0, Math.min(last, index))]!;
  const shown = index >= last && !asOf ? `now (last change ${formatUtc(end.time)})` : asOf && index === committed ? formatUtc(asOf) : formatUtc(at.time);
  const ticks = dayTicks(changes);
  const button = "rounded border border-zinc-300 px-2 py-0.5 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800";
  return (
    <div className="space-y-1 text-sm" data-testid="graph-as-of">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="graph-as-of" className="font-semibold">As of</label>
        <button type="button" className={button} onClick={() => step(-1)} disabled={index <= 0} aria-label="Previous change">◀</button>
        <button
          type="button"
          className={button}
          onClick={() => {
            if (!playing && index >= last) setMoved(0);
            setPlaying((p) => !p);
          }}
          disabled={last <= 0}
          aria-pressed={playing}
          data-testid="graph-as-of-play"
        >
          {playing ? "Pause" : index >= last ? "Replay" : "Play"}
        </button>
        <button type="button" className={button} onClick={() => step(1)} disabled={index >= last} aria-label="Next change">▶</button>
        <output htmlFor="graph-as-of" className="tabular-nums" data-testid="graph-as-of-value">{shown}</output>
        <span className="text-zinc-600 dark:text-zinc-400">· change {Math.min(index, last) + 1} of {changes.length}{at.beliefs > 0 ? `, ${at.beliefs} belief${at.beliefs === 1 ? "" : "s"} touched` : ""}</span>
        {asOf ? (
          <button type="button" className="text-sky-700 hover:underline dark:text-sky-400" onClick={() => onChange(undefined)}>Back to now</button>
        ) : null}
      </div>
      <div className="relative pb-5">
        <input
          id="graph-as-of"
          type="range"
          min={0}
          max={last}
          value={Math.max(0, Math.min(last, index))}
          onChange={(e) => {
            setPlaying(false);
            setMoved(Number(e.target.value));
          }}
          className="w-full accent-sky-700"
          aria-valuetext={shown}
          disabled={last === 0}
        />
        <div aria-hidden className="absolute inset-x-0 top-6 h-4 text-xs text-zinc-600 dark:text-zinc-400">
          {ticks.map((t) => (
            // The first and last labels are anchored inside the track (a centred first label is clipped on a phone).
            <span
              key={t.index}
              className={`absolute whitespace-nowrap ${t.index === 0 ? "" : t.index === last ? "-translate-x-full" : "-translate-x-1/2"}`}
              style={{ left: `calc(${last === 0 ? 0 : (t.index / last) * 100}% * 0.97 + 1.5%)` }}
            >
              {t.label}
            </span>
          ))}
        </div>
      </div>
      <p className="sr-only">
        History from <Time at={first.time} testId="graph-as-of-first" /> to <Time at={end.time} testId="graph-as-of-last" />
      </p>
    </div>
  );
}
