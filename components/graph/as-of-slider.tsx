"use client";

import { useEffect, useState } from "react";

const STEPS = 200;

/**
 * "As of" time travel between the scope's creation and now. The thumb moves freely; the view re-fetches only when
 * it rests (400 ms), so dragging does not queue a replay per pixel. The far right means "now" (no asOf).
 */
export function AsOfSlider({ from, to, asOf, onChange }: { from: string; to: string; asOf: string | undefined; onChange(asOf: string | undefined): void }) {
  const start = Date.parse(from);
  const end = Math.max(Date.parse(to), start + 60_000);
  const toStep = (iso: string | undefined) => (iso ? Math.round(((Date.parse(iso) - start) / (end - start)) * STEPS) : STEPS);
  const [step, setStep] = useState(() => toStep(asOf));
  const asOfStep = toStep(asOf);
  useEffect(() => setStep(asOfStep), [asOfStep]);
  useEffect(
    function commitWhenResting() {
      if (step === asOfStep) return;
      const timer = setTimeout(() => onChange(step >= STEPS ? undefined : new Date(start + ((end - start) * step) / STEPS).toISOString()), 400);
      return () => clearTimeout(timer);
    },
    [step, asOfStep, start, end, onChange],
  );
  const format = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
  // While the thumb rests where the URL put it, show the URL's exact time (it may lie outside the slider's range).
  const shown = step >= STEPS ? "now" : asOf && step === asOfStep ? format(Date.parse(asOf)) : format(start + ((end - start) * step) / STEPS);
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="graph-as-of">
      <label htmlFor="graph-as-of" className="font-semibold">As of</label>
      <input
        id="graph-as-of"
        type="range"
        min={0}
        max={STEPS}
        value={Math.max(0, Math.min(STEPS, step))}
        onChange={(e) => setStep(Number(e.target.value))}
        className="min-w-48 flex-1 accent-sky-700"
        aria-valuetext={shown}
      />
      <output htmlFor="graph-as-of" className="w-40 tabular-nums" data-testid="graph-as-of-value">{shown}</output>
      {asOf ? (
        <button type="button" className="text-sky-700 hover:underline dark:text-sky-400" onClick={() => onChange(undefined)}>Back to now</button>
      ) : null}
    </div>
  );
}
