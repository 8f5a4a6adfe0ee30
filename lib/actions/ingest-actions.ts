"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import type { IngestResult, RetractResult, AssimilateResult } from "@/lib/beliefs/belief-services";
import { callerEvidenceKindSchema, ingestEditsSchema } from "@/lib/beliefs/belief-schemas";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { TIERS, RELATIONS } from "@/lib/engine";
import { runAction, type ActionResult } from "./safe-action";

const scope = z.string().trim().min(1).max(48);


const ingestInput = z.object({
  scope,
  text: z.string().trim().min(1, "Paste some text to ingest.").max(20_000, "At most 20 000 characters per part."),
  kind: callerEvidenceKindSchema,
  topic: z.string().trim().max(200).optional().transform((t) => (t ? t : undefined)),
  dryRun: z.boolean(),
  /** The person's edits of this part's dry run (what to leave out or read differently), applied by the commit. */
  edits: ingestEditsSchema.optional(),
});

/** One ingest (or its dry run) of one part of the pasted text: the same service and role check as `POST …/ingest`. */
export async function ingestAction(input: z.input<typeof ingestInput>): Promise<ActionResult<IngestResult>> {
  return runAction(ingestInput, input, async ({ scope: slug, dryRun, edits, ...rest }, userId) => {
    const services = await getBeliefServices();
    const result = await services.ingest(sessionPrincipal(userId), slug, { ...rest, dryRun, ...(edits ? { edits } : {}) });
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
  return runAction(addEvidenceInput, Object.fromEntries(formData.entries()), async (input, userId) => {
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
  return runAction(retractInput, input, async ({ scope: slug, sourceId, dryRun }, userId) => {
    const services = await getBeliefServices();
    const result = await services.retract(sessionPrincipal(userId), slug, { sourceId, dryRun });
    if (!dryRun) revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}
