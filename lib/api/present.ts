/**
 * The presenters: every REST body (and every MCP tool result, which is the same body) is produced by parsing with its
 * response schema (`./response-schemas`), the one the OpenAPI document publishes. Keys a schema does not name are
 * dropped; a value that does not fit is our bug and answers a 500 (never a 422: the caller did nothing wrong).
 */
import { z } from "zod";
import type { ReadableScope } from "@/lib/access/readable-scopes";
import type { GrantView } from "@/lib/identity/grants";
import type { MemberView } from "@/lib/identity/members";
import type { ScopeSummary } from "@/lib/identity/scopes";
import type {
  AssimilateResult,
  BeliefDetail,
  GraphExpansion,
  GraphOverviewResult,
  HarvestResult,
  IngestResult,
  MutationResult,
  RegisterEvidenceResult,
  ReplayCheckResult,
  RetractResult,
  RetrievedBelief,
  ReviseEntryResult,
  CorrectRelationResult,
  SynthesisCandidate,
  DecideReadingResult,
  ReadingQueue,
} from "@/lib/beliefs/belief-services";
import type { Belief, History, MutationRecord, TopicFreeze } from "@/lib/engine";
import type { RecallAnswer } from "@/lib/engine/recall";
import type { GraphElements } from "@/lib/graph/cytoscape-elements";
import {
  assimilateResponseSchema,
  beliefDetailResponseSchema,
  decideReadingResponseSchema,
  readingQueueResponseSchema,
  beliefListResponseSchema,
  beliefResponseSchema,
  beliefWithHistoryResponseSchema,
  dismissedResponseSchema,
  freezeResponseSchema,
  graphExpansionResponseSchema,
  graphOverviewResponseSchema,
  graphResponseSchema,
  harvestResponseSchema,
  ingestResponseSchema,
  mutationListResponseSchema,
  mutationResponseSchema,
  mutationResultResponseSchema,
  recallResponseSchema,
  registerEvidenceResponseSchema,
  replayResponseSchema,
  retractResponseSchema,
  reviseResponseSchema,
  correctRelationResponseSchema,
  scopeListResponseSchema,
  scopeCreatedResponseSchema,
  memberListResponseSchema,
  memberResultResponseSchema,
  grantListResponseSchema,
  grantResultResponseSchema,
  synthesisAcceptedResponseSchema,
  synthesisListResponseSchema,
} from "./response-schemas";

/** What a schema accepts, with readonly arrays allowed (the services return readonly lists). */
type Loose<T> = T extends readonly (infer U)[] ? readonly Loose<U>[] : T extends object ? { [K in keyof T]: Loose<T[K]> } : T;

