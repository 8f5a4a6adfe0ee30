import { tensionFill } from "@/components/graph/graph-style";

const statusStyle: Record<string, string> = {
  canonical: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  supported: "bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100",
  provisional: "bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200",
  disputed: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  superseded: "bg-zinc-200 text-zinc-600 line-through dark:bg-zinc-800 dark:text-zinc-400",
  retired: "bg-zinc-200 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400",
  contracted: "bg-rose-100 text-rose-900 dark:bg-rose-900 dark:text-rose-100",
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${statusStyle[status] ?? statusStyle.provisional}`}>{status}</span>;
}

/** Tension as a short bar filled in the graph's own colour for that tension (cividis: settled blue → contested yellow). */
export function TensionBar({ tension }: { tension: number }) {
  const pct = Math.round(Math.max(0, Math.min(1, tension)) * 100);
  return (
    <span className="inline-flex items-center gap-2" title={`tension ${tension.toFixed(2)}`}>
      <span className="h-1.5 w-16 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800">
        <span className="block h-full" style={{ width: `${pct}%`, backgroundColor: tensionFill(tension) }} />
      </span>
      <span className="tabular-nums text-xs text-zinc-600 dark:text-zinc-400">{tension.toFixed(2)}</span>
    </span>
  );
}
