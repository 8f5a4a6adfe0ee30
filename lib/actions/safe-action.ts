import { z } from "zod";
import { currentUser, type SessionUser } from "@/lib/auth/session";
import { sessionPrincipal, type Principal } from "@/lib/access/principal";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { issueFields } from "@/lib/engine";
import type { BeliefServices } from "@/lib/beliefs/belief-services";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";

/** What every server action returns: the form shows `error.message` and `error.fields[name]` next to the inputs. */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: string; message: string; fields?: Record<string, string> } };

/** What a form holds between submissions: nothing yet, or the last action's result. */
export type FormState = { ok: true; data?: unknown } | ActionResult<unknown> | null;

export interface ActionContext {
  user: SessionUser;
  /** The signed-in user as a caller of the services. */
  caller: Principal;
  services: BeliefServices;
}

function toInput(raw: unknown): unknown {
  if (raw instanceof FormData) {
    const out: Record<string, FormDataEntryValue> = {};
    for (const [key, value] of raw.entries()) if (!key.startsWith("$ACTION")) out[key] = value;
    return out;
  }
  return raw;
}

/** A form's errors: the first problem of each field (`issueFields`, the one zod translation). */
export function fieldErrors(error: z.ZodError, prefix?: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const { field, message } of issueFields(error.issues)) {
    const key = prefix !== undefined && field.startsWith(`${prefix}.`) ? field.slice(prefix.length + 1) : field;
    fields[key] ??= message;
  }
  return fields;
}

/**
 * One entry point for server actions (the dub.co pattern): the session goes into the context, the input is parsed
 * once with zod, the application layer's one error (`BeliefServiceError`) becomes a readable result, anything else is logged and shown as a
 * generic failure.
 * Permission checks live in the services the body calls, so the API and the CLI get the same rules.
 */
export function authedAction<S extends z.ZodType, T>(
  schema: S,
  body: (input: z.infer<S>, ctx: ActionContext) => Promise<T>,
): (raw: unknown) => Promise<ActionResult<T>> {
  return async (raw) => {
    const user = await currentUser();
    if (!user) return { ok: false, error: { code: "unauthenticated", message: "Your session has ended. Sign in again." } };
    const parsed = schema.safeParse(toInput(raw));
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      return { ok: false, error: { code: "invalid", message: "Please correct the highlighted fields.", fields } };
    }
    try {
      return { ok: true, data: await body(parsed.data, { user, caller: sessionPrincipal(user.id), services: await getBeliefServices() }) };
    } catch (error) {
      if (error instanceof BeliefServiceError) {
        const fields = error.details.fields ? Object.fromEntries(error.details.fields.map((f) => [f.field, f.message])) : undefined;
        return { ok: false, error: { code: error.code, message: error.message, fields } };
      }
      console.error("server action failed", error);
      return { ok: false, error: { code: "internal", message: "Something went wrong on our side; nothing was changed." } };
    }
  };
}

/** Adapter for `useActionState(formAction, initial)`: the previous state is ignored. */
export function formAction<T>(action: (raw: unknown) => Promise<ActionResult<T>>) {
  return async (_previous: ActionResult<T> | null, formData: FormData) => action(formData);
}

/**
 * `authedAction` for one call, in the shape the belief-workflow actions use: parse `raw` with `schema` and run `body`
 * as the signed-in user.
 */
export function runAction<S extends z.ZodType, T>(
  schema: S,
  raw: unknown,
  body: (input: z.infer<S>, userId: string) => Promise<T>,
): Promise<ActionResult<T>> {
  return authedAction(schema, (input, { user }) => body(input, user.id))(raw);
}
