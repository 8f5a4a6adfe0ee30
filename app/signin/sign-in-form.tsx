"use client";

import { useActionState } from "react";
import { signInAction } from "@/lib/actions/auth-actions";
import { FormError, Label, buttonClass, inputClass } from "@/components/ui/form";
import type { FormState } from "@/lib/actions/safe-action";

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(signInAction, null);
  return (
    <form action={action} className="space-y-4" aria-label="Sign in">
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <div>
        <Label htmlFor="email">Email</Label>
        <input id="email" name="email" type="email" autoComplete="email" required autoFocus className={inputClass} />
      </div>
      <div>
        <Label htmlFor="password">Password</Label>
        <input id="password" name="password" type="password" autoComplete="current-password" required className={inputClass} />
      </div>
      <FormError state={state} />
      <button type="submit" className={`${buttonClass} w-full`} disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
