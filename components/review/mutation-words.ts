/** Plain words for the mutation journal's enums, wherever a person reads them (the API keeps the enum values). */

export const FLAG_TEXT: Record<string, string> = {
  drift_warning: "drift warning",
  architectural_review: "supersession flag: architectural review",
  oscillation_hard_stop: "oscillation hard stop",
};

export const MUTATION_TYPE_TEXT: Readonly<Record<string, string>> = {
  updated: "update it",
  new: "add a new belief",
  superseded: "replace it",
  merged: "merge into it",
  coexisting: "stand beside it",
  retired: "retire it",
};
export const DECISION_TEXT: Readonly<Record<string, string>> = {
  reinforce: "reinforce the existing belief",
  expand: "add a new belief",
  supersede: "replace the existing belief",
  coexist: "let both stand",
  review: "wait for a reviewer",
  reject: "reject",
  retire: "retire the belief",
  new: "add a new belief",
  merge: "merge into the existing belief",
  blocked: "block it (the topic is frozen)",
};
export const MUTATION_STATUS_TEXT: Readonly<Record<string, string>> = {
  pending_review: "waiting for review",
  approved: "approved",
  rejected: "rejected",
  blocked: "blocked",
  applied: "applied",
};

/**
 * The engine's warning about an intent the protocol overrode, in plain words; other warnings pass unchanged. It names
 * neither the proposer (a person or an agent: the caller knows which) nor the engine's gloss of the type (an "update"
 * to a different statement is not a reinforcement).
 */
export function plainWarning(warning: string): string {
  const m = warning.match(/^mutationType "(\w+)" asked for \w+; the protocol decided (\w+)\.$/);
  if (!m) return warning;
  const [, type = "", decided = ""] = m;
  return `It was proposed to ${MUTATION_TYPE_TEXT[type] ?? type}, but the protocol decided to ${DECISION_TEXT[decided] ?? decided}.`;
}

/** A journal value in plain words: the table's text, else the value with its underscores as spaces. */
export function plainWords(table: Readonly<Record<string, string>>, value: string): string {
  return table[value] ?? value.replaceAll("_", " ");
}
