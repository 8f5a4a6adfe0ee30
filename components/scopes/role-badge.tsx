const styles: Record<string, string> = {
  owner: "bg-violet-50 text-violet-800 dark:bg-violet-950 dark:text-violet-200",
  reviewer: "bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
  editor: "bg-sky-50 text-sky-800 dark:bg-sky-950 dark:text-sky-200",
  viewer: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
};

export function RoleBadge({ role }: { role: string | null }) {
  if (!role) return <span className="text-xs text-zinc-500">reader (public)</span>;
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${styles[role] ?? styles.viewer}`}>{role}</span>;
}
