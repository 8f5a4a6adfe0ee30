/**
 * The REST API's response bodies as zod schemas: the presenters (`./present`) produce every body by parsing with
 * these (unknown keys are dropped, a body that does not fit is a bug: 500), and the OpenAPI document (`./openapi`)
 * publishes them as `components.schemas` through `z.toJSONSchema` — one definition for what is sent and what is
 * documented. Registered names (`RESPONSE_REGISTRY`) become `#/components/schemas/<id>`.
 */
import { z } from "zod";
import { BELIEF_STATUSES, DECIDED_RELATIONS, EDGE_KINDS, READING_DECISIONS, REASONING_TYPES, RELATIONS, possibleDuplicateEventSchema, undecidedEventSchema } from "@/lib/engine";
import { beliefSchema, evidenceSchema, historyItemSchema, mutationRecordSchema, topicFreezeSchema } from "@/lib/graph/graph-store";
import { ROLES } from "@/lib/access/roles";

/** Named schemas, published as `#/components/schemas/<id>`. */
export const RESPONSE_REGISTRY = z.registry<{ id: string; description?: string }>();

export function named<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  RESPONSE_REGISTRY.add(schema, { id, ...(description ? { description } : {}) });
  return schema;
}

const unit = z.number().min(0).max(1);

// ---- the model ----------------------------------------------------------------------------------------------

export const historyItemResponseSchema = named("HistoryItem", historyItemSchema, "One step of a belief's history: an evidence entry or an event.");
export const evidenceEntryResponseSchema = named("EvidenceEntry", historyItemSchema.options[0], "An evidence entry (`type: \"entry\"`) as stored.");

export const beliefResponseSchema = named("Belief", z.object(beliefSchema.shape), "A belief's stored state (without its history).");
export const undecidedReadingResponseSchema = named(
  "UndecidedReading",
  undecidedEventSchema,
  "Evidence the reader could not read with enough confidence (`type: \"undecided\"`): linked to the belief with no weight until decided.",
);
export const possibleDuplicateResponseSchema = named(
  "PossibleDuplicate",
  possibleDuplicateEventSchema,
  "Another belief this one may duplicate (`type: \"possible_duplicate\"`): both kept, no weight, until decided.",
);
export const openReadingsResponseSchema = named(
  "OpenReadings",
  z.object({ undecided: z.array(undecidedReadingResponseSchema), possibleDuplicates: z.array(possibleDuplicateResponseSchema) }),
  "A belief's undecided readings and possible duplicates that no decision has closed; they move neither credence nor tension.",
);

export const beliefWithHistoryResponseSchema = named(
  "BeliefWithHistory",
  beliefResponseSchema.extend({ history: z.array(historyItemResponseSchema) }),
  "A belief's stored state and its ordered history (entries and events).",
);

export const evidenceResponseSchema = named("Evidence", z.object(evidenceSchema.shape), "A registered evidence item.");
export const mutationResponseSchema = named("Mutation", z.object(mutationRecordSchema.shape), "A mutation record from the journal.");
export const topicFreezeResponseSchema = named("TopicFreeze", z.object(topicFreezeSchema.shape), "A topic's freeze record.");

const stateSnapshot = named(
  "BeliefStateSnapshot",
  z.object({ credence: unit, confidence: unit, tension: unit, status: z.enum(BELIEF_STATUSES) }),
  "The derived state of a belief at one moment.",
);

export const beliefChangeResponseSchema = named(
  "BeliefChange",
  z.object({ beliefId: z.string(), text: z.string(), created: z.boolean(), before: stateSnapshot.nullable(), after: stateSnapshot }),
  "One belief moved by a write, before and after.",
);

export const essResponseSchema = named(
  "EssAssessment",
  z.object({ ess: unit, reasoningType: z.enum(REASONING_TYPES), manipulative: z.boolean(), reasoning: z.string(), assessor: z.string() }),
  "The evidence strength score of a text and why.",
);

// ---- per operation --------------------------------------------------------------------------------------------

export const scopeResponseSchema = named(
  "Scope",
  z.object({
    slug: z.string(),
    name: z.string(),
    public: z.boolean(),
    role: z.enum(ROLES).nullable().describe("The caller's role; null for a public scope it is not a member of (it may read)."),
  }),
  "A scope as the caller sees it.",
);

