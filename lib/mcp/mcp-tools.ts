/**
 * The MCP tools: one per belief service an agent needs to use a scope as its memory. Each tool states its arguments
 * as a zod schema (published to clients as JSON Schema, field names identical to the REST API's so that an `invalid`
 * error names the same fields) and runs through `BeliefServices` with the caller's principal — the same authorised
 * view and roles as the REST API. Results are the REST API's response bodies.
 */
import { z } from "zod";
import type { Principal } from "@/lib/access/principal";
import {
  presentAssimilate,
  presentBeliefDetail,
  presentCorrectRelation,
  presentHarvest,
  presentIngest,
  presentMutationResult,
  presentRecall,
  presentRetract,
  presentRetrieved,
  presentGrant,
  presentGrants,
  presentMember,
  presentMembers,
  presentScopeCreated,
  presentScopes,
} from "@/lib/api/present";
import { addGrantBodySchema, addMemberBodySchema, changeRoleBodySchema, createScopeBodySchema, ingestBodySchema } from "@/lib/api/request-schemas";
import { ApiError } from "@/lib/api/api-error";
import type { BeliefServices } from "@/lib/beliefs/belief-services";
import { callerEvidenceKindSchema } from "@/lib/beliefs/belief-schemas";
import { DECIDED_RELATIONS, MUTATION_TYPES, RELATIONS, TIERS } from "@/lib/engine";

export interface McpToolContext {
  services: BeliefServices;
  principal: Principal;
}

export interface McpToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpTool {
  name: string;
  description: string;
  /** The tool's own arguments (without `scope`, which every scoped tool takes and `createMcpServer` adds). */
  input: z.ZodObject;
  /** false: the tool acts on no one scope (listing or creating scopes) and takes no `scope` argument. */
  scoped?: boolean;
  annotations: McpToolAnnotations;
  /** `args` without `scope`; the services parse it again with their own schema (as the REST routes do). */
  run(ctx: McpToolContext, scope: string, args: Record<string, unknown>): Promise<object>;
  /** A line or two for a model to read before the JSON (the briefing in words). */
  headline?(result: object): string;
}

/** The REST API's `GET …/beliefs/{id}` body: the `get_belief` result and the belief resource's document. */
export { presentBeliefDetail };

const OBSERVED_AT_HELP =
  "ISO-8601 time when this was true or seen (event time), e.g. when importing history; default: now. At most 5 minutes in the future.";

const TIER_HELP =
  "Evidence tier, weakest first: model_assertion (an unsourced model statement) · observation (someone saw or said it) · document (a written source) · measurement · executable_check (a test or script result) · held_out_truth (ground truth). The cited evidence's kind caps the tier actually counted.";

const entrySchema = z
  .object({
    sourceId: z.string().min(1).max(500).nullable().optional().describe("Id of a registered evidence item (e.g. the evidence.id `remember` returned) or of a belief this entry rests on. Omit for an anonymous model assertion."),
    tier: z.enum(TIERS).describe(TIER_HELP),
    relation: z.enum(RELATIONS).optional().describe("SUPPORTS (default), REBUTS (argues against the claim) or CONTEXTUALIZES (limits where it holds; moves nothing)."),
    weight: z.number().min(0).max(1).optional().describe("How strongly the source bears on the claim, 0..1 (default 1)."),
    reasoning: z.string().max(4_000).optional().describe("One sentence on why this evidence bears on the claim."),
  })
  .strict();

const rememberInput = z
  .object({
    text: z.string().min(1).max(20_000).describe("What was said, observed or read, verbatim or closely paraphrased (up to 20 000 characters). Several claims in one text are split and each is related to what the scope already believes."),
    source: z
      .object({
        kind: callerEvidenceKindSchema.default("observation").describe("What kind of source the text is: observation (default; a person said or saw it), document, measurement, executable_check, held_out_truth, or model_output (text a model produced)."),
        uri: z.string().min(1).max(2_000).optional().describe("Where the text came from (URL, ticket, file path, message link), so it can be cited and retracted later."),
        title: z.string().max(500).optional().describe("A short human title for the source (accepted as the REST API does; not stored)."),
      })
      .strict()
      .optional()
      .describe("The source of the text. Default: an observation without a URI."),
    topic: z.string().min(1).max(200).optional().describe("Topic to file new beliefs under; omitted, the most similar existing topic is used."),
    observedAt: z.string().optional().describe(OBSERVED_AT_HELP),
    dryRun: z.boolean().optional().describe("true: return what would change without writing anything."),
  })
  .strict();

