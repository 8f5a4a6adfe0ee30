import type { ConflictReport, EngineParams, MutationDecision } from "@/lib/engine";

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
 * The report's own `decision` is what the protocol did; the walk only explains it.
 */
export function decisionPath(
  report: ConflictReport,
  params: Pick<EngineParams, "conflictMinCredence" | "conflictMinSimilarity" | "strongRebuttalStrength">,
): DecisionStep[] {
  const conflict = report.existingCredence > params.conflictMinCredence && report.similarity > params.conflictMinSimilarity;
  const steps: DecisionStep[] = [
    {
      question: "Conflicts with a live belief?",
      answer: conflict ? "yes" : "no",
      detail: `similarity ${report.similarity.toFixed(2)} (> ${params.conflictMinSimilarity}), existing credence ${report.existingCredence.toFixed(2)} (> ${params.conflictMinCredence})`,
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
