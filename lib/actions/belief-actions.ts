"use server";

import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import type { RecallAnswer } from "@/lib/engine/recall";
import { authedAction, type ActionResult } from "./safe-action";

const recallInput = z.object({ scope: z.string().min(1).max(48), q: z.string().trim().min(1, "Ask a question.").max(2_000) });

const recall = authedAction(recallInput, async (input, { user }) =>
  (await getBeliefServices()).recall(sessionPrincipal(user.id), input.scope, { q: input.q }),
);

/** The recall box: the same service and authorisation as `GET /api/v1/scopes/{scope}/recall`. */
export async function recallAction(input: z.input<typeof recallInput>): Promise<ActionResult<RecallAnswer>> {
  return recall(input);
}
