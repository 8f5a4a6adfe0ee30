"use client";

import { useRef, useState } from "react";
import { useToast } from "@/components/ui/toast";
import { reviewMutationAction, undoReviewAction } from "@/lib/actions/review-actions";
import { useFormAction } from "@/components/ui/use-form-action";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FieldError, FormError, Label, buttonClass, inputClass } from "@/components/ui/form";
import { figuresLine, weakerWarning, type BeliefFigures } from "./replacement-check";
import { PENDING_HEADING_ID } from "./review-anchors";

const RESOLUTIONS = [
  { value: "coexist", label: "coexist — both stand, with their contexts" },
  { value: "supersede", label: "supersede — the proposal replaces the existing belief" },
  { value: "merge", label: "merge — the proposal refines the existing belief" },
] as const;
type ResolutionValue = (typeof RESOLUTIONS)[number]["value"];

const quote = (text: string) => `“${text.length > 80 ? `${text.slice(0, 79)}…` : text}”`;

/**
 * Approve (with a resolution) or reject one pending mutation, with a journal note. Reject, supersede and merge ask
 * first; supersede and merge show both beliefs' figures and warn when the proposal is weaker, and the notice after
 * approving them offers an undo (the review queue keeps one too).
 * `proposal` / `existing`: the two beliefs as they stand now (null when one cannot be read).
 */
export function ReviewDecisionForm({
  scope,
  mutationId,
  suggested,
  summary,
  proposal = null,
  existing = null,
}: {
  scope: string;
  mutationId: string;
  suggested?: ResolutionValue;
  summary?: string;
  proposal?: BeliefFigures | null;
  existing?: BeliefFigures | null;
}) {
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const [decision, setDecision] = useState<"approve" | "reject">("approve");
  const [resolution, setResolution] = useState<ResolutionValue | "">(suggested ?? "");
  const [confirming, setConfirming] = useState(false);
  const asksFirst = decision === "approve" && (resolution === "supersede" || resolution === "merge") && existing !== null;
  const { state, pending, onSubmit } = useFormAction(reviewMutationAction, () => {
    setConfirming(false);
    // The decided card leaves the queue: keyboard focus goes to the queue's heading rather than to the page's start.
    document.getElementById(PENDING_HEADING_ID)?.focus();
    const quoted = summary ? `: ${quote(summary)}` : "";
    // A summary that ends its own sentence (“… per minute.”) takes no second full stop.
    const text = `${decision === "approve" ? "Approved" : "Rejected"}${quoted}${/[.!?]”$/.test(quoted) ? "" : "."} The journal keeps your note.`;
    if (!asksFirst) {
      toast({ tone: "ok", text });
      return;
    }
    toast({
      tone: "ok",
      text,
      undo: () => {
        void undoReviewAction({ scope, mutationId, note: "Undone from the notice right after approving." }).then((r) =>
          toast(r.ok ? { tone: "ok", text: `Undone: the ${resolution} is reversed and the proposal waits in the queue again.` } : { tone: "error", text: r.error.message }),
        );
      },
    });
  });
  const id = `review-${mutationId.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
  const warning = asksFirst && proposal && existing && (resolution === "supersede" || resolution === "merge") ? weakerWarning(resolution, proposal, existing) : null;
  const openConfirmation = () => {
    // The note is required: ask for it before the dialog, not behind it.
    if (formRef.current?.reportValidity()) setConfirming(true);
  };
  return (
    <form ref={formRef} onSubmit={onSubmit} aria-label="Review decision" className="space-y-3">
      <input type="hidden" name="scope" value={scope} />
      <input type="hidden" name="mutationId" value={mutationId} />
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">Decision</legend>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="decision" value="approve" checked={decision === "approve"} onChange={() => setDecision("approve")} /> Approve
        </label>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="decision" value="reject" checked={decision === "reject"} onChange={() => { setDecision("reject"); setConfirming(false); }} /> Reject
        </label>
      </fieldset>
      {decision === "approve" ? (
        <div>
          <Label htmlFor={`${id}-resolution`}>Resolution</Label>
          <select id={`${id}-resolution`} name="resolution" value={resolution} onChange={(e) => setResolution(e.target.value as ResolutionValue)} required className={inputClass}>
            <option value="" disabled>Choose how the two beliefs relate…</option>
            {RESOLUTIONS.map((r) => <option key={r.value} value={r.value}>{r.label}</option>)}
          </select>
        </div>
      ) : null}
      <div>
        <Label htmlFor={`${id}-note`}>Note for the journal</Label>
        <textarea id={`${id}-note`} name="note" rows={2} required className={inputClass} aria-describedby={`${id}-note-error`} />
        <FieldError state={state} name="note" />
      </div>
      <FormError state={state} shown={["note"]} />
      {asksFirst && existing ? (
        <>
          <button type="button" className={buttonClass} disabled={pending} onClick={openConfirmation}>
            {resolution === "supersede" ? "Supersede…" : "Merge…"}
          </button>
          <ConfirmDialog
            open={confirming}
            title={resolution === "supersede" ? "Replace the existing belief?" : "Merge the proposal into the existing belief?"}
            confirmLabel={resolution === "supersede" ? "Yes, supersede" : "Yes, merge"}
            confirmType="submit"
            pending={pending}
            initialFocus={warning ? "cancel" : "confirm"}
            onCancel={() => setConfirming(false)}
            testId="review-confirm"
          >
            <dl className="space-y-2">
              <div>
                <dt className="text-xs font-semibold uppercase text-amber-800 dark:text-amber-300">{resolution === "supersede" ? "Replaces" : "Refines"}</dt>
                <dd><span className="font-medium">{quote(existing.text)}</span> <span className="block text-zinc-600 tabular-nums dark:text-zinc-400">{figuresLine(existing)}</span></dd>
              </div>
              {proposal ? (
                <div>
                  <dt className="text-xs font-semibold uppercase text-sky-800 dark:text-sky-300">{resolution === "supersede" ? "With" : "By"}</dt>
                  <dd><span className="font-medium">{quote(proposal.text)}</span> <span className="block text-zinc-600 tabular-nums dark:text-zinc-400">{figuresLine(proposal)}</span></dd>
                </div>
              ) : null}
            </dl>
            {warning ? (
              <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-amber-900 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-200" data-testid="review-weaker">
                {warning}
              </p>
            ) : null}
            <p className="text-zinc-600 dark:text-zinc-400">
              {resolution === "supersede"
                ? "The existing belief stops being live and recall answers with the replacement. "
                : "Both stay live; the proposal is recorded as a refinement of the existing belief. "}
              You can undo this afterwards from the review queue.
            </p>
          </ConfirmDialog>
        </>
      ) : decision === "reject" && !confirming ? (
        <button type="button" className={buttonClass} onClick={() => setConfirming(true)}>Reject…</button>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          {decision === "reject" ? <span className="text-sm">Reject this proposal? It leaves the queue for good; the note goes to the journal.</span> : null}
          <button type="submit" className={buttonClass} disabled={pending}>
            {pending ? "Saving…" : decision === "approve" ? "Approve" : "Yes, reject"}
          </button>
          {decision === "reject" ? <button type="button" className="text-sm text-sky-700 hover:underline dark:text-sky-400" onClick={() => setConfirming(false)}>Cancel</button> : null}
        </div>
      )}
    </form>
  );
}
