import type { Checkpoint } from "@/lib/engine/replay";

/** Credence after each change-set, replayed from the history: a step line on [0,1] with the 0.5 prior marked. */
export function CredenceChart({ timeline }: { timeline: readonly Checkpoint[] }) {
  if (timeline.length === 0) return <p className="text-sm text-zinc-500">No history yet.</p>;
  const width = 560;
  const height = 140;
  const pad = 24;
  const times = timeline.map((c) => Date.parse(c.time));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const x = (t: number) => (t1 === t0 ? pad + (width - 2 * pad) / 2 : pad + ((t - t0) / (t1 - t0)) * (width - 2 * pad));
  const y = (p: number) => height - pad - p * (height - 2 * pad);
  let d = "";
  timeline.forEach((c, i) => {
    const px = x(times[i] ?? t0);
    const py = y(c.credence);
    d += i === 0 ? `M${px},${py}` : ` H${px} V${py}`;
  });
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="w-full max-w-xl" role="img" aria-label="Credence over time" data-testid="credence-chart">
      <line x1={pad} x2={width - pad} y1={y(0.5)} y2={y(0.5)} className="stroke-zinc-300 dark:stroke-zinc-700" strokeDasharray="4 4" />
      <text x={4} y={y(1) + 4} className="fill-zinc-500 text-[10px]">1</text>
      <text x={4} y={y(0.5) + 4} className="fill-zinc-500 text-[10px]">.5</text>
      <text x={4} y={y(0) + 4} className="fill-zinc-500 text-[10px]">0</text>
      <path d={d} fill="none" className="stroke-sky-600 dark:stroke-sky-400" strokeWidth={2} />
      {timeline.map((c, i) => (
        <circle key={c.seq} cx={x(times[i] ?? t0)} cy={y(c.credence)} r={3} className="fill-sky-600 dark:fill-sky-400">
          <title>{`${new Date(c.time).toLocaleString()}: credence ${c.credence.toFixed(2)}, tension ${c.tension.toFixed(2)}, ${c.status}`}</title>
        </circle>
      ))}
    </svg>
  );
}
