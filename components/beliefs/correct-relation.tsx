"use client";

import { useId, useRef, useState, useTransition } from "react";
import { correctRelationAction, type CorrectionDone } from "@/lib/actions/relation-actions";
import type { ActionResult } from "@/lib/actions/safe-action";
import { useToast } from "@/components/ui/toast";
import { buttonClass, inputClass, secondaryButtonClass } from "@/components/ui/form";
import { RELATION_HINTS, relationWords } from "./relation-words";

const CHOICES = ["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED"] as const;
type Choice = (typeof CHOICES)[number];

/** Which evidence on which belief a correction (or its undo) is about. */
export interface CorrectionTarget {
  scope: string;
  beliefId: string;
  evidenceId: string;
  /** One entry, only when the evidence's entries on the belief carry different relations. */
  seq?: number;
}

const figures = (d: CorrectionDone) => `Credence ${d.before.credence.toFixed(2)} → ${d.after.credence.toFixed(2)}, tension ${d.before.tension.toFixed(2)} → ${d.after.tension.toFixed(2)}.`;

/** Sends an undo (a correction back to `from`) and says what it did. */
function useUndo(target: CorrectionTarget) {
  const toast = useToast();
  return async (done: Pick<CorrectionDone, "from" | "to">, why: string) => {
    const r = await correctRelationAction({ ...target, relation: done.from, reason: `Undo of the correction to ${relationWords(done.to)}: ${why}` });
    toast(r.ok ? { tone: "ok", text: `Undone: ${relationWords(r.data.from)} → ${relationWords(r.data.to)}. ${figures(r.data)}` } : { tone: "error", text: r.error.message });
  };
}

/**
 * "Correct relation" for one evidence entry (editors): a dialog to choose how the evidence bears on the belief and say
 * why, then a confirmation naming the change. The answer moves credence at once; a toast says by how much and offers
 * the undo (the history's correction row offers it too, later).
 */
export function CorrectRelation({ target, current, evidenceText }: { target: CorrectionTarget; current: string; evidenceText: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const toast = useToast();
  const undo = useUndo(target);
  const [choice, setChoice] = useState<Choice | null>(null);
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<Extract<ActionResult<unknown>, { ok: false }>["error"] | null>(null);
  const [pending, start] = useTransition();

  const open = () => {
    setChoice(null);
    setReason("");
    setConfirming(false);
    setError(null);
    dialog.current?.showModal();
  };
  const review = () => {
    const fields: Record<string, string> = {};
    if (choice === null) fields.relation = "Choose how the evidence bears on the belief.";
    if (reason.trim() === "") fields.reason = "Say why, in a sentence.";
    if (Object.keys(fields).length > 0) {
      setError({ code: "invalid", message: "Please correct the highlighted fields.", fields });
      return;
    }
    setError(null);
    setConfirming(true);
  };
  const confirm = () =>
    start(async () => {
      if (choice === null) return;
      const why = reason.trim();
      const r = await correctRelationAction({ ...target, relation: choice, reason: why });
      if (!r.ok) {
        setError(r.error);
        setConfirming(false);
        return;
      }
      dialog.current?.close();
      toast({ tone: "ok", text: `Relation corrected: ${relationWords(r.data.from)} → ${relationWords(r.data.to)}. ${figures(r.data)}`, undo: () => void undo(r.data, why) });
    });

  const fieldError = (name: string) =>
    error?.fields?.[name] ? (
      <p id={`${id}-${name}-error`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
        {error.fields[name]}
      </p>
    ) : null;
  const otherError = error && !Object.keys(error.fields ?? {}).some((f) => f === "relation" || f === "reason") ? error.message : null;

  return (
    <>
      <button type="button" className="mt-1 text-xs text-sky-700 underline hover:no-underline dark:text-sky-400" onClick={open} data-testid="correct-relation">
        Correct relation
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        data-testid="correct-relation-dialog"
      >
        <form
          method="dialog"
          className="space-y-4 p-5"
          onSubmit={(e) => {
            e.preventDefault();
            if (confirming) confirm();
            else review();
          }}
        >
          <h2 id={`${id}-title`} className="text-lg font-semibold">Correct the relation</h2>
          <div className="text-sm">
            <p className="text-zinc-600 dark:text-zinc-400">Evidence, recorded as <b>{relationWords(current)}</b>:</p>
            <p className="mt-1 line-clamp-4 whitespace-pre-wrap break-words border-l-2 border-zinc-300 pl-3 dark:border-zinc-600">{evidenceText}</p>
          </div>
          {confirming && choice !== null ? (
            <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="correct-relation-confirm">
              Change <b>{relationWords(current)}</b> to <b>{relationWords(choice)}</b>? Credence and tension are recomputed at once; the history keeps who, when and why, and you can undo it.
            </p>
          ) : (
            <>
              <fieldset aria-describedby={error?.fields?.relation ? `${id}-relation-error` : undefined}>
                <legend className="text-sm font-medium">How does this evidence bear on the belief?</legend>
                <div className="mt-2 space-y-1">
                  {CHOICES.map((c) => (
                    <label key={c} className={`flex items-start gap-2 rounded border px-2 py-1.5 text-sm ${c === current ? "border-zinc-200 text-zinc-500 dark:border-zinc-800 dark:text-zinc-400" : choice === c ? "border-sky-600 bg-sky-50 dark:border-sky-400 dark:bg-sky-950/40" : "border-zinc-200 dark:border-zinc-800"}`}>
                      <input type="radio" name="relation" value={c} className="mt-0.5" checked={choice === c} disabled={c === current} onChange={() => setChoice(c)} />
                      <span>
                        <b>{relationWords(c)}</b>
                        {c === current ? " (now)" : ""} <span className="text-zinc-600 dark:text-zinc-400">— {RELATION_HINTS[c]}</span>
                      </span>
                    </label>
                  ))}
                </div>
                {fieldError("relation")}
              </fieldset>
              <div>
                <label htmlFor={`${id}-reason`} className="block text-sm font-medium">Why? (kept in the history)</label>
                <textarea
                  id={`${id}-reason`}
                  name="reason"
                  rows={2}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  className={inputClass}
                  aria-invalid={error?.fields?.reason ? true : undefined}
                  aria-describedby={error?.fields?.reason ? `${id}-reason-error` : undefined}
                />
                {fieldError("reason")}
              </div>
            </>
          )}
          {otherError ? <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">{otherError}</p> : null}
          <div className="flex flex-wrap justify-end gap-2">
            {confirming ? (
              <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(false)} disabled={pending}>Back</button>
            ) : (
              <button type="button" className={secondaryButtonClass} onClick={() => dialog.current?.close()}>Cancel</button>
            )}
            <button type="submit" className={buttonClass} disabled={pending}>
              {confirming ? (pending ? "Correcting…" : "Confirm correction") : "Review the change"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** "Undo" on a correction in the history: a correction back to the relation it replaced. */
export function UndoCorrection({ target, from, to, reason }: { target: CorrectionTarget; from: string; to: string; reason: string }) {
  const undo = useUndo(target);
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      className="ml-2 text-xs text-sky-700 underline hover:no-underline disabled:opacity-50 dark:text-sky-400"
      disabled={pending}
      onClick={() => start(() => undo({ from: from as Choice, to: to as Choice }, reason))}
      data-testid="undo-correction"
    >
      {pending ? "Undoing…" : "Undo"}
    </button>
  );
}
