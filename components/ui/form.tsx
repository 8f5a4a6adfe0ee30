"use client";

import type { ReactNode } from "react";
import type { FormState } from "@/lib/actions/safe-action";

/**
 * A validation message as a person reads it: zod's defaults ("Too big: expected string to have <=20000 characters")
 * are reworded; anything else passes unchanged.
 */
export function humanMessage(message: string): string {
  const m = message.match(/^Too (big|small): expected (string|number|array) to (?:have|be) ([<>]=?)(-?[\d.]+)(?: (characters|items))?/);
  if (m) {
    const [, , kind, op, n, what] = m;
    const limit = Number(n);
    if (kind === "string") return op?.startsWith("<") ? `Too long: at most ${limit.toLocaleString("en")} characters.` : limit <= 1 ? "Required." : `Too short: at least ${limit.toLocaleString("en")} characters.`;
    if (kind === "array") return op?.startsWith("<") ? `At most ${limit} ${what ?? "items"}.` : `At least ${limit} ${what ?? "items"}.`;
    return op?.startsWith("<") ? `Must be at most ${limit}.` : `Must be at least ${limit}.`;
  }
  if (/^Invalid input: expected number/.test(message)) return "Enter a number.";
  if (/^Invalid input: expected string, received undefined/.test(message)) return "Required.";
  if (/^Invalid option: expected one of/.test(message)) return "Choose one of the options.";
  if (/^Invalid (email|url)/i.test(message)) return message.replace(/^Invalid (\w+).*/i, (_, w: string) => `Enter a valid ${w.toLowerCase()}.`);
  return message;
}

export function FieldError({ state, name }: { state: FormState; name: string }) {
  const raw = state && !state.ok ? state.error.fields?.[name] : undefined;
  const message = raw === undefined ? undefined : humanMessage(raw);
  if (!message) return null;
  return (
    <p id={`${name}-error`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
      {message}
    </p>
  );
}

/** The form-level message, unless a field shown beside its input already carries it. */
export function FormError({ state, shown = [] }: { state: FormState; shown?: readonly string[] }) {
  if (!state || state.ok) return null;
  const fields = Object.keys(state.error.fields ?? {});
  if (fields.length > 0 && fields.every((field) => shown.includes(field))) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
      {humanMessage(state.error.message)}
    </p>
  );
}

export function Label({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-medium text-zinc-700 dark:text-zinc-300">
      {children}
    </label>
  );
}

export const inputClass =
  "mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-zinc-400 dark:border-zinc-700 dark:bg-zinc-900";

export const buttonClass =
  "inline-flex items-center justify-center rounded-md bg-sky-700 px-4 py-2 text-sm font-medium text-white hover:bg-sky-800 disabled:opacity-50 dark:bg-sky-700 dark:hover:bg-sky-600";

export const secondaryButtonClass =
  "inline-flex items-center justify-center rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800";
