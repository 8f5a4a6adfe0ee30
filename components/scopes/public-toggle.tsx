"use client";

import { useState, useTransition } from "react";
import { setPublicAction } from "@/lib/actions/scope-actions";
import { buttonClass, secondaryButtonClass } from "@/components/ui/form";
import { useToast } from "@/components/ui/toast";
import { Section } from "./section";

/** The public switch: exposing a scope (or closing it again) asks for a confirmation first, then says it was saved. */
export function PublicToggle({ scope, isPublic, canManage }: { scope: string; isPublic: boolean; canManage: boolean }) {
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState<boolean | null>(null);
  const [pending, startTransition] = useTransition();
  function save(next: boolean, undoable: boolean) {
    setError(null);
    setAsked(null);
    startTransition(async () => {
      const result = await setPublicAction({ scope, isPublic: next });
      if (!result.ok) setError(result.error.message);
      else
        toast({
          tone: "ok",
          text: next ? "Saved: the scope is now public." : "Saved: the scope is now visible to its members only.",
          ...(undoable ? { undo: () => save(!next, false) } : {}),
        });
    });
  }
  return (
    <Section title="Visibility" description="A public scope is readable by every signed-in user; only members can change it." testId="visibility">
      <label className="flex items-center gap-3 text-sm">
        <input
          type="checkbox"
          className="size-4"
          checked={asked ?? isPublic}
          disabled={!canManage || pending}
          onChange={(event) => {
            setError(null);
            setAsked(event.target.checked === isPublic ? null : event.target.checked);
          }}
        />
        Public: every signed-in user can read this scope
      </label>
      {asked !== null ? (
        <div role="group" aria-label="Confirm the visibility change" className="mt-3 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-800 dark:bg-amber-950" data-testid="visibility-confirm">
          <span>
            {asked
              ? "Make this scope public? Every signed-in user of this server will be able to read all its beliefs and evidence."
              : "Make this scope private? Only its members will be able to read it; links shared with others stop working."}
          </span>
          <button type="button" className={buttonClass} disabled={pending} onClick={() => save(asked, true)}>
            {asked ? "Make public" : "Make private"}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setAsked(null)}>
            Cancel
          </button>
        </div>
      ) : null}
      {error ? <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">{error}</p> : null}
    </Section>
  );
}
