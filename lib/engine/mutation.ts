/**
 * The mutation protocol (docs/design.md §4.4, the SSGM belief-mutation skill), as one staged change-set per request.
 *
 * 1. **Validation** (422, every bad field named): `belief` is one complete, falsifiable sentence (≥ 3 words, one
 *    sentence, not a question); `strength` ∈ [0,1]; `reason` cites at least one evidence id (inline or in
 *    `evidenceIds`) that resolves in the caller's view; `sourceEvent` resolves in the caller's view; `mutationType` ∈
 *    new | updated | superseded | merged | coexisting | retired. Missing and hidden ids fail alike.
 * 2. **Reinforcement** (same key as a live belief): no conflict check, no stability counting; the source event adds
 *    support; journaled with decision `reinforce`.
 * 3. **Conflict check**: the live belief E with credence > `conflictMinCredence` (0.7) and similarity >
 *    `conflictMinSimilarity` (0.7) to the proposal N but a different key (the most similar one wins).
 * 4. **Decision tree**: N more specific than E (assessed) → `merge` (N REFINES E) · else E has a real rebuttal of
 *    assessed strength ≥ `strongRebuttalStrength` (0.5) (a rule) → `supersede` (E gets a `superseded` event, so its
 *    validUntil = now; N.supersedesId = E.id; N SUPERSEDES E) · else different contexts (assessed) → `coexist` (both
 *    get context tags; a `CONTEXTUALIZES` entry from N on E moves nothing) · else → `review` (N stored with a review
 *    request, so `pending_review`; never auto-resolved). No conflict → `new`. `retired` → `retire` the matching live
 *    belief (same key or similarity > `oscillationSimilarity`).
 * 5. **Strength is credence from evidence**: the source event contributes one `SUPPORTS` entry, its tier capped by
 *    what the source is (verification through the caller's view), weighted by the declared strength. The journal
 *    keeps the declared strength beside the granted credence (N's credence after the write).
 * 6. **Stability** (per scope and topic): a frozen topic or an A→B→A return blocks the mutation (journaled
 *    `blocked`, the topic frozen, nothing else written; the API answers 409 `oscillation_hard_stop`); otherwise drift
 *    and supersession flags are journaled as warnings.
 * A warning is added whenever the decision differs from the caller's `mutationType`.
 * Grounding: beliefs that end (superseded, retired) are handed to `propagateGrounding` when a cascade context is
 * given, and the stripping cascade is merged into the same change-set.
 */
import { z } from "zod";
import type { Assessor, BeliefText, ConflictAssessment } from "./assessor";
import { newBelief, writeBelief, type BeliefWrite, type UnsequencedItem } from "./assimilate";
import { emptyChangeSet, mergeChangeSets, type ChangeSet, type TopicFreeze } from "./change-set";
import { EngineError, issueFields, validationFailed, type FieldError } from "./errors";
import { propagateGrounding, type CascadeContext } from "./grounding";
import { splitSentences } from "./harvest";
import {
  MUTATION_TYPES,
  OBSERVED_AT_MAX_SKEW_MS,
  REVIEW_RESOLUTIONS,
  type Belief,
  type BeliefEdge,
  type BeliefRecord,
  type BeliefStatus,
  type ConflictReport,
  type IsoTime,
  type MutationDecision,
  type MutationRecord,
  type MutationStatus,
  type MutationType,
  type MutationVia,
  type ReviewResolution,
  type StabilityFlag,
} from "./model";
import type { EngineParams } from "./params";
import type { AuthorisedResolver } from "./ports";
import { isLive, replay, type ReplayState } from "./replay";
import { checkOscillation, freezeTopic, leftBeliefs, stabilityReport, type StabilityBlock } from "./stability";
import { assignTopic, beliefKey } from "./topic";
import { ResolutionCache, verifySource } from "./verification";

// ---- Validation ----

