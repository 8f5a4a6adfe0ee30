/**
 * A person's edits of one part's dry run, as the workbench keeps them: claims and relations left out (unticked) and
 * relation kinds changed. A relation is named by its claim's index and the related belief's id, as the service names it.
 */
export const RELATION_CHOICES = ["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED"] as const;
export type RelationChoice = (typeof RELATION_CHOICES)[number];

export interface IngestEditState {
  excludeClaims: ReadonlySet<number>;
  excludeRelations: ReadonlySet<string>;
  overrides: ReadonlyMap<string, RelationChoice>;
}

export const NO_EDITS: IngestEditState = { excludeClaims: new Set(), excludeRelations: new Set(), overrides: new Map() };

export const relationEditKey = (claimIndex: number, beliefId: string): string => `${claimIndex}:${beliefId}`;

const keyParts = (key: string): { claim: number; beliefId: string } => {
  const at = key.indexOf(":");
  return { claim: Number(key.slice(0, at)), beliefId: key.slice(at + 1) };
};

export function withClaimKept(state: IngestEditState, claimIndex: number, kept: boolean): IngestEditState {
  const excludeClaims = new Set(state.excludeClaims);
  if (kept) excludeClaims.delete(claimIndex);
  else excludeClaims.add(claimIndex);
  return { ...state, excludeClaims };
}

export function withRelationKept(state: IngestEditState, key: string, kept: boolean): IngestEditState {
  const excludeRelations = new Set(state.excludeRelations);
  if (kept) excludeRelations.delete(key);
  else excludeRelations.add(key);
  return { ...state, excludeRelations };
}

/** The relation chosen for `key`; choosing the reader's own relation again removes the change. */
export function withRelationKind(state: IngestEditState, key: string, chosen: RelationChoice, readerRelation: string): IngestEditState {
  const overrides = new Map(state.overrides);
  if (chosen === readerRelation) overrides.delete(key);
  else overrides.set(key, chosen);
  return { ...state, overrides };
}

export const editCount = (state: IngestEditState): number => state.excludeClaims.size + state.excludeRelations.size + state.overrides.size;

/**
 * The service's `edits` for this state: a relation of a left-out claim is left out with it (the service refuses edits
 * of its relations), and `planId` is sent only when the commit must read the text as the dry run did.
 */
export function editsRequest(state: IngestEditState, planId: string | null) {
  const live = (key: string) => !state.excludeClaims.has(keyParts(key).claim);
  return {
    ...(planId ? { planId } : {}),
    excludeClaims: [...state.excludeClaims].sort((a, b) => a - b),
    excludeRelations: [...state.excludeRelations].filter(live).map(keyParts),
    overrides: [...state.overrides].filter(([key]) => live(key) && !state.excludeRelations.has(key)).map(([key, relation]) => ({ ...keyParts(key), relation })),
  };
}
