/**
 * Harvest (read to preview, editor to commit): model or agent output split into atomic claims stamped with their
 * producer. With `commit`, each claim is assimilated citing its source (or the output itself, stored as model_output
 * evidence) at the tier that source can back, and a claim that restates a live belief reinforces it.
 */
import { emptyChangeSet, harvest as harvestClaims, tierOfKind, type Evidence, type Tier } from "@/lib/engine";
import { assimilateRequest } from "./assimilate-service";
import { harvestInputSchema } from "./belief-schemas";
import { parseServiceInput } from "@/lib/errors/belief-service-error";
import type { AssimilateResult, BeliefServices } from "./belief-services";
import { eventTimeOfWrite } from "./observed-at";
import type { ServiceKit } from "./service-kit";

export function harvestService(kit: ServiceKit): Pick<BeliefServices, "harvest"> {
  const { store, clock } = kit.config;
  return {
    async harvest(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(harvestInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, input.commit ? "editor" : "read");
      const observedAt = eventTimeOfWrite(input.observedAt, clock.now());
      const claims = harvestClaims(input.text, input.producedBy);
      if (!input.commit || claims.length === 0) return { claims, assimilated: [], evidence: null };
      let sourceId = input.producedBy.sourceId ?? null;
      let tier: Tier = "model_assertion";
      let evidence: Evidence | null = null;
      if (sourceId !== null) {
        // A sourced claim claims the tier its source can back; verification still decides what it earns.
        const resolved = await store.resolverFor(ctx.view).resolve(sourceId);
        tier = resolved?.kind === "evidence" ? tierOfKind(resolved.evidenceKind) : resolved?.kind === "belief" ? "document" : "model_assertion";
      } else {
        const now = clock.now();
        evidence = {
          id: kit.newId("evidence"),
          scope: ctx.scope.id,
          kind: "model_output",
          text: input.text,
          uri: null,
          registeredBy: ctx.actor,
          ess: null,
          reasoningType: null,
          discarded: false,
          createdAt: now,
          observedAt,
          retractedAt: null,
        };
        await store.apply({ ...emptyChangeSet(kit.newId("changeset"), ctx.actor, now), evidence: [evidence] });
        sourceId = evidence.id;
      }
      const producer = input.producedBy.model ? `${input.producedBy.name} (${input.producedBy.model})` : input.producedBy.name;
      const assimilated: AssimilateResult[] = [];
      for (const claim of claims) {
        assimilated.push(
          await assimilateRequest(kit, ctx, {
            claim: { text: claim.text, quantity: claim.quantity },
            topic: input.topic,
            observedAt,
            matchRestatement: true,
            evidence: [{ sourceId, tier, relation: "SUPPORTS", weight: 1, reasoning: `harvested from ${producer}`, assessor: "caller" }],
          }),
        );
      }
      return { claims, assimilated, evidence };
    },
  };
}
