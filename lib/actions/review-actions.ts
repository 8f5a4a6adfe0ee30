"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import type { AssimilateResult, MutationResult } from "@/lib/beliefs/belief-services";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { MUTATION_TYPES, REVIEW_DECISIONS, REVIEW_RESOLUTIONS, type TopicFreeze } from "@/lib/engine";
import { runAction, type ActionResult } from "./safe-action";

const scope = z.string().trim().min(1).max(48);
const id = z.string().trim().min(1).max(500);
const note = z.string().trim().min(1, "Write a note for the journal.").max(4_000);


const reviewInput = z.object({
  scope,
  mutationId: id,
  decision: z.enum(REVIEW_DECISIONS),
  resolution: z.enum(REVIEW_RESOLUTIONS).optional(),
  note,
});

/** Approve (with a resolution, default coexist) or reject a pending mutation — reviewer or owner. */
export async function reviewMutationAction(_previous: null, formData: FormData): Promise<ActionResult<MutationResult>> {
  return runAction(reviewInput, formData, async ({ scope: slug, resolution, decision, ...rest }, userId) => {
    const services = await getBeliefServices();
    const result = await services.reviewMutation(sessionPrincipal(userId), slug, {
      ...rest,
      decision,
      ...(decision === "approve" ? { resolution: resolution ?? "coexist" } : {}),
    });
    revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}

const undoInput = z.object({ scope, mutationId: id, note });

/**
 * Undo an approved supersede or merge — reviewer or owner: the replaced belief is live again and the proposal waits in
 * the queue again; both decisions stay in the journal.
 */
export async function undoReviewAction(input: z.input<typeof undoInput>): Promise<ActionResult<MutationResult>> {
  return runAction(undoInput, input, async ({ scope: slug, ...rest }, userId) => {
    const services = await getBeliefServices();
    const result = await services.undoReview(sessionPrincipal(userId), slug, rest);
    revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}

const liftInput = z.object({ scope, topic: z.string().trim().min(1).max(200), note });

/** Lift a topic freeze left by an oscillation hard stop — reviewer or owner. */
export async function liftFreezeAction(_previous: null, formData: FormData): Promise<ActionResult<TopicFreeze>> {
  return runAction(liftInput, formData, async ({ scope: slug, ...rest }, userId) => {
    const services = await getBeliefServices();
    const result = await services.liftFreeze(sessionPrincipal(userId), slug, rest);
    revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}

const pairInput = z.object({ scope, beliefAId: id, beliefBId: id });
const acceptInput = pairInput.extend({ text: z.string().trim().min(1, "Write the synthesis as one sentence.").max(1_000).optional() });

/**
 * Accept a proposed dialectical synthesis: it enters as a fresh provisional belief (editor or higher). No revalidation
 * here: the refreshed queue would drop the candidate before its row could confirm what happened; the row shows the
 * outcome and the next visit reads the new state.
 */
export async function acceptSynthesisAction(input: z.input<typeof acceptInput>): Promise<ActionResult<AssimilateResult>> {
  return runAction(acceptInput, input, async ({ scope: slug, ...pair }, userId) => {
    const services = await getBeliefServices();
    const result = await services.acceptSynthesis(sessionPrincipal(userId), slug, pair);
    return result;
  });
}

/** Dismiss a synthesis: not proposed again for that pair until either side gains new support. */
export async function dismissSynthesisAction(input: z.input<typeof pairInput>): Promise<ActionResult<null>> {
  return runAction(pairInput, input, async ({ scope: slug, ...pair }, userId) => {
    const services = await getBeliefServices();
    await services.dismissSynthesis(sessionPrincipal(userId), slug, pair);
    return null;
  });
}

const proposeInput = z.object({
  scope,
  belief: z.string().trim().min(1, "State the belief as one sentence.").max(2_000),
  strength: z.coerce.number().min(0, "Between 0 and 1.").max(1, "Between 0 and 1."),
  reason: z.string().trim().min(1, "Cite at least one evidence id in the reason.").max(4_000),
  sourceEvent: id,
  mutationType: z.enum(MUTATION_TYPES),
  topic: z.string().trim().max(200).optional().transform((t) => (t ? t : undefined)),
});

/**
 * The belief page's "propose a mutation": the protocol decides (the result's `decision` may differ from the intent).
 * The source event is also listed in `evidenceIds`, so a reason that names it only implicitly still cites it.
 */
export async function proposeMutationAction(_previous: null, formData: FormData): Promise<ActionResult<MutationResult>> {
  return runAction(proposeInput, formData, async ({ scope: slug, ...input }, userId) => {
    const services = await getBeliefServices();
    const result = await services.proposeMutation(sessionPrincipal(userId), slug, { ...input, evidenceIds: [input.sourceEvent] });
    revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}
