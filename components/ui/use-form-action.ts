"use client";

import { useState, useTransition, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";

/**
 * Submits a form to a server action without React's automatic form reset: on an error the user keeps what they
 * typed and sees why; on success the form clears. `onSuccess` runs after a successful result.
 */
export function useFormAction<T>(
  action: (previous: null, formData: FormData) => Promise<ActionResult<T>>,
  onSuccess?: (data: T) => void,
) {
  const [state, setState] = useState<ActionResult<T> | null>(null);
  const [pending, startTransition] = useTransition();
  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const form = event.currentTarget;
    const formData = new FormData(form);
    // A new attempt clears the last one's messages and marks.
    setState(null);
    markInvalid(form, []);
    startTransition(async () => {
      const result = await action(null, formData);
      setState(result);
      if (result.ok) {
        form.reset();
        onSuccess?.(result.data);
      } else {
        markInvalid(form, Object.keys(result.error.fields ?? {}));
      }
    });
  }
  /** Clears the last result's messages (a later action elsewhere on the page makes them stale). */
  function reset(): void {
    setState(null);
  }
  return { state, pending, onSubmit, reset };
}

/** Highlights the named fields (aria-invalid, styled in globals.css) and moves focus to the first; [] clears. */
function markInvalid(form: HTMLFormElement, names: readonly string[]): void {
  for (const el of Array.from(form.elements)) {
    if (el instanceof HTMLElement && el.getAttribute("aria-invalid") === "true") el.removeAttribute("aria-invalid");
  }
  let first: HTMLElement | null = null;
  for (const name of names) {
    const el = form.elements.namedItem(name);
    if (el instanceof HTMLElement) {
      el.setAttribute("aria-invalid", "true");
      first ??= el;
    }
  }
  first?.focus();
}