/** The request body as a caller sends it; `parseMutationRequest` adds the checks that need the resolver. */
export const mutationRequestSchema = z
  .object({
    belief: z
      .string()
      .trim()
      .min(1, "belief is required")
      .max(1000)
      .refine((s) => s.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length >= 3, "belief must be a complete sentence (at least three words)")
      .refine((s) => !/\?\s*$/.test(s), "belief must be a falsifiable statement, not a question")
      .refine((s) => splitSentences(s).length <= 1, "belief must be one sentence"),
    strength: z.number().min(0).max(1),
    reason: z.string().trim().min(1, "reason is required").max(4000),
    evidenceIds: z.array(z.string().trim().min(1).max(512)).max(50).default([]),
    sourceEvent: z.string().trim().min(1, "sourceEvent is required").max(512),
    mutationType: z.enum(MUTATION_TYPES),
    topic: z.string().trim().min(1).max(80).optional(),
    contextTags: z.array(z.string().trim().min(1).max(80)).max(20).default([]),
    /** When the source event happened (event time): the drift window counts back from it. Default: the recorded time. */
    observedAt: z
      .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()])
      .refine((v) => !Number.isNaN(Date.parse(v)), "an ISO-8601 date or date-time")
      .transform((v) => new Date(v).toISOString())
      .optional()
      .describe("ISO-8601 time when the source event happened (event time); default: when it is recorded. At most 5 minutes in the future."),
  })
  .strict();
export type MutationRequestInput = z.input<typeof mutationRequestSchema>;
export type MutationRequest = z.output<typeof mutationRequestSchema>;


/** Inline evidence ids in a reason: tokens with a digit, `_`, `-` or `:` inside (e.g. `ev_12`, `judgment-7`, a cuid). */
export function inlineIds(reason: string): string[] {
  const out: string[] = [];
  for (const m of reason.matchAll(/[A-Za-z0-9][A-Za-z0-9_:.-]*[A-Za-z0-9]/g)) {
    const t = m[0];
    if (t.length >= 3 && /[0-9_:-]/.test(t) && /[A-Za-z]/.test(t) && !out.includes(t)) out.push(t);
    if (out.length >= 20) break;
  }
  return out;
}

export interface ValidatedMutation {
  request: MutationRequest;
  /** Cited ids that resolved (inline and listed), in citation order. */
  evidenceIds: string[];
}

/**
 * Parse the body and resolve its ids through the caller's view; throws an `EngineError` (`validation_failed`) naming every bad
 * field. Ids are resolved in a fixed order (listed, then inline, then the source event), one lookup each.
 */
export async function parseMutationRequest(body: unknown, resolver: AuthorisedResolver | ResolutionCache): Promise<ValidatedMutation> {
  const parsed = mutationRequestSchema.safeParse(body);
  if (!parsed.success) {
    throw validationFailed(issueFields(parsed.error.issues), "mutation");
  }
  const request = parsed.data;
  const cache = resolver instanceof ResolutionCache ? resolver : new ResolutionCache(resolver);
  const errors: FieldError[] = [];
  const cited = [...new Set([...request.evidenceIds, ...inlineIds(request.reason)])];
  const resolved: string[] = [];
  for (const id of cited) if ((await cache.resolve(id)) !== null) resolved.push(id);
  if (resolved.length === 0) errors.push({ field: "reason", message: "reason must cite at least one evidence id that resolves (inline or in evidenceIds)" });
  if ((await cache.resolve(request.sourceEvent)) === null) errors.push({ field: "sourceEvent", message: "sourceEvent does not resolve" });
  if (errors.length) throw validationFailed(errors, "mutation");
  return { request, evidenceIds: resolved };
}

// ---- The protocol ----

export interface TopicState {
  /** The topic's journal (this scope). */
  records: readonly MutationRecord[];
  freeze: TopicFreeze | null;
}

export interface MutationInput {
  body: unknown;
  scope: string;
  actor: string;
  /** How the proposal arrived, journaled beside the actor. */
  via?: MutationVia;
  now: IsoTime;
  mutationId: string;
  changeSetId: string;
  newBeliefId: string;
  /** Live beliefs of the scope similar to the proposal (the store's candidates), with histories. */
  candidates: readonly BeliefRecord[];
  loadTopic: (topic: string) => Promise<TopicState>;
}

export interface MutationDeps {
  assessor: Assessor;
  resolver: AuthorisedResolver;
  params: EngineParams;
  /** When given, beliefs that end are propagated (stripping their citers) into the same change-set. */
  cascade?: Omit<CascadeContext, "time" | "actor" | "changeSetId">;
}

export interface MutationResult {
  decision: MutationDecision;
  status: MutationStatus;
  mutation: MutationRecord;
  /** The proposed belief N (absent for reinforce/retire/blocked). */
  beliefId: string | null;
  /** The existing belief involved (conflict partner, reinforced or retired belief). */
  existingBeliefId: string | null;
  conflictReport: ConflictReport | null;
  warnings: string[];
  flags: StabilityFlag[];
  /** Set when the mutation was blocked: the API answers 409 with this code (after writing the change-set). */
  blocked: StabilityBlock | null;
  grantedCredence: number | null;
  changeSet: ChangeSet;
}

