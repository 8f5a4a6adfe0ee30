"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { revertParamsAction } from "@/lib/actions/params-actions";

/** "Revert to this version", confirmed in place: saving makes a new version with the older settings. */
export function RevertParamsButton({ scope, version }: { scope: string; version: number }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const revert = () =>
    startTransition(async () => {
      const result = await revertParamsAction({ scope, version });
      setConfirming(false);
      setMessage(result.ok ? { ok: true, text: `Restored as version ${result.data.version}.` } : { ok: false, text: result.error.message });
      if (result.ok) router.refresh();
    });
  return (
    <span className="inline-flex flex-wrap items-center gap-2 text-xs">
      {confirming ? (
        <>
          <span>Make these settings current again (as a new version)?</span>
          <button type="button" className="rounded bg-sky-700 px-2 py-0.5 text-white hover:bg-sky-800 disabled:opacity-50" onClick={revert} disabled={pending}>
            {pending ? "Restoring…" : "Yes, restore"}
          </button>
          <button type="button" className="text-sky-700 hover:underline dark:text-sky-400" onClick={() => setConfirming(false)}>Cancel</button>
        </>
      ) : (
        <button type="button" className="text-sky-700 hover:underline dark:text-sky-400" onClick={() => setConfirming(true)}>
          Revert to version {version}
        </button>
      )}
      {message ? <span role={message.ok ? "status" : "alert"} className={message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}>{message.text}</span> : null}
    </span>
  );
}
