"use client";

import { useRouter } from "next/navigation";
import { createScopeAction } from "@/lib/actions/scope-actions";
import { FieldError, FormError, Label, buttonClass, inputClass } from "@/components/ui/form";
import { useFormAction } from "@/components/ui/use-form-action";

export function CreateScopeForm() {
  const router = useRouter();
  const { state, pending, onSubmit } = useFormAction(createScopeAction, (created) =>
    router.push(`/scopes/${created.slug}/settings`),
  );
  return (
    <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start" aria-label="Create a scope">
      <div>
        <Label htmlFor="scope-name">Name</Label>
        <input id="scope-name" name="name" required placeholder="Platform team" className={inputClass} />
        <FieldError state={state} name="name" />
      </div>
      <div>
        <Label htmlFor="scope-slug">Slug (used in URLs and the API)</Label>
        <input id="scope-slug" name="slug" required placeholder="platform" className={inputClass} />
        <FieldError state={state} name="slug" />
      </div>
      <button type="submit" className={`${buttonClass} sm:mt-6`} disabled={pending}>
        {pending ? "Creating…" : "Create scope"}
      </button>
      <div className="sm:col-span-3">
        <FormError state={state} shown={["name", "slug"]} />
      </div>
    </form>
  );
}
