"use client";

import { useState, useTransition } from "react";
import { setPublicAction } from "@/lib/actions/scope-actions";
import { Section } from "./section";

export function PublicToggle({ scope, isPublic, canManage }: { scope: string; isPublic: boolean; canManage: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <Section title="Visibility" description="A public scope is readable by every signed-in user; only members can change it." testId="visibility">
      <label className="flex items-center gap-3 text-sm">
        <input
          type="checkbox"
          className="size-4"
          checked={isPublic}
          disabled={!canManage || pending}
          onChange={(event) => {
            const next = event.target.checked;
            setError(null);
            startTransition(async () => {
              const result = await setPublicAction({ scope, isPublic: next });
              if (!result.ok) setError(result.error.message);
            });
          }}
        />
        Public: every signed-in user can read this scope
      </label>
      {error ? <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">{error}</p> : null}
    </Section>
  );
}
