"use client";

import { useState, useTransition } from "react";
import { acceptSynthesisAction, dismissSynthesisAction } from "@/lib/actions/review-actions";
import { buttonClass, secondaryButtonClass } from "@/components/ui/form";

/** Accept (a fresh provisional belief with SYNTHESIZES edges to both) or dismiss one synthesis candidate. */
export function SynthesisActions({ scope, beliefAId, beliefBId }: { scope: string; beliefAId: string; beliefBId: string }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const act = (accept: boolean) =>
    startTransition(async () => {
      const pair = { scope, beliefAId, beliefBId };
      const result = accept ? await acceptSynthesisAction(pair) : await dismissSynthesisAction(pair);
      setMessage(result.ok ? { ok: true, text: accept ? "Accepted: the synthesis is now a provisional belief." : "Dismissed." } : { ok: false, text: result.error.message });
    });
  return (
    <div className="flex flex-wrap items-center gap-2">
      {message?.ok ? null : (
        <>
          <button type="button" className={buttonClass} disabled={pending} onClick={() => act(true)}>Accept synthesis</button>
          <button type="button" className={secondaryButtonClass} disabled={pending} onClick={() => act(false)}>Dismiss</button>
        </>
      )}
      {message ? <span role={message.ok ? "status" : "alert"} className={`text-sm ${message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}`}>{message.text}</span> : null}
    </div>
  );
}
