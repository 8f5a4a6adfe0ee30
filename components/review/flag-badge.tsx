import { FLAG_TEXT } from "./mutation-words";

export function FlagBadge({ flag }: { flag: string }) {
  const severe = flag === "oscillation_hard_stop";
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${severe ? "bg-rose-100 text-rose-900 dark:bg-rose-900 dark:text-rose-100" : "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100"}`}>
      {FLAG_TEXT[flag] ?? flag}
    </span>
  );
}
