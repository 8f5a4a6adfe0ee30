"use client";

import { useState } from "react";
import { reviewMutationAction } from "@/lib/actions/review-actions";
import { useFormAction } from "@/components/ui/use-form-action";
import { FieldError, FormError, Label, buttonClass, inputClass } from "@/components/ui/form";

const RESOLUTIONS = [
  { value: "coexist", label: "coexist — both stand, with their contexts" },
  { value: "supersede", label: "supersede — the proposal replaces the existing belief" },
  { value: "merge", label: "merge — the proposal refines the existing belief" },
] as const;

/** Approve (with a resolution) or reject one pending mutation, with a journal note. */
export function ReviewDecisionForm({ scope, mutationId, suggested }: { scope: string; mutationId: string; suggested?: "coexist" | "supersede" | "merge" }) {
  const { state, pending, onSubmit } = useFormAction(reviewMutationAction);
  const [decision, setDecision] = useState<"approve" | "reject">("approve");
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
          <input type="radio" name="decision" value="reject" checked={decision === "reject"} onChange={() => setDecision("reject")} /> Reject
        </label>
      </fieldset>
      {decision === "approve" ? (
        <div>
          <Label htmlFor={`${id}-resolution`}>Resolution</Label>
          <select id={`${id}-resolution`} name="resolution" defaultValue={suggested ?? "coexist"} className={inputClass}>
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
      <button type="submit" className={buttonClass} disabled={pending}>
        {pending ? "Saving…" : decision === "approve" ? "Approve" : "Reject"}
      </button>
    </form>
  );
}