/** The decision each mutation type intends. */
const INTENDED: Record<MutationType, MutationDecision> = {
  new: "new",
  updated: "reinforce",
  superseded: "supersede",
  merged: "merge",
  coexisting: "coexist",
  retired: "retire",
};

const beliefText = (b: Belief): BeliefText => ({ id: b.id, text: b.text, contextTags: b.contextTags });

/** Run the protocol for one request (see the module comment). Throws an `EngineError` (`validation_failed`) (422). */
export async function proposeMutation(input: MutationInput, deps: MutationDeps): Promise<MutationResult> {
  const { assessor, params } = deps;
  const cache = new ResolutionCache(deps.resolver);
  const { request, evidenceIds } = await parseMutationRequest(input.body, cache);
  // Event time: the source event's, as stated; the drift window counts back from it. Never far ahead of the clock.
  const eventAt = request.observedAt ?? input.now;
  if (Date.parse(eventAt) > Date.parse(input.now) + OBSERVED_AT_MAX_SKEW_MS) {
    throw validationFailed([{ field: "observedAt", message: `in the future: at most ${OBSERVED_AT_MAX_SKEW_MS / 60_000} minutes after the server's time (${input.now})` }], "mutation");
  }
  const key = beliefKey(request.belief);
  const live = input.candidates
    .filter((r) => r.belief.scope === input.scope)
    .map((r) => ({ record: r, state: replay(r.history, params) }))
    .filter((x) => isLive(x.state));

  const journal = (over: Partial<MutationRecord> & Pick<MutationRecord, "topic" | "decision" | "status">): MutationRecord => ({
    id: input.mutationId,
    scope: input.scope,
    belief: request.belief,
    strength: request.strength,
    grantedCredence: null,
    reason: request.reason,
    evidenceIds,
    sourceEvent: request.sourceEvent,
    mutationType: request.mutationType,
    warnings: [],
    flags: [],
    conflictReport: null,
    beliefIds: [],
    review: null,
    actor: input.actor,
    ...(input.via ? { via: input.via } : {}),
    time: input.now,
    observedAt: eventAt,
    changeSet: input.changeSetId,
    ...over,
  });
  const sourceItem = async (citerId: string): Promise<UnsequencedItem> => {
    // Claimed tier = the strongest; verification caps it at what the source is.
    const v = await verifySource(citerId, request.sourceEvent, "held_out_truth", cache);
    return {
      type: "entry",
      sourceId: request.sourceEvent,
      sourceKind: v.sourceKind,
      relation: "SUPPORTS",
      tier: v.effectiveTier,
      weight: request.strength,
      ess: v.ess,
      verified: v.verified,
      effectiveTier: v.effectiveTier,
      launderingReason: v.launderingReason,
      reasoning: request.reason,
      assessor: "caller",
      actor: input.actor,
      time: input.now,
      observedAt: eventAt,
      changeSet: input.changeSetId,
      contribution: 0,
      effectiveWeight: 0,
    };
  };
  const intentWarning = (decision: MutationDecision): string[] =>
    INTENDED[request.mutationType] === decision ? [] : [`mutationType "${request.mutationType}" asked for ${INTENDED[request.mutationType]}; the protocol decided ${decision}.`];
  const edgesFor = (ids: readonly string[]): BeliefEdge[] => ids.map((to) => ({ kind: "CONCERNS", from: input.mutationId, to, time: input.now, changeSet: input.changeSetId }));

  // Reinforcement: same key as a live belief.
  const same = live.find((x) => x.record.belief.key === key);
  if (same && request.mutationType !== "retired") {
    const write = writeBelief(same.record, [await sourceItem(same.record.belief.id)], params, input.now);
    const warnings = intentWarning("reinforce");
    const mutation = journal({
      topic: same.record.belief.topic,
      decision: "reinforce",
      status: "applied",
      grantedCredence: write.state.credence,
      warnings,
      beliefIds: [same.record.belief.id],
    });
    return finish({ decision: "reinforce", status: "applied", mutation, beliefId: null, existingBeliefId: same.record.belief.id, conflictReport: null, warnings, flags: [], blocked: null, grantedCredence: write.state.credence }, [write], edgesFor([same.record.belief.id]), [], []);
  }

  // Similarities to every live candidate (one assessor call each, in candidate order).
  const sims = new Map<string, number>();
  for (const x of live) sims.set(x.record.belief.id, await assessor.similarity(request.belief, x.record.belief.text));

  if (request.mutationType === "retired") {
    const target = same ?? pickBest(live, (x) => sims.get(x.record.belief.id) ?? 0, params.oscillationSimilarity);
    if (!target) throw validationFailed([{ field: "belief", message: "no live belief matches the belief to retire" }], "mutation");
    const topic = target.record.belief.topic;
    const blocked = await stabilityGate(topic, target.record.belief.key, target.record.belief.text);
    if (blocked) return blocked;
    const write = writeBelief(target.record, [{ type: "retired", time: input.now, actor: input.actor, changeSet: input.changeSetId, note: request.reason }], params, input.now);
    const report = stabilityReport((await input.loadTopic(topic)).records, "retire", eventAt, params);
    const warnings = report.warnings;
    const mutation = journal({ topic, decision: "retire", status: "applied", warnings, flags: report.flags, beliefIds: [target.record.belief.id] });
    return finish({ decision: "retire", status: "applied", mutation, beliefId: null, existingBeliefId: target.record.belief.id, conflictReport: null, warnings, flags: report.flags, blocked: null, grantedCredence: null }, [write], edgesFor([target.record.belief.id]), [write.record], []);
  }

  // Conflict check.
  const conflict = pickBest(
    live.filter((x) => x.record.belief.key !== key && x.state.credence > params.conflictMinCredence),
    (x) => sims.get(x.record.belief.id) ?? 0,
    params.conflictMinSimilarity,
    true,
  );

  let decision: MutationDecision = "new";
  let analysis: ConflictAssessment | null = null;
  let strongSeqs: number[] = [];
  if (conflict) {
    analysis = await assessor.analyseConflict(request.belief, beliefText(conflict.record.belief));
    strongSeqs = strongRebuttalSeqs(conflict.state, params);
    decision = conflictDecision(analysis, strongSeqs);
  }

  const inherits = conflict && (decision === "merge" || decision === "supersede");
  const topic = await assignTopic(
    {
      text: request.belief,
      requested: request.topic ?? null,
      inheritFrom: inherits && conflict ? { id: conflict.record.belief.id, topic: conflict.record.belief.topic } : null,
      liveBeliefs: live.map((x) => ({ id: x.record.belief.id, text: x.record.belief.text, topic: x.record.belief.topic })),
      similarity: async (_a, b) => sims.get(live.find((x) => x.record.belief.text === b)?.record.belief.id ?? "") ?? 0,
    },
    params,
  );
  const blocked = await stabilityGate(topic.topic, key, request.belief);
  if (blocked) return blocked;

  const report: ConflictReport | null =
    conflict && analysis
      ? {
          existingBeliefId: conflict.record.belief.id,
          existingText: conflict.record.belief.text,
          existingCredence: conflict.state.credence,
          similarity: sims.get(conflict.record.belief.id) ?? 0,
          moreSpecific: analysis.moreSpecific,
          differentContext: analysis.differentContext,
          contradictedByStrongEvidence: strongSeqs.length > 0,
          strongRebuttalSeqs: strongSeqs,
          proposedContextTags: analysis.proposedContextTags,
          existingContextTags: analysis.existingContextTags,
          decision,
          reasoning: analysis.reasoning,
          assessor: analysis.assessor,
        }
      : null;

  const proposedTags = [...new Set([...request.contextTags, ...(decision === "coexist" && analysis ? analysis.proposedContextTags : [])])];
  const created = newBelief(
    {
      id: input.newBeliefId,
      scope: input.scope,
      topic: topic.topic,
      text: request.belief,
      key,
      contextTags: proposedTags,
      supersedesId: decision === "supersede" && conflict ? conflict.record.belief.id : null,
    },
    params,
    input.now,
  );
  const nItems: UnsequencedItem[] = [await sourceItem(created.id)];
  if (decision === "review") nItems.push({ type: "review", action: "requested", mutationId: input.mutationId, note: "conflict not auto-resolved", time: input.now, actor: input.actor, changeSet: input.changeSetId });
  const nWrite = writeBelief({ belief: created, history: [] }, nItems, params, input.now, true);
  const writes: BeliefWrite[] = [nWrite];
  const edges: BeliefEdge[] = [];
  const ended: BeliefRecord[] = [];
  if (conflict) {
    const e = conflict.record;
    if (decision === "merge") edges.push({ kind: "REFINES", from: created.id, to: e.belief.id, time: input.now, changeSet: input.changeSetId });
    if (decision === "supersede") {
      const eWrite = writeBelief(e, [{ type: "superseded", byBeliefId: created.id, time: input.now, actor: input.actor, changeSet: input.changeSetId }], params, input.now);
      writes.push(eWrite);
      ended.push(eWrite.record);
      edges.push({ kind: "SUPERSEDES", from: created.id, to: e.belief.id, time: input.now, changeSet: input.changeSetId });
    }
    if (decision === "coexist") writes.push(coexistLink(e, created.id, analysis?.existingContextTags ?? [], input, params));
  }
  const stability = stabilityReport((await input.loadTopic(topic.topic)).records, decision, eventAt, params);
  const warnings = [...intentWarning(decision), ...stability.warnings];
  const status: MutationStatus = decision === "review" ? "pending_review" : "applied";
  const touched = [created.id, ...(conflict ? [conflict.record.belief.id] : [])];
  const mutation = journal({
    topic: topic.topic,
    decision,
    status,
    grantedCredence: nWrite.state.credence,
    warnings,
    flags: stability.flags,
    conflictReport: report,
    beliefIds: touched,
  });
  return finish(
    { decision, status, mutation, beliefId: created.id, existingBeliefId: conflict?.record.belief.id ?? null, conflictReport: report, warnings, flags: stability.flags, blocked: null, grantedCredence: nWrite.state.credence },
    writes,
    [...edges, ...edgesFor(touched)],
    ended,
    [],
  );

  /** The hard stop: journal `blocked`, freeze on oscillation, write nothing else. */
  async function stabilityGate(topicName: string, proposalKey: string, proposalText: string): Promise<MutationResult | null> {
    const state = await input.loadTopic(topicName);
    const left = leftBeliefs(state.records, beliefKey);
    const simToLeft = new Map<string, number>();
    for (const l of left) simToLeft.set(l.mutationId, l.key === proposalKey ? 1 : await assessor.similarity(proposalText, l.text));
    // A left belief whose key is live again is held now, not left.
    const currentKeys = new Set(live.map((x) => x.record.belief.key));
    const block = checkOscillation({ records: state.records, freeze: state.freeze, proposal: { key: proposalKey, text: proposalText }, similarityToLeft: simToLeft, keyOf: beliefKey, currentKeys }, params);
    if (!block) return null;
    const warnings = [block.message];
    const flags: StabilityFlag[] = block.code === "oscillation_hard_stop" ? ["oscillation_hard_stop"] : [];
    const mutation = journal({ topic: topicName, decision: "blocked", status: "blocked", warnings, flags, beliefIds: block.code === "oscillation_hard_stop" && block.returnsTo.beliefId ? [block.returnsTo.beliefId] : [] });
    const freezes = block.code === "oscillation_hard_stop" ? [freezeTopic(input.scope, topicName, input.mutationId, block.message)] : [];
    return finish({ decision: "blocked", status: "blocked", mutation, beliefId: null, existingBeliefId: null, conflictReport: null, warnings, flags, blocked: block, grantedCredence: null }, [], edgesFor(mutation.beliefIds), [], freezes);
  }

  async function finish(
    result: Omit<MutationResult, "changeSet">,
    writes: readonly BeliefWrite[],
    edges: readonly BeliefEdge[],
    ended: readonly BeliefRecord[],
    freezes: readonly TopicFreeze[],
  ): Promise<MutationResult> {
    let changeSet: ChangeSet = {
      ...emptyChangeSet(input.changeSetId, input.actor, input.now),
      beliefs: writes.map((w) => w.upsert),
      history: writes.filter((w) => w.append.items.length > 0).map((w) => w.append),
      entryOutputs: writes.flatMap((w) => w.outputs),
      edges,
      mutations: [result.mutation],
      topicFreezes: freezes,
    };
    if (deps.cascade && ended.length > 0) {
      const cascade = await propagateGrounding(ended, { ...deps.cascade, time: input.now, actor: input.actor, changeSetId: input.changeSetId });
      changeSet = mergeChangeSets(changeSet, cascade.changeSet);
    }
    return { ...result, changeSet };
  }
}