export const scopeListResponseSchema = named("ScopeList", z.object({ scopes: z.array(scopeResponseSchema) }), "The scopes the caller may read, by name.");

export const scopeCreatedResponseSchema = named("ScopeCreated", z.object({ scope: scopeResponseSchema }), "The new scope; the caller is its owner.");

export const memberResponseSchema = named(
  "Member",
  z.object({
    userId: z.string().describe("Names the member in `…/members/{userId}`."),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(ROLES),
    since: z.string().describe("ISO-8601 time the membership began."),
  }),
  "A member of a scope with its role.",
);
export const memberListResponseSchema = named("MemberList", z.object({ members: z.array(memberResponseSchema) }), "A scope's members, by email.");
export const memberResultResponseSchema = named("MemberResult", z.object({ member: memberResponseSchema }), "The member after the change.");

export const grantResponseSchema = named(
  "Grant",
  z.object({
    from: z.object({ slug: z.string(), name: z.string() }).describe("The scope whose items may be resolved."),
    to: z.object({ slug: z.string(), name: z.string() }).describe("The scope that may resolve them (cite them as evidence)."),
    createdAt: z.string(),
  }),
  "A read grant between two scopes.",
);
export const grantListResponseSchema = named(
  "GrantList",
  z.object({ grants: z.array(grantResponseSchema).describe("Grants from this scope."), incoming: z.array(grantResponseSchema).describe("Grants to this scope.") }),
  "A scope's grants, outgoing and incoming.",
);
export const grantResultResponseSchema = named("GrantResult", z.object({ grant: grantResponseSchema }), "The new grant.");


export const registerEvidenceResponseSchema = named("RegisterEvidenceResult", z.object({ evidence: evidenceResponseSchema, assessment: essResponseSchema.nullable() }));

/** A new belief kept apart from a live one it may restate (match: relate), linked as a possible duplicate. */
const assimilatedDuplicate = z
  .object({ beliefId: z.string(), otherBeliefId: z.string(), score: unit })
  .nullable()
  .describe(
    "With match: relate, a new belief that may restate a live one (otherBeliefId) but not surely (a score below the twin threshold, or two claims that differ by one swapped word): both kept and linked as a possible duplicate, listed for a reviewer in GET …/readings; null otherwise.",
  );

export const assimilateResponseSchema = named(
  "AssimilateResult",
  z.object({
    belief: beliefWithHistoryResponseSchema,
    created: z.boolean(),
    entries: z.array(evidenceEntryResponseSchema).describe("The entries this call appended."),
    changeSetId: z.string(),
    cascade: z.array(beliefChangeResponseSchema).describe("Other beliefs the change-set moved (visible ones only)."),
    match: z
      .enum(["id", "key", "restatement"])
      .nullable()
      .describe("How the claim found its belief: by beliefId, by the same normalised text, read as a restatement of a live belief, or null for a new belief."),
    relations: z
      .array(
        z.object({
          beliefId: z.string(),
          text: z.string(),
          relation: z.enum(["SUPPORTS", "REBUTS", "CONTEXTUALIZES"]),
          strength: unit,
          similarity: z.number(),
          reasoning: z.string(),
          assessor: z.string(),
        }),
      )
      .describe("Other live beliefs the reader related the claim to (match: relate); each received the claim's cited sources with that relation."),
    possibleDuplicate: assimilatedDuplicate,
  }),
);

const quantity = z.object({ value: z.number(), unit: z.string() });
export const harvestResponseSchema = named(
  "HarvestResult",
  z.object({
    claims: z.array(
      z.object({
        text: z.string(),
        index: z.number().int(),
        producedBy: z.object({
          name: z.string(),
          kind: z.enum(["model", "agent", "user", "import"]),
          model: z.string().optional(),
          confidence: unit.optional(),
          sourceId: z.string().optional(),
        }),
        quantity: quantity.optional(),
        tier: z.enum(["model_assertion", "sourced"]),
      }),
    ),
    assimilated: z.array(z.object({ beliefId: z.string(), created: z.boolean(), possibleDuplicate: assimilatedDuplicate })),
  }),
);

