import type { ReactNode } from "react";

export function Section({ title, description, children, testId }: { title: string; description: string; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-lg border border-zinc-200 p-5 dark:border-zinc-800" data-testid={testId}>
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mb-4 mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
      {children}
    </section>
  );
}
