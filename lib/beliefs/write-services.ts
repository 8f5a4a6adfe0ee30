/**
 * Write services (editor): each loads through the caller's view, runs the engine, and applies ONE change-set; a lost
 * optimistic-concurrency race reloads and runs again (`kit.retry`), so concurrent writers never lose an update.
 */
import {
  emptyChangeSet,
  harvest as harvestClaims,
  tierOfKind,
  type BeliefRecord,
  type ChangeSet,
  type Evidence,
  type EvidenceEntry,
  type Tier,
  isLiveStatus,
} from "@/lib/engine";
import { assimilate as assimilateEvidence, assimilateOnCheckpoint, changeSetOf, writeBelief, type BeliefHead, type NewBeliefSpec } from "@/lib/engine/assimilate";
import { retract as retractSource } from "@/lib/engine/grounding";
import { ingest as stageIngest } from "@/lib/engine/revision";
import { assignTopic, beliefKey } from "@/lib/engine/topic";
import {
  assimilateInputSchema,
  harvestInputSchema,
  ingestInputSchema,
  registerEvidenceInputSchema,
  retractInputSchema,
  reviseEntryInputSchema,
} from "./belief-schemas";
import { BeliefServiceError, itemNotFoundError } from "./belief-service-error";
import type { AssimilateResult, BeliefChange, BeliefServices, IngestResult } from "./belief-services";
import type { CallerContext } from "./caller-context";
import { beliefChange, withGroundingPropagation, type ServiceKit } from "./service-kit";
import { parseServiceInput } from "./belief-service-error";

type WriteServices = Pick<BeliefServices, "registerEvidence" | "assimilate" | "harvest" | "ingest" | "reviseEntry" | "retract">;

/**
 * Histories up to this many items come with the belief when a write loads it (one round trip; the full replay of a
 * few thousand items costs a few milliseconds); longer ones stay in the store and the write folds onto the checkpoint.
 * `BeliefServicesConfig.headHistoryLimit` overrides it.
 */
const HEAD_HISTORY_LIMIT = 2000;

/** The write target for a loaded head: the record when its history came with it, else the head itself. */
function targetOf(head: BeliefHead): { existing: BeliefRecord } | { head: BeliefHead } {
  return head.history !== null ? { existing: { belief: head.belief, history: head.history } } : { head };
}

/** How many full-text candidates (best first) the topic assignment and ingest compare a new text with. */
const MAX_RELATED_CANDIDATES = 50;

export interface AssimilateRequest {
  claim?: { text: string; quantity?: { value: number; unit: string } };
  beliefId?: string;
  topic?: string;
  contextTags?: readonly string[];
  /** A claim without a same-key belief reinforces the live belief it restates (harvest), instead of creating one. */
  matchRestatement?: boolean;
  evidence: readonly { sourceId: string | null; tier: Tier; relation: "SUPPORTS" | "REBUTS" | "CONTEXTUALIZES"; weight: number; reasoning: string | null; assessor: string }[];
}