const disagreement = z.object({ beliefId: z.string(), text: z.string(), credence: unit, strength: unit, reasoning: z.string(), claim: z.string() });
export const ingestResponseSchema = named(
  "IngestResult",
  z.object({
    evidence: evidenceResponseSchema,
    discarded: z.boolean(),
    outcome: z.enum(["committed", "discarded", "dry_run"]),
    reason: z.string().optional().describe("Why the text was discarded (only when `discarded`)."),
    ess: essResponseSchema,
    claims: z.array(z.string()),
    changes: z.object({
      created: z.array(beliefChangeResponseSchema),
      revised: z.array(beliefChangeResponseSchema),
      contracted: z.array(z.object({ beliefId: z.string(), severity: z.number(), reasoning: z.string() })),
    }),
    relations: z.array(
      z.object({
        beliefId: z.string(),
        text: z.string(),
        relation: z.enum([...RELATIONS, "UNRELATED"]),
        strength: unit,
        similarity: z.number(),
        reasoning: z.string(),
        assessor: z.string(),
        claim: z.string(),
        claimIndex: z.number().int().describe("The claim's index in `claims`: with `beliefId`, what `edits` name."),
        readerRelation: z
          .enum(RELATIONS)
          .nullable()
          .describe("When a person changed the relation before the commit (`edits.overrides`): what the reader read; else null."),
      }),
    ),
    planId: z.string().describe("A fingerprint of the reading; pass it back as `edits.planId` so the commit applies exactly the plan that was edited."),
    excluded: z
      .object({
        claims: z.array(z.number().int()).describe("Claim indices left out (`edits.excludeClaims`)."),
        relations: z
          .array(z.object({ beliefId: z.string(), text: z.string(), relation: z.enum(RELATIONS), claim: z.string(), claimIndex: z.number().int() }))
          .describe("Relations the reader found that were left out, alone or with their claim: nothing written for them."),
      })
      .describe("What a person left out of this ingest; empty without `edits`."),
    undecided: z
      .array(
        z.object({
          beliefId: z.string(),
          text: z.string(),
          guess: z.enum([...RELATIONS, "UNRELATED"]),
          confidence: unit,
          similarity: z.number(),
          reasoning: z.string(),
          claim: z.string(),
        }),
      )
      .describe("Related beliefs the reader left UNDECIDED: kept as undecided links with no weight."),
    possibleDuplicates: z
      .array(z.object({ beliefId: z.string(), otherBeliefId: z.string(), score: unit, claim: z.string() }))
      .describe("New beliefs kept apart from an existing one they may duplicate."),
    disagreements: z.array(disagreement),
    changeSetId: z.string(),
  }),
);

export const retractedBeliefResponseSchema = named(
  "RetractedBelief",
  beliefResponseSchema.extend({
    before: stateSnapshot.nullable().describe("The state before the retraction (null if unknown)."),
    retractedSeqs: z.array(z.number().int()).describe("Entries of this belief that cited the source and got a `retracted` event."),
    strippedSeqs: z.array(z.number().int()).describe("Entries that cited a belief which lost its grounding and got a `stripped` event."),
  }),
  "A belief the retraction touched: its state after (with `id`), plus what changed.",
);

export const retractResponseSchema = named(
  "RetractResult",
  z.object({
    sourceId: z.string(),
    touched: z.array(retractedBeliefResponseSchema),
    dryRun: z.boolean(),
    changeSetId: z.string().nullable().describe("null for a dry run."),
  }),
);

export const reviseResponseSchema = named(
  "ReviseEntryResult",
  z.object({ belief: beliefWithHistoryResponseSchema, changeSetId: z.string(), cascade: z.array(beliefChangeResponseSchema) }),
);

const decidedRelation = z.enum(DECIDED_RELATIONS);

