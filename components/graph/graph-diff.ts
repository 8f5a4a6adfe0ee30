/**
 * "What changed between two times": two graph slices of one scope (earlier, later) → the beliefs that appeared,
 * disappeared or moved (credence, tension or status), and the evidence registered or retracted in between. Pure.
 */
import type { Belief, Evidence } from "@/lib/engine";

export interface BeliefChange {
  before: Belief;
  after: Belief;
}

export interface GraphDiff {
  added: Belief[];
  removed: Belief[];
  changed: BeliefChange[];
  evidenceAdded: Evidence[];
  evidenceRetracted: Evidence[];
}

/** A move smaller than this in credence or tension is rounding, not a change worth listing. */
export const DIFF_EPSILON = 0.005;

export function diffSlices(before: { beliefs: readonly Belief[]; evidence: readonly Evidence[] }, after: { beliefs: readonly Belief[]; evidence: readonly Evidence[] }): GraphDiff {
  const was = new Map(before.beliefs.map((b) => [b.id, b]));
  const now = new Map(after.beliefs.map((b) => [b.id, b]));
  const changed: BeliefChange[] = [];
  for (const b of after.beliefs) {
    const old = was.get(b.id);
    if (!old) continue;
    if (Math.abs(old.credence - b.credence) >= DIFF_EPSILON || Math.abs(old.tension - b.tension) >= DIFF_EPSILON || old.status !== b.status) changed.push({ before: old, after: b });
  }
  const oldEvidence = new Map(before.evidence.map((e) => [e.id, e]));
  return {
    added: after.beliefs.filter((b) => !was.has(b.id)),
    removed: before.beliefs.filter((b) => !now.has(b.id)),
    changed: changed.sort((a, b) => Math.abs(b.after.credence - b.before.credence) - Math.abs(a.after.credence - a.before.credence)),
    evidenceAdded: after.evidence.filter((e) => !oldEvidence.has(e.id)),
    evidenceRetracted: after.evidence.filter((e) => e.retractedAt !== null && (oldEvidence.get(e.id)?.retractedAt ?? null) === null && oldEvidence.has(e.id)),
  };
}
