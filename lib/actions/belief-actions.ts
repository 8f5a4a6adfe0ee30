"use server";

import { z } from "zod";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import type { RecallAnswer } from "@/lib/engine/recall";
import { HYBRID_ANSWER_FLOOR } from "@/lib/engine/retrieval";
import { authedAction, type ActionResult } from "./safe-action";

const recallInput = z.object({ scope: z.string().min(1).max(48), q: z.string().trim().min(1, "Ask a question.").max(2_000) });

const recall = authedAction(recallInput, async (input, { user }) =>
  (await getBeliefServices()).recall(sessionPrincipal(user.id), input.scope, { q: input.q }),
);

/** The recall box: the same service and authorisation as `GET /api/v1/scopes/{scope}/recall`. */
export async function recallAction(input: z.input<typeof recallInput>): Promise<ActionResult<RecallAnswer>> {
  return recall(input);
}

/**
 * A belief the graph's search box found by meaning: the hybrid ranking of `GET …/beliefs?q=` (live beliefs, relevance
 * × credence), kept as `matches` says.
 */
export interface BeliefMatch {
  id: string;
  relevance: number;
}

/**
 * Which ranked beliefs the search box highlights: those that may speak to the question at all (recall's own answer
 * floor, `HYBRID_ANSWER_FLOOR`) and are at least half as relevant as the best one, so a clear answer is not drowned
 * in the long tail of weak neighbours. Measured on the demo: paraphrases score 0.19–0.8, their runners-up below half.
 */
function matches(ranked: readonly { belief: { id: string }; relevance: number }[]): BeliefMatch[] {
  const best = Math.max(0, ...ranked.map((r) => r.relevance));
  return ranked.filter((r) => r.relevance > HYBRID_ANSWER_FLOOR && r.relevance >= best / 2).map((r) => ({ id: r.belief.id, relevance: r.relevance }));
}

const searchInput = z.object({ scope: z.string().min(1).max(48), q: z.string().trim().min(1, "Type something to find.").max(500) });

const search = authedAction(searchInput, async (input, { user }) => {
  return matches(await (await getBeliefServices()).retrieve(sessionPrincipal(user.id), input.scope, { q: input.q, k: 20 }));
});

/** The graph explorer's search box: beliefs by meaning, with the same service and authorisation as the REST search. */
export async function searchBeliefsAction(input: z.input<typeof searchInput>): Promise<ActionResult<BeliefMatch[]>> {
  return search(input);
}
