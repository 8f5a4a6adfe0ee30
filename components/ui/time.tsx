"use client";

import { useEffect, useState } from "react";
import { formatUtc, relativeTime, type Moment } from "./format-time";

/**
 * A moment as the interface shows it everywhere: the absolute UTC text, with the relative time ("3 hours ago") on hover.
 * The server and the browser render the same absolute text; the relative hint needs the browser's clock, so it is added
 * after mount (and refreshed each minute) and the first render matches the server's HTML.
 */
export function Time({ at, className, testId }: { at: Moment; className?: string; testId?: string }) {
  const iso = typeof at === "string" ? at : new Date(at).toISOString();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={iso} title={now === null ? undefined : relativeTime(iso, now)} className={className} data-testid={testId}>
      {formatUtc(iso)}
    </time>
  );
}
