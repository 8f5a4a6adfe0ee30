/**
 * Revise an entry (editor): a `revised` item that replays an earlier evidence entry as if it had carried the new
 * weight or relation; a belief that loses its last real support by it strips its citers (the grounding cascade).
 * `applyRevisions` is the one write of revisions, shared with relation corrections (`correct-relation-service.ts`).
 */
import type { BeliefRecord, ChangeSet, EvidenceEntry, IsoTime, RevisedEvent } from "@/lib/engine";
import { changeSetOf, writeBelief } from "@/lib/engine/assimilate";
import { reviseEntryInputSchema } from "./belief-schemas";
import { BeliefServiceError, itemNotFoundError, parseServiceInput } from "@/lib/errors/belief-service-error";
import type { BeliefChange, BeliefServices, ReviseEntryResult } from "./belief-services";
import type { CallerContext } from "./caller-context";
import { beliefFigures, withGroundingPropagation, type ServiceKit } from "./service-kit";

export function reviseEntryService(kit: ServiceKit): Pick<BeliefServices, "reviseEntry"> {
  const { store, clock } = kit.config;
  return {
    async reviseEntry(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(reviseEntryInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      return kit.retry(ctx.scope.id, async () => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const record = await store.loadBelief(ctx.view, input.beliefId);
        if (!record) throw itemNotFoundError("belief", input.beliefId, "beliefId");
        const entry = record.history.find((i): i is EvidenceEntry => i.type === "entry" && i.seq === input.seq);
        if (!entry) throw new BeliefServiceError("invalid", `belief ${input.beliefId} has no entry #${input.seq}`, { fields: [{ field: "seq", message: "no such entry" }] });
        const revision: Omit<RevisedEvent, "seq"> = {
          type: "revised",
          targetSeq: input.seq,
          ...(input.weight !== undefined ? { weight: input.weight } : {}),
          ...(input.relation !== undefined ? { relation: input.relation } : {}),
          reason: input.reason,
          time: now,
          actor: ctx.actor,
          changeSet: changeSetId,
        };
        return applyRevisions(kit, ctx, record, [revision], { now, changeSetId });
      });
    },
  };
}

/**
 * Appends `revisions` (one change-set) to a loaded belief, replays it, adds the grounding cascade for what lost its
 * last real support, and writes it all at once. The cascade lists only beliefs the caller may read.
 */
export async function applyRevisions(
  kit: ServiceKit,
  ctx: CallerContext,
  record: BeliefRecord,
  revisions: readonly Omit<RevisedEvent, "seq">[],
  at: { now: IsoTime; changeSetId: string },
): Promise<ReviseEntryResult> {
  const write = writeBelief(record, revisions, ctx.params.params, at.now, false);
  const propagated = await withGroundingPropagation(kit, changeSetOf([write], at.changeSetId, ctx.actor, at.now), new Map([[record.belief.id, record]]), { known: [ctx.params.params] });
  await kit.config.store.apply(propagated.changeSet);
  const cascade = (propagated.cascade?.touched ?? [])
    .filter((t) => t.beliefId !== record.belief.id && ctx.canRead(t.scope))
    .map((t) => ({
      beliefId: t.beliefId,
      text: "",
      created: false,
      before: null,
      after: { credence: t.credenceAfter, confidence: 0, tension: 0, status: t.statusAfter },
    }));
  return { belief: write.record.belief, history: write.record.history, changeSetId: at.changeSetId, cascade: withTexts(cascade, propagated.changeSet) };
}

/** The cascade's changes with the text and figures of each belief as the change-set leaves it. */
function withTexts(changes: BeliefChange[], changeSet: ChangeSet): BeliefChange[] {
  const byId = new Map(changeSet.beliefs.map((u) => [u.belief.id, u.belief]));
  return changes.map((c) => {
    const b = byId.get(c.beliefId);
    return b ? { ...c, text: b.text, after: beliefFigures(b) } : c;
  });
}
