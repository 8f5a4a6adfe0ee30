import type { BeliefStatus } from "@/lib/engine";

const ORDER: readonly BeliefStatus[] = ["canonical", "supported", "provisional", "disputed", "superseded", "retired", "contracted"];
const BAR: Record<BeliefStatus, string> = {
  canonical: "bg-emerald-600 dark:bg-emerald-500",
  supported: "bg-sky-600 dark:bg-sky-500",
  provisional: "bg-zinc-400 dark:bg-zinc-500",
  disputed: "bg-amber-500 dark:bg-amber-400",
  superseded: "bg-zinc-300 dark:bg-zinc-700",
  retired: "bg-zinc-300 dark:bg-zinc-700",
  contracted: "bg-rose-500 dark:bg-rose-400",
};

/** Beliefs by status as horizontal bars scaled to the largest count; the figures are in the text, not only the bars. */
export function StatusChart({ byStatus }: { byStatus: Readonly<Record<BeliefStatus, number>> }) {
  const max = Math.max(1, ...ORDER.map((s) => byStatus[s]));
  return (
    <figure aria-label="Beliefs by status" data-testid="status-chart">
      <ul className="space-y-1.5 text-sm">
        {ORDER.map((status) => (
          <li key={status} className="grid grid-cols-[6.5rem_1fr_2.5rem] items-center gap-2">
            <span className="text-zinc-600 dark:text-zinc-400">{status}</span>
            <span className="h-2.5 overflow-hidden rounded bg-zinc-100 dark:bg-zinc-900">
              <span className={`block h-full ${BAR[status]}`} style={{ width: `${(byStatus[status] / max) * 100}%` }} />
            </span>
            <span className="text-right tabular-nums">{byStatus[status]}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
