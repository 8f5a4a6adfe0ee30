"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import { currentUser } from "@/lib/auth/session";
import { BeliefServiceError } from "@/lib/beliefs/belief-service-error";
import type { AssimilateResult, MutationResult } from "@/lib/beliefs/belief-services";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { MUTATION_TYPES, REVIEW_DECISIONS, REVIEW_RESOLUTIONS, type TopicFreeze } from "@/lib/engine";
import type { ActionResult } from "./safe-action";

const scope = z.string().trim().min(1).max(48);
const id = z.string().trim().min(1).max(500);
const note = z.string().trim().min(1, "Write a note for the journal.").max(4_000);

/** Same contract as `ingest-actions`' runner: parse, call the service as the signed-in user, map its errors. */
async function run<S extends z.ZodType, T>(schema: S, raw: unknown, body: (input: z.infer<S>, userId: string) => Promise<T>): Promise<ActionResult<T>> {
  const user = await currentUser();
  if (!user) return { ok: false, error: { code: "unauthenticated", message: "Your session has ended. Sign in again." } };
  const parsed = schema.safeParse(raw instanceof FormData ? Object.fromEntries(raw.entries()) : raw);
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
    console.error("review action failed", error);
    return { ok: false, error: { code: "internal", message: "Something went wrong on our side; nothing was changed." } };
  }
}

const reviewInput = z.object({
  scope,
  mutationId: id,
  decision: z.enum(REVIEW_DECISIONS),
  resolution: z.enum(REVIEW_RESOLUTIONS).optional(),
  note,
});

/** Approve (with a resolution, default coexist) or reject a pending mutation — reviewer or owner. */
export async function reviewMutationAction(_previous: null, formData: FormData): Promise<ActionResult<MutationResult>> {
  return run(reviewInput, formData, async ({ scope: slug, resolution, decision, ...rest }, userId) => {
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

const liftInput = z.object({ scope, topic: z.string().trim().min(1).max(200), note });

/** Lift a topic freeze left by an oscillation hard stop — reviewer or owner. */
export async function liftFreezeAction(_previous: null, formData: FormData): Promise<ActionResult<TopicFreeze>> {
  return run(liftInput, formData, async ({ scope: slug, ...rest }, userId) => {
    const services = await getBeliefServices();
    const result = await services.liftFreeze(sessionPrincipal(userId), slug, rest);
    revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}

const pairInput = z.object({ scope, beliefAId: id, beliefBId: id });

/** Accept a proposed dialectical synthesis: it enters as a fresh provisional belief (editor or higher). */
export async function acceptSynthesisAction(input: z.input<typeof pairInput>): Promise<ActionResult<AssimilateResult>> {
  return run(pairInput, input, async ({ scope: slug, ...pair }, userId) => {
    const services = await getBeliefServices();
    const result = await services.acceptSynthesis(sessionPrincipal(userId), slug, pair);
    revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}

/** Dismiss a synthesis: not proposed again for that pair until either side gains new support. */
export async function dismissSynthesisAction(input: z.input<typeof pairInput>): Promise<ActionResult<null>> {
  return run(pairInput, input, async ({ scope: slug, ...pair }, userId) => {
    const services = await getBeliefServices();
    await services.dismissSynthesis(sessionPrincipal(userId), slug, pair);
    revalidatePath(`/scopes/${slug}`, "layout");
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
  return run(proposeInput, formData, async ({ scope: slug, ...input }, userId) => {
    const services = await getBeliefServices();
    const result = await services.proposeMutation(sessionPrincipal(userId), slug, { ...input, evidenceIds: [input.sourceEvent] });
    revalidatePath(`/scopes/${slug}`, "layout");
    return result;
  });
}
