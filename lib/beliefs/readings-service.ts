/**
 * Readings the machine could not decide (read to list, editor to decide): the scope's open undecided readings and
 * possible duplicates, each with what a reviewer needs beside it (the belief, the evidence or the other belief, the
 * reader's guess), and the decision that closes one. A reading decided as a relation adds the entry that carries it,
 * so credence and tension move at once and replay reproduces them.
 */
import {
  decideReading as decide,
  isLiveStatus,
  previewDecisions,
  reopenReading,
  type Belief,
  type DecisionPreview,
  type Evidence,
  type PossibleDuplicateEvent,
  type UndecidedEvent,
} from "@/lib/engine";
import { decideReadingInputSchema, listReadingsInputSchema, undoReadingDecisionInputSchema } from "./belief-schemas";
import { BeliefServiceError, itemNotFoundError, parseServiceInput } from "@/lib/errors/belief-service-error";
import type { BeliefServices } from "./belief-services";
import { notLiveError, type ServiceKit } from "./service-kit";

/** An open undecided reading with its belief and (when the caller can read it) the evidence that was read. */
export interface UndecidedReadingItem {
  belief: Belief;
  reading: UndecidedEvent;
  evidence: Evidence | null;
  /** What each decision would leave the belief at (nothing stored). */
  preview: readonly DecisionPreview[];
}

/** An open possible duplicate with both beliefs (the other one null when it is gone or hidden). */
export interface PossibleDuplicateItem {
  belief: Belief;
  link: PossibleDuplicateEvent;
  other: Belief | null;
  /** What each decision would leave the belief at (nothing stored). */
  preview: readonly DecisionPreview[];
}

export interface ReadingQueue {
  undecided: readonly UndecidedReadingItem[];
  possibleDuplicates: readonly PossibleDuplicateItem[];
}

export function readingsService(kit: ServiceKit): Pick<BeliefServices, "listReadings" | "decideReading" | "undoReadingDecision"> {
  const { store, clock } = kit.config;
  return {
    async listReadings(caller, scopeSlug, rawInput = {}) {
      const input = parseServiceInput(listReadingsInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      const open = await store.listOpenReadings(ctx.view, { limit: input.limit });
      const beliefIds = new Set(open.flatMap((o) => (o.item.type === "possible_duplicate" ? [o.beliefId, o.item.otherBeliefId] : [o.beliefId])));
      const records = new Map((await store.loadBeliefs(ctx.view, [...beliefIds])).map((r) => [r.belief.id, r]));
      const beliefs = new Map([...records].map(([id, r]) => [id, r.belief]));
      const now = clock.now();
      const preview = (beliefId: string, seq: number) => {
        const record = records.get(beliefId);
        return record ? previewDecisions(record, seq, ctx.params.params, now, ctx.actor) : [];
      };
      const evidenceIds = [...new Set(open.flatMap((o) => (o.item.type === "undecided" && o.item.sourceKind === "evidence" ? [o.item.sourceId] : [])))];
      const evidence = new Map<string, Evidence>();
      for (const id of evidenceIds) {
        const e = await store.loadEvidence(ctx.view, id);
        if (e) evidence.set(id, e);
      }
      const undecided: UndecidedReadingItem[] = [];
      const possibleDuplicates: PossibleDuplicateItem[] = [];
      for (const o of open) {
        const belief = beliefs.get(o.beliefId);
        if (!belief) continue;
        if (o.item.type === "undecided") {
          const e = evidence.get(o.item.sourceId) ?? null;
          // Evidence withdrawn since it was read leaves nothing to decide.
          if (e?.retractedAt) continue;
          undecided.push({ belief, reading: o.item, evidence: e, preview: preview(o.beliefId, o.item.seq) });
        } else {
          possibleDuplicates.push({ belief, link: o.item, other: beliefs.get(o.item.otherBeliefId) ?? null, preview: preview(o.beliefId, o.item.seq) });
        }
      }
      return { undecided, possibleDuplicates };
    },

    async decideReading(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(decideReadingInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const params = ctx.params.params;
      return kit.retry(ctx.scope.id, async () => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const record = await store.loadBelief(ctx.view, input.beliefId);
        if (!record) throw itemNotFoundError("belief", input.beliefId, "beliefId");
        if (!isLiveStatus(record.belief.status)) throw notLiveError(input.beliefId, record.belief.status);
        const target = record.history.find((h) => h.seq === input.seq);
        if (target?.type === "undecided" && target.sourceKind === "evidence" && input.decision !== "UNRELATED" && input.decision !== "DUPLICATE" && input.decision !== "DISTINCT") {
          const e = await store.loadEvidence(ctx.view, target.sourceId);
          if (e?.retractedAt) throw new BeliefServiceError("conflict", `evidence ${target.sourceId} was retracted: decide the reading as UNRELATED`);
        }
        const result = decide(
          { record, targetSeq: input.seq, decision: input.decision, weight: input.weight, reason: input.reason, actor: ctx.actor, now, changeSetId },
          params,
        );
        await store.apply(result.changeSet);
        return { belief: result.record.belief, history: result.record.history, changeSetId, entrySeq: result.entrySeq };
      });
    },

    async undoReadingDecision(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(undoReadingDecisionInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      return kit.retry(ctx.scope.id, async () => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const record = await store.loadBelief(ctx.view, input.beliefId);
        if (!record) throw itemNotFoundError("belief", input.beliefId, "beliefId");
        if (!isLiveStatus(record.belief.status)) throw notLiveError(input.beliefId, record.belief.status);
        const result = reopenReading({ record, decidedSeq: input.seq, reason: input.reason, actor: ctx.actor, now, changeSetId }, ctx.params.params);
        await store.apply(result.changeSet);
        return { belief: result.record.belief, history: result.record.history, changeSetId, entrySeq: null };
      });
    },
  };
}