export const correctRelationResponseSchema = named(
  "CorrectRelationResult",
  z.object({
    belief: beliefWithHistoryResponseSchema,
    changeSetId: z.string(),
    cascade: z.array(beliefChangeResponseSchema).describe("Other beliefs that lost their grounding by it (visible ones only)."),
    correction: z
      .object({
        evidenceId: z.string(),
        beliefId: z.string(),
        from: decidedRelation.describe("The relation the evidence carried before. To undo, correct it back to this (with the same `seq` if one was given)."),
        to: decidedRelation,
        reason: z.string(),
        actor: z.string().describe("Who corrected it (a user id, or `operator`)."),
        time: z.string().describe("When (the server's clock, ISO-8601)."),
        entrySeqs: z.array(z.number().int()).describe("The evidence's entries on the belief that were corrected."),
        revisionSeqs: z.array(z.number().int()).describe("The `revised` history items that record it, one per entry."),
      })
      .describe("What was corrected: who, when, from, to and why, as the belief's history now records it."),
    before: stateSnapshot.describe("The belief just before the correction."),
    after: stateSnapshot.describe("The belief after it: credence and tension moved at once."),
  }),
  "A relation correction: the belief with its history, what changed, and the figures before and after.",
);

export const beliefListResponseSchema = named(
  "BeliefList",
  z.object({
    beliefs: z.array(
      beliefResponseSchema.extend({
        relevance: z.number().optional().describe("With `q`: how well the belief matches."),
        score: z.number().optional().describe("With `q`: relevance × credence."),
      }),
    ),
  }),
);

export const beliefDetailResponseSchema = named(
  "BeliefDetail",
  z.object({
    belief: beliefWithHistoryResponseSchema,
    timeline: z.array(z.object({ seq: z.number().int(), time: z.string(), credence: unit, confidence: unit, tension: unit, status: z.enum(BELIEF_STATUSES) })),
    mutations: z.array(mutationResponseSchema),
    supersedes: z.array(beliefResponseSchema),
    supersededBy: beliefResponseSchema.nullable(),
    asOf: z.string().nullable(),
    openReadings: openReadingsResponseSchema,
  }),
);

const decisionPreviewSchema = z
  .array(z.object({ decision: z.enum(READING_DECISIONS), credence: z.number(), tension: z.number() }))
  .describe("What each decision that fits the link would leave the belief's credence and tension at; nothing is stored.");

export const readingQueueResponseSchema = named(
  "ReadingQueue",
  z.object({
    undecided: z.array(
      z.object({
        belief: beliefResponseSchema,
        reading: undecidedReadingResponseSchema,
        evidence: evidenceResponseSchema.nullable().describe("Null when the caller cannot read it."),
        preview: decisionPreviewSchema,
      }),
    ),
    possibleDuplicates: z.array(z.object({ belief: beliefResponseSchema, link: possibleDuplicateResponseSchema, other: beliefResponseSchema.nullable(), preview: decisionPreviewSchema })),
  }),
  "The scope's open undecided readings and possible duplicates, oldest first.",
);

export const decideReadingResponseSchema = named(
  "DecideReadingResult",
  z.object({
    belief: beliefWithHistoryResponseSchema,
    changeSetId: z.string(),
    entrySeq: z.number().int().nullable().describe("The entry a relation decision appended; null for UNRELATED, DUPLICATE and DISTINCT."),
  }),
);

export const replayResponseSchema = named(
  "ReplayCheck",
  z.object({
    stored: beliefResponseSchema,
    replayed: z.object({
      scope: z.string(),
      checked: z.number().int(),
      ok: z.boolean(),
      mismatches: z.array(z.object({ beliefId: z.string(), mismatches: z.array(z.object({ field: z.string(), stored: z.unknown(), replayed: z.unknown() })) })),
    }),
    matches: z.boolean(),
  }),
);

export const recallResponseSchema = named(
  "RecallAnswer",
  z.object({
    mode: z.enum(["settled", "contested", "insufficient", "no_answer"]),
    question: z.string(),
    dominantAnswer: z.string().nullable(),
    competingInterpretation: z.string().nullable(),
    whyDominantWins: z.string().nullable(),
    reasons: z.array(z.enum(["standing_rebuttal", "recency", "real_support", "reconfirmation", "credence", "only_position", "low_credence", "low_confidence"])),
    tension: z.number(),
    confidence: z.number(),
    beliefIds: z.array(z.string()),
    dominantBeliefIds: z.array(z.string()),
    competingBeliefIds: z.array(z.string()),
    contestedBeliefIds: z.array(z.string()),
    assessor: z.string().nullable(),
  }),
);

