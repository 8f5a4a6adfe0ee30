"use client";

import { useState, useTransition, type FormEvent } from "react";
import { undoReviewAction } from "@/lib/actions/review-actions";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toast";
import { inputClass, secondaryButtonClass } from "@/components/ui/form";

/**
 * "Undo…" for an approved supersede or merge: asks for a note in a dialog, then undoes it in a new change-set (the
 * replaced belief is live again, the proposal waits in the queue again). A refusal (the decision's effect has moved
 * on) is shown in the dialog in the service's words.
 */
export function UndoReviewButton({ scope, mutationId, resolution, label }: { scope: string; mutationId: string; resolution: "supersede" | "merge"; label: string }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const noteId = `undo-${mutationId.replace(/[^a-zA-Z0-9_-]/g, "_")}-note`;
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const note = String(new FormData(event.currentTarget).get("note") ?? "");
    startTransition(async () => {
      const result = await undoReviewAction({ scope, mutationId, note });
      if (result.ok) {
        setOpen(false);
        setError(null);
        toast({ tone: "ok", text: `Undone: the ${resolution} of ${label} is reversed and the proposal waits in the queue again.` });
      } else {
        setError(result.error.fields?.note ?? result.error.message);
      }
    });
  }
  return (
    <form onSubmit={onSubmit} className="inline">
      <button type="button" className={secondaryButtonClass} onClick={() => { setError(null); setOpen(true); }} aria-label={`Undo the ${resolution} of ${label}`}>
        Undo…
      </button>
      <ConfirmDialog
        open={open}
        title={resolution === "supersede" ? "Undo this supersede?" : "Undo this merge?"}
        confirmLabel="Yes, undo"
        confirmType="submit"
        pending={pending}
        initialFocus="field"
        onCancel={() => setOpen(false)}
        testId="undo-confirm"
      >
        <p>
          {resolution === "supersede"
            ? "The replaced belief becomes live again with the evidence it has; the proposal goes back to the review queue, where it can be decided again."
            : "The refinement link stops counting; the proposal goes back to the review queue, where it can be decided again."}{" "}
          Both decisions stay in the history.
        </p>
        <label htmlFor={noteId} className="block text-sm font-medium">Why (for the journal)</label>
        <textarea id={noteId} name="note" rows={2} required maxLength={4000} className={inputClass} aria-invalid={error ? true : undefined} aria-describedby={error ? `${noteId}-error` : undefined} />
        {error ? <p id={`${noteId}-error`} role="alert" className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
      </ConfirmDialog>
    </form>
  );
}
