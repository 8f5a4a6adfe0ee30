import type { IngestResult } from "@/lib/beliefs/belief-services";
import type { Belief, History, MutationRecord } from "@/lib/engine";

/** The API's belief shape (issue #5): the stored state, plus the history when it was loaded. */
export function presentBelief(belief: Belief, history?: History) {
  const shown = {
    id: belief.id,
    scope: belief.scope,
    topic: belief.topic,
    text: belief.text,
    key: belief.key,
    quantity: belief.quantity,
    credence: belief.credence,
    valence: belief.valence,
    confidence: belief.confidence,
    uncertainty: belief.uncertainty,
    status: belief.status,
    tension: belief.tension,
    supportWeight: belief.supportWeight,
    rebuttalWeight: belief.rebuttalWeight,
    supportCount: belief.supportCount,
    contradictCount: belief.contradictCount,
    evidenceCount: belief.evidenceCount,
    contextTags: belief.contextTags,
    reviewState: belief.reviewState,
    validFrom: belief.validFrom,
    validUntil: belief.validUntil,
    supersedesId: belief.supersedesId,
    paramsVersion: belief.paramsVersion,
    version: belief.version,
    createdAt: belief.createdAt,
    updatedAt: belief.updatedAt,
  };
  return history ? { ...shown, history } : shown;
}

export function presentMutation(mutation: MutationRecord) {
  return {
    id: mutation.id,
    decision: mutation.decision,
    status: mutation.status,
    conflictReport: mutation.conflictReport,
    warnings: mutation.warnings,
    flags: mutation.flags,
    grantedCredence: mutation.grantedCredence,
    strength: mutation.strength,
    belief: mutation.belief,
    topic: mutation.topic,
    mutationType: mutation.mutationType,
    beliefIds: mutation.beliefIds,
    review: mutation.review,
    actor: mutation.actor,
    time: mutation.time,
  };
}

/** The ingest answer of the REST API and the MCP `remember` tool (issue #5's shape). */
export function presentIngest(result: IngestResult) {
  const changed = (created: boolean) => result.changes.filter((c) => c.created === created);
  return {
    evidence: result.evidence,
    discarded: result.outcome === "discarded",
    outcome: result.outcome,
    ...(result.outcome === "discarded" ? { reason: result.ess.reasoning } : {}),
    ess: result.ess,
    claims: result.claims,
    changes: { created: changed(true), revised: changed(false), contracted: result.contractions },
    relations: result.relations,
    disagreements: result.disagreements,
    changeSetId: result.changeSetId,
  };
}
