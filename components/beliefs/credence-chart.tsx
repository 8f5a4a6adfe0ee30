import type { Checkpoint } from "@/lib/engine/replay";
import { formatUtc } from "@/components/ui/format-time";

export interface ChartEvent {
  time: string;
  seq: number;
  /** "support" and "rebut" are evidence entries; anything else (retracted, review, …) is an event. */
  kind: string;
  label: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Axis ticks over [t0, t1]: days when the span is over two days, else hours; at most ~6. */
export function timeTicks(t0: number, t1: number): { t: number; label: string }[] {
  const span = t1 - t0;
  if (span <= 0) return [{ t: t0, label: formatUtc(t0) }];
  const hour = 3_600_000;
  const day = 24 * hour;
  const steps = [hour, 3 * hour, 6 * hour, 12 * hour, day, 2 * day, 7 * day, 14 * day, 30 * day, 90 * day, 365 * day];
  const step = steps.find((s) => span / s <= 6) ?? 365 * day;
  const out: { t: number; label: string }[] = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    const d = new Date(t);
    out.push({ t, label: step >= day ? `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}` : `${d.toISOString().slice(11, 16)}` });
  }
  return out;
}

/**
 * Credence after each change-set, replayed from the history, on a real time axis (UTC ticks), with a marker per history
 * item in a lane below (green: support, orange: rebuttal, grey: events such as retractions). Each point and marker has
 * a tooltip; the same figures are in the history table below, for screen readers.
 */
export function CredenceChart({ timeline, events = [] }: { timeline: readonly Checkpoint[]; events?: readonly ChartEvent[] }) {
  if (timeline.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">No history yet.</p>;
  const width = 640;
  const height = 190;
  const left = 30;
  const right = 14;
  const top = 10;
  const plotBottom = 120;
  const lane = 138;
  const times = timeline.map((c) => Date.parse(c.time));
  const all = [...times, ...events.map((e) => Date.parse(e.time))];
  const t0 = Math.min(...all);
  const t1 = Math.max(...all);
  const x = (t: number) => (t1 === t0 ? left + (width - left - right) / 2 : left + ((t - t0) / (t1 - t0)) * (width - left - right));
  const y = (p: number) => plotBottom - p * (plotBottom - top);
  let d = "";
  timeline.forEach((c, i) => {
    const px = x(times[i] ?? t0);
    const py = y(c.credence);
    d += i === 0 ? `M${px},${py}` : ` H${px} V${py}`;
  });
  d += ` H${width - right}`;
  const ticks = timeTicks(t0, t1);
  const colour = (kind: string) => (kind === "support" ? "#009e73" : kind === "rebut" ? "#d55e00" : "#71717a");
  return (
    <figure className="max-w-2xl">
      <svg viewBox={`0 0 ${width} ${height}`} className="w-full" role="img" aria-label={`Credence over time: ${timeline.length} change${timeline.length === 1 ? "" : "s"}, now ${timeline.at(-1)?.credence.toFixed(2)}`} data-testid="credence-chart">
        <line x1={left} x2={width - right} y1={y(0.5)} y2={y(0.5)} className="stroke-zinc-300 dark:stroke-zinc-700" strokeDasharray="4 4" />
        <line x1={left} x2={width - right} y1={plotBottom} y2={plotBottom} className="stroke-zinc-400 dark:stroke-zinc-600" />
        <text x={4} y={y(1) + 4} className="fill-zinc-600 text-[10px] dark:fill-zinc-400">1</text>
        <text x={4} y={y(0.5) + 4} className="fill-zinc-600 text-[10px] dark:fill-zinc-400">.5</text>
        <text x={4} y={y(0) + 4} className="fill-zinc-600 text-[10px] dark:fill-zinc-400">0</text>
        {ticks.map((tick) => (
          <g key={tick.t} data-testid="credence-chart-tick">
            <line x1={x(tick.t)} x2={x(tick.t)} y1={plotBottom} y2={plotBottom + 4} className="stroke-zinc-400 dark:stroke-zinc-600" />
            <text x={x(tick.t)} y={height - 4} textAnchor="middle" className="fill-zinc-600 text-[10px] dark:fill-zinc-400">{tick.label}</text>
          </g>
        ))}
        <path d={d} fill="none" className="stroke-sky-600 dark:stroke-sky-400" strokeWidth={2} />
        {timeline.map((c, i) => (
          <circle key={c.seq} cx={x(times[i] ?? t0)} cy={y(c.credence)} r={3.5} className="fill-sky-600 dark:fill-sky-400">
            <title>{`${formatUtc(c.time)}: credence ${c.credence.toFixed(2)}, tension ${c.tension.toFixed(2)}, ${c.status}`}</title>
          </circle>
        ))}
        {events.map((e) => (
          <g key={e.seq} data-testid="credence-chart-event">
            <line x1={x(Date.parse(e.time))} x2={x(Date.parse(e.time))} y1={lane - 7} y2={lane + 7} stroke={colour(e.kind)} strokeWidth={3} />
            <title>{`#${e.seq} ${formatUtc(e.time)}: ${e.label}`}</title>
          </g>
        ))}
      </svg>
      <figcaption className="mt-1 flex flex-wrap gap-3 text-xs text-zinc-600 dark:text-zinc-400">
        <span><span aria-hidden className="mr-1 inline-block h-2 w-3 bg-[#009e73] align-middle" />supporting evidence</span>
        <span><span aria-hidden className="mr-1 inline-block h-2 w-3 bg-[#d55e00] align-middle" />rebutting evidence</span>
        <span><span aria-hidden className="mr-1 inline-block h-2 w-3 bg-zinc-500 align-middle" />other events (retraction, review…)</span>
        <span>Times in UTC.</span>
      </figcaption>
    </figure>
  );
}
