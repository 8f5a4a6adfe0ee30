/**
 * Input schemas of the belief services: every service parses its input with one of these once (the API reuses them
 * for request bodies and the OpenAPI document). Server-set fields (time, actor, verified…) are never accepted.
 */
import { z } from "zod";
import {
  DECIDED_RELATIONS,
  EVIDENCE_KINDS,
  MUTATION_STATUSES,
  READING_DECISIONS,
  RELATIONS,
  REVIEW_DECISIONS,
  REVIEW_RESOLUTIONS,
  TIERS,
  BELIEF_STATUSES,
  engineParamsInputSchema,
  producerSchema,
} from "@/lib/engine";
import { mutationRequestSchema } from "@/lib/engine/mutation";

const id = z.string().trim().min(1).max(500);
const text = z.string().trim().min(1).max(20_000);
const unit = z.number().finite().min(0).max(1);
/**
 * An ISO-8601 date or date-time (with `Z`, an offset, or none), normalised to UTC `toISOString()`. Stricter than
 * `Date.parse`, which also accepts strings such as "0" that the database then refuses.
 */
export const isoTimeSchema = z
  .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()])
  .refine((value) => !Number.isNaN(Date.parse(value)), "an ISO-8601 date or date-time")
  .transform((value) => new Date(value).toISOString());
const iso = isoTimeSchema;
/**
 * When the evidence was true or seen (event time), ISO-8601; default the time the server records it. Not more than
 * `OBSERVED_AT_MAX_SKEW_MS` in the future (checked by the services against their clock).
 */
export const observedAtSchema = iso.describe(
  "ISO-8601 time when this was true or seen (event time), e.g. for imported history; default: when it is recorded. Cooling, drift windows and asOf use it. At most 5 minutes in the future.",
);
const topic = z.string().trim().min(1).max(200);

/** Caller-registered evidence kinds (`unresolved` placeholders are made by stores only). */
export const callerEvidenceKindSchema = z.enum(EVIDENCE_KINDS.filter((k) => k !== "unresolved") as [
  "model_output",
  "observation",
  "document",
  "measurement",
  "executable_check",
  "held_out_truth",
]);

export const registerEvidenceInputSchema = z
  .object({
    kind: callerEvidenceKindSchema.default("observation"),
    text,
    uri: z.string().trim().min(1).max(2_000).optional(),
    /** Run the assessor's ESS on the text and store it (an entry citing this item then carries that ess). Default true. */
    assess: z.boolean().default(true),
    observedAt: observedAtSchema.optional(),
  })
  .strict();
export type RegisterEvidenceInput = z.input<typeof registerEvidenceInputSchema>;

/**
 * One evidence entry as a caller states it. `relation` wins over mixle's `direction` ("+" SUPPORTS, "-" REBUTS);
 * neither given → SUPPORTS. A missing `sourceId` is an anonymous model assertion.
 */
export const evidenceEntryInputSchema = z
  .object({
    sourceId: id.nullable().optional(),
    tier: z.enum(TIERS),
    relation: z.enum(RELATIONS).optional(),
    direction: z.enum(["+", "-"]).optional(),
    weight: unit.default(1),
    reasoning: z.string().max(4_000).optional(),
  })
  .strict();
export type EvidenceEntryInput = z.input<typeof evidenceEntryInputSchema>;

export const claimInputSchema = z.union([
  text,
  z.object({ text, quantity: z.object({ value: z.number().finite(), unit: z.string().max(100) }).strict().optional() }).strict(),
]);

