/**
 * Correct a relation (editor): how one evidence item bears on a belief, as a person or an agent reads it, replacing
 * what was recorded (by the reader, a model or the caller that cited it). One `revised` event per live entry of the
 * evidence on the belief (`planRelationCorrection`), written like any revision (`applyRevisions`): credence and
 * tension move at once, replay reproduces them, and the history keeps who, when, from, to and why. An undo is the
 * same call back to `correction.from`.
 */
import { isLiveStatus, planRelationCorrection } from "@/lib/engine";
import { correctRelationInputSchema } from "./belief-schemas";
import { itemNotFoundError, parseServiceInput } from "@/lib/errors/belief-service-error";
import type { BeliefServices } from "./belief-services";
import { applyRevisions } from "./revise-entry-service";
import { beliefFigures, notLiveError, type ServiceKit } from "./service-kit";

export function correctRelationService(kit: ServiceKit): Pick<BeliefServices, "correctRelation"> {
  const { store, clock } = kit.config;
  return {
    async correctRelation(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(correctRelationInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      return kit.retry(ctx.scope.id, async () => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const evidence = await store.loadEvidence(ctx.view, input.evidenceId);
        if (!evidence) throw itemNotFoundError("evidence", input.evidenceId, "evidenceId");
        const record = await store.loadBelief(ctx.view, input.beliefId);
        if (!record) throw itemNotFoundError("belief", input.beliefId, "beliefId");
        if (!isLiveStatus(record.belief.status)) throw notLiveError(input.beliefId, record.belief.status, "its history is closed");
        const plan = planRelationCorrection({
          history: record.history,
          sourceId: evidence.id,
          relation: input.relation,
          ...(input.seq !== undefined ? { seq: input.seq } : {}),
          reason: input.reason,
          actor: ctx.actor,
          now,
          changeSetId,
        });
        const result = await applyRevisions(kit, ctx, record, plan.items, { now, changeSetId });
        const revisionSeqs = result.history.filter((h) => h.type === "revised" && h.changeSet === changeSetId).map((h) => h.seq);
        return {
          ...result,
          correction: {
            evidenceId: evidence.id,
            beliefId: record.belief.id,
            from: plan.from,
            to: input.relation,
            reason: input.reason,
            actor: ctx.actor,
            time: now,
            entrySeqs: plan.entrySeqs,
            revisionSeqs,
          },
          before: beliefFigures(record.belief),
          after: beliefFigures(result.belief),
        };
      });
    },
  };
}
