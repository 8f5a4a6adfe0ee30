import { isLiveStatus, type ConflictReport, type EngineParams, type MutationDecision } from "@/lib/engine";

export interface DecisionStep {
  question: string;
  answer: "yes" | "no";
  /** The figure or the assessor's judgement behind the answer. */
  detail: string;
  /** The decision this step led to, on the step that ended the walk. */
  outcome: MutationDecision | null;
}

/**
 * The mutation protocol's decision tree (docs/design.md §4.4) walked again over a journaled conflict report, so a reviewer sees
 * which branch was taken and why: conflict (existing credence > conflictMinCredence and similarity > conflictMinSimilarity)
 * → more specific? merge → contradicted by strong evidence? supersede → different context? coexist → else review.
 * The report's own `decision` is what the protocol did; the walk only explains it. `existingStatus`: the existing
 * belief's status when the report was walked again now (a belief that has ended is no conflict partner).
 */
export function decisionPath(
  report: ConflictReport,
  params: Pick<EngineParams, "conflictMinCredence" | "conflictMinSimilarity" | "strongRebuttalStrength">,
  existingStatus?: string,
): DecisionStep[] {
  const live = existingStatus === undefined || isLiveStatus(existingStatus);
  const conflict = live && report.existingCredence > params.conflictMinCredence && report.similarity > params.conflictMinSimilarity;
  const figures = `similarity ${report.similarity.toFixed(2)} (> ${params.conflictMinSimilarity}), existing credence ${report.existingCredence.toFixed(2)} (> ${params.conflictMinCredence})`;
  const steps: DecisionStep[] = [
    {
      question: "Conflicts with a live belief?",
      answer: conflict ? "yes" : "no",
      detail: live ? figures : `the existing belief is ${existingStatus} now`,
      outcome: conflict ? null : report.decision,
    },
  ];
  if (!conflict) return steps;
  const branches: { question: string; yes: boolean; detail: string; outcome: MutationDecision }[] = [
    { question: "More specific than the existing belief?", yes: report.moreSpecific, detail: "assessed", outcome: "merge" },
    {
      question: "Existing belief contradicted by strong evidence?",
      yes: report.contradictedByStrongEvidence,
      detail: report.strongRebuttalSeqs.length
        ? `real rebuttals ≥ ${params.strongRebuttalStrength}: entries #${report.strongRebuttalSeqs.join(", #")}`
        : `no real rebuttal of assessed strength ≥ ${params.strongRebuttalStrength}`,
      outcome: "supersede",
    },
    { question: "About a different context?", yes: report.differentContext, detail: "assessed", outcome: "coexist" },
  ];
  for (const branch of branches) {
    steps.push({ question: branch.question, answer: branch.yes ? "yes" : "no", detail: branch.detail, outcome: branch.yes ? branch.outcome : null });
    if (branch.yes) return steps;
  }
  const last = steps[steps.length - 1];
  if (last) last.outcome = "review";
  return steps;
}