export const assimilateInputSchema = z
  .object({
    /** The claim; found by normalised key among the scope's live beliefs, else a new belief. */
    claim: claimInputSchema.optional(),
    /** Or an existing belief of the URL's scope by id. One of `claim` / `beliefId` is required. */
    beliefId: id.optional(),
    topic: topic.optional(),
    contextTags: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
    evidence: z.array(evidenceEntryInputSchema).min(1).max(200),
    observedAt: observedAtSchema.optional(),
    /**
     * `relate` (default): a claim that surely restates a live belief reinforces it (one that only may, such as a claim
     * differing by one swapped word, becomes a new belief linked to it as a possible duplicate: `restatementPolicy`),
     * and the claim's cited sources also bear on the other beliefs the reader relates it to (a changed value rebuts the
     * old one). `exact`: the claim is written verbatim, matched only by its normalised text.
     */
    match: z.enum(["relate", "exact"]).default("relate"),
  })
  .strict()
  .refine((v) => v.claim !== undefined || v.beliefId !== undefined, { message: "claim or beliefId is required", path: ["claim"] });
export type AssimilateInput = z.input<typeof assimilateInputSchema>;

export const harvestInputSchema = z
  .object({
    text,
    producedBy: producerSchema,
    /** false (default): only split and return the claims. true: assimilate each claim (model_assertion unless sourced). */
    commit: z.boolean().default(false),
    topic: topic.optional(),
    observedAt: observedAtSchema.optional(),
  })
  .strict();
export type HarvestInput = z.input<typeof harvestInputSchema>;

const claimIndex = z.number().int().min(0).max(10_000).describe("The claim's index in the dry run's `claims`.");
/** A person's edits of an ingest's dry run, applied by the commit (the engine's `IngestEdits`). */
export const ingestEditsSchema = z
  .object({
    planId: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe("The dry run's `planId`: the commit is refused (nothing written) when the text now reads differently."),
    excludeClaims: z.array(claimIndex).max(1_000).default([]).describe("Claims to leave out: nothing is created, supported or related for them."),
    excludeRelations: z
      .array(z.object({ claim: claimIndex, beliefId: id }).strict())
      .max(1_000)
      .default([])
      .describe("Relations to leave out (claim index and belief id from the dry run's `relations`): no entry is written."),
    overrides: z
      .array(
        z
          .object({
            claim: claimIndex,
            beliefId: id,
            relation: z.enum(DECIDED_RELATIONS).describe("The relation a person reads instead of the reader's."),
            reason: z.string().trim().min(1).max(2_000).optional().describe("Why; kept in the belief's history with who changed it."),
          })
          .strict(),
      )
      .max(1_000)
      .default([])
      .describe("Relations whose kind a person changed: the reader's entry is written, followed by the person's correction of it."),
  })
  .strict();

export const ingestInputSchema = z
  .object({
    text,
    kind: callerEvidenceKindSchema.default("observation"),
    uri: z.string().trim().min(1).max(2_000).optional(),
    topic: topic.optional(),
    /** Return the staged change-set without writing anything. */
    dryRun: z.boolean().default(false),
    observedAt: observedAtSchema.optional(),
    edits: ingestEditsSchema.optional(),
  })
  .strict();
export type IngestInput = z.input<typeof ingestInputSchema>;

export const reviseEntryInputSchema = z
  .object({
    beliefId: id,
    seq: z.number().int().min(1),
    weight: unit.optional(),
    relation: z.enum(DECIDED_RELATIONS).optional(),
    reason: text,
  })
  .strict()
  .refine((v) => v.weight !== undefined || v.relation !== undefined, { message: "weight or relation is required", path: ["weight"] });
export type ReviseEntryInput = z.input<typeof reviseEntryInputSchema>;

/**
 * Correct how one evidence item bears on a belief: a `revised` event per live entry of that evidence on the belief
 * (`lib/engine/corrections.ts`). UNRELATED says it does not bear on the belief at all. To undo, correct it back to the
 * relation the answer's `correction.from` names.
 */
export const correctRelationInputSchema = z
  .object({
    evidenceId: id.describe("The evidence whose relation is corrected."),
    beliefId: id.describe("The belief it bears on."),
    relation: z.enum(DECIDED_RELATIONS).describe("What the evidence does to the belief: SUPPORTS, REBUTS, CONTEXTUALIZES (limits where it holds; moves nothing) or UNRELATED (does not bear on it)."),
    reason: text.describe("Why: kept in the belief's history beside who corrected it and when."),
    seq: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("One entry of the evidence on the belief (its seq); needed only when its entries carry different relations. Omitted: every live entry of the evidence."),
  })
  .strict();
