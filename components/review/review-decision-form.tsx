"use client";

import { useState } from "react";
import { useToast } from "@/components/ui/toast";
import { reviewMutationAction } from "@/lib/actions/review-actions";
import { useFormAction } from "@/components/ui/use-form-action";
import { FieldError, FormError, Label, buttonClass, inputClass } from "@/components/ui/form";

const RESOLUTIONS = [
  { value: "coexist", label: "coexist — both stand, with their contexts" },
  { value: "supersede", label: "supersede — the proposal replaces the existing belief" },
  { value: "merge", label: "merge — the proposal refines the existing belief" },
] as const;

/** Approve (with a resolution) or reject one pending mutation, with a journal note. */
export function ReviewDecisionForm({ scope, mutationId, suggested, summary }: { scope: string; mutationId: string; suggested?: "coexist" | "supersede" | "merge"; summary?: string }) {
  const toast = useToast();
  const [decision, setDecision] = useState<"approve" | "reject">("approve");
  const [confirming, setConfirming] = useState(false);
  const { state, pending, onSubmit } = useFormAction(reviewMutationAction, () => {
    setConfirming(false);
    const quoted = summary ? `: “${summary.length > 80 ? `${summary.slice(0, 79)}…` : summary}”` : "";
    // A summary that ends its own sentence (“… per minute.”) takes no second full stop.
    toast({ tone: "ok", text: `${decision === "approve" ? "Approved" : "Rejected"}${quoted}${/[.!?]”$/.test(quoted) ? "" : "."} The journal keeps your note.` });
  });
  const id = `review-${mutationId.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
  return (
    <form onSubmit={onSubmit} aria-label="Review decision" className="space-y-3">
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
          <select id={`${id}-resolution`} name="resolution" defaultValue={suggested ?? ""} required className={inputClass}>
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
      {decision === "reject" && !confirming ? (
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
