"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import { currentUser } from "@/lib/auth/session";
import { BeliefServiceError } from "@/lib/beliefs/belief-service-error";
import type { IngestResult, RetractResult, AssimilateResult } from "@/lib/beliefs/belief-services";
import { callerEvidenceKindSchema } from "@/lib/beliefs/belief-schemas";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { TIERS, RELATIONS } from "@/lib/engine";
import type { ActionResult } from "./safe-action";

const scope = z.string().trim().min(1).max(48);

/**
 * Runs one service call for the signed-in user: the input is parsed with `schema`, a `BeliefServiceError` becomes a
 * readable result (field problems beside their inputs), anything else is logged and reported generically.
 */
async function run<S extends z.ZodType, T>(schema: S, raw: unknown, body: (input: z.infer<S>, userId: string) => Promise<T>): Promise<ActionResult<T>> {
  const user = await currentUser();
  if (!user) return { ok: false, error: { code: "unauthenticated", message: "Your session has ended. Sign in again." } };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[issue.path.join(".") || "_"] ??= issue.message;
    return { ok: false, error: { code: "invalid", message: "Please correct the highlighted fields.", fields } };
  }
  try {
    return { ok: true, data: await body(parsed.data, user.id) };
  } catch (error) {
    if (error instanceof BeliefServiceError) {
      const fields = error.details.fields ? Object.fromEntries(error.details.fields.map((f) => [f.field, f.message])) : undefined;
      return { ok: false, error: { code: error.code, message: error.message, fields } };
    }
    console.error("ingest action failed", error);
    return { ok: false, error: { code: "internal", message: "Something went wrong on our side; nothing was changed." } };
  }
}

const ingestInput = z.object({
  scope,
  text: z.string().trim().min(1, "Paste some text to ingest.").max(20_000, "At most 20 000 characters per part."),
  kind: callerEvidenceKindSchema,
  topic: z.string().trim().max(200).optional().transform((t) => (t ? t : undefined)),
  dryRun: z.boolean(),
});

/** One ingest (or its dry run) of one part of the pasted text: the same service and role check as `POST …/ingest`. */
export async function ingestAction(input: z.input<typeof ingestInput>): Promise<ActionResult<IngestResult>> {
  return run(ingestInput, input, async ({ scope: slug, dryRun, ...rest }, userId) => {
    const services = await getBeliefServices();
    const result = await services.ingest(sessionPrincipal(userId), slug, { ...rest, dryRun });
    if (!dryRun) revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}

const addEvidenceInput = z.object({
  scope,
  beliefId: z.string().trim().min(1).max(500),
  kind: callerEvidenceKindSchema,
  text: z.string().trim().min(1, "Describe the evidence.").max(20_000),
  uri: z.string().trim().max(2_000).optional().transform((u) => (u ? u : undefined)),
  tier: z.enum(TIERS),
  relation: z.enum(RELATIONS),
  weight: z.coerce.number().min(0, "Between 0 and 1.").max(1, "Between 0 and 1."),
});

/** The belief page's "add evidence": registers the item (assessed), then cites it on the belief in one more change-set. */
export async function addEvidenceAction(_previous: null, formData: FormData): Promise<ActionResult<AssimilateResult>> {
  return run(addEvidenceInput, Object.fromEntries(formData.entries()), async (input, userId) => {
    const services = await getBeliefServices();
    const caller = sessionPrincipal(userId);
    const registered = await services.registerEvidence(caller, input.scope, { kind: input.kind, text: input.text, uri: input.uri });
    const result = await services.assimilate(caller, input.scope, {
      beliefId: input.beliefId,
      evidence: [{ sourceId: registered.evidence.id, tier: input.tier, relation: input.relation, weight: input.weight }],
    });
    revalidatePath(`/scopes/${input.scope}`, "layout");
    return result;
  });
}

const retractInput = z.object({ scope, sourceId: z.string().trim().min(1).max(500), dryRun: z.boolean() });

/** Retract a source (editor of the source's own scope); `dryRun` previews what the cascade would touch. */
export async function retractSourceAction(input: z.input<typeof retractInput>): Promise<ActionResult<RetractResult>> {
  return run(retractInput, input, async ({ scope: slug, sourceId, dryRun }, userId) => {
    const services = await getBeliefServices();
    const result = await services.retract(sessionPrincipal(userId), slug, { sourceId, dryRun });
    if (!dryRun) revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}