/** Seqs of E's real rebuttals strong enough for the supersede rule (assessed strength ≥ `strongRebuttalStrength`). */
function strongRebuttalSeqs(state: ReplayState, params: EngineParams): number[] {
  return state.realRebuttals.filter((r) => r.assessedStrength >= params.strongRebuttalStrength).map((r) => r.seq);
}

/** The decision tree below the conflict check: more specific → merge, strong rebuttal → supersede, context → coexist, else review. */
function conflictDecision(analysis: Pick<ConflictAssessment, "moreSpecific" | "differentContext">, strongSeqs: readonly number[]): MutationDecision {
  return analysis.moreSpecific ? "merge" : strongSeqs.length > 0 ? "supersede" : analysis.differentContext ? "coexist" : "review";
}

export interface ConflictRecheck {
  /** The conflict report as the protocol would write it now (its `decision` is what it would decide now). */
  report: ConflictReport;
  /** Whether E passes the conflict check now: live, a different statement, credence and similarity above the thresholds. */
  conflict: boolean;
  /** E's status now (a superseded or retired E is no conflict partner any more). */
  existingStatus: BeliefStatus;
}

/**
 * The protocol's conflict check and decision tree walked again for a journaled proposal against the existing belief as
 * it stands now (its replayed credence and rebuttals, a fresh similarity and, when it still conflicts, a fresh
 * assessment), so a reviewer reads the path that holds today rather than the one frozen at proposal time. Writes
 * nothing. When E no longer conflicts (ended, or below a threshold) the report keeps the proposal-time assessment
 * fields and its decision is `new`, as the protocol would decide without a conflict.
 */