export function writeServices(kit: ServiceKit): WriteServices & {
  assimilateIn(ctx: CallerContext, request: AssimilateRequest): Promise<AssimilateResult>;
} {
  const { store, assessor, clock } = kit.config;
  const historyLimit = kit.config.headHistoryLimit ?? HEAD_HISTORY_LIMIT;

  /** Live beliefs of the home scope most related to `text` (full-text candidates ranked by the engine's scorer). */
  async function relatedRecords(ctx: CallerContext, text: string, limit = MAX_RELATED_CANDIDATES): Promise<BeliefRecord[]> {
    const { ranked } = await kit.rank(ctx.view, text, { k: limit, scope: ctx.scope.id });
    return [...(await store.loadBeliefs(ctx.view, ranked.map((r) => r.candidate.id)))];
  }

  /**
   * The live belief that `text` restates (the most similar one with similarity ≥ `threshold`, the engine's
   * `twinSimilarity`), or null: a harvested claim reinforces it instead of becoming a duplicate.
   */
  async function restated(ctx: CallerContext, text: string, threshold: number): Promise<BeliefRecord | null> {
    const { ranked } = await kit.rank(ctx.view, text, { k: 20, scope: ctx.scope.id });
    let best: { record: BeliefRecord; similarity: number } | null = null;
    for (const record of await store.loadBeliefs(ctx.view, ranked.map((r) => r.candidate.id))) {
      const similarity = await assessor.similarity(text, record.belief.text);
      if (similarity >= threshold && (best === null || similarity > best.similarity)) best = { record, similarity };
    }
    return best?.record ?? null;
  }

  const notLive = (beliefId: string, status: string) =>
    new BeliefServiceError("invalid", `belief ${beliefId} is ${status}: cite it from a live belief instead`, { fields: [{ field: "beliefId", message: "not live" }] });

  async function assimilateIn(ctx: CallerContext, request: AssimilateRequest): Promise<AssimilateResult> {
    const params = ctx.params.params;
    return kit.retry(async () => {
      const now = clock.now();
      const changeSetId = kit.newId("changeset");
      let target: { existing: BeliefRecord } | { create: NewBeliefSpec } | { head: BeliefHead };
      // The checkpoint rows a fold needs: those of the sources this write cites (a long history's fold reads no others).
      const headOptions = { historyLimit, checkpointSources: request.evidence.flatMap((e) => (e.sourceId === null ? [] : [e.sourceId])) };
      if (request.beliefId !== undefined) {
        const head = await store.loadBeliefHead(ctx.view, request.beliefId, headOptions);
        if (!head) throw itemNotFoundError("belief", request.beliefId, "beliefId");
        if (!isLiveStatus(head.belief.status)) throw notLive(request.beliefId, head.belief.status);
        target = targetOf(head);
      } else {
        const claim = request.claim as NonNullable<AssimilateRequest["claim"]>;
        const key = beliefKey(claim.text);
        const [match] = await store.listBeliefs(ctx.view, { key, liveOnly: true, limit: 1 });
        const head = match ? await store.loadBeliefHead(ctx.view, match.id, headOptions) : null;
        const record = head ? null : request.matchRestatement ? await restated(ctx, claim.text, params.twinSimilarity) : null;
        if (head) target = targetOf(head);
        else if (record) target = { existing: record };
        else {
          // Topic by similarity needs only the beliefs' texts: the 20 best full-text candidates, no histories.
          const ranked = request.topic ? [] : (await kit.rank(ctx.view, claim.text, { k: 20, scope: ctx.scope.id })).ranked;
          const related = ranked.length === 0 ? [] : (await store.loadBeliefs(ctx.view, ranked.map((r) => r.candidate.id))).map((r) => ({ belief: r.belief }));
          const topic = await assignTopic(
            {
              text: claim.text,
              requested: request.topic ?? null,
              liveBeliefs: related.map((r) => ({ id: r.belief.id, text: r.belief.text, topic: r.belief.topic })),
              similarity: (a, b) => assessor.similarity(a, b),
            },
            params,
          );
          target = {
            create: {
              id: kit.newId("belief"),
              scope: ctx.scope.id,
              topic: topic.topic,
              text: claim.text,
              key,
              quantity: claim.quantity ?? null,
              contextTags: request.contextTags ?? [],
            },
          };
        }
      }
      const base = { evidence: request.evidence, resolver: store.resolverFor(ctx.view), params, time: now, actor: ctx.actor, changeSetId };
      if ("head" in target) {
        // A long history: fold the new entries onto the stored checkpoint, or (no usable checkpoint, or an item that
        // rewrites an earlier entry) load the history and replay it, which stores a checkpoint for the next write.
        const folded = await assimilateOnCheckpoint({ ...base, head: target.head });
        if (!("fallback" in folded)) {
          await store.apply(folded.changeSet);
          const lastSeq = folded.write.append.items.reduce((m, it) => Math.max(m, it.seq), target.head.lastSeq);
          // The answer carries the history (the API's contract): read after the commit, up to this write's last item.
          const stored = await store.loadBelief(ctx.view, folded.write.belief.id);
          const history = (stored?.history ?? []).filter((it) => it.seq <= lastSeq);
          return { belief: folded.write.belief, history, created: false, entries: folded.entries, changeSetId, cascade: [] };
        }
        const record = await store.loadBelief(ctx.view, target.head.belief.id);
        if (!record) throw itemNotFoundError("belief", target.head.belief.id, "beliefId");
        // Read again: it may have been superseded or retired since the head was checked.
        if (!isLiveStatus(record.belief.status)) throw notLive(record.belief.id, record.belief.status);
        target = { existing: record };
      }
      const result = await assimilateEvidence({ ...base, target });
      await store.apply(result.changeSet);
      return { belief: result.write.record.belief, history: result.write.record.history, created: result.write.before === null, entries: result.entries, changeSetId, cascade: [] };
    });
  }

  return {
    assimilateIn,

    async registerEvidence(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(registerEvidenceInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const assessment = input.assess ? await assessor.assessEvidence(input.text) : null;
      const now = clock.now();
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
        retractedAt: null,
      };
      await store.apply({ ...emptyChangeSet(kit.newId("changeset"), ctx.actor, now), evidence: [evidence] });
      return { evidence, assessment };
    },

    async assimilate(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(assimilateInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      return assimilateIn(ctx, {
        claim: input.claim === undefined ? undefined : typeof input.claim === "string" ? { text: input.claim } : input.claim,
        beliefId: input.beliefId,
        topic: input.topic,
        contextTags: input.contextTags,
        evidence: input.evidence.map((e) => ({
          sourceId: e.sourceId ?? null,
          tier: e.tier,
          relation: e.relation ?? (e.direction === "-" ? "REBUTS" : "SUPPORTS"),
          weight: e.weight,
          reasoning: e.reasoning ?? null,
          assessor: "caller",
        })),
      });
    },

    async harvest(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(harvestInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, input.commit ? "editor" : "read");
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
          retractedAt: null,
        };
        await store.apply({ ...emptyChangeSet(kit.newId("changeset"), ctx.actor, now), evidence: [evidence] });
        sourceId = evidence.id;
      }
      const producer = input.producedBy.model ? `${input.producedBy.name} (${input.producedBy.model})` : input.producedBy.name;
      const assimilated: AssimilateResult[] = [];
      for (const claim of claims) {
        assimilated.push(
          await assimilateIn(ctx, {
            claim: { text: claim.text, quantity: claim.quantity },
            topic: input.topic,
            matchRestatement: true,
            evidence: [{ sourceId, tier, relation: "SUPPORTS", weight: 1, reasoning: `harvested from ${producer}`, assessor: "caller" }],
          }),
        );
      }
      return { claims, assimilated, evidence };
    },

    async ingest(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(ingestInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const params = ctx.params.params;
      const run = async (): Promise<IngestResult> => {
        const now = clock.now();
        const changeSetId = kit.newId("changeset");
        const candidates = await relatedRecords(ctx, input.text);
        const before = new Map(candidates.map((r) => [r.belief.id, r]));
        const staged = await stageIngest(
          {
            scope: ctx.scope.id,
            text: input.text,
            kind: input.kind,
            uri: input.uri ?? null,
            evidenceId: kit.newId("evidence"),
            changeSetId,
            newBeliefId: () => kit.newId("belief"),
            actor: ctx.actor,
            now,
            candidates,
            topic: input.topic ?? null,
            sourceText: async (id) => (await store.loadEvidence(ctx.view, id))?.text ?? null,
          },
          { assessor, params },
        );
        let changeSet = staged.changeSet;
        if (staged.outcome === "staged") {
          const propagated = await withGroundingPropagation(kit, changeSet, before, { dryRun: input.dryRun });
          changeSet = propagated.changeSet;
        }
        if (!input.dryRun) await store.apply(changeSet);
        // Beliefs the cascade reached in other scopes are reported only when the caller may see them.
        const changes = changeSet.beliefs.filter((u) => ctx.canRead(u.belief.scope)).map((u) => beliefChange(before.get(u.belief.id) ?? null, u.belief, u.expectedVersion === null));
        const textOf = new Map(changeSet.beliefs.map((u) => [u.belief.id, u.belief.text]));
        for (const r of candidates) textOf.set(r.belief.id, r.belief.text);
        const credenceOf = new Map(candidates.map((r) => [r.belief.id, r.belief.credence]));
        return {
          evidence: staged.evidence,
          ess: staged.ess,
          outcome: input.dryRun ? "dry_run" : staged.outcome === "discarded" ? "discarded" : "committed",
          claims: staged.claims.map((c) => c.claim.text),
          changes,
          relations: staged.claims.flatMap((c) =>
            c.relations.map((r) => ({
              beliefId: r.beliefId,
              text: textOf.get(r.beliefId) ?? "",
              relation: r.relation,
              strength: r.strength,
              similarity: r.similarity,
              reasoning: r.reasoning,
              assessor: staged.ess.assessor,
              claim: c.claim.text,
            })),
          ),
          disagreements: staged.disagreements.map((d) => ({ ...d, credence: credenceOf.get(d.beliefId) ?? 0 })),
          contractions: staged.contractions.filter((c) => c.contracted).map((c) => ({ beliefId: c.beliefId, severity: c.severity, reasoning: c.reasoning })),
          changeSetId,
          beliefs: changeSet.beliefs.map((u) => u.belief),
        };
      };
      return input.dryRun ? run() : kit.retry(run);
    },

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
                before: write?.before ? pick(write.before.belief) : null,
                after: pick(b),
                retractedSeqs: t.retractedSeqs,
                strippedSeqs: t.strippedSeqs,
              },
            ];
          });
        return { sourceId: input.sourceId, dryRun: input.dryRun, touched, changeSetId: input.dryRun ? null : changeSetId };
      };
      return input.dryRun ? run() : kit.retry(run);
    },
  };
}

function pick(b: BeliefRecord["belief"]) {
  return { credence: b.credence, confidence: b.confidence, tension: b.tension, status: b.status };
}

function withTexts(changes: BeliefChange[], changeSet: ChangeSet): BeliefChange[] {
  const byId = new Map(changeSet.beliefs.map((u) => [u.belief.id, u.belief]));
  return changes.map((c) => {
    const b = byId.get(c.beliefId);
    return b ? { ...c, text: b.text, after: pick(b) } : c;
  });
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

