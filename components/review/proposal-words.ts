/**
 * Who proposed a mutation and what they meant, in words a reviewer can check: the proposer is a person in the browser,
 * an agent through a named API token, or the operator; the intent is read from the mutation type and from how the
 * proposal differs from the belief it conflicts with (an "update" that changes a figure is not a reinforcement).
 */
import type { MutationRecord } from "@/lib/engine/model";

/** The proposer: "ana@example.com, in the browser" / "the agent token “ci-bot” (ana@example.com's)" / "the operator, from the command line". */
export function proposerWords(m: Pick<MutationRecord, "actor" | "via">, emails: ReadonlyMap<string, string>): string {
  const person = emails.get(m.actor) ?? "a former member of this scope";
  switch (m.via?.kind) {
    case "operator":
      return "the operator, from the command line";
    case "token":
      return `the agent token “${m.via.tokenName || "unnamed"}” (${person}’s)`;
    case "session":
      return `${person}, in the browser`;
    default:
      return m.actor === "operator" ? "the operator, from the command line" : person;
  }
}

const WORD = /\S+/g;

/**
 * The words that differ between two sentences, after their common start and end: "The limit is 100 requests per
 * minute." vs "… 50 requests …" → { from: "100", to: "50" }. Null when either side has nothing left or more than six
 * words differ (a rewrite, not a change of a detail). Compared without case and final punctuation.
 */
export function changedWords(from: string, to: string): { from: string; to: string } | null {
  const a = from.replace(/[.!]+$/, "").match(WORD) ?? [];
  const b = to.replace(/[.!]+$/, "").match(WORD) ?? [];
  const same = (x: string | undefined, y: string | undefined) => x !== undefined && y !== undefined && x.toLowerCase() === y.toLowerCase();
  let start = 0;
  while (start < a.length && start < b.length && same(a[start], b[start])) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && same(a[a.length - 1 - end], b[b.length - 1 - end])) end++;
  const midA = a.slice(start, a.length - end);
  const midB = b.slice(start, b.length - end);
  if (midA.length === 0 || midB.length === 0 || midA.length > 6 || midB.length > 6) return null;
  return { from: midA.join(" "), to: midB.join(" ") };
}

/**
 * What the proposer asked for, as a phrase after "proposed to": for `updated` with a belief it conflicts with, the
 * change it makes to that belief ("change “100” to “50” in the existing belief"); otherwise the type's own meaning.
 */
export function intentWords(m: Pick<MutationRecord, "mutationType" | "belief">, existingText: string | null): string {
  switch (m.mutationType) {
    case "updated": {
      if (existingText === null) return "update a belief";
      const change = changedWords(existingText, m.belief);
      return change ? `change “${change.from}” to “${change.to}” in the existing belief` : "rewrite the existing belief as a different statement";
    }
    case "superseded":
      return existingText === null ? "replace a belief" : "replace the existing belief";
    case "merged":
      return existingText === null ? "merge it into a belief" : "merge it into the existing belief as a refinement";
    case "coexisting":
      return existingText === null ? "let it stand beside a belief" : "let it stand beside the existing belief";
    case "new":
      return "add it as a new belief";
    case "retired":
      return "retire a belief";
  }
}

/** The engine's warning that the decision differs from the mutation type: the card says this in its own header. */
export function isIntentWarning(warning: string): boolean {
  return /^mutationType "\w+" asked for \w+; the protocol decided \w+\.$/.test(warning);
}