export async function recheckConflict(
  input: { proposal: string; existing: BeliefRecord; atProposal: ConflictReport },
  deps: { assessor: Assessor; params: EngineParams },
): Promise<ConflictRecheck> {
  const { params, assessor } = deps;
  const e = input.existing;
  const state = replay(e.history, params);
  const similarity = await assessor.similarity(input.proposal, e.belief.text);
  const conflict = isLive(state) && e.belief.key !== beliefKey(input.proposal) && state.credence > params.conflictMinCredence && similarity > params.conflictMinSimilarity;
  const strongSeqs = strongRebuttalSeqs(state, params);
  const base = {
    existingBeliefId: e.belief.id,
    existingText: e.belief.text,
    existingCredence: state.credence,
    similarity,
    contradictedByStrongEvidence: strongSeqs.length > 0,
    strongRebuttalSeqs: strongSeqs,
  };
  if (!conflict) {
    const { moreSpecific, differentContext, proposedContextTags, existingContextTags, reasoning, assessor: stamp } = input.atProposal;
    return { report: { ...base, moreSpecific, differentContext, proposedContextTags, existingContextTags, reasoning, assessor: stamp, decision: "new" }, conflict, existingStatus: state.status };
  }
  const analysis = await assessor.analyseConflict(input.proposal, beliefText(e.belief));
  return {
    report: {
      ...base,
      moreSpecific: analysis.moreSpecific,
      differentContext: analysis.differentContext,
      proposedContextTags: analysis.proposedContextTags,
      existingContextTags: analysis.existingContextTags,
      decision: conflictDecision(analysis, strongSeqs),
      reasoning: analysis.reasoning,
      assessor: analysis.assessor,
    },
    conflict,
    existingStatus: state.status,
  };
}

