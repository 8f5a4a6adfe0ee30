/**
 * The mutation protocol (docs/design.md §4.4) as services: propose (editor), review and lift a freeze (reviewer), the review
 * queue (viewer). A blocked mutation is journaled first (its change-set is applied: the blocked record and, for an
 * oscillation, the topic freeze), then answered with `oscillation_hard_stop` / `topic_frozen` naming it.
 */
import { liftFreeze as liftedFreeze, normaliseTopic, type BeliefRecord, type ChangeSet, type MutationRecord, type TopicFreeze } from "@/lib/engine";
import { proposeMutation as runProtocol, recheckConflict, reviewMutation as runReview, undoReview as runUndo } from "@/lib/engine/mutation";
import { liftFreezeInputSchema, proposeMutationInputSchema, recheckMutationInputSchema, reviewMutationInputSchema, undoReviewInputSchema } from "./belief-schemas";
import { BeliefServiceError, itemNotFoundError } from "@/lib/errors/belief-service-error";
import type { BeliefServices, MutationResult } from "./belief-services";
import type { CallerContext } from "./caller-context";
import { beliefChange, type ServiceKit } from "./service-kit";
import { parseServiceInput } from "@/lib/errors/belief-service-error";
import { emptyChangeSet } from "@/lib/engine";

type MutationServices = Pick<BeliefServices, "proposeMutation" | "reviewMutation" | "undoReview" | "recheckMutation" | "liftFreeze" | "reviewQueue">;

const MAX_CONFLICT_CANDIDATES = 50;

export function mutationServices(kit: ServiceKit): MutationServices {
  const { store, assessor, clock } = kit.config;

  async function candidatesFor(ctx: CallerContext, text: string): Promise<BeliefRecord[]> {
    const { ranked } = await kit.rank(ctx.view, text, { k: MAX_CONFLICT_CANDIDATES, scope: ctx.scope.id });
    return [...(await store.loadBeliefs(ctx.view, ranked.map((r) => r.candidate.id)))];
  }

  return {
    async proposeMutation(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(proposeMutationInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const params = ctx.params.params;
      const paramsFor = await kit.paramsIndex();
      const result = await kit.retry(ctx.scope.id, async () => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const candidates = await candidatesFor(ctx, input.belief);
        const before = new Map(candidates.map((r) => [r.belief.id, r]));
        const outcome = await runProtocol(
          {
            body: input,
            scope: ctx.scope.id,
            actor: ctx.actor,
            via: ctx.via,
            now,
            mutationId: kit.newId("mutation"),
            changeSetId,
            newBeliefId: kit.newId("belief"),
            candidates,
            loadTopic: async (topic) => {
              const [records, freeze] = await Promise.all([store.listMutations(ctx.view, { topic }), store.getTopicFreeze(ctx.view, topic)]);
              return { records, freeze };
            },
          },
          { assessor, resolver: store.resolverFor(ctx.view), params, cascade: { index: kit.resolvedCitations(), paramsFor } },
        );
        await store.apply(outcome.changeSet);
        return { outcome, before };
      });
      const { outcome, before } = result;
      if (outcome.blocked) {
        const code = outcome.blocked.code === "oscillation_hard_stop" ? "oscillation_hard_stop" : "topic_frozen";
        throw new BeliefServiceError(code, outcome.blocked.message, { mutationId: outcome.mutation.id, topic: outcome.mutation.topic });
      }
      const upserts = new Map(outcome.changeSet.beliefs.map((u) => [u.belief.id, u.belief]));
      const mainId = outcome.beliefId ?? outcome.existingBeliefId;
      const response: MutationResult = {
        mutation: outcome.mutation,
        decision: outcome.decision,
        warnings: outcome.warnings,
        flags: outcome.flags,
        belief: (mainId ? upserts.get(mainId) : undefined) ?? null,
        changes: outcome.changeSet.beliefs.filter((u) => ctx.canRead(u.belief.scope)).map((u) => beliefChange(before.get(u.belief.id) ?? null, u.belief, u.expectedVersion === null)),
      };
      return response;
    },

    async reviewMutation(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(reviewMutationInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "reviewer");
      const params = ctx.params.params;
      const paramsFor = await kit.paramsIndex();
      return kit.retry(ctx.scope.id, async () => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const mutation = await store.getMutation(ctx.view, input.mutationId);
        if (!mutation) throw itemNotFoundError("mutation", input.mutationId, "mutationId");
        if (mutation.status !== "pending_review") throw new BeliefServiceError("conflict", `mutation ${mutation.id} is ${mutation.status}, not waiting for review`);
        const { proposed, existing } = await reviewedBeliefs(kit, ctx, mutation);
        const { mutation: updated, changeSet } = await runReview(
          { body: { decision: input.decision, resolution: input.resolution, note: input.note }, mutation, proposed, existing, reviewer: ctx.actor, now, changeSetId },
          { params, cascade: { index: kit.resolvedCitations(), paramsFor } },
        );
        await store.apply(changeSet);
        return reviewResult(ctx, proposed, existing, updated, changeSet);
      });
    },

    async undoReview(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(undoReviewInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "reviewer");
      const params = ctx.params.params;
      return kit.retry(ctx.scope.id, async () => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const mutation = await store.getMutation(ctx.view, input.mutationId);
        if (!mutation) throw itemNotFoundError("mutation", input.mutationId, "mutationId");
        const { proposed, existing } = await reviewedBeliefs(kit, ctx, mutation);
        // A reinstated belief must not share its key with a live one: something may have taken its place since.
        if (existing && mutation.review?.resolution === "supersede") {
          const holders = await store.listBeliefs(ctx.view, { key: existing.belief.key, liveOnly: true, limit: 1 });
          const holder = holders.find((b) => b.id !== existing.belief.id);
          if (holder) throw new BeliefServiceError("conflict", `“${existing.belief.text}” cannot be reinstated: belief ${holder.id} now holds the same statement`);
        }
        const { mutation: updated, changeSet } = runUndo(
          { body: { note: input.note }, mutation, proposed, existing, reviewer: ctx.actor, now, changeSetId },
          { params },
        );
        await store.apply(changeSet);
        return reviewResult(ctx, proposed, existing, updated, changeSet);
      });
    },

    async recheckMutation(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(recheckMutationInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "reviewer");
      const mutation = await store.getMutation(ctx.view, input.mutationId);
      if (!mutation) throw itemNotFoundError("mutation", input.mutationId, "mutationId");
      const report = mutation.conflictReport;
      const existing = report ? await store.loadBelief(ctx.view, report.existingBeliefId) : null;
      const computedAt = clock.now();
      if (!report || !existing) return { mutationId: mutation.id, computedAt, recheck: null };
      const recheck = await recheckConflict({ proposal: mutation.belief, existing, atProposal: report }, { assessor, params: ctx.params.params });
      return { mutationId: mutation.id, computedAt, recheck };
    },

    async liftFreeze(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(liftFreezeInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "reviewer");
      let topic = input.topic;
      let freeze = await store.getTopicFreeze(ctx.view, topic);
      if (!freeze && normaliseTopic(topic) !== topic) {
        topic = normaliseTopic(topic);
        freeze = await store.getTopicFreeze(ctx.view, topic);
      }
      let lifted: TopicFreeze;
      try {
        lifted = liftedFreeze(freeze, ctx.scope.id, topic, input.note);
      } catch {
        throw new BeliefServiceError("conflict", `topic "${input.topic}" is not frozen`, { topic: input.topic });
      }
      const now = clock.now();
      await store.apply({ ...emptyChangeSet(kit.newId("changeset"), ctx.actor, now), topicFreezes: [lifted] });
      return lifted;
    },

    async reviewQueue(caller, scopeSlug) {
      const ctx = await kit.context(caller, scopeSlug, "read");
      const [pending, blocked, frozenTopics, counts] = await Promise.all([
        store.listMutations(ctx.view, { statuses: ["pending_review"], newestFirst: false }),
        store.listMutations(ctx.view, { statuses: ["blocked"], newestFirst: true, limit: 50 }),
        store.listTopicFreezes(ctx.view, { frozenOnly: true }),
        store.countMutations(ctx.view),
      ]);
      return { pending, blocked, frozenTopics, counts };
    },
  };
}

