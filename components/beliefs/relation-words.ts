/** How the belief page names a relation, and what each one does (the correction dialog's choices). */
export const RELATION_WORDS: Readonly<Record<string, string>> = {
  SUPPORTS: "supports",
  REBUTS: "rebuts",
  CONTEXTUALIZES: "scopes (context)",
  UNRELATED: "unrelated",
};

export const RELATION_HINTS: Readonly<Record<string, string>> = {
  SUPPORTS: "argues for the belief",
  REBUTS: "argues against it",
  CONTEXTUALIZES: "limits where it holds; moves nothing",
  UNRELATED: "does not bear on it; counts for nothing",
};

/** The relation in words (the raw name for anything this page does not know). */
export function relationWords(relation: string): string {
  return RELATION_WORDS[relation] ?? relation.toLowerCase();
}
