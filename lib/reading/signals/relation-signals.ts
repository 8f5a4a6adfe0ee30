/**
 * The signals a relation judgement is read from (`relationSignals` in ./heuristic-assessor computes them; the fitted
 * model in ./relation-model turns them into features). Types only: kept apart so that the model and the assessor do not
 * import each other.
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
  /**
   * One evidence clause states the belief's value and another a different value of the same kind ("Two weeks' notice is
   * for part-time staff; full-time staff give four weeks"): where the value holds, not a denial.
   */
  valueSplit: boolean;
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
  /** Cosines of the evidence to the belief's subject and to its predicate (./belief-parts), with an embedder. */
  parts?: PartCosines;
  /**
   * How the evidence's quantities sit against the belief's, beyond plain conflicts and matches (./numeric-cues):
   * inside or outside a bound the belief states, conflicts in a measured dimension, counts compared across nouns,
   * a frequency's period restated as a duration.
   */
  quantities: {
    withinBound: number;
    outsideBound: number;
    typed: number;
    looseConflicts: number;
    looseMatches: number;
    periodMatches: number;
    /** Conflicts whose evidence value sits among none of the belief's words (another slot, most likely). */
    unanchored: number;
  };
  /** Another day, part of the day, month or season in the "when" slot ("on Thursday at noon" vs "on Sunday at dusk"). */
  dayClash: boolean;
  /**
   * The evidence names a subset or a condition the belief does not (a leading frame, a narrowed subject, a subgroup,
   * a "holds for" scope): a different value under it reads as where the belief holds, not as a denial.
   */
  scoped: boolean;
}

/** Cosines of the evidence to the belief's subject and predicate (./belief-parts). */
export interface PartCosines {
  subject: number;
  predicate: number;
  /**
   * The cosine of the closest pair of single words, one only the belief uses and one only the evidence uses
   * (./word-swap): another value for the same slot in another sentence frame.
   */
  wordSwap?: number;
}
