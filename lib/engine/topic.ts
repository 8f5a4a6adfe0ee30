/**
 * Belief keys and topics (docs/design.md §3).
 *
 * * `beliefKey(text)`: the normalised text that is unique among a scope's live beliefs: Unicode NFKC, lower case,
 *   curly quotes straightened, whitespace collapsed, trailing sentence punctuation and wrapping quotes removed.
 *   Words are kept as written (no stemming): "deploys" and "deployed" are different claims' keys; near-identical
 *   claims are caught by similarity (≥ 0.9), not by the key.
 * * `assignTopic`: a requested topic (slugged) wins; else a superseding, merged or refining belief inherits the topic
 *   of the belief it replaces or refines; else the topic of the most similar live belief when similarity >
 *   `topicSimilarity` (0.7); else a slug of the text's first four key terms.
 */
import type { EngineParams } from "./params";
import { NEGATIONS, words } from "./retrieval";

export function beliefKey(text: string): string {
  let key = text
    .normalize("NFKC")
    .replace(/[“”„‟]/g, '"')
    .replace(/[‘’‚‛]/g, "'")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
  // Wrapping quotes and trailing punctuation can nest in any order ('"We deploy."', '(we deploy.)".'): peel them until
  // nothing changes, so the key of a key is itself (a fixed number of passes left ".'." → "." → "").
  for (let previous = ""; previous !== key; ) {
    previous = key;
    key = key
      .replace(/^["'([]+|["')\]]+$/g, "")
      .replace(/[\s.!?;:,…]+$/u, "")
      .trim();
  }
  return key;
}

const SLUG_STOPWORDS = new Set(
  (
    "a an the and or but if then of to in on at by for with from into onto over under about as is are was were be been being do does did " +
    "have has had it its this that these those there here we you they he she i me my our your their his her them us what which who when " +
    "where why how all any each some such than too very can could should would may might must will shall just so also only always usually " +
    "often sometimes"
  ).split(" "),
);

/** A slug of the text's first `maxTerms` distinct content words, e.g. "deploys-release-branch"; "general" if none. */
export function topicSlug(text: string, maxTerms = 4): string {
  const terms: string[] = [];
  for (const w of words(text)) {
    if (SLUG_STOPWORDS.has(w) || NEGATIONS.has(w) || terms.includes(w)) continue;
    terms.push(w);
    if (terms.length >= maxTerms) break;
  }
  const slug = terms.join("-").slice(0, 80).replace(/-+$/, "");
  return slug || "general";
}

/** A caller-named topic, slugged so "Deploy Branch" and "deploy-branch" are one topic. */
export function normaliseTopic(topic: string): string {
  return words(topic).join("-").slice(0, 80).replace(/-+$/, "") || "general";
}

export interface TopicCandidate {
  id: string;
  text: string;
  topic: string;
}

export interface TopicInput {
  text: string;
  requested?: string | null;
  /** The belief this one supersedes, merges into or refines. */
  inheritFrom?: { id: string; topic: string } | null;
  /** Live beliefs of the scope to compare with (a store's candidates for the text). */
  liveBeliefs: readonly TopicCandidate[];
  /** Symmetric similarity in [0,1] (the Assessor's). */
  similarity: (a: string, b: string) => Promise<number>;
}

export type TopicSource = "requested" | "inherited" | "similar" | "slug";

export interface TopicAssignment {
  topic: string;
  source: TopicSource;
  /** For `similar` and `inherited`: the belief whose topic was taken. */
  fromBeliefId: string | null;
  similarity: number | null;
}

export async function assignTopic(input: TopicInput, params: EngineParams): Promise<TopicAssignment> {
  if (input.requested && input.requested.trim()) {
    return { topic: normaliseTopic(input.requested), source: "requested", fromBeliefId: null, similarity: null };
  }
  if (input.inheritFrom) {
    return { topic: input.inheritFrom.topic, source: "inherited", fromBeliefId: input.inheritFrom.id, similarity: null };
  }
  let best: { c: TopicCandidate; sim: number } | null = null;
  for (const c of input.liveBeliefs) {
    const sim = await input.similarity(input.text, c.text);
    // Ties go to the smaller id so the result does not depend on candidate order.
    if (!best || sim > best.sim || (sim === best.sim && c.id < best.c.id)) best = { c, sim };
  }
  if (best && best.sim > params.topicSimilarity) {
    return { topic: best.c.topic, source: "similar", fromBeliefId: best.c.id, similarity: best.sim };
  }
  return { topic: topicSlug(input.text), source: "slug", fromBeliefId: null, similarity: best?.sim ?? null };
}
