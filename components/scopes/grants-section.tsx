"use client";

import { useState, useTransition } from "react";
import { addGrantAction, removeGrantAction } from "@/lib/actions/scope-actions";
import { useFormAction } from "@/components/ui/use-form-action";
import { FieldError, FormError, Label, buttonClass, inputClass, secondaryButtonClass } from "@/components/ui/form";
import { Section } from "./section";

export function GrantsSection({ scope, grants, canManage }: { scope: string; grants: { slug: string; name: string }[]; canManage: boolean }) {
  const { state, pending, onSubmit } = useFormAction(addGrantAction);
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  return (
    <Section
      title="Citing scopes"
      description="Members of these scopes may cite (resolve) this scope's items as evidence. They still cannot browse this scope."
      testId="grants"
    >
      {grants.length === 0 ? (
        <p className="text-sm text-zinc-500">No other scope may cite this one.</p>
      ) : (
        <ul className="space-y-2 text-sm">
          {grants.map((grant) => (
            <li key={grant.slug} className="flex items-center gap-3" data-testid="grant-row">
              <span className="font-medium">{grant.name}</span>
              <span className="font-mono text-xs text-zinc-500">{grant.slug}</span>
              {canManage ? (
                <button
                  type="button"
                  className={`${secondaryButtonClass} ml-auto`}
                  disabled={busy}
                  onClick={() =>
                    startTransition(async () => {
                      const result = await removeGrantAction({ scope, toSlug: grant.slug });
                      setError(result.ok ? null : result.error.message);
                    })
                  }
                >
                  Revoke
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {error ? <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">{error}</p> : null}
      {canManage ? (
        <form onSubmit={onSubmit} className="mt-4 grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start" aria-label="Let another scope cite this one">
          <input type="hidden" name="scope" value={scope} />
          <div>
            <Label htmlFor="grant-to">Slug of the scope that may cite this one</Label>
            <input id="grant-to" name="toSlug" required className={inputClass} placeholder="research" />
            <FieldError state={state} name="toSlug" />
          </div>
          <button type="submit" className={`${buttonClass} sm:mt-6`} disabled={pending}>
            Allow citing
          </button>
          <div className="sm:col-span-2">
            <FormError state={state} shown={["toSlug"]} />
          </div>
        </form>
      ) : null}
    </Section>
  );
}
