/**
 * Retract (editor of the source's own scope): a source withdrawn everywhere it is cited, across scopes, with the
 * grounding cascade; a dry run reports what would change and writes nothing. Only beliefs the caller may read are
 * reported.
 */
import type { ChangeSet } from "@/lib/engine";
import { retract as retractSource } from "@/lib/engine/grounding";
import { retractInputSchema } from "./belief-schemas";
import { BeliefServiceError, itemNotFoundError, parseServiceInput } from "@/lib/errors/belief-service-error";
import type { BeliefServices } from "./belief-services";
import { beliefFigures, type ServiceKit } from "./service-kit";

export function retractService(kit: ServiceKit): Pick<BeliefServices, "retract"> {
  const { store, clock } = kit.config;
  return {
    async retract(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(retractInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      const resolved = await store.resolverFor(ctx.view).resolve(input.sourceId);
      if (!resolved) throw itemNotFoundError("source", input.sourceId, "sourceId");
      if (!ctx.hasRole(resolved.scope, "editor")) throw new BeliefServiceError("forbidden", "only an editor of the source's own scope may retract it");
      const paramsFor = await kit.paramsIndex();
      const run = async () => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const result = await retractSource(
          input.sourceId,
          { index: kit.resolvedCitations(), paramsFor, time: now, actor: ctx.actor, changeSetId },
          { dryRun: input.dryRun },
        );
        const changeSet: ChangeSet = resolved.kind === "evidence" ? result.changeSet : { ...result.changeSet, retractions: [] };
        if (!input.dryRun) await store.apply(changeSet);
        const after = new Map(changeSet.beliefs.map((u) => [u.belief.id, u.belief]));
        const touched = result.touched
          .filter((t) => ctx.canRead(t.scope))
          .flatMap((t) => {
            const write = result.writes.find((w) => w.record.belief.id === t.beliefId);
            const b = after.get(t.beliefId) ?? write?.record.belief;
            if (!b) return [];
            return [
              {
                beliefId: t.beliefId,
                belief: b,
                text: b.text,
                created: false,
                before: write?.before ? beliefFigures(write.before.belief) : null,
                after: beliefFigures(b),
                retractedSeqs: t.retractedSeqs,
                strippedSeqs: t.strippedSeqs,
              },
            ];
          });
        return { sourceId: input.sourceId, dryRun: input.dryRun, touched, changeSetId: input.dryRun ? null : changeSetId };
      };
      return input.dryRun ? run() : kit.retry(ctx.scope.id, run);
    },
  };
}
