/**
 * The Assessor port (docs/design.md §6): every judgement the engine needs from a reader of text.
 *
 * The engine defines it; adapters implement it (`lib/reading` offline, `lib/assess/openai` for any
 * OpenAI-compatible server). Every result carries a short `reasoning` that the UI shows as the audit trail, and the
 * adapter stamps `assessor` (which assessor and prompt version decided it) on every result, so an evidence entry can
 * record who decided it.
 *
 * Implementations must be side-effect free from the engine's point of view: an assessment that fails throws an
 * `AssessmentError` and the caller writes nothing.
 */

/** Which assessor (and prompt version) produced a judgement, e.g. `heuristic@<hash of rules and weights>` or `openai:gpt-4o-mini@relation-v2`. */
export type AssessorStamp = string;

export const RELATIONS = ["SUPPORTS", "REBUTS", "CONTEXTUALIZES"] as const;
export type Relation = (typeof RELATIONS)[number];
/** A committed reading: one of the relations, or "does not bear on it". */
export type DecidedRelation = Relation | "UNRELATED";
/** The committed readings, in the order the relations come first. */
export const DECIDED_RELATIONS = [...RELATIONS, "UNRELATED"] as const satisfies readonly DecidedRelation[];
/** UNDECIDED: the reader is not sure enough to commit; the evidence is kept as an undecided link with no weight. */
export type AssessedRelation = DecidedRelation | "UNDECIDED";
export const ASSESSED_RELATIONS = [...RELATIONS, "UNRELATED", "UNDECIDED"] as const satisfies readonly AssessedRelation[];

/**
 * Coarse kind of reasoning a text uses. Honest-but-weak kinds lower ESS; pressure kinds mark manipulation.
 * Matches the vocabulary of the labelled evaluation sets (`lib/assess/eval/manipulation.*.jsonl`).
 */
export const REASONING_TYPES = [
  "empirical",
  "statistical",
  "documentary",
  "logical",
  "anecdotal",
  "hearsay",
  "appeal_to_authority",
  "opinion",
  // pressure (manipulative)
  "social_pressure",
  "emotional_appeal",
  "flattery",
  "urgency",
  "threat",
  "repetition",
  "instruction_injection",
  "unknown",
] as const;
export type ReasoningType = (typeof REASONING_TYPES)[number];

interface Assessed {
  /** One or two sentences a reviewer can read. */
  reasoning: string;
  assessor: AssessorStamp;
}

/** Evidence Strength Score: how much an honest reader should move on this text (docs/design.md §4.3). */
export interface EssAssessment extends Assessed {
  /** [0,1]; weak-but-honest evidence (anecdote, hearsay, authority) is low, not manipulative. */
  ess: number;
  reasoningType: ReasoningType;
  /** Pressure rather than evidence: the whole change-set is discarded. */
  manipulative: boolean;
}

export interface RelationAssessment extends Assessed {
  relation: AssessedRelation;
  /** [0,1]: how strongly the evidence bears on the belief in that direction. 0 for UNRELATED and UNDECIDED. */
  strength: number;
  /**
   * Calibrated probability in [0,1] that the reading is right: for a committed relation, that it is that relation;
   * for UNDECIDED, that `guess` is.
   */
  confidence: number;
  /** The reader's best guess when `relation` is UNDECIDED (absent otherwise). */
  guess?: DecidedRelation;
}

/** Holistic judgement when contradiction has accumulated (docs/design.md §4.3 contraction). */
export interface ContractionAssessment extends Assessed {
  contract: boolean;
  /** Severity s ∈ (0,1] when `contract`; 0 otherwise. */
  severity: number;
}

/** Mutation conflict analysis (docs/design.md §4.4 decision tree; "contradicted by strong evidence" is a rule, not this). */
export interface ConflictAssessment extends Assessed {
  /** The proposal is a more specific statement of the existing belief (→ merge, N REFINES E). */
  moreSpecific: boolean;
  /** The two hold in different contexts (→ coexist). */
  differentContext: boolean;
  /** Context tags for each side when `differentContext`, e.g. ["production repo"], ["internal tools"]. */
  proposedContextTags: string[];
  existingContextTags: string[];
}

export interface ExtractedClaim {
  text: string;
  quantity?: { value: number; unit: string };
}

export interface RecallPhrasing extends Assessed {
  dominantAnswer: string;
  competingInterpretation: string | null;
}

export interface SynthesisProposal extends Assessed {
  /** One falsifiable sentence that reconciles both sides by scoping them. */
  text: string;
  contextTags: string[];
  /**
   * True when the sentence joins both sides' own sentences into a fixed frame (an offline reader writes no prose): a
   * person should rewrite it before accepting. Absent means written as prose.
   */
  template?: boolean;
}

export interface BeliefText {
  id: string;
  text: string;
  contextTags?: readonly string[];
}

export interface Assessor {
  /** Stamp of this assessor, e.g. `heuristic@<hash>`; results carry their own (prompt-specific) stamps. */
  readonly name: AssessorStamp;
  /** True for the offline heuristic: the UI labels its results "heuristic". */
  readonly heuristic: boolean;

  assessEvidence(text: string): Promise<EssAssessment>;
  assessRelation(evidence: string, belief: BeliefText): Promise<RelationAssessment>;
  assessContraction(
    belief: BeliefText,
    rebuttals: readonly string[],
    supports: readonly string[],
  ): Promise<ContractionAssessment>;
  analyseConflict(proposed: string, existing: BeliefText): Promise<ConflictAssessment>;
  /** Symmetric similarity in [0,1] between two statements (1 = same claim). */
  similarity(a: string, b: string): Promise<number>;
  extractClaims(text: string): Promise<ExtractedClaim[]>;
  phraseRecall(question: string, dominant: BeliefText, competing: BeliefText | null): Promise<RecallPhrasing>;
  proposeSynthesis(a: BeliefText, b: BeliefText): Promise<SynthesisProposal>;
}

/** Thrown by any assessor on timeout, refusal, malformed output or exhausted budget. Nothing is written. */
export class AssessmentError extends Error {
  constructor(
    readonly code: "timeout" | "refused" | "malformed" | "rate_limited" | "unavailable" | "budget_exhausted",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "AssessmentError";
  }
}
