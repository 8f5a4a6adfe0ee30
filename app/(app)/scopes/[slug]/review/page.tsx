import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { sessionPrincipal } from "@/lib/access/principal";
import { requireUser } from "@/lib/auth/session";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { AssessorLabel } from "@/components/beliefs/assessor-label";
import { FlagBadge, PendingMutationCard } from "@/components/review/pending-mutation-card";
import { LiftFreezeForm } from "@/components/review/lift-freeze-form";
import { SynthesisActions } from "@/components/review/synthesis-actions";
import { stabilityByTopic } from "@/components/review/stability-by-topic";
import { UndoReviewButton } from "@/components/review/undo-review-button";
import { PENDING_HEADING_ID } from "@/components/review/review-anchors";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "Review queue" };

const REVIEWERS = new Set(["reviewer", "owner"]);
/** How many approved supersedes and merges the page lists with an undo. */
const RECENT_DECISIONS = 5;

function Empty({ children, testId }: { children: ReactNode; testId: string }) {
  return <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" data-testid={testId}>{children}</p>;
}

export default async function ReviewPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const scope = await (await getBeliefServices()).getScope(sessionPrincipal(user.id), slug);
  if (!scope) notFound();
  const back = <Link href={`/scopes/${slug}`} className="text-sm text-sky-700 hover:underline dark:text-sky-400">← {scope.name}</Link>;
  if (!scope.role || !REVIEWERS.has(scope.role)) {
    return (
      <div className="space-y-4">
        {back}
        <h1 className="text-2xl font-semibold tracking-tight">Review queue</h1>
        <Empty testId="review-forbidden">The review queue is for this scope&apos;s reviewers and owners.</Empty>
      </div>
    );
  }
  const services = await getBeliefServices();
  const caller = sessionPrincipal(user.id);
  const [queue, candidates, current, journal] = await Promise.all([
    services.reviewQueue(caller, slug),
    services.listSynthesisCandidates(caller, slug),
    services.getParams(caller, slug),
    services.listMutations(caller, slug, { limit: 200 }),
  ]);
  const windowStart = new Date(Date.now() - current.params.driftWindowMs).toISOString();
  const frozen = queue.frozenTopics.filter((f) => f.frozen);
  // A hard stop stays listed while its topic is frozen; once a reviewer lifts the freeze, its warning goes too.
  const frozenSet = new Set(frozen.map((f) => f.topic));
  const stability = stabilityByTopic(
    journal.filter((m) => m.time >= windowStart || (m.flags.includes("oscillation_hard_stop") && frozenSet.has(m.topic))),
    frozenSet,
  );
  // What the reviewer needs beside each card: the cited evidence as text, and the existing belief as it stands now.
  const beliefNow = (id: string) => services.getBelief(caller, slug, { beliefId: id }).then((d) => d.belief, () => null);
  const [sources, existing, proposed, rechecks] = await Promise.all([
    Promise.all(queue.pending.map((m) => services.getEvidence(caller, slug, { evidenceId: m.sourceEvent }).catch(() => null))),
    Promise.all(queue.pending.map((m) => (m.conflictReport ? beliefNow(m.conflictReport.existingBeliefId) : Promise.resolve(undefined)))),
    Promise.all(queue.pending.map((m) => (m.beliefIds[0] ? beliefNow(m.beliefIds[0]) : Promise.resolve(null)))),
    // The decision path as it holds now, not as it stood at proposal (an assessor that fails leaves the card on the old one).
    Promise.all(queue.pending.map((m) => services.recheckMutation(caller, slug, { mutationId: m.id }).catch(() => null))),
  ]);
  // Approved supersedes and merges, the latest first: what a reviewer may want to take back.
  const undoable = journal
    .filter((m) => m.status === "approved" && (m.review?.resolution === "supersede" || m.review?.resolution === "merge"))
    .sort((a, b) => (b.review?.time ?? "").localeCompare(a.review?.time ?? ""))
    .slice(0, RECENT_DECISIONS);
  const people = [...new Set([...queue.pending.map((m) => m.actor), ...undoable.flatMap((m) => (m.review ? [m.review.reviewer] : []))])];
  const names = await services.memberEmails(caller, slug, people);
  return (
    <div className="space-y-8">
      <div>
        {back}
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Review queue</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          <span data-testid="review-pending-count">{queue.pending.length}</span> pending · {queue.blocked.length} blocked · {frozen.length} frozen topic(s) · {candidates.length} synthesis candidate(s) ·{" "}
          <Link href={`/scopes/${slug}/readings`} className="underline" data-testid="review-readings-link">needs a reader</Link>
        </p>
      </div>

      <section aria-label="Pending mutations" className="space-y-3">
        <h2 id={PENDING_HEADING_ID} tabIndex={-1} className="text-lg font-semibold focus:outline-none">Pending mutations</h2>
        {queue.pending.length === 0 ? (
          <Empty testId="review-empty">Nothing waits for review. Mutations the protocol cannot resolve on its own appear here.</Empty>
        ) : (
          queue.pending.map((m, i) => <PendingMutationCard key={m.id} scope={slug} mutation={m} params={current.params} canDecide source={sources[i] ?? null} existingNow={existing[i]} proposedNow={proposed[i] ?? null} recheck={rechecks[i] ?? null} emails={names} />)
        )}
      </section>

      <section aria-label="Recently decided" className="space-y-3">
        <h2 className="text-lg font-semibold">Recently decided</h2>
        {undoable.length === 0 ? (
          <Empty testId="decided-empty">No supersede or merge to take back. Approved ones are listed here with an undo.</Empty>
        ) : (
          <ul className="space-y-2" data-testid="recent-decisions">
            {undoable.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid="recent-decision">
                <p className="min-w-0 flex-1 break-words">
                  <span className="font-semibold">{m.review?.resolution === "supersede" ? "Superseded" : "Merged"}</span>{" "}
                  {m.conflictReport ? <>“{m.conflictReport.existingText}” {m.review?.resolution === "supersede" ? "with" : "into"} </> : null}“{m.belief}”
                  <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                    {m.review ? <><Time at={m.review.time} /> · by {names.get(m.review.reviewer) ?? "a reviewer"} · “{m.review.note}”</> : null}
                  </span>
                </p>
                <UndoReviewButton scope={slug} mutationId={m.id} resolution={m.review?.resolution === "merge" ? "merge" : "supersede"} label={`“${m.belief}”`} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-label="Frozen topics" className="space-y-3">
        <h2 className="text-lg font-semibold">Frozen topics</h2>
        {frozen.length === 0 ? (
          <Empty testId="frozen-empty">No topic is frozen.</Empty>
        ) : (
          <ul className="space-y-3">
            {frozen.map((f) => (
              <li key={f.topic} className="space-y-2 rounded-lg border border-rose-200 p-4 dark:border-rose-900" data-testid="frozen-topic">
                <p className="text-sm">
                  <span className="font-mono font-semibold">{f.topic}</span> <span className="text-zinc-600 dark:text-zinc-400">— {f.reason}</span>
                </p>
                <LiftFreezeForm scope={slug} topic={f.topic} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-label="Stability" className="space-y-3">
        <h2 className="text-lg font-semibold">Stability warnings</h2>
        {stability.length === 0 ? (
          <Empty testId="stability-empty">No drift warnings or supersession flags in the monitor&apos;s window.</Empty>
        ) : (
          <ul className="space-y-2 text-sm" data-testid="stability">
            {stability.map((s) => (
              <li key={s.topic} className="flex flex-wrap items-center gap-2">
                <span className="font-mono">{s.topic}</span>
                {s.flags.map((f) => <FlagBadge key={f} flag={f} />)}
                <span className="text-xs text-zinc-500">{s.flagged} flagged mutation(s), last <Time at={s.lastFlaggedAt} /></span>
              </li>
            ))}
          </ul>
        )}
        {queue.blocked.length > 0 ? (
          <details className="text-sm">
            <summary className="cursor-pointer">Blocked mutations ({queue.blocked.length})</summary>
            <ul className="mt-2 space-y-1">
              {queue.blocked.map((m) => (
                <li key={m.id}><Time at={m.time} className="font-mono text-xs" /> · <span className="font-mono">{m.topic}</span> · {m.belief}</li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>

      <section aria-label="Synthesis candidates" className="space-y-3">
        <h2 className="text-lg font-semibold">Synthesis candidates</h2>
        {candidates.length === 0 ? (
          <Empty testId="synthesis-empty">No pair of opposed, well-supported beliefs awaits a synthesis.</Empty>
        ) : (
          candidates.map((c) => (
            <article key={c.id} className="space-y-2 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" data-testid="synthesis-candidate">
              <div className="grid gap-2 text-sm md:grid-cols-2">
                <p><span className="text-zinc-500">reconciles </span><Link className="hover:underline" href={`/scopes/${slug}/beliefs/${encodeURIComponent(c.beliefA.id)}`}>{c.beliefA.text}</Link> <span className="tabular-nums text-zinc-500">({c.beliefA.credence.toFixed(2)})</span></p>
                <p><span className="text-zinc-500">with </span><Link className="hover:underline" href={`/scopes/${slug}/beliefs/${encodeURIComponent(c.beliefB.id)}`}>{c.beliefB.text}</Link> <span className="tabular-nums text-zinc-500">({c.beliefB.credence.toFixed(2)})</span></p>
              </div>
              <p className="text-sm text-zinc-600 dark:text-zinc-400"><AssessorLabel assessor={c.assessor} /> <span className="ml-1">{c.reasoning}</span></p>
              <SynthesisActions scope={slug} beliefAId={c.beliefA.id} beliefBId={c.beliefB.id} text={c.text} template={c.template} />
            </article>
          ))
        )}
      </section>
    </div>
  );
}
