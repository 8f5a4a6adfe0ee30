/**
 * One request's readings kept across its attempts: a write that lost a race runs again on fresh rows, and reading
 * the same text against the same belief text again would give the same answer (or, from an LLM, cost another call and
 * perhaps a different one). Each reading is kept by its inputs, so a belief whose text or context tags changed since
 * is read again. A reading that failed is not kept: the next attempt asks again.
 */
import type { Assessor } from "@/lib/engine";

export function keptReadings(assessor: Assessor): Assessor {
  const kept = new Map<string, Promise<unknown>>();
  const keep = <A extends unknown[], R>(method: string, read: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const key = JSON.stringify([method, args]);
      const held = kept.get(key) as Promise<R> | undefined;
      if (held !== undefined) return held;
      const reading = read(...args);
      kept.set(key, reading);
      reading.catch(() => kept.delete(key));
      return reading;
    };
  return {
    name: assessor.name,
    heuristic: assessor.heuristic,
    assessEvidence: keep("assessEvidence", (text) => assessor.assessEvidence(text)),
    assessRelation: keep("assessRelation", (evidence, belief) => assessor.assessRelation(evidence, belief)),
    assessContraction: keep("assessContraction", (belief, rebuttals, supports) => assessor.assessContraction(belief, rebuttals, supports)),
    analyseConflict: keep("analyseConflict", (proposed, existing) => assessor.analyseConflict(proposed, existing)),
    similarity: keep("similarity", (a, b) => assessor.similarity(a, b)),
    extractClaims: keep("extractClaims", (text) => assessor.extractClaims(text)),
    phraseRecall: (question, dominant, competing) => assessor.phraseRecall(question, dominant, competing),
    proposeSynthesis: (a, b) => assessor.proposeSynthesis(a, b),
  };
}