/** The beliefs a review decides between: the proposal (gone is a conflict) and the belief its conflict report names. */
async function reviewedBeliefs(kit: ServiceKit, ctx: CallerContext, mutation: MutationRecord): Promise<{ proposed: BeliefRecord; existing: BeliefRecord | null }> {
  const { store } = kit.config;
  const proposedId = mutation.beliefIds[0];
  const proposed = proposedId ? await store.loadBelief(ctx.view, proposedId) : null;
  if (!proposed) throw new BeliefServiceError("conflict", `the belief proposed by mutation ${mutation.id} is gone`);
  const existingId = mutation.conflictReport?.existingBeliefId;
  const existing = existingId ? await store.loadBelief(ctx.view, existingId) : null;
  return { proposed, existing };
}

/** A review's or an undo's answer: the mutation as it now stands and the changes the caller may see. */
function reviewResult(ctx: CallerContext, proposed: BeliefRecord, existing: BeliefRecord | null, updated: MutationRecord, changeSet: ChangeSet): MutationResult {
  const before = new Map<string, BeliefRecord>([[proposed.belief.id, proposed], ...(existing ? ([[existing.belief.id, existing]] as const) : [])]);
  return {
    mutation: updated,
    decision: updated.decision,
    warnings: updated.warnings,
    flags: updated.flags,
    belief: changeSet.beliefs.find((u) => u.belief.id === proposed.belief.id)?.belief ?? proposed.belief,
    changes: changeSet.beliefs.filter((u) => ctx.canRead(u.belief.scope)).map((u) => beliefChange(before.get(u.belief.id) ?? null, u.belief, u.expectedVersion === null)),
  };
}
