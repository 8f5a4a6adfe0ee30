"use client";

import { liftFreezeAction } from "@/lib/actions/review-actions";
import { useFormAction } from "@/components/ui/use-form-action";
import { FieldError, FormError, buttonClass, inputClass } from "@/components/ui/form";

/** Lift a topic freeze after an oscillation hard stop; the note is journaled. */
export function LiftFreezeForm({ scope, topic }: { scope: string; topic: string }) {
  const { state, pending, onSubmit } = useFormAction(liftFreezeAction);
  const id = `lift-${topic.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
  return (
    <form onSubmit={onSubmit} aria-label={`Lift freeze on ${topic}`} className="flex flex-wrap items-start gap-2">
      <input type="hidden" name="scope" value={scope} />
      <input type="hidden" name="topic" value={topic} />
      <div className="min-w-56 flex-1">
        <label htmlFor={`${id}-note`} className="sr-only">Note</label>
        <input id={`${id}-note`} name="note" required className={`${inputClass} mt-0`} placeholder="Why the topic may change again" />
        <FieldError state={state} name="note" />
      </div>
      <button type="submit" className={buttonClass} disabled={pending}>{pending ? "Lifting…" : "Lift freeze"}</button>
      <div className="w-full"><FormError state={state} shown={["note"]} /></div>
    </form>
  );
}