/** E gets its context tags and a `CONTEXTUALIZES` entry from N that moves nothing. */
function coexistLink(e: BeliefRecord, fromBeliefId: string, tags: readonly string[], input: Pick<MutationInput, "now" | "actor" | "changeSetId">, params: EngineParams): BeliefWrite {
  const tagged: BeliefRecord = { ...e, belief: { ...e.belief, contextTags: [...new Set([...e.belief.contextTags, ...tags])] } };
  return writeBelief(
    tagged,
    [
      {
        type: "entry",
        sourceId: fromBeliefId,
        sourceKind: "belief",
        relation: "CONTEXTUALIZES",
        tier: "model_assertion",
        weight: 1,
        ess: 1,
        verified: true,
        effectiveTier: "model_assertion",
        launderingReason: null,
        reasoning: "coexists in a different context",
        assessor: "caller",
        actor: input.actor,
        time: input.now,
        changeSet: input.changeSetId,
        contribution: 0,
        effectiveWeight: 0,
      },
    ],
    params,
    input.now,
  );
}

function pickBest<T extends { record: BeliefRecord }>(items: readonly T[], score: (t: T) => number, threshold: number, strict = false): T | undefined {
  let best: T | undefined;
  let bestScore = -Infinity;
  for (const t of items) {
    const s = score(t);
    const passes = strict ? s > threshold : s >= threshold;
    if (passes && (s > bestScore || (s === bestScore && best && t.record.belief.id < best.record.belief.id))) {
      best = t;
      bestScore = s;
    }
  }
  return best;
}

// ---- Review ----

export const reviewRequestSchema = z
  .object({
    decision: z.enum(["approve", "reject"]),
    resolution: z.enum(REVIEW_RESOLUTIONS).optional(),
    note: z.string().trim().min(1, "note is required").max(4000),
  })
  .strict()
  .refine((r) => r.decision === "approve" || r.resolution === undefined, { message: "resolution applies to approve only", path: ["resolution"] });
