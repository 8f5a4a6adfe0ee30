import Link from "next/link";
import type { EngineParams, MutationRecord } from "@/lib/engine";
import { AssessorLabel } from "@/components/beliefs/assessor-label";
import { decisionPath } from "./decision-path";
import { ReviewDecisionForm } from "./review-decision-form";

const FLAG_TEXT: Record<string, string> = {
  drift_warning: "drift warning",
  architectural_review: "supersession flag: architectural review",
  oscillation_hard_stop: "oscillation hard stop",
};

export function FlagBadge({ flag }: { flag: string }) {
  const severe = flag === "oscillation_hard_stop";
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${severe ? "bg-rose-100 text-rose-900 dark:bg-rose-900 dark:text-rose-100" : "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100"}`}>
      {FLAG_TEXT[flag] ?? flag}
    </span>
  );
}

/** Plain words for the journal's enums (the API keeps the enum values). */
export const MUTATION_TYPE_TEXT: Readonly<Record<string, string>> = {
  updated: "update it",
  new: "add a new belief",
  superseded: "replace it",
  merged: "merge into it",
  coexisting: "stand beside it",
  retired: "retire it",
};
export const DECISION_TEXT: Readonly<Record<string, string>> = {
  reinforce: "reinforce the existing belief",
  expand: "add a new belief",
  supersede: "replace the existing belief",
  coexist: "let both stand",
  review: "wait for a reviewer",
  reject: "reject",
  retire: "retire the belief",
};
export const MUTATION_STATUS_TEXT: Readonly<Record<string, string>> = {
  pending_review: "waiting for review",
  approved: "approved",
  rejected: "rejected",
  applied: "applied",
};

/** The engine's warning about an intent the protocol overrode, in plain words; other warnings pass unchanged. */
export function plainWarning(warning: string): string {
  const m = warning.match(/^mutationType "(\w+)" asked for (\w+); the protocol decided (\w+)\.$/);
  if (!m) return warning;
  const [, type = "", intended = "", decided = ""] = m;
  return `The agent asked to ${MUTATION_TYPE_TEXT[type] ?? type} (“${DECISION_TEXT[intended] ?? intended}”), but the protocol decided to ${DECISION_TEXT[decided] ?? decided}.`;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** A pending mutation beside the belief it conflicts with, the decision path, the figures, and the decision form. */
export function PendingMutationCard({ scope, mutation, params, canDecide }: { scope: string; mutation: MutationRecord; params: EngineParams; canDecide: boolean }) {
  const report = mutation.conflictReport;
  const proposedId = mutation.beliefIds.find((id) => id !== report?.existingBeliefId);
  const beliefHref = (id: string) => `/scopes/${scope}/beliefs/${encodeURIComponent(id)}`;
  return (
    <article className="space-y-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" data-testid="pending-mutation" aria-label={`Pending mutation: ${mutation.belief}`}>
      <header className="flex flex-wrap items-center gap-2 text-xs text-zinc-500">
        <span>{new Date(mutation.time).toISOString().slice(0, 16).replace("T", " ")} UTC</span>
        <span>topic <span className="font-mono">{mutation.topic}</span></span>
        <span>
          the agent asked to <b>{MUTATION_TYPE_TEXT[mutation.mutationType] ?? mutation.mutationType}</b>; the protocol says{" "}
          <b>{DECISION_TEXT[mutation.decision] ?? mutation.decision}</b>
        </span>
        {mutation.flags.map((f) => <FlagBadge key={f} flag={f} />)}
      </header>
      <div className="grid gap-4 md:grid-cols-2">
        <section className="rounded-md border-l-4 border-sky-500 bg-sky-50 p-3 dark:bg-sky-950/40" aria-label="Proposed belief">
          <h3 className="text-xs font-semibold uppercase text-sky-800 dark:text-sky-300">Proposed</h3>
          <p className="mt-1 font-medium" data-testid="proposed-text">
            {proposedId ? <Link href={beliefHref(proposedId)} className="hover:underline">{mutation.belief}</Link> : mutation.belief}
          </p>
          <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
            <Figure label="Declared strength" value={mutation.strength.toFixed(2)} />
            <Figure label="Granted credence" value={mutation.grantedCredence === null ? "—" : mutation.grantedCredence.toFixed(2)} />
          </dl>
          <p className="mt-2 text-sm"><span className="text-zinc-500">Reason: </span>{mutation.reason}</p>
          <p className="mt-1 break-all font-mono text-xs text-zinc-500">source {mutation.sourceEvent}</p>
          {report?.proposedContextTags.length ? <p className="mt-1 text-xs">context {report.proposedContextTags.join(", ")}</p> : null}
        </section>
        <section className="rounded-md border-l-4 border-amber-500 bg-amber-50 p-3 dark:bg-amber-950/40" aria-label="Existing belief">
          <h3 className="text-xs font-semibold uppercase text-amber-800 dark:text-amber-300">Existing</h3>
          {report ? (
            <>
              <p className="mt-1 font-medium" data-testid="existing-text">
                <Link href={beliefHref(report.existingBeliefId)} className="hover:underline">{report.existingText}</Link>
              </p>
              <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
                <Figure label="Credence at proposal" value={report.existingCredence.toFixed(2)} />
                <Figure label="Similarity" value={report.similarity.toFixed(2)} />
              </dl>
              {report.existingContextTags.length ? <p className="mt-1 text-xs">context {report.existingContextTags.join(", ")}</p> : null}
            </>
          ) : (
            <p className="mt-1 text-sm text-zinc-500">No conflicting belief was recorded.</p>
          )}
        </section>
      </div>
      {report ? (
        <section aria-label="Decision path">
          <h3 className="mb-1 text-sm font-semibold">Decision path</h3>
          <ol className="space-y-1 text-sm">
            {decisionPath(report, params).map((step) => (
              <li key={step.question} className="flex flex-wrap items-baseline gap-2">
                <span className={`w-8 text-xs font-semibold uppercase ${step.answer === "yes" ? "text-emerald-700 dark:text-emerald-400" : "text-zinc-500"}`}>{step.answer}</span>
                <span>{step.question}</span>
                <span className="text-xs text-zinc-500">{step.detail}</span>
                {step.outcome ? <span className="rounded bg-zinc-900 px-1.5 py-0.5 text-xs font-semibold text-white dark:bg-zinc-100 dark:text-zinc-900">→ {step.outcome}</span> : null}
              </li>
            ))}
          </ol>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            <AssessorLabel assessor={report.assessor} /> <span className="ml-1">{report.reasoning}</span>
          </p>
        </section>
      ) : null}
      {mutation.warnings.length ? (
        <ul className="list-disc pl-5 text-sm text-amber-800 dark:text-amber-300">
          {mutation.warnings.map((w) => <li key={w}>{plainWarning(w)}</li>)}
        </ul>
      ) : null}
      {canDecide ? <ReviewDecisionForm scope={scope} mutationId={mutation.id} summary={mutation.belief} /> : null}
    </article>
  );
}
