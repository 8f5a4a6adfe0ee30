/**
 * The signals a relation reading is read from (`relationSignals` in ../reader computes them; the rule order there turns
 * them into a label). Types only.
 */
import type { ContextCue } from "./context-cues";

export interface RelationSignals {
  /** The only conflict is a different value for the belief's quantity, stated under a leading condition. */
  scopedValue: boolean;
  /**
   * The evidence agrees with the belief in one clause and denies it in another ("holds against X but not against
   * Y"): it draws the line where the belief holds.
   */
  partial: boolean;
  /** The evidence states a quantity in the same dimension as one of the belief's (a value for the same slot). */
  sameDimension: boolean;
  coverage: number;
  /** Number of content stems in the belief. */
  beliefTerms: number;
  shared: string[];
  refersBack: boolean;
  context: ContextCue[];
  rebut: string[];
  support: string[];
  narrowing: boolean;
  /** Cosine similarity of the two texts' sentence embeddings, when an embedder is available. */
  semantic?: number;
}
