"use client";

import { useId, useState, useTransition } from "react";
import { acceptSynthesisAction, dismissSynthesisAction } from "@/lib/actions/review-actions";
import { buttonClass, inputClass, secondaryButtonClass } from "@/components/ui/form";

/**
 * The proposed synthesis sentence, editable, and accept (a fresh provisional belief with SYNTHESIZES edges to both, in
 * the words shown) or dismiss. `template`: the sentence was made by the offline reader's template (it joins the two
 * beliefs' sentences), so the card says so and asks for a rewrite; a model's sentence is shown as proposed.
 */
export function SynthesisActions({ scope, beliefAId, beliefBId, text, template }: { scope: string; beliefAId: string; beliefBId: string; text: string; template: boolean }) {
  const [pending, startTransition] = useTransition();
  const [sentence, setSentence] = useState(text);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const fieldId = useId();
  const act = (accept: boolean) =>
    startTransition(async () => {
      const pair = { scope, beliefAId, beliefBId };
      const result = accept ? await acceptSynthesisAction({ ...pair, text: sentence }) : await dismissSynthesisAction(pair);
      setMessage(result.ok ? { ok: true, text: accept ? "Accepted: the synthesis is now a provisional belief." : "Dismissed." } : { ok: false, text: result.error.fields?.text ?? result.error.message });
    });
  return (
    <div className="space-y-2">
      <label htmlFor={fieldId} className="block text-sm font-medium">
        {template ? "Template sentence" : "Proposed synthesis"}
      </label>
      {template ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" id={`${fieldId}-hint`} data-testid="synthesis-template">
          The offline reader writes no prose: this joins the two beliefs&apos; sentences into a template. Rewrite it as the sentence a person would write before accepting.
        </p>
      ) : null}
      <textarea
        id={fieldId}
        value={sentence}
        onChange={(e) => setSentence(e.target.value)}
        rows={2}
        maxLength={1000}
        disabled={message?.ok === true}
        aria-describedby={template ? `${fieldId}-hint` : undefined}
        className={inputClass}
        data-testid="synthesis-text"
      />
      <div className="flex flex-wrap items-center gap-2">
        {message?.ok ? null : (
          <>
            <button type="button" className={buttonClass} disabled={pending || sentence.trim() === ""} onClick={() => act(true)}>Accept synthesis</button>
            <button type="button" className={secondaryButtonClass} disabled={pending} onClick={() => act(false)}>Dismiss</button>
          </>
        )}
        {message ? <span role={message.ok ? "status" : "alert"} className={`text-sm ${message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}`}>{message.text}</span> : null}
      </div>
    </div>
  );
}