export type CorrectRelationInput = z.input<typeof correctRelationInputSchema>;

/** Decide an undecided reading (a relation or UNRELATED) or a possible duplicate (DUPLICATE or DISTINCT). */
export const decideReadingInputSchema = z
  .object({
    beliefId: id,
    /** The seq of the undecided reading or possible duplicate in the belief's history. */
    seq: z.number().int().min(1),
    decision: z.enum(READING_DECISIONS),
    reason: text,
    /** The entry's weight when a reading becomes a relation; default the weight the reader gave its guess. */
    weight: unit.optional(),
  })
  .strict();
export type DecideReadingInput = z.input<typeof decideReadingInputSchema>;

/** Undo a decision of a reading (the `decided` event's seq): the link opens again and the entry it added stops counting. */
export const undoReadingDecisionInputSchema = z.object({ beliefId: id, seq: z.number().int().min(1), reason: text }).strict();

export const listReadingsInputSchema = z.object({ limit: z.number().int().min(1).max(1000).default(200) }).strict();

export const retractInputSchema = z
  .object({
    sourceId: id,
    dryRun: z.boolean().default(false),
  })
  .strict();
export type RetractInput = z.input<typeof retractInputSchema>;

/** docs/design.md §4.4: the engine's own request schema (missing or invalid fields are refused with `invalid`, naming each). */
export const proposeMutationInputSchema = mutationRequestSchema;
export type ProposeMutationInput = z.input<typeof proposeMutationInputSchema>;

export const reviewMutationInputSchema = z
  .object({
    mutationId: id,
    decision: z.enum(REVIEW_DECISIONS),
    /** For `approve`; default `coexist`. */
    resolution: z.enum(REVIEW_RESOLUTIONS).optional(),
    note: z.string().trim().min(1).max(4_000),
  })
  .strict();
export type ReviewMutationInput = z.input<typeof reviewMutationInputSchema>;

export const recheckMutationInputSchema = z.object({ mutationId: id }).strict();

/** Undo an approved supersede or merge: the mutation returns to the queue; the note says why (journaled). */
export const undoReviewInputSchema = z.object({ mutationId: id, note: z.string().trim().min(1).max(4_000) }).strict();
export type UndoReviewInput = z.input<typeof undoReviewInputSchema>;

export const liftFreezeInputSchema = z.object({ topic, note: z.string().trim().min(1).max(4_000) }).strict();
export type LiftFreezeInput = z.input<typeof liftFreezeInputSchema>;

export const synthesisPairInputSchema = z.object({ beliefAId: id, beliefBId: id }).strict();
export type SynthesisPairInput = z.input<typeof synthesisPairInputSchema>;
/** Accepting a synthesis: the pair, and optionally the sentence as the person rewrote it (else the assessor's). */
export const acceptSynthesisInputSchema = synthesisPairInputSchema.extend({ text: z.string().trim().min(1).max(1_000).optional() }).strict();

export const retrieveInputSchema = z
  .object({
    q: z.string().trim().min(1).max(2_000),
    k: z.number().int().min(1).max(100).default(10),
    minCredence: unit.optional(),
    includeEnded: z.boolean().default(false),
    asOf: iso.optional().describe("ISO-8601 time: rank the beliefs as they stood then (event time)."),
  })
  .strict();
export type RetrieveInput = z.input<typeof retrieveInputSchema>;

export const recallInputSchema = z
  .object({
    q: z.string().trim().min(1).max(2_000),
    k: z.number().int().min(1).max(50).default(10),
    asOf: iso.optional().describe("ISO-8601 time: answer from what was believed then (event time)."),
  })
  .strict();
export type RecallInput = z.input<typeof recallInputSchema>;

export const getBeliefInputSchema = z.object({ beliefId: id, asOf: iso.optional() }).strict();
export type GetBeliefInput = z.input<typeof getBeliefInputSchema>;

