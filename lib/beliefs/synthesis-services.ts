/**
 * Dialectical synthesis (docs/design.md §4.5): candidates are detected by the engine over the scope's live beliefs; the
 * proposal text comes from the assessor; accepting writes a fresh provisional belief with SYNTHESIZES edges.
 * Dismissals (and accepted pairs) are remembered in the scope's settings JSON under `beliefs.synthesis`, because the
 * graph has no place for "not this pair again until either side gains new support".
 */
import { z } from "zod";
import { acceptSynthesis as stageSynthesis, detectSynthesisCandidates, dismissSynthesis as dismissalOf, type BeliefRecord, type SynthesisDismissal } from "@/lib/engine";
import { acceptSynthesisInputSchema, synthesisPairInputSchema } from "./belief-schemas";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import type { BeliefServices, SynthesisCandidate } from "./belief-services";
import type { CallerContext } from "./caller-context";
import type { ServiceKit } from "./service-kit";
import { parseServiceInput } from "@/lib/errors/belief-service-error";

type SynthesisServices = Pick<BeliefServices, "listSynthesisCandidates" | "acceptSynthesis" | "dismissSynthesis">;

const memorySchema = z.object({
  dismissals: z
    .array(
      z.object({
        aId: z.string(),
        bId: z.string(),
        aSupportMark: z.number(),
        bSupportMark: z.number(),
        dismissedAt: z.string(),
        dismissedBy: z.string(),
      }),
    )
    .default([]),
  synthesized: z.array(z.object({ aId: z.string(), bId: z.string() })).default([]),
});
type SynthesisMemory = z.infer<typeof memorySchema>;

const pairId = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

export function synthesisServices(kit: ServiceKit): SynthesisServices {
  const { store, assessor, clock, db } = kit.config;

  async function readMemory(scopeId: string): Promise<{ settings: Record<string, unknown>; memory: SynthesisMemory }> {
    const row = await db.prisma.scope.findUnique({ where: { id: scopeId }, select: { settings: true } });
    const settings = (row?.settings && typeof row.settings === "object" && !Array.isArray(row.settings) ? row.settings : {}) as Record<string, unknown>;
    const beliefs = (settings.beliefs ?? {}) as Record<string, unknown>;
    const parsed = memorySchema.safeParse(beliefs.synthesis ?? {});
    return { settings, memory: parsed.success ? parsed.data : { dismissals: [], synthesized: [] } };
  }

  async function writeMemory(scopeId: string, update: (memory: SynthesisMemory) => SynthesisMemory): Promise<void> {
    const { settings, memory } = await readMemory(scopeId);
    const beliefs = (settings.beliefs ?? {}) as Record<string, unknown>;
    const next = { ...settings, beliefs: { ...beliefs, synthesis: update(memory) } };
    await db.prisma.scope.update({ where: { id: scopeId }, data: { settings: next as object } });
  }

  async function liveRecords(ctx: CallerContext): Promise<BeliefRecord[]> {
    const live = await store.listBeliefs(ctx.view, { liveOnly: true });
    const out: BeliefRecord[] = [];
    for (let i = 0; i < live.length; i += 200) out.push(...(await store.loadBeliefs(ctx.view, live.slice(i, i + 200).map((b) => b.id))));
    return out;
  }

  async function candidates(ctx: CallerContext) {
    const [records, { memory }, params] = await Promise.all([liveRecords(ctx), readMemory(ctx.scope.id), ctx.params]);
    const found = detectSynthesisCandidates(records, params.params, { dismissals: memory.dismissals as SynthesisDismissal[], synthesized: memory.synthesized });
    const byId = new Map(records.map((r) => [r.belief.id, r.belief]));
    return { found, byId };
  }

  async function findPair(ctx: CallerContext, rawInput: unknown) {
    const input = parseServiceInput(synthesisPairInputSchema, rawInput);
    const { found, byId } = await candidates(ctx);
    const key = pairId(input.beliefAId, input.beliefBId);
    const candidate = found.find((c) => pairId(c.aId, c.bId) === key);
    const a = candidate ? byId.get(candidate.aId) : undefined;
    const b = candidate ? byId.get(candidate.bId) : undefined;
    if (!candidate || !a || !b) throw new BeliefServiceError("not_found", `no synthesis candidate for ${key}`, { fields: [{ field: "beliefAId", message: "not a candidate pair" }] });
    return { candidate, a, b };
  }

  return {
    async listSynthesisCandidates(caller, scopeSlug) {
      const ctx = await kit.context(caller, scopeSlug, "read");
      const { found, byId } = await candidates(ctx);
      const out: SynthesisCandidate[] = [];
      for (const c of found.slice(0, 20)) {
        const a = byId.get(c.aId);
        const b = byId.get(c.bId);
        if (!a || !b) continue;
        const proposal = await assessor.proposeSynthesis({ id: a.id, text: a.text, contextTags: a.contextTags }, { id: b.id, text: b.text, contextTags: b.contextTags });
        out.push({ id: pairId(a.id, b.id), beliefA: a, beliefB: b, text: proposal.text, contextTags: proposal.contextTags, reasoning: proposal.reasoning, assessor: proposal.assessor, template: proposal.template === true });
      }
      return out;
    },

    async acceptSynthesis(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(acceptSynthesisInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const params = ctx.params.params;
      const { a, b } = await findPair(ctx, { beliefAId: input.beliefAId, beliefBId: input.beliefBId });
      const proposed = await assessor.proposeSynthesis({ id: a.id, text: a.text, contextTags: a.contextTags }, { id: b.id, text: b.text, contextTags: b.contextTags });
      // A person may rewrite the proposed sentence before accepting it (the context tags stay the assessor's).
      const proposal = input.text ? { ...proposed, text: input.text } : proposed;
      const now = clock.now();
      const changeSetId = kit.newId("changeset");
      const changeSet = stageSynthesis({ a, b, proposal, newBeliefId: kit.newId("belief"), changeSetId, actor: ctx.actor, now }, params);
      await store.apply(changeSet);
      await writeMemory(ctx.scope.id, (m) => ({ ...m, synthesized: [...m.synthesized, { aId: a.id < b.id ? a.id : b.id, bId: a.id < b.id ? b.id : a.id }] }));
      const created = changeSet.beliefs[0]?.belief;
      if (!created) throw new BeliefServiceError("invalid", "the synthesis produced no belief");
      const history = changeSet.history.filter((append) => append.beliefId === created.id).flatMap((append) => append.items);
      return { belief: created, history, created: true, entries: [], changeSetId, cascade: [], match: null, relations: [], possibleDuplicate: null };
    },

    async dismissSynthesis(caller, scopeSlug, rawInput) {
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const { candidate } = await findPair(ctx, rawInput);
      const dismissal = dismissalOf(candidate, ctx.actor, clock.now());
      await writeMemory(ctx.scope.id, (m) => ({
        ...m,
        dismissals: [...m.dismissals.filter((d) => pairId(d.aId, d.bId) !== pairId(dismissal.aId, dismissal.bId)), dismissal],
      }));
    },
  };
}
