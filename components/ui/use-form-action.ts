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
    startTransition(async () => {
      const result = await action(null, formData);
      setState(result);
      if (result.ok) {
        form.reset();
        onSuccess?.(result.data);
      }
    });
  }
  return { state, pending, onSubmit };
}
