"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { setParamsAction } from "@/lib/actions/params-actions";
import type { EngineParams } from "@/lib/engine";
import { Label, buttonClass, inputClass } from "@/components/ui/form";
import { changedParams, flattenParams } from "./params-fields";

/** The owner's editor of the current parameter set; saving creates a new version with only the changed values laid over. */
export function ParamsForm({ scope, params, canEdit }: { scope: string; params: EngineParams; canEdit: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const fields = flattenParams(params);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form: Record<string, string> = {};
    for (const [key, value] of new FormData(event.currentTarget).entries()) if (typeof value === "string") form[key] = value;
    const { changes, errors: fieldErrors } = changedParams(params, form);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) {
      setMessage({ ok: false, text: "Please correct the highlighted fields." });
      return;
    }
    startTransition(async () => {
      const result = await setParamsAction({ scope, changes, note: form.note });
      if (result.ok) {
        setErrors({});
        setMessage({ ok: true, text: `Saved as version ${result.data.version}.` });
        router.refresh();
      } else {
        setErrors(result.error.fields ?? {});
        setMessage({ ok: false, text: result.error.message });
      }
    });
  }

  return (
    <form onSubmit={onSubmit} aria-label="Scope parameters" className="space-y-4">
      <fieldset disabled={!canEdit || pending} className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
        <legend className="sr-only">Parameters</legend>
        {fields.map(([name, value]) => (
          <div key={name}>
            <Label htmlFor={`param-${name}`}>
              <span className="font-mono text-xs">{name}</span>
            </Label>
            {typeof value === "boolean" ? (
              <select id={`param-${name}`} name={name} defaultValue={String(value)} className={inputClass}>
                <option value="false">false</option>
                <option value="true">true</option>
              </select>
            ) : (
              <input
                id={`param-${name}`}
                name={name}
                type="number"
                step="any"
                defaultValue={value}
                className={inputClass}
                aria-invalid={errors[name] ? true : undefined}
                aria-describedby={errors[name] ? `param-${name}-error` : undefined}
              />
            )}
            {errors[name] ? (
              <p id={`param-${name}-error`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
                {errors[name]}
              </p>
            ) : null}
          </div>
        ))}
      </fieldset>
      {canEdit ? (
        <div className="flex flex-wrap items-end gap-3">
          <div className="min-w-64 flex-1">
            <Label htmlFor="params-note">Note (why)</Label>
            <input id="params-note" name="note" maxLength={2000} className={inputClass} placeholder="e.g. stricter expansion threshold for this team" />
          </div>
          <button type="submit" className={buttonClass} disabled={pending}>
            {pending ? "Saving…" : "Save as new version"}
          </button>
        </div>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Only an owner of this scope can change its parameters.</p>
      )}
      {message ? (
        <p role={message.ok ? "status" : "alert"} className={`text-sm ${message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}`} data-testid="params-message">
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
