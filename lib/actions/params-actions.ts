"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import { currentUser } from "@/lib/auth/session";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import type { ScopeParamsView } from "@/lib/beliefs/belief-services";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { engineParamsInputSchema } from "@/lib/engine";
import { paramSpec, rangeError, toDisplay } from "./params-catalog";
import { fieldErrors, type ActionResult } from "./safe-action";

const setInput = z.object({
  scope: z.string().trim().min(1).max(48),
  /** Only the values the owner changed; merged over the current version's own settings. */
  changes: engineParamsInputSchema,
  note: z.string().trim().max(2_000).optional(),
});

/**
 * Owner only: a new parameter version = the current version's settings with `changes` laid over them (tier strengths
 * merged per tier). New writes use it; existing beliefs keep the version their replay recorded.
 */
export async function setParamsAction(input: z.input<typeof setInput>): Promise<ActionResult<ScopeParamsView>> {
  const user = await currentUser();
  if (!user) return { ok: false, error: { code: "unauthenticated", message: "Your session has ended. Sign in again." } };
  const parsed = setInput.safeParse(input);
  if (!parsed.success) {
    return { ok: false, error: { code: "invalid", message: "Please correct the highlighted fields.", fields: fieldErrors(parsed.error, "changes") } };
  }
  const { scope, changes, note } = parsed.data;
  // Out-of-range values are refused here too (the engine would clamp them silently).
  const rangeFields: Record<string, string> = {};
  for (const [name, value] of Object.entries(changes)) {
    if (name === "tierStrength" && value && typeof value === "object") {
      for (const [tier, strength] of Object.entries(value)) {
        const problem = typeof strength === "number" ? rangeError(paramSpec(`tierStrength.${tier}`), strength) : null;
        if (problem) rangeFields[`tierStrength.${tier}`] = problem;
      }
    } else if (typeof value === "number") {
      const spec = paramSpec(name);
      const problem = rangeError(spec, toDisplay(spec, value));
      if (problem) rangeFields[name] = problem;
    }
  }
  if (Object.keys(rangeFields).length > 0) return { ok: false, error: { code: "invalid", message: "Some values are outside their valid range; nothing was saved.", fields: rangeFields } };
  if (Object.keys(changes).length === 0) return { ok: false, error: { code: "invalid", message: "Change at least one value first." } };
  try {
    const services = await getBeliefServices();
    const caller = sessionPrincipal(user.id);
    const current = await services.getParams(caller, scope);
    const tierStrength = { ...current.input.tierStrength, ...changes.tierStrength };
    const params = { ...current.input, ...changes, ...(Object.keys(tierStrength).length > 0 ? { tierStrength } : {}) };
    const view = await services.setParams(caller, scope, { params, ...(note ? { note } : {}) });
    revalidatePath(`/scopes/${scope}`, "layout");
    return { ok: true, data: view };
  } catch (error) {
    if (error instanceof BeliefServiceError) return { ok: false, error: { code: error.code, message: error.message } };
    console.error("set params failed", error);
    return { ok: false, error: { code: "internal", message: "Something went wrong on our side; nothing was changed." } };
  }
}

const revertInput = z.object({ scope: z.string().trim().min(1).max(48), version: z.number().int().min(0) }).strict();

/** Owner only: a new version whose settings are those of an earlier one (history is kept; nothing is rewritten). */
export async function revertParamsAction(input: z.input<typeof revertInput>): Promise<ActionResult<ScopeParamsView>> {
  const user = await currentUser();
  if (!user) return { ok: false, error: { code: "unauthenticated", message: "Your session has ended. Sign in again." } };
  const parsed = revertInput.safeParse(input);
  if (!parsed.success) return { ok: false, error: { code: "invalid", message: "That version cannot be restored." } };
  const { scope, version } = parsed.data;
  try {
    const services = await getBeliefServices();
    const caller = sessionPrincipal(user.id);
    const versions = await services.listParamsVersions(caller, scope);
    const target = versions.find((v) => v.version === version);
    if (!target) return { ok: false, error: { code: "not_found", message: `There is no version ${version}.` } };
    const view = await services.setParams(caller, scope, { params: target.input, note: `Reverted to version ${version}` });
    revalidatePath(`/scopes/${scope}`, "layout");
    return { ok: true, data: view };
  } catch (error) {
    if (error instanceof BeliefServiceError) return { ok: false, error: { code: error.code, message: error.message } };
    console.error("revert params failed", error);
    return { ok: false, error: { code: "internal", message: "Something went wrong on our side; nothing was changed." } };
  }
}
