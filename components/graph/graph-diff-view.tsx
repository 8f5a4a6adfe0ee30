import Link from "next/link";
import type { GraphSlice } from "@/lib/graph/graph-store";
import { diffSlices } from "./graph-diff";
import { formatUtc } from "@/components/ui/format-time";

/** "What changed between two times": the view's moment against a later change-set or now. */
export function GraphDiffView({
  asOf,
  compareTo,
  choices,
  onCompare,
  before,
  after,
  loading,
  scope,
}: {
  asOf: string;
  compareTo: string | null;
  choices: readonly string[];
  onCompare(time: string | null): void;
  before: GraphSlice;
  after: GraphSlice | null;
  loading: boolean;
  scope: string;
}) {
  const diff = compareTo && after ? diffSlices(before, after) : null;
  const nothing = diff && diff.added.length + diff.removed.length + diff.changed.length + diff.evidenceAdded.length + diff.evidenceRetracted.length === 0;
  const link = (id: string, text: string) => (
    <Link href={`/scopes/${scope}/beliefs/${encodeURIComponent(id)}`} className="text-sky-800 hover:underline dark:text-sky-300">{text}</Link>
  );
  return (
    <section aria-label="What changed" className="space-y-2 rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid="graph-diff">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="graph-compare" className="font-semibold">What changed from {formatUtc(asOf)} to</label>
        <select id="graph-compare" value={compareTo ?? ""} onChange={(e) => onCompare(e.target.value || null)} className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900">
          <option value="">choose…</option>
          <option value="now">now</option>
          {choices.map((t) => (
            <option key={t} value={t}>{formatUtc(t)}</option>
          ))}
        </select>
        {loading ? <span className="text-zinc-600 dark:text-zinc-400">comparing…</span> : null}
      </div>
      {nothing ? <p>Nothing changed in between.</p> : null}
      {diff && !nothing ? (
        <ul className="space-y-1" data-testid="graph-diff-list">
          {diff.added.map((b) => (
            <li key={`a${b.id}`}><span className="font-semibold text-emerald-800 dark:text-emerald-300">new</span> {link(b.id, b.text)} (credence {b.credence.toFixed(2)})</li>
          ))}
          {diff.changed.map(({ before: was, after: now }) => (
            <li key={`c${now.id}`}>
              <span className="font-semibold text-amber-800 dark:text-amber-300">changed</span> {link(now.id, now.text)}: credence {was.credence.toFixed(2)} → {now.credence.toFixed(2)}
              {was.tension !== now.tension ? `, tension ${was.tension.toFixed(2)} → ${now.tension.toFixed(2)}` : ""}
              {was.status !== now.status ? `, ${was.status} → ${now.status}` : ""}
            </li>
          ))}
          {diff.removed.map((b) => (
            <li key={`r${b.id}`}><span className="font-semibold text-rose-800 dark:text-rose-300">gone</span> {b.text}</li>
          ))}
          {diff.evidenceAdded.map((e) => (
            <li key={`e${e.id}`}><span className="font-semibold">evidence</span> {e.text.length > 140 ? `${e.text.slice(0, 139)}…` : e.text} ({e.kind})</li>
          ))}
          {diff.evidenceRetracted.map((e) => (
            <li key={`x${e.id}`}><span className="font-semibold text-rose-800 dark:text-rose-300">retracted</span> {e.text.length > 140 ? `${e.text.slice(0, 139)}…` : e.text}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