/** What `remember` parses before calling the services: the REST ingest body's schema, so field errors read the same. */
const rememberRequest = ingestBodySchema.extend({ dryRun: z.boolean().default(false) });

const assimilateInput = z
  .object({
    claim: z
      .union([z.string().min(1).max(20_000), z.object({ text: z.string().min(1).max(20_000), quantity: z.object({ value: z.number(), unit: z.string().max(100) }).strict().optional() }).strict()])
      .optional()
      .describe("The claim as one declarative sentence (or {text, quantity}). A live belief with the same wording, or (match: relate, the default) one the claim restates, is reinforced; otherwise a new belief. Give this or beliefId."),
    beliefId: z.string().min(1).max(500).optional().describe("An existing belief of the scope to add evidence to (instead of claim)."),
    topic: z.string().min(1).max(200).optional().describe("Topic for a new belief."),
    contextTags: z.array(z.string().min(1).max(100)).max(20).optional().describe("Contexts in which the claim holds (e.g. [\"staging\"])."),
    evidence: z.array(entrySchema).min(1).max(200).describe("One or more evidence entries for (or against) the claim, each with its tier."),
    observedAt: z.string().optional().describe(OBSERVED_AT_HELP),
    match: z
      .enum(["relate", "exact"])
      .optional()
      .describe("relate (default): a sure restatement of a live belief reinforces it (a possible one, such as a claim differing by one swapped word, becomes a new belief linked to it as a possible duplicate for a reviewer: see possibleDuplicate in the answer), and a claim that contradicts another belief (e.g. a changed value) rebuts it with the same sources. exact: write the claim verbatim, matched only by its exact wording."),
  })
  .strict();

const recallInput = z
  .object({
    q: z.string().min(1).max(2_000).describe("The question in natural language, e.g. \"Which branch do we deploy from?\"."),
    k: z.number().int().min(1).max(50).optional().describe("How many relevant beliefs to weigh (default 10)."),
    asOf: z.string().optional().describe("ISO-8601 time: answer from what was believed then (e.g. the day of an incident)."),
  })
  .strict();

const searchInput = z
  .object({
    q: z.string().min(1).max(2_000).describe("Search text; live beliefs are ranked by relevance × credence."),
    k: z.number().int().min(1).max(100).optional().describe("Maximum results (default 10)."),
    minCredence: z.number().min(0).max(1).optional().describe("Only beliefs with at least this credence."),
    includeEnded: z.boolean().optional().describe("Also return superseded or retired beliefs (default false)."),
    asOf: z.string().optional().describe("ISO-8601 time: rank the beliefs as they stood then."),
  })
  .strict();

const getBeliefInput = z
  .object({
    beliefId: z.string().min(1).max(500).describe("The belief id (from recall, search_beliefs, remember or assimilate)."),
    asOf: z.string().optional().describe("ISO-8601 time: reconstruct the belief as it stood then."),
  })
  .strict();

const proposeInput = z
  .object({
    belief: z.string().min(1).max(1_000).describe("One complete, falsifiable declarative sentence (at least three words, not a question)."),
    strength: z.number().min(0).max(1).describe("How strongly the source event supports it, 0..1 (credence itself comes only from evidence)."),
    reason: z.string().min(1).max(4_000).describe("Why, citing at least one evidence id that resolves in this scope (inline in the text or in evidenceIds)."),
    evidenceIds: z.array(z.string().min(1).max(512)).max(50).optional().describe("Evidence or belief ids the reason rests on."),
    sourceEvent: z.string().min(1).max(512).describe("The id of the evidence item (e.g. from remember) that prompted this mutation; it must resolve."),
    mutationType: z.enum(MUTATION_TYPES).describe("Your intent: new, updated, superseded, merged, coexisting or retired. The protocol decides what actually happens and says so in `decision`."),
    topic: z.string().min(1).max(80).optional().describe("Topic."),
    contextTags: z.array(z.string().min(1).max(80)).max(20).optional().describe("Contexts in which the belief holds."),
    observedAt: z.string().optional().describe("ISO-8601 time when the source event happened; the drift window counts back from it. Default: now."),
  })
  .strict();

