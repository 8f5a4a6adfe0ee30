"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { DECIDED_RELATIONS, type DecidedRelation } from "@/lib/engine";
import { authedAction, type ActionResult } from "./safe-action";

const correctInput = z.object({
  scope: z.string().min(1).max(48),
  beliefId: z.string().min(1).max(500),
  evidenceId: z.string().min(1).max(500),
  relation: z.enum(DECIDED_RELATIONS, "Choose how the evidence bears on the belief."),
  reason: z.string().trim().min(1, "Say why, in a sentence.").max(20_000),
  /** One entry, only when the evidence's entries on the belief carry different relations. */
  seq: z.number().int().min(1).optional(),
});

/** What the page shows after a correction, and what its undo sends back. */
export interface CorrectionDone {
  from: DecidedRelation;
  to: DecidedRelation;
  before: { credence: number; tension: number };
  after: { credence: number; tension: number };
}

const correct = authedAction(correctInput, async ({ scope, ...rest }, { caller, services }) => {
  const r = await services.correctRelation(caller, scope, rest);
  revalidatePath(`/scopes/${scope}`, "layout");
  return {
    from: r.correction.from,
    to: r.correction.to,
    before: { credence: r.before.credence, tension: r.before.tension },
    after: { credence: r.after.credence, tension: r.after.tension },
  };
});

/**
 * The belief page's "Correct relation" and its "Undo" (a correction back to the relation it replaced): the same service,
 * role check and history as `POST …/evidence/{id}/relation`.
 */
export async function correctRelationAction(input: z.input<typeof correctInput>): Promise<ActionResult<CorrectionDone>> {
  return correct(input);
}
