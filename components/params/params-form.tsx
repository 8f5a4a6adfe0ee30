"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { setParamsAction } from "@/lib/actions/params-actions";
import type { EngineParams } from "@/lib/engine";
import { Label, buttonClass, inputClass } from "@/components/ui/form";
import { PARAM_GROUPS, paramSpec, unitText } from "@/lib/actions/params-catalog";
import { changedParams, flattenParams, formValues } from "./params-fields";

/** The owner's editor of the current parameter set; saving creates a new version with only the changed values laid over. */
export function ParamsForm({ scope, params, canEdit }: { scope: string; params: EngineParams; canEdit: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const fields = flattenParams(params);
  const initial = formValues(params);
  const groups = PARAM_GROUPS.map((group) => ({ group, fields: fields.filter(([name]) => paramSpec(name).group === group) })).filter((g) => g.fields.length > 0);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form: Record<string, string> = {};
    for (const [key, value] of new FormData(event.currentTarget).entries()) if (typeof value === "string") form[key] = value;
    const { changes, errors: fieldErrors } = changedParams(params, form);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) {
      const count = Object.keys(fieldErrors).length;
      setMessage({ ok: false, text: `${count} value${count === 1 ? " is" : "s are"} not valid (marked in red below); nothing was saved.` });
      document.getElementById(`param-${Object.keys(fieldErrors)[0] ?? ""}`)?.focus();
      return;
    }
    if (Object.keys(changes).length === 0) {
      setMessage({ ok: false, text: "Nothing changed: edit a value first." });
      return;
    }
    setMessage(null);
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
    <form onSubmit={onSubmit} aria-label="Scope parameters" className="space-y-4" noValidate>
      {groups.map(({ group, fields: groupFields }) => (
        <fieldset key={group} disabled={!canEdit || pending} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
          <legend className="px-1 text-sm font-semibold">{group}</legend>
          <div className="grid gap-x-6 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
            {groupFields.map(([name, value]) => {
              const spec = paramSpec(name);
              const unit = unitText(spec);
              return (
                <div key={name}>
                  <Label htmlFor={`param-${name}`}>
                    {spec.label}
                    {unit ? <span className="ml-1 font-normal text-zinc-600 dark:text-zinc-400">({unit})</span> : null}
                  </Label>
                  <p className="text-xs text-zinc-600 dark:text-zinc-400" id={`param-${name}-help`}>
                    {spec.description} <span className="font-mono">{name}</span>
                  </p>
                  {typeof value === "boolean" ? (
                    <select id={`param-${name}`} name={name} defaultValue={String(value)} className={inputClass} aria-describedby={`param-${name}-help`}>
                      <option value="false">no</option>
                      <option value="true">yes</option>
                    </select>
                  ) : (
                    <input
                      id={`param-${name}`}
                      name={name}
                      type="number"
                      step="any"
                      min={spec.min}
                      max={spec.max}
                      defaultValue={initial[name]}
                      className={`${inputClass} ${errors[name] ? "border-red-600 ring-1 ring-red-600 dark:border-red-500 dark:ring-red-500" : ""}`}
                      aria-invalid={errors[name] ? true : undefined}
                      aria-describedby={errors[name] ? `param-${name}-error param-${name}-help` : `param-${name}-help`}
                    />
                  )}
                  {errors[name] ? (
                    <p id={`param-${name}-error`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
                      {errors[name]}
                    </p>
                  ) : null}
                </div>
              );
            })}
          </div>
        </fieldset>
      ))}
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