export type ReviewRequestInput = z.input<typeof reviewRequestSchema>;

export interface ReviewInput {
  body: unknown;
  mutation: MutationRecord;
  /** The proposed belief N (the mutation's first belief). */
  proposed: BeliefRecord;
  /** The conflicting belief E, when the conflict report names one. */
  existing: BeliefRecord | null;
  reviewer: string;
  now: IsoTime;
  changeSetId: string;
}

export interface ReviewResult {
  mutation: MutationRecord;
  resolution: ReviewResolution | null;
  changeSet: ChangeSet;
}

/**
 * A reviewer decides a `pending_review` mutation: `approve` (resolution `coexist` by default, `supersede` or
 * `merge`) or `reject` (N is retired). Journaled and applied in one change-set.
 */
export async function reviewMutation(input: ReviewInput, deps: Pick<MutationDeps, "params" | "cascade">): Promise<ReviewResult> {
  const parsed = reviewRequestSchema.safeParse(input.body);
  if (!parsed.success) throw validationFailed(issueFields(parsed.error.issues), "mutation");
  const body = parsed.data;
  const { params } = deps;
  if (input.mutation.status !== "pending_review") throw new EngineError("not_pending", `Mutation ${input.mutation.id} is not waiting for review.`);
  if (input.proposed.belief.id !== input.mutation.beliefIds[0]) throw new EngineError("belief_missing", "The proposed belief does not belong to this mutation.");
  const ctx = { now: input.now, actor: input.reviewer, changeSetId: input.changeSetId };
  const resolution: ReviewResolution | null = body.decision === "approve" ? (body.resolution ?? "coexist") : null;
  const reviewItem: UnsequencedItem = { type: "review", action: body.decision === "approve" ? "approved" : "rejected", mutationId: input.mutation.id, note: body.note, time: input.now, actor: input.reviewer, changeSet: input.changeSetId };

  const writes: BeliefWrite[] = [];
  const edges: BeliefEdge[] = [];
  const ended: BeliefRecord[] = [];
  const n = input.proposed;
  const e = input.existing;
  if (resolution === "supersede" && e) {
    const nWrite = writeBelief({ ...n, belief: { ...n.belief, supersedesId: e.belief.id, topic: e.belief.topic } }, [reviewItem], params, input.now);
    const eWrite = writeBelief(e, [{ type: "superseded", byBeliefId: n.belief.id, time: input.now, actor: input.reviewer, changeSet: input.changeSetId }], params, input.now);
    writes.push(nWrite, eWrite);
    ended.push(eWrite.record);
    edges.push({ kind: "SUPERSEDES", from: n.belief.id, to: e.belief.id, time: input.now, changeSet: input.changeSetId });
  } else {
    const nWrite = writeBelief(n, [reviewItem], params, input.now);
    writes.push(nWrite);
    if (body.decision === "reject") ended.push(nWrite.record);
    if (resolution === "merge" && e) edges.push({ kind: "REFINES", from: n.belief.id, to: e.belief.id, time: input.now, changeSet: input.changeSetId });
    if (resolution === "coexist" && e) writes.push(coexistLink(e, n.belief.id, input.mutation.conflictReport?.existingContextTags ?? [], ctx, params));
  }
  const mutation: MutationRecord = {
    ...input.mutation,
    status: body.decision === "approve" ? "approved" : "rejected",
    review: { decision: body.decision, resolution, note: body.note, reviewer: input.reviewer, time: input.now },
  };
  let changeSet: ChangeSet = {
    ...emptyChangeSet(input.changeSetId, input.reviewer, input.now),
    beliefs: writes.map((w) => w.upsert),
    history: writes.filter((w) => w.append.items.length > 0).map((w) => w.append),
    entryOutputs: writes.flatMap((w) => w.outputs),
    edges,
    mutationUpdates: [{ mutation }],
  };
  if (deps.cascade && ended.length > 0) {
    const cascade = await propagateGrounding(ended, { ...deps.cascade, time: input.now, actor: input.reviewer, changeSetId: input.changeSetId });
    changeSet = mergeChangeSets(changeSet, cascade.changeSet);
  }
  return { mutation, resolution, changeSet };
}

// ---- Undoing a review ----

export const undoReviewRequestSchema = z.object({ note: z.string().trim().min(1, "note is required").max(4000) }).strict();