const retractInput = z
  .object({
    sourceId: z.string().min(1).max(500).describe("The evidence item (or belief) found to be wrong or withdrawn; every entry citing it is retracted and beliefs that rested on it lose that grounding."),
    dryRun: z.boolean().optional().describe("true: report which beliefs would move without writing."),
  })
  .strict();

const correctRelationInput = z
  .object({
    evidenceId: z.string().min(1).max(500).describe("The evidence item whose relation to the belief is wrong (e.g. a `sourceId` in get_belief's history, or the evidence.id remember returned)."),
    beliefId: z.string().min(1).max(500).describe("The belief it bears on."),
    relation: z
      .enum(DECIDED_RELATIONS)
      .describe("What the evidence really does to the belief: SUPPORTS, REBUTS (argues against it), CONTEXTUALIZES (limits where it holds; moves nothing) or UNRELATED (does not bear on it; counts for nothing)."),
    reason: z.string().min(1).max(20_000).describe("Why, in a sentence: kept in the belief's history with who corrected it and when."),
    seq: z.number().int().min(1).optional().describe("One entry of the evidence on the belief (its seq in get_belief's history), only needed when its entries carry different relations."),
  })
  .strict();

const harvestInput = z
  .object({
    text: z.string().min(1).max(20_000).describe("Model or agent output to split into atomic claims."),
    producedBy: z
      .object({
        name: z.string().min(1).max(200).describe("Who produced the text (agent or model name)."),
        kind: z.enum(["model", "agent", "user", "import"]).optional().describe("Default model."),
        model: z.string().min(1).max(200).optional().describe("Model identifier, if any."),
        confidence: z.number().min(0).max(1).optional().describe("The producer's own stated confidence."),
        sourceId: z.string().min(1).max(500).optional().describe("An evidence id the output is grounded in; otherwise claims enter as model_assertion."),
      })
      .strict()
      .describe("Who produced the text; claims are stamped with it."),
    commit: z.boolean().optional().describe("false (default): only return the claims. true: assimilate each claim into the scope."),
    topic: z.string().min(1).max(200).optional().describe("Topic for committed claims."),
    observedAt: z.string().optional().describe(OBSERVED_AT_HELP),
  })
  .strict();

const memberRefInput = z.object({ userId: z.string().min(1).max(64).describe("The member's userId (from list_members).") }).strict();

