"use client";

import Link from "next/link";
import { useParams } from "next/navigation";

/**
 * The header's pending-review count for the scope in the URL, shown only to its reviewers and owners (the layout
 * passes counts for those scopes alone). Outside a scope it shows nothing.
 */
export function PendingReviewLink({ counts }: { counts: Readonly<Record<string, number>> }) {
  const params = useParams<{ slug?: string }>();
  const slug = typeof params.slug === "string" ? params.slug : undefined;
  const count = slug === undefined ? undefined : counts[slug];
  if (slug === undefined || count === undefined) return null;
  return (
    <Link
      href={`/scopes/${slug}/review`}
      className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
      data-testid="header-review"
    >
      Review{" "}
      <span
        className={`min-w-5 rounded-full px-1.5 text-center text-xs font-semibold tabular-nums ${count > 0 ? "bg-amber-500 text-white dark:bg-amber-400 dark:text-zinc-950" : "bg-zinc-200 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"}`}
        data-testid="header-review-count"
      >
        {count}
      </span>
      {/* Read as "Review 3 pending": the accessible name comes from the visible text (axe label-content-name-mismatch). */}
      <span className="sr-only"> pending</span>
    </Link>
  );
}