/** A response body that does not fit its documented schema: a bug of ours (500), logged with the fields at fault. */
export class ResponseShapeError extends Error {
  constructor(schemaName: string, readonly issues: readonly z.core.$ZodIssue[]) {
    super(`response does not fit ${schemaName}: ${issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    this.name = "ResponseShapeError";
  }
}

/** Parses `value` with a response schema (typed so the compiler already checks the fit); never throws a ZodError. */
export function present<S extends z.ZodType>(schema: S, value: Loose<z.input<S>>, name = "its response schema"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ResponseShapeError(name, parsed.error.issues);
  return parsed.data;
}

/** A belief's stored state; with its history when `history` is given (the belief of a write's answer, a detail). */
export function presentBelief(belief: Belief): z.output<typeof beliefResponseSchema>;
export function presentBelief(belief: Belief, history: History): z.output<typeof beliefWithHistoryResponseSchema>;
export function presentBelief(belief: Belief, history?: History) {
  return history ? present(beliefWithHistoryResponseSchema, { ...belief, history }, "BeliefWithHistory") : present(beliefResponseSchema, belief, "Belief");
}

export function presentMutation(mutation: MutationRecord) {
  return present(mutationResponseSchema, mutation, "Mutation");
}

const scopeView = (s: Pick<ReadableScope, "slug" | "name" | "isPublic" | "role">) => ({ slug: s.slug, name: s.name, public: s.isPublic, role: s.role });

export function presentScopes(scopes: readonly ReadableScope[]) {
  return present(scopeListResponseSchema, { scopes: scopes.map(scopeView) }, "ScopeList");
}

export function presentScopeCreated(scope: ScopeSummary) {
  return present(scopeCreatedResponseSchema, { scope: scopeView(scope) }, "ScopeCreated");
}

const memberView = (m: MemberView) => ({ userId: m.userId, email: m.email, name: m.name, role: m.role, since: m.createdAt.toISOString() });

export function presentMembers(members: readonly MemberView[]) {
  return present(memberListResponseSchema, { members: members.map(memberView) }, "MemberList");
}

export function presentMember(member: MemberView) {
  return present(memberResultResponseSchema, { member: memberView(member) }, "MemberResult");
}

const grantView = (g: GrantView) => ({ from: { slug: g.fromSlug, name: g.fromName }, to: { slug: g.toSlug, name: g.toName }, createdAt: g.createdAt.toISOString() });

export function presentGrants(grants: readonly GrantView[], incoming: readonly GrantView[]) {
  return present(grantListResponseSchema, { grants: grants.map(grantView), incoming: incoming.map(grantView) }, "GrantList");
}

export function presentGrant(grant: GrantView) {
  return present(grantResultResponseSchema, { grant: grantView(grant) }, "GrantResult");
}

export function presentRegisterEvidence(result: RegisterEvidenceResult) {
  return present(registerEvidenceResponseSchema, result, "RegisterEvidenceResult");
}

/** `POST …/assimilate` and the MCP `assimilate` tool: the belief carries its history. */
export function presentAssimilate(result: AssimilateResult) {
  return present(assimilateResponseSchema, { ...result, belief: { ...result.belief, history: result.history } }, "AssimilateResult");
}

export function presentHarvest(result: HarvestResult) {
  return present(harvestResponseSchema, { claims: result.claims, assimilated: result.assimilated.map((a) => ({ beliefId: a.belief.id, created: a.created, possibleDuplicate: a.possibleDuplicate })) }, "HarvestResult");
}

/** The ingest answer of the REST API and the MCP `remember` tool. */
export function presentIngest(result: IngestResult) {
  const changed = (created: boolean) => result.changes.filter((c) => c.created === created);
  return present(
    ingestResponseSchema,
    {
      evidence: result.evidence,
      discarded: result.outcome === "discarded",
      outcome: result.outcome,
      ...(result.outcome === "discarded" ? { reason: result.ess.reasoning } : {}),
      ess: result.ess,
      claims: result.claims,
      planId: result.planId,
      excluded: result.excluded,
      changes: { created: changed(true), revised: changed(false), contracted: result.contractions },
      relations: result.relations,
      undecided: result.undecided,
      possibleDuplicates: result.possibleDuplicates,
      disagreements: result.disagreements,
      changeSetId: result.changeSetId,
    },
    "IngestResult",
  );
}

/** `POST …/retractions` and `retract_source`: each touched item is the belief after (with `id`) plus what changed. */
export function presentRetract(result: RetractResult) {
  return present(
    retractResponseSchema,
    {
      sourceId: result.sourceId,
      touched: result.touched.map((t) => ({ ...t.belief, before: t.before, retractedSeqs: t.retractedSeqs, strippedSeqs: t.strippedSeqs })),
      dryRun: result.dryRun,
      changeSetId: result.changeSetId,
    },
    "RetractResult",
  );
}

export function presentRevise(result: ReviseEntryResult) {
  return present(reviseResponseSchema, { ...result, belief: { ...result.belief, history: result.history } }, "ReviseEntryResult");
}

export function presentCorrectRelation(result: CorrectRelationResult) {
  return present(correctRelationResponseSchema, { ...result, belief: { ...result.belief, history: result.history } }, "CorrectRelationResult");
}

export function presentReadingQueue(queue: ReadingQueue) {
  return present(readingQueueResponseSchema, queue, "ReadingQueue");
}

export function presentDecideReading(result: DecideReadingResult) {
  return present(decideReadingResponseSchema, { ...result, belief: { ...result.belief, history: result.history } }, "DecideReadingResult");
}

export function presentBeliefList(beliefs: readonly Belief[]) {
  return present(beliefListResponseSchema, { beliefs }, "BeliefList");
}

export function presentRetrieved(ranked: readonly RetrievedBelief[]) {
  return present(beliefListResponseSchema, { beliefs: ranked.map((r) => ({ ...r.belief, relevance: r.relevance, score: r.score })) }, "BeliefList");
}

/** The REST API's `GET …/beliefs/{id}` body: the `get_belief` result and the belief resource's document. */
export function presentBeliefDetail(detail: BeliefDetail) {
  return present(
    beliefDetailResponseSchema,
    {
      belief: { ...detail.belief, history: detail.history },
      timeline: detail.timeline,
      mutations: detail.mutations,
      supersedes: detail.supersedes,
      supersededBy: detail.supersededBy,
      asOf: detail.asOf,
      openReadings: detail.openReadings,
    },
    "BeliefDetail",
  );
}

export function presentReplay(stored: Belief, replayed: ReplayCheckResult) {
  return present(replayResponseSchema, { stored, replayed, matches: replayed.ok }, "ReplayCheck");
}

export function presentRecall(answer: RecallAnswer) {
  return present(recallResponseSchema, answer, "RecallAnswer");
}

export function presentMutationResult(result: Pick<MutationResult, "mutation" | "belief">) {
  return present(mutationResultResponseSchema, { mutation: result.mutation, belief: result.belief }, "MutationResult");
}

export function presentMutations(mutations: readonly MutationRecord[]) {
  return present(mutationListResponseSchema, { mutations }, "MutationList");
}

export function presentFreeze(freeze: TopicFreeze) {
  return present(freezeResponseSchema, { freeze }, "FreezeResult");
}

export function presentSyntheses(syntheses: readonly SynthesisCandidate[]) {
  return present(synthesisListResponseSchema, { syntheses }, "SynthesisList");
}

export function presentSynthesisAccepted(result: AssimilateResult) {
  return present(synthesisAcceptedResponseSchema, { belief: { ...result.belief, history: result.history } }, "SynthesisAccepted");
}

export function presentDismissed() {
  return present(dismissedResponseSchema, { dismissed: true }, "SynthesisDismissed");
}

export function presentGraphOverview(overview: GraphOverviewResult) {
  return present(graphOverviewResponseSchema, overview, "GraphOverview");
}

export function presentGraphExpansion(expansion: GraphExpansion) {
  return present(graphExpansionResponseSchema, expansion, "GraphExpansion");
}

export function presentGraph(elements: GraphElements) {
  return present(graphResponseSchema, elements, "GraphElements");
}
