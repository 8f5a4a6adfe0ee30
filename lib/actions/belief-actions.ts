"use server";

import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { BeliefServiceError } from "@/lib/beliefs/belief-service-error";
import { currentUser } from "@/lib/auth/session";
import type { RecallAnswer } from "@/lib/engine/recall";
import type { ActionResult } from "./safe-action";

const recallInput = z.object({ scope: z.string().min(1).max(48), q: z.string().trim().min(1, "Ask a question.").max(2_000) });

/** The recall box: the same service and authorisation as `GET /api/v1/scopes/{scope}/recall`. */
export async function recallAction(input: z.input<typeof recallInput>): Promise<ActionResult<RecallAnswer>> {
  const user = await currentUser();
  if (!user) return { ok: false, error: { code: "unauthenticated", message: "Your session has ended. Sign in again." } };
  const parsed = recallInput.safeParse(input);
  if (!parsed.success) return { ok: false, error: { code: "invalid", message: parsed.error.issues[0]?.message ?? "Invalid question." } };
  try {
    const services = await getBeliefServices();
    return { ok: true, data: await services.recall(sessionPrincipal(user.id), parsed.data.scope, { q: parsed.data.q }) };
  } catch (error) {
    if (error instanceof BeliefServiceError) return { ok: false, error: { code: error.code, message: error.message } };
    console.error("recall failed", error);
    return { ok: false, error: { code: "internal", message: "Recall failed on our side." } };
  }
}
