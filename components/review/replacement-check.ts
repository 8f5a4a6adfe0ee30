/**
 * What a reviewer should know before approving a supersede or a merge: whether the proposal is weaker than the belief it
 * replaces (or refines), by the two figures a person compares first — credence and the number of supporting entries.
 */

export interface BeliefFigures {
  text: string;
  credence: number;
  /** Supporting entries that count (the belief's `supportCount`). */
  supportCount: number;
}

export type Resolution = "supersede" | "merge";

const entries = (n: number) => `${n} supporting ${n === 1 ? "entry" : "entries"}`;

/**
 * The ways `proposal` is weaker than `existing`, each as a clause for a sentence ("its credence is 0.59 against 0.97");
 * empty when it is at least as strong on both. Credences are compared as shown (two decimals), so a warning never
 * says "0.97 against 0.97".
 */
export function weakerBy(proposal: BeliefFigures, existing: BeliefFigures): string[] {
  const out: string[] = [];
  const p = proposal.credence.toFixed(2);
  const e = existing.credence.toFixed(2);
  if (Number(p) < Number(e)) out.push(`its credence is ${p} against ${e}`);
  if (proposal.supportCount < existing.supportCount) out.push(`it rests on ${entries(proposal.supportCount)} against ${existing.supportCount}`);
  return out;
}

/** The warning sentence for the confirmation, or null when the proposal is not weaker. */
export function weakerWarning(resolution: Resolution, proposal: BeliefFigures, existing: BeliefFigures): string | null {
  const why = weakerBy(proposal, existing);
  if (why.length === 0) return null;
  const what = resolution === "supersede" ? "The replacement is weaker than the belief it replaces" : "The refinement is weaker than the belief it refines";
  return `${what}: ${why.join(", and ")}.`;
}

/** One belief's figures as the confirmation lists them: "credence 0.97, 4 supporting entries". */
export function figuresLine(b: BeliefFigures): string {
  return `credence ${b.credence.toFixed(2)}, ${entries(b.supportCount)}`;
}