const readOnly = (title: string): McpToolAnnotations => ({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
const write = (title: string, destructive = false): McpToolAnnotations => ({ title, readOnlyHint: false, destructiveHint: destructive, idempotentHint: false, openWorldHint: false });

export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: "remember",
    description:
      "Store something you were told, read or observed, with its source. The text is registered as evidence, split into claims, and each claim is related to what the scope already believes: new beliefs are created, related ones revised, and every existing belief the text contradicts is listed under `disagreements` (contradictions are kept, not overwritten). Manipulative text is discarded (outcome \"discarded\"). Returns the evidence id (cite it later in propose_mutation or retract_source) and the belief changes.",
    input: rememberInput,
    annotations: write("Remember a statement with its source"),
    async run({ services, principal }, scope, args) {
      const request = rememberRequest.parse(args);
      const result = await services.ingest(principal, scope, {
        text: request.text,
        kind: request.source?.kind,
        uri: request.source?.uri,
        topic: request.topic,
        observedAt: request.observedAt,
        ...(request.edits ? { edits: request.edits } : {}),
        dryRun: request.dryRun,
      });
      return presentIngest(result);
    },
    headline(result) {
      const r = result as { outcome: string; evidence: { id: string }; changes: { created: unknown[]; revised: unknown[] }; disagreements: { beliefId: string; text: string }[] };
      const parts = [`${r.outcome}: evidence ${r.evidence.id}; ${r.changes.created.length} belief(s) created, ${r.changes.revised.length} revised.`];
      for (const d of r.disagreements) parts.push(`Contradicts existing belief ${d.beliefId}: "${d.text}"`);
      return parts.join("\n");
    },
  },
  {
    name: "assimilate",
    description:
      "Add a claim with explicit evidence entries (each with a tier and a relation) when you know exactly what supports or rebuts it. Credence is recomputed from the whole evidence history; unsourced or circular citations count as model_assertion. Returns the belief after the change and any other beliefs that moved.",
    input: assimilateInput,
    annotations: write("Assimilate a claim with evidence"),
    async run({ services, principal }, scope, args) {
      return presentAssimilate(await services.assimilate(principal, scope, args));
    },
  },
  {
    name: "recall",
    description:
      "Ask the memory a question before acting on it. Returns a briefing: mode \"settled\" (one answer, with why), \"contested\" (a dominant answer AND the competing interpretation still standing, with the belief ids on each side — tell the user about the disagreement rather than picking silently), \"insufficient\" (the best candidate is too weakly supported to rely on: say so instead of answering), or \"no_answer\".",
    input: recallInput,
    annotations: readOnly("Recall what the scope believes"),
    async run({ services, principal }, scope, args) {
      return presentRecall(await services.recall(principal, scope, args));
    },
    headline(result) {
      const r = result as { mode: string; dominantAnswer: string | null; competingInterpretation: string | null; whyDominantWins: string | null };
      if (r.mode === "no_answer") return "no_answer: nothing in this scope answers the question.";
      const lines = [`${r.mode}: ${r.dominantAnswer ?? ""}`];
      if (r.mode === "contested" && r.competingInterpretation) lines.push(`Competing: ${r.competingInterpretation}`);
      if (r.whyDominantWins) lines.push(`Why: ${r.whyDominantWins}`);
      return lines.join("\n");
    },
  },
  {
    name: "search_beliefs",
    description: "Find live beliefs matching a text, ranked by relevance × credence. Each result carries credence, tension (how contested it is) and status. Use recall for a question, this for browsing.",
    input: searchInput,
    annotations: readOnly("Search beliefs"),
    async run({ services, principal }, scope, args) {
      return presentRetrieved(await services.retrieve(principal, scope, args));
    },
  },
  {
    name: "get_belief",
    description: "One belief with its full history (every evidence entry with its tier, relation and what it counts for now, plus retractions, revisions and reviews), its credence over time, the mutations that touched it and what it superseded or was superseded by.",
    input: getBeliefInput,
    annotations: readOnly("Get a belief with its history"),
    async run({ services, principal }, scope, args) {
      return presentBeliefDetail(await services.getBelief(principal, scope, args));
    },
  },
  {
    name: "propose_mutation",
    description:
      "Propose a change to the scope's beliefs through the mutation protocol (new, updated, superseded, merged, coexisting, retired). The reason must cite a resolvable evidence id and sourceEvent must resolve. The protocol decides: new, reinforce, merge, supersede, coexist, review (held for a human reviewer), retire or blocked (the topic oscillates); `decision` and `warnings` say what happened.",
    input: proposeInput,
    annotations: write("Propose a belief mutation"),
    async run({ services, principal }, scope, args) {
      return presentMutationResult(await services.proposeMutation(principal, scope, args));
    },
  },
  {
    name: "retract_source",
    description: "Withdraw a source found to be wrong (an evidence item or belief id): every entry citing it is retracted and beliefs that rested on it lose that support, transitively. Nothing is deleted; history records the retraction. Use dryRun first to see the effect.",
    input: retractInput,
    annotations: write("Retract a source", true),
    async run({ services, principal }, scope, args) {
      return presentRetract(await services.retract(principal, scope, args));
    },
  },
  {
    name: "correct_relation",
    description:
      "Correct how an evidence item bears on a belief when it was misread (e.g. stored as SUPPORTS while it argues against the claim). The belief is recomputed as if the evidence had carried the corrected relation from the start: credence and tension move at once, and the history records who, when, from, to and why. Nothing is deleted. Returns `correction.from`: to undo, call correct_relation again with relation = correction.from.",
    input: correctRelationInput,
    annotations: write("Correct how evidence bears on a belief"),
    async run({ services, principal }, scope, args) {
      return presentCorrectRelation(await services.correctRelation(principal, scope, args));
    },
    headline(result) {
      const r = result as { correction: { evidenceId: string; beliefId: string; from: string; to: string }; before: { credence: number; tension: number }; after: { credence: number; tension: number } };
      const c = r.correction;
      return [
        `corrected: evidence ${c.evidenceId} on belief ${c.beliefId} is now ${c.to} (was ${c.from}); credence ${r.before.credence.toFixed(2)} → ${r.after.credence.toFixed(2)}, tension ${r.before.tension.toFixed(2)} → ${r.after.tension.toFixed(2)}.`,
        `To undo: correct_relation with relation ${c.from}.`,
      ].join("\n");
    },
  },
  {
    name: "harvest_claims",
    description: "Split model or agent output into atomic claims stamped with their producer. With commit=true each claim is assimilated (as model_assertion unless producedBy.sourceId grounds it), so unsourced model output never outweighs real evidence.",
    input: harvestInput,
    annotations: write("Harvest claims from model output"),
    async run({ services, principal }, scope, args) {
      return presentHarvest(await services.harvest(principal, scope, args));
    },
  },
  {
    name: "list_scopes",
    description: "The scopes (memories) you may read, with your role in each (null for a public scope you are not a member of). A token limited to one scope sees only that one.",
    input: z.object({}).strict(),
    scoped: false,
    annotations: readOnly("List scopes"),
    async run({ services, principal }) {
      return presentScopes(await services.listScopes(principal));
    },
  },
  {
    name: "create_scope",
    description: "Create a scope (a separate memory, e.g. one per project or tenant); you become its owner. A token limited to one scope cannot create scopes.",
    input: createScopeBodySchema,
    scoped: false,
    annotations: write("Create a scope"),
    async run({ services, principal }, _scope, args) {
      return presentScopeCreated(await services.createScope(principal, createScopeBodySchema.parse(args)));
    },
  },
  {
    name: "list_members",
    description: "The scope's members with their userId, email and role (viewer, editor, reviewer, owner). Any member may read the roster; use the userId with change_member_role or remove_member.",
    input: z.object({}).strict(),
    annotations: readOnly("List a scope's members"),
    async run({ services, principal }, scope) {
      return presentMembers(await services.listMembers(principal, scope));
    },
  },
  {
    name: "add_member",
    description: "Owner only: add an existing user, by email, with a role: viewer (reads), editor (writes evidence and beliefs), reviewer (also decides queued mutations), owner (also manages members and grants).",
    input: addMemberBodySchema,
    annotations: write("Add a member"),
    async run({ services, principal }, scope, args) {
      return presentMember(await services.addMember(principal, scope, addMemberBodySchema.parse(args)));
    },
  },
  {
    name: "change_member_role",
    description: "Owner only: change a member's role to viewer, editor, reviewer or owner. The last owner cannot be demoted (conflict with reason last_owner): make someone else owner first.",
    input: memberRefInput.extend(changeRoleBodySchema.shape),
    annotations: write("Change a member's role"),
    async run({ services, principal }, scope, args) {
      const { userId, role } = memberRefInput.extend(changeRoleBodySchema.shape).parse(args);
      await services.changeRole(principal, scope, { userId, role });
      const member = (await services.listMembers(principal, scope)).find((m) => m.userId === userId);
      if (!member) throw new ApiError(404, "not_found", "No such member.", { userId });
      return presentMember(member);
    },
  },
  {
    name: "remove_member",
    description: "Owner only (or a member removing itself): end a membership; the user keeps its account and its other scopes. The last owner cannot be removed (conflict with reason last_owner).",
    input: memberRefInput,
    annotations: write("Remove a member", true),
    async run({ services, principal }, scope, args) {
      const { userId } = memberRefInput.parse(args);
      await services.removeMember(principal, scope, { userId });
      return { removed: { userId } };
    },
  },
  {
    name: "list_grants",
    description: "The scope's read grants: `grants` (other scopes that may resolve this scope's items) and `incoming` (scopes whose items this scope may cite).",
    input: z.object({}).strict(),
    annotations: readOnly("List a scope's grants"),
    async run({ services, principal }, scope) {
      const [grants, incoming] = await Promise.all([services.listGrants(principal, scope), services.listIncomingGrants(principal, scope)]);
      return presentGrants(grants, incoming);
    },
  },
  {
    name: "add_grant",
    description: "Owner only: let scope `toSlug` resolve this scope's items, so its members can cite this scope's evidence and beliefs as verified sources. Nothing else of this scope becomes visible to them.",
    input: addGrantBodySchema,
    annotations: write("Grant another scope read access"),
    async run({ services, principal }, scope, args) {
      return presentGrant(await services.addGrant(principal, scope, addGrantBodySchema.parse(args)));
    },
  },
  {
    name: "remove_grant",
    description: "Owner only: withdraw the grant to scope `toSlug`; that scope can no longer resolve this scope's items (entries that cited them count as unverified from then on).",
    input: addGrantBodySchema,
    annotations: write("Withdraw a grant", true),
    async run({ services, principal }, scope, args) {
      const { toSlug } = addGrantBodySchema.parse(args);
      await services.removeGrant(principal, scope, { toSlug });
      return { removed: { toSlug } };
    },
  },
];
