"use server";

import { z } from "zod";
import { READING_DECISIONS } from "@/lib/engine";
import type { DecideReadingResult } from "@/lib/beliefs/belief-services";
import { authedAction, type ActionResult } from "./safe-action";

const slug = z.string().min(1).max(48);
const decideInput = z.object({
  scope: slug,
  beliefId: z.string().min(1).max(200),
  seq: z.number().int().min(1),
  decision: z.enum(READING_DECISIONS),
  reason: z.string().trim().min(1).max(2_000),
});

const decide = authedAction(decideInput, async ({ scope, ...rest }, { caller, services }) => services.decideReading(caller, scope, rest));

/** Decide an undecided reading or a possible duplicate: the same service and rules as `POST …/readings/{seq}/decision`. */
export async function decideReadingAction(input: z.input<typeof decideInput>): Promise<ActionResult<{ decidedSeq: number; credence: number }>> {
  const r = await decide(input);
  return r.ok ? { ok: true, data: { decidedSeq: decidedSeqOf(r.data, input.seq), credence: r.data.belief.credence } } : r;
}

const undoInput = z.object({ scope: slug, beliefId: z.string().min(1).max(200), seq: z.number().int().min(1), reason: z.string().trim().min(1).max(2_000) });

const undo = authedAction(undoInput, async ({ scope, ...rest }, { caller, services }) => services.undoReadingDecision(caller, scope, rest));

/** Undo a decision made in the queue: the link opens again and the belief's credence returns to what it was. */
export async function undoReadingDecisionAction(input: z.input<typeof undoInput>): Promise<ActionResult<{ credence: number }>> {
  const r = await undo(input);
  return r.ok ? { ok: true, data: { credence: r.data.belief.credence } } : r;
}

function decidedSeqOf(result: DecideReadingResult, targetSeq: number): number {
  const d = result.history.find((h) => h.type === "decided" && h.targetSeq === targetSeq && h.changeSet === result.changeSetId);
  return d?.seq ?? 0;
}