export const getEvidenceInputSchema = z.object({ evidenceId: id }).strict();
export type GetEvidenceInput = z.input<typeof getEvidenceInputSchema>;

export const getMutationInputSchema = z.object({ mutationId: id }).strict();
export type GetMutationInput = z.input<typeof getMutationInputSchema>;

export const listBeliefsInputSchema = z
  .object({
    liveOnly: z.boolean().default(true),
    topic: topic.optional(),
    status: z.enum(BELIEF_STATUSES).optional(),
    reviewState: z.enum(["none", "pending_review"]).optional(),
    afterId: id.optional(),
    limit: z.number().int().min(1).max(1_000).default(100),
  })
  .strict();
export type ListBeliefsInput = z.input<typeof listBeliefsInputSchema>;

export const listMutationsInputSchema = z
  .object({
    statuses: z.array(z.enum(MUTATION_STATUSES)).optional(),
    topic: topic.optional(),
    beliefId: id.optional(),
    newestFirst: z.boolean().default(true),
    limit: z.number().int().min(1).max(1_000).default(100),
  })
  .strict();
export type ListMutationsInput = z.input<typeof listMutationsInputSchema>;

export const replayCheckInputSchema = z.object({ beliefId: id.optional() }).strict();
export type ReplayCheckInput = z.input<typeof replayCheckInputSchema>;

export const graphInputSchema = z
  .object({
    /** A belief, evidence or mutation of the URL's scope: its neighbourhood. Absent: the whole scope. */
    nodeId: id.optional(),
    depth: z.number().int().min(1).max(5).default(1),
    maxNodes: z.number().int().min(1).max(5_000).default(500),
    asOf: iso.optional(),
  })
  .strict();
export type GraphInput = z.input<typeof graphInputSchema>;

/** The graph's topic map: how many contested and recently changed beliefs come with it. */
export const graphOverviewInputSchema = z.object({ notable: z.number().int().min(0).max(500).default(40) }).strict();
export type GraphOverviewInput = z.input<typeof graphOverviewInputSchema>;

/**
 * One expansion of the graph: a topic into a page of its beliefs (ordered by id; `afterId` pages on), or a belief into
 * its neighbourhood up to `depth` hops and `maxNodes` nodes. Exactly one of `topic` and `belief`.
 */
export const graphExpandInputSchema = z
  .object({
    topic: z.string().min(1).max(200).optional(),
    afterId: id.optional(),
    limit: z.number().int().min(1).max(500).default(200),
    belief: id.optional(),
    depth: z.number().int().min(1).max(5).default(1),
    maxNodes: z.number().int().min(1).max(2_000).default(300),
  })
  .strict()
  .refine((v) => (v.topic === undefined) !== (v.belief === undefined), { message: "Give either a topic or a belief to expand, not both and not neither.", path: ["topic"] })
  .refine((v) => v.afterId === undefined || v.topic !== undefined, { message: "afterId pages a topic's beliefs: give the topic too.", path: ["afterId"] });
export type GraphExpandInput = z.input<typeof graphExpandInputSchema>;

export const setParamsInputSchema = z.object({ params: engineParamsInputSchema, note: z.string().max(2_000).optional() }).strict();
export type SetParamsInput = z.input<typeof setParamsInputSchema>;

export const exportScopeInputSchema = z.object({ asOf: iso.optional() }).strict();
export type ExportScopeInput = z.input<typeof exportScopeInputSchema>;

/** The export document itself is parsed by `parseScopeExport` (lib/graph) inside the service. */
export const importScopeInputSchema = z.object({ data: z.unknown(), freshIds: z.boolean().optional() }).strict();
export type ImportScopeInput = z.input<typeof importScopeInputSchema>;

/** Import into a scope the import creates (the caller becomes its owner); `freshIds` as for `importScope`. */
export const importNewScopeInputSchema = z.object({ slug: z.string(), name: z.string(), data: z.unknown(), freshIds: z.boolean().optional() }).strict();
export type ImportNewScopeInput = z.input<typeof importNewScopeInputSchema>;
