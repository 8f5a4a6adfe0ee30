import Link from "next/link";
import { isLiveStatus, type Belief, type ConflictReport, type EngineParams, type Evidence, type MutationRecord } from "@/lib/engine";
import type { MutationRecheck } from "@/lib/beliefs/belief-services";
import { StatusBadge } from "@/components/beliefs/belief-badges";
import { AssessorLabel } from "@/components/beliefs/assessor-label";
import { readableReasoning } from "@/components/beliefs/readable-reasoning";
import { decisionPath } from "./decision-path";
import { ReviewDecisionForm } from "./review-decision-form";
import { DECISION_TEXT, plainWarning } from "./mutation-words";
import { intentWords, isIntentWarning, proposerWords } from "./proposal-words";
import type { BeliefFigures } from "./replacement-check";

import { FlagBadge } from "./flag-badge";
import { Time } from "@/components/ui/time";

export { FlagBadge };

const figuresOf = (b: Belief): BeliefFigures => ({ text: b.text, credence: b.credence, supportCount: b.supportCount });

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function PathSteps({ report, params, existingStatus, testId }: { report: ConflictReport; params: EngineParams; existingStatus?: string; testId: string }) {
  return (
    <ol className="space-y-1 text-sm" data-testid={testId}>
      {decisionPath(report, params, existingStatus).map((step) => (
        <li key={step.question} className="grid grid-cols-[2rem_1fr] items-baseline gap-x-2">
          <span className={`text-xs font-semibold uppercase ${step.answer === "yes" ? "text-emerald-700 dark:text-emerald-400" : "text-zinc-600 dark:text-zinc-400"}`}>{step.answer}</span>
          <span className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5">
            <span>{step.question}</span>
            <span className="text-xs text-zinc-600 dark:text-zinc-400">{step.detail}</span>
            {step.outcome ? <span className="rounded bg-zinc-900 px-1.5 py-0.5 text-xs font-semibold text-white dark:bg-zinc-100 dark:text-zinc-900">→ {step.outcome}</span> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}

/**
 * A pending mutation beside the belief it conflicts with, the decision path, the figures, and the decision form.
 * `source`: the evidence the proposal cited, as text (null when it is not evidence the reviewer can read);
 * `existingNow`: the existing belief as it stands now (it may have been superseded or retired since the proposal); null
 * when the reviewer can no longer read it, undefined to leave it out. `proposedNow`: the proposed belief as it stands now.
 * `recheck`: the decision path walked again now (`recheckMutation`); without it the card shows the path as walked at
 * proposal and says so. `emails`: the scope's members by user id, to name the proposer.
 */
export function PendingMutationCard({
  scope,
  mutation,
  params,
  canDecide,
  source = null,
  existingNow,
  proposedNow = null,
  recheck = null,
  emails = new Map(),
}: {
  scope: string;
  mutation: MutationRecord;
  params: EngineParams;
  canDecide: boolean;
  source?: Evidence | null;
  existingNow?: Belief | null;
  proposedNow?: Belief | null;
  recheck?: MutationRecheck | null;
  emails?: ReadonlyMap<string, string>;
}) {
  const report = mutation.conflictReport;
  const proposedId = mutation.beliefIds.find((id) => id !== report?.existingBeliefId);
  const beliefHref = (id: string) => `/scopes/${scope}/beliefs/${encodeURIComponent(id)}`;
  const now = recheck?.recheck ?? null;
  const nowDecision = now?.report.decision;
  const texts = [mutation.belief, report?.existingText ?? "", source?.text ?? ""];
  return (
    <article className="space-y-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" data-testid="pending-mutation" aria-label={`Pending mutation: ${mutation.belief}`}>
      <header className="space-y-1">
        <p className="text-sm" data-testid="proposal-intent">
          <b>{capitalised(proposerWords(mutation, emails))}</b> proposed to <b>{intentWords(mutation, report?.existingText ?? null)}</b>; the protocol decided to{" "}
          <b>{DECISION_TEXT[mutation.decision] ?? mutation.decision}</b>.
        </p>
        <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
          <span>proposed <Time at={mutation.time} /></span>
          <span>topic <span className="font-mono">{mutation.topic}</span></span>
          {mutation.undone?.length ? <span data-testid="proposal-undone">{mutation.undone.length === 1 ? "an approval of it was undone" : `${mutation.undone.length} approvals of it were undone`}</span> : null}
          {mutation.flags.map((f) => <FlagBadge key={f} flag={f} />)}
        </p>
      </header>
      <div className="grid gap-4 md:grid-cols-2">
        <section className="min-w-0 rounded-md border-l-4 border-sky-500 bg-sky-50 p-3 dark:bg-sky-950/40" aria-label="Proposed belief">
          <h3 className="text-xs font-semibold uppercase text-sky-800 dark:text-sky-300">Proposed</h3>
          <p className="mt-1 break-words font-medium" data-testid="proposed-text">
            {proposedId ? <Link href={beliefHref(proposedId)} className="hover:underline">{mutation.belief}</Link> : mutation.belief}
          </p>
          <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
            <Figure label="Declared strength" value={mutation.strength.toFixed(2)} />
            <Figure label="Granted credence" value={mutation.grantedCredence === null ? "—" : mutation.grantedCredence.toFixed(2)} />
          </dl>
          {proposedNow ? (
            <p className="mt-2 text-sm tabular-nums" data-testid="proposed-now">
              <span className="text-zinc-600 dark:text-zinc-400">Now:</span> credence {proposedNow.credence.toFixed(2)}, {proposedNow.supportCount} supporting {proposedNow.supportCount === 1 ? "entry" : "entries"}
            </p>
          ) : null}
          <p className="mt-2 break-words text-sm"><span className="text-zinc-600 dark:text-zinc-400">Reason: </span>{mutation.reason}</p>
          {source ? (
            <blockquote className="mt-2 border-l-2 border-sky-300 pl-2 text-sm dark:border-sky-800" data-testid="proposed-source">
              <span className="line-clamp-4 whitespace-pre-wrap break-words">{source.text}</span>
              <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                {source.kind.replaceAll("_", " ")}
                {source.uri ? ` · ${source.uri}` : ""}
                {source.retractedAt ? " · retracted" : ""}
              </span>
            </blockquote>
          ) : (
            <p className="mt-1 break-words text-xs text-zinc-600 dark:text-zinc-400" data-testid="proposed-source">Cited source: {mutation.sourceEvent} (not evidence in this scope)</p>
          )}
          {report?.proposedContextTags.length ? <p className="mt-1 text-xs">context {report.proposedContextTags.join(", ")}</p> : null}
        </section>
        <section className="min-w-0 rounded-md border-l-4 border-amber-500 bg-amber-50 p-3 dark:bg-amber-950/40" aria-label="Existing belief">
          <h3 className="text-xs font-semibold uppercase text-amber-800 dark:text-amber-300">Existing</h3>
          {report ? (
            <>
              <p className="mt-1 break-words font-medium" data-testid="existing-text">
                <Link href={beliefHref(report.existingBeliefId)} className="hover:underline">{report.existingText}</Link>
              </p>
              <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
                <Figure label="Credence at proposal" value={report.existingCredence.toFixed(2)} />
                <Figure label="Similarity" value={report.similarity.toFixed(2)} />
              </dl>
              {existingNow === undefined ? null : existingNow ? (
                <p className="mt-2 flex flex-wrap items-center gap-2 text-sm" data-testid="existing-now">
                  <span className="text-zinc-600 dark:text-zinc-400">Now:</span>
                  <StatusBadge status={existingNow.status} />
                  <span className="tabular-nums">credence {existingNow.credence.toFixed(2)}, {existingNow.supportCount} supporting {existingNow.supportCount === 1 ? "entry" : "entries"}</span>
                  {!isLiveStatus(existingNow.status) ? (
                    <span className="text-amber-800 dark:text-amber-300">— no longer live; approving would act on a belief that has been {existingNow.status}.</span>
                  ) : null}
                </p>
              ) : (
                <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400" data-testid="existing-now">Now: no longer readable in this scope.</p>
              )}
              {report.existingContextTags.length ? <p className="mt-1 text-xs">context {report.existingContextTags.join(", ")}</p> : null}
            </>
          ) : (
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">No conflicting belief was recorded.</p>
          )}
        </section>
      </div>
      {report ? (
        <section aria-label="Decision path" className="space-y-2">
          <h3 className="text-sm font-semibold">Decision path</h3>
          {now && recheck ? (
            <>
              <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="decision-path-when">
                Walked again at <Time at={recheck.computedAt} /> against the beliefs as they stand now.
                {nowDecision !== mutation.decision ? (
                  <>
                    {" "}
                    <span className="font-semibold text-amber-800 dark:text-amber-300" data-testid="decision-path-changed">
                      At proposal it led to “{DECISION_TEXT[mutation.decision] ?? mutation.decision}”; now it leads to “{DECISION_TEXT[nowDecision ?? ""] ?? nowDecision}”.
                    </span>
                  </>
                ) : null}
              </p>
              <PathSteps report={now.report} params={params} existingStatus={now.existingStatus} testId="decision-path-now" />
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                <AssessorLabel assessor={now.report.assessor} /> <span className="ml-1">{readableReasoning(now.report.reasoning, texts)}</span>
              </p>
              <details className="text-sm">
                <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">As walked at proposal, <Time at={mutation.time} /></summary>
                <div className="mt-2 space-y-2">
                  <PathSteps report={report} params={params} testId="decision-path-then" />
                  <p className="text-zinc-600 dark:text-zinc-400"><AssessorLabel assessor={report.assessor} /> <span className="ml-1">{readableReasoning(report.reasoning, texts)}</span></p>
                </div>
              </details>
            </>
          ) : (
            <>
              <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="decision-path-when">
                As walked at proposal, <Time at={mutation.time} />.{" "}
                {recheck ? "The existing belief can no longer be read, so it was not walked again." : "It could not be walked again just now; reload the page to try again."}
              </p>
              <PathSteps report={report} params={params} testId="decision-path-then" />
              <p className="text-sm text-zinc-600 dark:text-zinc-400"><AssessorLabel assessor={report.assessor} /> <span className="ml-1">{readableReasoning(report.reasoning, texts)}</span></p>
            </>
          )}
        </section>
      ) : null}
      {mutation.warnings.filter((w) => !isIntentWarning(w)).length ? (
        <ul className="list-disc pl-5 text-sm text-amber-800 dark:text-amber-300">
          {mutation.warnings.filter((w) => !isIntentWarning(w)).map((w) => <li key={w}>{plainWarning(w)}</li>)}
        </ul>
      ) : null}
      {canDecide ? (
        <ReviewDecisionForm
          scope={scope}
          mutationId={mutation.id}
          summary={mutation.belief}
          proposal={proposedNow ? figuresOf(proposedNow) : null}
          existing={existingNow && isLiveStatus(existingNow.status) ? figuresOf(existingNow) : null}
        />
      ) : null}
    </article>
  );
}
