/**
 * The engine model's zod schemas, beside the model (`./model`): what a stored or imported belief, history item,
 * evidence item, mutation record, edge or topic freeze must look like. Stores parse rows with them and the scope
 * export's schema (`lib/graph/graph-store.ts`) is built from them. Each schema is `.strict()`: an unknown key is an
 * error, never silently dropped.
 */
import { z } from "zod";
import {
  BELIEF_STATUSES,
  EVIDENCE_KINDS,
  ITEM_KINDS,
  LAUNDERING_REASONS,
  MUTATION_DECISIONS,
  MUTATION_STATUSES,
  MUTATION_TYPES,
  READING_DECISIONS,
  RELATIONS,
  REVIEW_ACTIONS,
  REVIEW_DECISIONS,
  REVIEW_RESOLUTIONS,
  REVIEW_STATES,
  STABILITY_FLAGS,
  TIERS,
} from "./model";
import { DECIDED_RELATIONS, REASONING_TYPES } from "./assessor";

const iso = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "an ISO-8601 time");
const unit = z.number().finite().min(0).max(1);
const num = z.number().finite();
const tier = z.enum(TIERS);
const relationSchema = z.enum(RELATIONS);

const historyBase = { seq: z.number().int().min(1), time: iso, observedAt: iso.optional(), actor: z.string(), changeSet: z.string() };

const evidenceEntrySchema = z
  .object({
    ...historyBase,
    type: z.literal("entry"),
    sourceId: z.string().nullable(),
    sourceKind: z.enum(ITEM_KINDS).nullable(),
    relation: relationSchema,
    tier,
    weight: unit,
    ess: unit,
    verified: z.boolean(),
    effectiveTier: tier,
    launderingReason: z.enum(LAUNDERING_REASONS).nullable(),
    reasoning: z.string().nullable(),
    assessor: z.string(),
    contribution: num,
    effectiveWeight: num,
  })
  .strict();

export const undecidedEventSchema = z
  .object({
    ...historyBase,
    type: z.literal("undecided"),
    sourceId: z.string().min(1),
    sourceKind: z.enum(ITEM_KINDS).nullable(),
    guess: z.enum([...RELATIONS, "UNRELATED"]),
    confidence: unit,
    weight: unit,
    tier,
    verified: z.boolean(),
    effectiveTier: tier,
    ess: unit,
    reasoning: z.string(),
    assessor: z.string(),
  })
  .strict();

export const possibleDuplicateEventSchema = z
  .object({ ...historyBase, type: z.literal("possible_duplicate"), otherBeliefId: z.string().min(1), score: unit, reasoning: z.string(), assessor: z.string() })
  .strict();

export const historyItemSchema = z.discriminatedUnion("type", [
  evidenceEntrySchema,
  z.object({ ...historyBase, type: z.literal("retracted"), targetSeq: z.number().int().min(1), sourceId: z.string() }).strict(),
  z.object({ ...historyBase, type: z.literal("stripped"), targetSeq: z.number().int().min(1), citedBeliefId: z.string() }).strict(),
  z
    .object({
      ...historyBase,
      type: z.literal("revised"),
      targetSeq: z.number().int().min(1),
      weight: unit.optional(),
      relation: z.enum(DECIDED_RELATIONS).optional(),
      reason: z.string(),
    })
    .strict(),
  z.object({ ...historyBase, type: z.literal("contraction"), severity: num, reasoning: z.string(), assessor: z.string() }).strict(),
  z
    .object({
      ...historyBase,
      type: z.enum(["superseded", "retired", "promoted", "reinstated"]),
      byBeliefId: z.string().optional(),
      note: z.string().optional(),
    })
    .strict(),
  z
    .object({ ...historyBase, type: z.literal("review"), action: z.enum(REVIEW_ACTIONS), mutationId: z.string().nullable(), note: z.string() })
    .strict(),
  undecidedEventSchema,
  possibleDuplicateEventSchema,
  z
    .object({
      ...historyBase,
      type: z.literal("decided"),
      targetSeq: z.number().int().min(1),
      decision: z.enum(READING_DECISIONS),
      entrySeq: z.number().int().min(1).nullable(),
      reason: z.string(),
    })
    .strict(),
]);

