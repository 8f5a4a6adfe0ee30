/**
 * The engine's one error type. Every refusal the engine raises is an `EngineError` with a stable `code`; all of them
 * are the caller's to fix (bad input, a state that does not allow the step). The services translate it once into
 * their own error (`lib/beliefs/to-service-error.ts`). Port failures are not engine refusals: an assessor raises
 * `AssessmentError` (`./assessor`), an embedder `EmbeddingError`.
 */

/** One invalid input field: its dotted path and what is wrong with it. */
export interface FieldError {
  field: string;
  message: string;
}

export const ENGINE_ERROR_CODES = [
  /** The input failed validation; `fields` names every problem. */
  "validation_failed",
  /** A text that must say something is empty (ingest, synthesis). */
  "empty_text",
  /** A synthesis of a belief with itself. */
  "same_belief",
  /** The belief is superseded, retired or contracted. */
  "not_live",
  /** Lifting a freeze on a topic that is not frozen. */
  "not_frozen",
  /** Reviewing a mutation that is not waiting for review. */
  "not_pending",
  /** The proposed belief does not belong to the reviewed mutation. */
  "belief_missing",
  /** Deciding a history item that is no undecided reading or possible duplicate, or with a decision that does not fit it. */
  "invalid_decision",
  /** Deciding an undecided reading or possible duplicate that was decided already. */
  "already_decided",
  /** Undoing a review decision that is not an approved supersede or merge, or whose effect has moved on since. */
  "not_undoable",
] as const;
export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    /** `validation_failed`: every invalid field; otherwise empty. */
    readonly fields: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = "EngineError";
  }
}

/** `validation_failed` naming every field, with the message listing them. */
export function validationFailed(fields: readonly FieldError[], what = "input"): EngineError {
  return new EngineError("validation_failed", `Invalid ${what}: ${fields.map((f) => `${f.field}: ${f.message}`).join("; ")}`, fields);
}

/** Where a problem with the input as a whole is reported (a zod issue with an empty path). */
export const ROOT_FIELD = "input";

/**
 * Zod issues as field errors, one per issue: the dotted path (under `prefix`), or `input` for the input as a whole.
 * The one translation every boundary uses (services, REST, server actions).
 */
export function issueFields(issues: readonly { path: readonly PropertyKey[]; message: string }[], prefix = ""): FieldError[] {
  return issues.map((issue) => ({ field: [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || ROOT_FIELD, message: issue.message }));
}
