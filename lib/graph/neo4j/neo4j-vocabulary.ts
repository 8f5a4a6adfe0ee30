/**
 * The Neo4j vocabulary: node labels and relationship types are the docs/design.md §2 names, literally, so a user can query the
 * graph in Neo4j Browser and recognise everything. Cypher cannot take labels or types as parameters, so every one that
 * is spliced into a query text passes through these allowlists first; anything else throws.
 */
export const NODE_LABELS = ["Belief", "Evidence", "Mutation"] as const;
export type NodeLabel = (typeof NODE_LABELS)[number];

export const ENTRY_RELATIONSHIP_TYPES = ["SUPPORTS", "REBUTS", "CONTEXTUALIZES"] as const;
export type EntryRelationshipType = (typeof ENTRY_RELATIONSHIP_TYPES)[number];

export const BELIEF_RELATIONSHIP_TYPES = ["SUPERSEDES", "REFINES", "SYNTHESIZES", "CONCERNS"] as const;
export type BeliefRelationshipType = (typeof BELIEF_RELATIONSHIP_TYPES)[number];

export const RELATIONSHIP_TYPES = [...ENTRY_RELATIONSHIP_TYPES, ...BELIEF_RELATIONSHIP_TYPES] as const;
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];

export class UnsafeIdentifierError extends Error {
  readonly code = "unsafe_cypher_identifier";
  constructor(kind: string, value: unknown) {
    super(`Refusing to splice ${kind} ${JSON.stringify(String(value)).slice(0, 80)} into Cypher: not in the allowlist`);
    this.name = "UnsafeIdentifierError";
  }
}

/** `value` itself when it is an allowed label (exact, case-sensitive), else throws. */
export function nodeLabel(value: unknown): NodeLabel {
  const found = NODE_LABELS.find((l) => l === value);
  if (found === undefined) throw new UnsafeIdentifierError("label", value);
  return found;
}

/** `value` itself when it is an allowed relationship type (exact, case-sensitive), else throws. */
export function relationshipType(value: unknown): RelationshipType {
  const found = RELATIONSHIP_TYPES.find((t) => t === value);
  if (found === undefined) throw new UnsafeIdentifierError("relationship type", value);
  return found;
}

/** An evidence-entry relationship type (`SUPPORTS` | `REBUTS` | `CONTEXTUALIZES`), else throws. */
export function entryRelationshipType(value: unknown): EntryRelationshipType {
  const found = ENTRY_RELATIONSHIP_TYPES.find((t) => t === value);
  if (found === undefined) throw new UnsafeIdentifierError("evidence relationship type", value);
  return found;
}
