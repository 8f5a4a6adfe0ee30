"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, useTransition } from "react";
import { decideReadingAction, undoReadingDecisionAction } from "@/lib/actions/reading-actions";
import { buttonClass, secondaryButtonClass } from "@/components/ui/form";

export type QueueDecision = "SUPPORTS" | "REBUTS" | "CONTEXTUALIZES" | "UNRELATED" | "DUPLICATE" | "DISTINCT";

/** One open link as the queue shows it (plain data from the server page). */
export interface QueueItem {
  key: string;
  kind: "undecided" | "possible_duplicate";
  beliefId: string;
  beliefText: string;
  credence: number;
  seq: number;
  /** The evidence text (undecided) or the other belief's text (possible duplicate). */
  otherText: string;
  otherHref: string | null;
  /** Where the evidence came from (its URI or kind), or the other belief's credence. */
  source: string;
  guess: string | null;
  confidence: number | null;
  preview: readonly { decision: QueueDecision; credence: number; tension: number }[];
}

const CHOICES: Record<QueueItem["kind"], readonly { decision: QueueDecision; key: string; label: string }[]> = {
  undecided: [
    { decision: "SUPPORTS", key: "s", label: "Supports" },
    { decision: "REBUTS", key: "r", label: "Rebuts" },
    { decision: "CONTEXTUALIZES", key: "c", label: "Context" },
    { decision: "UNRELATED", key: "u", label: "Unrelated" },
  ],
  possible_duplicate: [
    { decision: "DUPLICATE", key: "d", label: "Same claim" },
    { decision: "DISTINCT", key: "u", label: "Keep apart" },
  ],
};

const REASON = "decided in the reader queue";

interface Done {
  beliefId: string;
  decidedSeq: number;
  text: string;
}