export interface UndoReviewInput {
  body: unknown;
  mutation: MutationRecord;
  /** The proposed belief N (the mutation's first belief). */
  proposed: BeliefRecord;
  /** The belief N was approved to supersede or refine (the conflict report's). */
  existing: BeliefRecord | null;
  reviewer: string;
  now: IsoTime;
  changeSetId: string;
}

export interface UndoReviewResult {
  mutation: MutationRecord;
  changeSet: ChangeSet;
}

/** The latest `superseded` or `reinstated` event of a history: what its supersession stands at. */
function lastSupersession(history: BeliefRecord["history"]): { type: "superseded" | "reinstated"; byBeliefId: string | null } | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i];
    if (item?.type === "superseded" || item?.type === "reinstated") return { type: item.type, byBeliefId: item.type === "superseded" ? (item.byBeliefId ?? null) : null };
  }
  return null;
}

/**
 * A reviewer undoes an approved `supersede` or `merge`: the mutation goes back to the review queue as it was before
 * the decision, in one new change-set, and nothing is deleted.
 * - supersede: E gets a `reinstated` event (live again, its credence and evidence as they stand), N loses
 *   `supersedesId` and returns to the topic it was proposed under;
 * - both: N gets a `review` `requested` event (pending review again), and the mutation is `pending_review` with its
 *   decision moved to `undone` (who decided, who undid it, when and why).
 * Beliefs whose citations of E were stripped when E ended stay stripped (`stripped` is never undone).
 * Throws `EngineError` `not_undoable` when the mutation is not an approved supersede or merge, when N has ended since,
 * or when E is no longer superseded by N; `validation_failed` without a note.
 */
export function undoReview(input: UndoReviewInput, deps: Pick<MutationDeps, "params">): UndoReviewResult {
  const parsed = undoReviewRequestSchema.safeParse(input.body);
  if (!parsed.success) throw validationFailed(issueFields(parsed.error.issues), "mutation");
  const { note } = parsed.data;
  const { params } = deps;
  const { mutation } = input;
  const review = mutation.review;
  if (mutation.status !== "approved" || !review || (review.resolution !== "supersede" && review.resolution !== "merge")) {
    throw new EngineError("not_undoable", `Mutation ${mutation.id} is ${mutation.status}${review?.resolution ? ` (${review.resolution})` : ""}: only an approved supersede or merge can be undone.`);
  }
  const n = input.proposed;
  if (n.belief.id !== mutation.beliefIds[0]) throw new EngineError("belief_missing", "The proposed belief does not belong to this mutation.");
  const nState = replay(n.history, params);
  if (!isLive(nState)) throw new EngineError("not_undoable", `The proposed belief has been ${nState.status} since; its decision can no longer be undone.`);
  const base = { time: input.now, actor: input.reviewer, changeSet: input.changeSetId };
  const writes: BeliefWrite[] = [];
  if (review.resolution === "supersede") {
    const e = input.existing;
    const standing = e ? lastSupersession(e.history) : null;
    if (!e || standing?.type !== "superseded" || standing.byBeliefId !== n.belief.id) {
      throw new EngineError("not_undoable", `The existing belief is no longer superseded by ${n.belief.id}; nothing to undo.`);
    }
    writes.push(writeBelief(e, [{ type: "reinstated", ...base, note: `undo of mutation ${mutation.id}: ${note}` }], params, input.now));
    const restored = { ...n.belief, topic: mutation.topic, supersedesId: n.belief.supersedesId === e.belief.id ? null : n.belief.supersedesId };
    writes.unshift(writeBelief({ ...n, belief: restored }, [{ type: "review", action: "requested", mutationId: mutation.id, note: `undo: ${note}`, ...base }], params, input.now));
  } else {
    writes.push(writeBelief(n, [{ type: "review", action: "requested", mutationId: mutation.id, note: `undo: ${note}`, ...base }], params, input.now));
  }
  const updated: MutationRecord = {
    ...mutation,
    status: "pending_review",
    review: null,
    undone: [...(mutation.undone ?? []), { ...review, undoneBy: input.reviewer, undoneAt: input.now, undoNote: note, undoChangeSet: input.changeSetId }],
  };
  const changeSet: ChangeSet = {
    ...emptyChangeSet(input.changeSetId, input.reviewer, input.now),
    beliefs: writes.map((w) => w.upsert),
    history: writes.map((w) => w.append),
    entryOutputs: writes.flatMap((w) => w.outputs),
    mutationUpdates: [{ mutation: updated }],
  };
  return { mutation: updated, changeSet };
}