export const beliefSchema = z
  .object({
    id: z.string().min(1),
    scope: z.string().min(1),
    topic: z.string(),
    text: z.string(),
    key: z.string(),
    quantity: z.object({ value: num, unit: z.string() }).strict().nullable(),
    contextTags: z.array(z.string()),
    validFrom: iso,
    supersedesId: z.string().nullable(),
    version: z.number().int().min(1),
    createdAt: iso,
    updatedAt: iso,
    credence: unit,
    valence: z.number().finite().min(-1).max(1),
    confidence: unit,
    uncertainty: unit,
    supportCount: z.number().int().min(0),
    contradictCount: z.number().int().min(0),
    evidenceCount: z.number().int().min(0),
    supportWeight: num,
    rebuttalWeight: num,
    tension: unit,
    status: z.enum(BELIEF_STATUSES),
    reviewState: z.enum(REVIEW_STATES),
    validUntil: iso.nullable(),
    paramsVersion: z.string(),
  })
  .strict();

/** One belief with its full history (seq order). */
export const beliefRecordSchema = z.object({ belief: beliefSchema, history: z.array(historyItemSchema) }).strict();

export const evidenceSchema = z
  .object({
    id: z.string().min(1),
    scope: z.string().min(1),
    kind: z.enum(EVIDENCE_KINDS),
    text: z.string(),
    uri: z.string().nullable(),
    registeredBy: z.string(),
    ess: unit.nullable(),
    reasoningType: z.enum(REASONING_TYPES).nullable(),
    discarded: z.boolean(),
    createdAt: iso,
    observedAt: iso.optional(),
    retractedAt: iso.nullable(),
  })
  .strict();

export const conflictReportSchema = z
  .object({
    existingBeliefId: z.string(),
    existingText: z.string(),
    existingCredence: unit,
    similarity: unit,
    moreSpecific: z.boolean(),
    differentContext: z.boolean(),
    contradictedByStrongEvidence: z.boolean(),
    strongRebuttalSeqs: z.array(z.number().int()),
    proposedContextTags: z.array(z.string()),
    existingContextTags: z.array(z.string()),
    decision: z.enum(MUTATION_DECISIONS),
    reasoning: z.string(),
    assessor: z.string(),
  })
  .strict();

const reviewRecordSchema = z
  .object({
    decision: z.enum(REVIEW_DECISIONS),
    resolution: z.enum(REVIEW_RESOLUTIONS).nullable(),
    note: z.string(),
    reviewer: z.string(),
    time: iso,
  })
  .strict();

export const mutationRecordSchema = z
  .object({
    id: z.string().min(1),
    scope: z.string().min(1),
    topic: z.string(),
    belief: z.string(),
    strength: unit,
    grantedCredence: unit.nullable(),
    reason: z.string(),
    evidenceIds: z.array(z.string()),
    sourceEvent: z.string(),
    mutationType: z.enum(MUTATION_TYPES),
    decision: z.enum(MUTATION_DECISIONS),
    status: z.enum(MUTATION_STATUSES),
    warnings: z.array(z.string()),
    flags: z.array(z.enum(STABILITY_FLAGS)),
    conflictReport: conflictReportSchema.nullable(),
    beliefIds: z.array(z.string()),
    review: reviewRecordSchema.nullable(),
    undone: z
      .array(reviewRecordSchema.extend({ undoneBy: z.string(), undoneAt: iso, undoNote: z.string(), undoChangeSet: z.string() }).strict())
      .optional(),
    actor: z.string(),
    via: z
      .discriminatedUnion("kind", [
        z.object({ kind: z.literal("session") }).strict(),
        z.object({ kind: z.literal("token"), tokenId: z.string(), tokenName: z.string() }).strict(),
        z.object({ kind: z.literal("operator") }).strict(),
      ])
      .optional(),
    time: iso,
    observedAt: iso.optional(),
    changeSet: z.string(),
  })
  .strict();

export const beliefEdgeSchema = z
  .object({
    kind: z.enum(["SUPERSEDES", "REFINES", "SYNTHESIZES", "CONCERNS"]),
    from: z.string().min(1),
    to: z.string().min(1),
    time: iso,
    changeSet: z.string(),
  })
  .strict();

export const topicFreezeSchema = z
  .object({
    scope: z.string().min(1),
    topic: z.string(),
    frozen: z.boolean(),
    reason: z.string(),
    byMutationId: z.string().nullable(),
  })
  .strict();