/** The "needs a reader" queue: one click or one key decides; j/k move, z undoes the last decision. */
export function ReadingQueue({ scope, items, canDecide }: { scope: string; items: readonly QueueItem[]; canDecide: boolean }) {
  const router = useRouter();
  const [cursor, setCursor] = useState(0);
  const [done, setDone] = useState<Done[]>([]);
  const [message, setMessage] = useState<string>("");
  const [pending, startTransition] = useTransition();
  const busy = useRef(false);
  const rows = useRef<(HTMLLIElement | null)[]>([]);
  const at = Math.min(cursor, Math.max(0, items.length - 1));

  const decide = useCallback(
    (item: QueueItem, decision: QueueDecision, label: string) => {
      if (busy.current || !canDecide) return;
      busy.current = true;
      startTransition(async () => {
        const r = await decideReadingAction({ scope, beliefId: item.beliefId, seq: item.seq, decision, reason: REASON });
        busy.current = false;
        if (!r.ok) {
          setMessage(r.error.message);
          return;
        }
        setDone((d) => [...d, { beliefId: item.beliefId, decidedSeq: r.data.decidedSeq, text: `${label}: ${item.beliefText}` }]);
        setMessage(`Decided ${label.toLowerCase()}; credence now ${r.data.credence.toFixed(2)}. Press z to undo.`);
        router.refresh();
      });
    },
    [scope, canDecide, router],
  );

  const undo = useCallback(() => {
    const last = done.at(-1);
    if (!last || busy.current) return;
    busy.current = true;
    startTransition(async () => {
      const r = await undoReadingDecisionAction({ scope, beliefId: last.beliefId, seq: last.decidedSeq, reason: "undone in the reader queue" });
      busy.current = false;
      if (!r.ok) {
        setMessage(r.error.message);
        return;
      }
      setDone((d) => d.slice(0, -1));
      setMessage(`Undone (${last.text}); credence back to ${r.data.credence.toFixed(2)}.`);
      router.refresh();
    });
  }, [done, scope, router]);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
      if (e.key === "j" || e.key === "k") {
        e.preventDefault();
        const next = Math.max(0, Math.min(items.length - 1, at + (e.key === "j" ? 1 : -1)));
        setCursor(next);
        rows.current[next]?.focus();
        return;
      }
      if (e.key === "z") {
        e.preventDefault();
        undo();
        return;
      }
      const item = items[at];
      const choice = item ? CHOICES[item.kind].find((c) => c.key === e.key) : undefined;
      if (item && choice) {
        e.preventDefault();
        decide(item, choice.decision, choice.label);
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [items, at, decide, undo]);

  return (
    <div className="space-y-3">
      <p className="text-xs text-zinc-600 dark:text-zinc-400" id="queue-keys">
        Keys: <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>s</kbd> supports · <kbd>r</kbd> rebuts · <kbd>c</kbd> context · <kbd>u</kbd> unrelated or keep apart ·{" "}
        <kbd>d</kbd> same claim · <kbd>z</kbd> undo
      </p>
      <p role="status" aria-live="polite" className="min-h-5 text-sm" data-testid="queue-status">
        {pending ? "Saving…" : message}
      </p>
      {done.length > 0 ? (
        <button type="button" className={secondaryButtonClass} onClick={undo} disabled={pending} data-testid="queue-undo">
          Undo last decision ({done.length})
        </button>
      ) : null}
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" data-testid="queue-empty">
          Nothing needs a reader: every reading is decided.
        </p>
      ) : (
        <ol className="space-y-3" aria-describedby="queue-keys">
          {items.map((item, i) => (
            <li
              key={item.key}
              ref={(el) => {
                rows.current[i] = el;
              }}
              tabIndex={-1}
              aria-current={i === at ? "true" : undefined}
              onClick={() => setCursor(i)}
              data-testid="queue-item"
              data-kind={item.kind}
              className={`space-y-2 rounded-lg border p-3 outline-none ${i === at ? "border-sky-600 ring-2 ring-sky-600 dark:border-sky-400 dark:ring-sky-400" : "border-zinc-200 dark:border-zinc-800"}`}
            >
              <p className="text-sm">
                <span className="text-xs uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{item.kind === "undecided" ? "Belief" : "This belief"}</span>{" "}
                <Link href={`/scopes/${scope}/beliefs/${encodeURIComponent(item.beliefId)}`} className="font-medium underline">
                  {item.beliefText}
                </Link>{" "}
                <span className="text-xs text-zinc-600 dark:text-zinc-400">credence {item.credence.toFixed(2)}</span>
              </p>
              <blockquote className="whitespace-pre-wrap break-words border-l-4 border-amber-400 pl-3 text-sm">
                <span className="text-xs uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{item.kind === "undecided" ? "Evidence" : "May say the same as"}</span>{" "}
                {item.otherHref ? <Link href={item.otherHref} className="underline">{item.otherText}</Link> : item.otherText}
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">{item.source}</span>
              </blockquote>
              {item.guess ? (
                <p className="text-xs text-zinc-700 dark:text-zinc-300" data-testid="queue-guess">
                  Reader&apos;s best guess: <b>{item.guess.toLowerCase()}</b>
                  {item.confidence !== null ? `, ${Math.round(item.confidence * 100)} % sure` : ""}
                </p>
              ) : null}
              <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
                {CHOICES[item.kind].map((c) => {
                  const p = item.preview.find((x) => x.decision === c.decision);
                  return (
                    <button
                      key={c.decision}
                      type="button"
                      className={`${c.decision === "UNRELATED" || c.decision === "DISTINCT" ? secondaryButtonClass : buttonClass} flex-col`}
                      disabled={pending || !canDecide}
                      onClick={() => {
                        setCursor(i);
                        decide(item, c.decision, c.label);
                      }}
                      aria-keyshortcuts={i === at ? c.key : undefined}
                      data-decision={c.decision}
                    >
                      <span className="flex items-baseline gap-1.5">
                        {c.label}
                        <kbd className="rounded border border-current px-1 font-mono text-xs leading-4">{c.key}</kbd>
                      </span>
                      {p ? (
                        <span className="block text-xs font-normal" data-testid="queue-preview">
                          {item.credence.toFixed(2)} → {p.credence.toFixed(2)}
                        </span>
                      ) : null}
                    </button>
                  );
                })}
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
