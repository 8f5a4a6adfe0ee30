/**
 * A belief's subject and predicate, split mechanically: evidence about the belief's subject but another
 * attribute of it ("The airline launched a loyalty card" against a belief about its baggage limit) is as close to the
 * whole belief by sentence embedding as evidence that bears on it. Comparing the evidence with the two parts separately
 * tells "same subject, other matter" from "says something about what the belief asserts". No parser: the predicate
 * starts at the first auxiliary or modal after the first word ("… are collected", "… may weigh"), else at the first
 * word that reads as an inflected verb ("… ships orders", "… reduced latency"), else at the middle. Pure.
 */

/** Auxiliaries and modals (with their negated forms) that open a predicate. */
const AUXILIARIES = new Set([
  "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "can", "could", "may", "might", "must",
  "should", "will", "would", "shall", "does", "do", "did", "cannot", "can't", "won't", "isn't", "aren't", "wasn't",
  "weren't", "doesn't", "don't", "didn't", "hasn't", "haven't", "shouldn't", "mustn't",
]);
/** A lower-case word ending like a third-person or past verb ("ships", "reduced"), not like "glass" or "bus". */
const INFLECTED = /^[a-z]+(?:[^su]s|ed)$/;

export interface BeliefParts {
  subject: string;
  predicate: string;
}

/** The subject and predicate of a belief sentence, or null when it has fewer than three words. */
export function beliefParts(text: string): BeliefParts | null {
  const words = text.trim().replace(/[.!?]+$/, "").split(/\s+/).filter((w) => w.length > 0);
  if (words.length < 3) return null;
  let at = words.findIndex((w, i) => i > 0 && AUXILIARIES.has(w.toLowerCase().replace(/[’]/g, "'")));
  if (at < 0) at = words.findIndex((w, i) => i > 1 && i < words.length - 1 && INFLECTED.test(w));
  if (at < 1) at = Math.ceil(words.length / 2);
  return { subject: words.slice(0, at).join(" "), predicate: words.slice(at).join(" ") };
}
