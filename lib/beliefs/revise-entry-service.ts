/**
 * Revise an entry (editor): a `revised` item that replays an earlier evidence entry as if it had carried the new
 * weight or relation; a belief that loses its last real support by it strips its citers (the grounding cascade).
 */
import type { ChangeSet, EvidenceEntry } from "@/lib/engine";
import { changeSetOf, writeBelief } from "@/lib/engine/assimilate";
import { reviseEntryInputSchema } from "./belief-schemas";
import { BeliefServiceError, itemNotFoundError, parseServiceInput } from "@/lib/errors/belief-service-error";
import type { BeliefChange, BeliefServices } from "./belief-services";
import { beliefFigures, withGroundingPropagation, type ServiceKit } from "./service-kit";

export function reviseEntryService(kit: ServiceKit): Pick<BeliefServices, "reviseEntry"> {
  const { store, clock } = kit.config;
  return {
    async reviseEntry(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(reviseEntryInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const params = ctx.params.params;
      return kit.retry(async () => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const record = await store.loadBelief(ctx.view, input.beliefId);
        if (!record) throw itemNotFoundError("belief", input.beliefId, "beliefId");
        const entry = record.history.find((i): i is EvidenceEntry => i.type === "entry" && i.seq === input.seq);
        if (!entry) throw new BeliefServiceError("invalid", `belief ${input.beliefId} has no entry #${input.seq}`, { fields: [{ field: "seq", message: "no such entry" }] });
        const write = writeBelief(
          record,
          [
            {
              type: "revised",
              targetSeq: input.seq,
              ...(input.weight !== undefined ? { weight: input.weight } : {}),
              ...(input.relation !== undefined ? { relation: input.relation } : {}),
              reason: input.reason,
              time: now,
              actor: ctx.actor,
              changeSet: changeSetId,
            },
          ],
          params,
          now,
          false,
        );
        const propagated = await withGroundingPropagation(kit, changeSetOf([write], changeSetId, ctx.actor, now), new Map([[record.belief.id, record]]));
        await store.apply(propagated.changeSet);
        const cascade = (propagated.cascade?.touched ?? [])
          .filter((t) => t.beliefId !== record.belief.id && ctx.canRead(t.scope))
          .map((t) => ({
            beliefId: t.beliefId,
            text: "",
            created: false,
            before: null,
            after: { credence: t.credenceAfter, confidence: 0, tension: 0, status: t.statusAfter },
          }));
        return { belief: write.record.belief, history: write.record.history, changeSetId, cascade: withTexts(cascade, propagated.changeSet) };
      });
    },
  };
}

/** The cascade's changes with the text and figures of each belief as the change-set leaves it. */
function withTexts(changes: BeliefChange[], changeSet: ChangeSet): BeliefChange[] {
  const byId = new Map(changeSet.beliefs.map((u) => [u.belief.id, u.belief]));
  return changes.map((c) => {
    const b = byId.get(c.beliefId);
    return b ? { ...c, text: b.text, after: beliefFigures(b) } : c;
  });
}
