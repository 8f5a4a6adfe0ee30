/**
 * Register evidence (editor): a source text stored in the scope so that entries can cite it; with `assess`, the
 * assessor's reading of its strength and manipulation comes with it (manipulative text is kept, marked discarded).
 */
import { emptyChangeSet, type Evidence } from "@/lib/engine";
import { registerEvidenceInputSchema } from "./belief-schemas";
import { parseServiceInput } from "@/lib/errors/belief-service-error";
import type { BeliefServices } from "./belief-services";
import { eventTimeOfWrite } from "./observed-at";
import type { ServiceKit } from "./service-kit";

export function registerEvidenceService(kit: ServiceKit): Pick<BeliefServices, "registerEvidence"> {
  const { store, assessor, clock } = kit.config;
  return {
    async registerEvidence(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(registerEvidenceInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const now = clock.now();
      const observedAt = eventTimeOfWrite(input.observedAt, now);
      const assessment = input.assess ? await assessor.assessEvidence(input.text) : null;
      const evidence: Evidence = {
        id: kit.newId("evidence"),
        scope: ctx.scope.id,
        kind: input.kind,
        text: input.text,
        uri: input.uri ?? null,
        registeredBy: ctx.actor,
        ess: assessment ? clamp01(assessment.ess) : null,
        reasoningType: assessment?.reasoningType ?? null,
        discarded: assessment?.manipulative ?? false,
        createdAt: now,
        observedAt,
        retractedAt: null,
      };
      await store.apply({ ...emptyChangeSet(kit.newId("changeset"), ctx.actor, now), evidence: [evidence] });
      return { evidence, assessment };
    },
  };
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