export const mutationResultResponseSchema = named("MutationResult", z.object({ mutation: mutationResponseSchema, belief: beliefResponseSchema.nullable() }));
export const mutationListResponseSchema = named("MutationList", z.object({ mutations: z.array(mutationResponseSchema) }));
export const freezeResponseSchema = named("FreezeResult", z.object({ freeze: topicFreezeResponseSchema }));

export const synthesisListResponseSchema = named(
  "SynthesisList",
  z.object({
    syntheses: z.array(
      z.object({
        id: z.string(),
        beliefA: beliefResponseSchema,
        beliefB: beliefResponseSchema,
        text: z.string(),
        contextTags: z.array(z.string()),
        reasoning: z.string(),
        assessor: z.string(),
        template: z.boolean().describe("True when `text` joins both sides' sentences into a fixed frame (the offline reader writes no prose): rewrite it as a sentence a person would write before accepting."),
      }),
    ),
  }),
);
export const synthesisAcceptedResponseSchema = named("SynthesisAccepted", z.object({ belief: beliefWithHistoryResponseSchema }));
export const dismissedResponseSchema = named("SynthesisDismissed", z.object({ dismissed: z.literal(true) }));

export const graphResponseSchema = named(
  "GraphElements",
  z.object({
    nodes: z.array(
      z.object({
        group: z.literal("nodes"),
        data: z.object({
          id: z.string(),
          kind: z.enum(["belief", "evidence", "mutation"]),
          label: z.string(),
          scope: z.string(),
          credence: z.number().optional(),
          tension: z.number().optional(),
          confidence: z.number().optional(),
          status: z.string().optional(),
          topic: z.string().optional(),
          evidenceKind: z.string().optional(),
          retracted: z.boolean().optional(),
          decision: z.string().optional(),
          mutationStatus: z.string().optional(),
        }),
      }),
    ),
    edges: z.array(
      z.object({
        group: z.literal("edges"),
        data: z.object({ id: z.string(), source: z.string(), target: z.string(), type: z.string(), live: z.boolean(), seq: z.number().int().nullable(), weight: z.number() }),
      }),
    ),
  }),
  "Cytoscape elements; `edges[].data.type` is an edge kind.",
);

export const errorResponseSchema = named(
  "Error",
  z.object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
      requestId: z.string().optional().describe("On a 5xx: the request's id (every answer has it in the `x-request-id` header); quote it when reporting a problem."),
    }),
  }),
  "`{error: {code, message, details, requestId}}`: never a stack trace.",
);

const topicEdgeResponseSchema = z.object({
  kind: z.enum(EDGE_KINDS),
  from: z.string(),
  to: z.string(),
  beliefId: z.string().nullable(),
  seq: z.number().int().nullable(),
  live: z.boolean(),
  time: z.string(),
  changeSet: z.string(),
  fromTopic: z.string().optional(),
  toTopic: z.string().optional(),
});

export const graphOverviewResponseSchema = named(
  "GraphOverview",
  z.object({
    scope: z.string(),
    beliefs: z.number().int(),
    topics: z.array(
      z.object({ topic: z.string(), beliefs: z.number().int(), live: z.number().int(), maxTension: unit, contested: z.number().int(), updatedAt: z.string() }),
    ),
    links: z.array(z.object({ from: z.string(), to: z.string(), relations: z.number().int(), rebuttals: z.number().int() })),
    contested: z.array(beliefResponseSchema),
    recent: z.array(beliefResponseSchema),
  }),
  "The topic map of a scope: one row per topic (belief count, highest tension), the live relations between topics, and the most contested and most recently changed beliefs.",
);

export const graphExpansionResponseSchema = named(
  "GraphExpansion",
  z.object({
    beliefs: z.array(beliefResponseSchema),
    evidence: z.array(evidenceResponseSchema),
    mutations: z.array(mutationResponseSchema),
    edges: z.array(topicEdgeResponseSchema),
    next: z.string().nullable(),
  }),
  "One expansion of the graph: a topic's page of beliefs with the belief-to-belief edges touching them (`next` pages on), or a belief's neighbourhood.",
);
