import type { Metadata } from "next";
import { DECISION_TEXT, MUTATION_STATUS_TEXT, plainWords } from "@/components/review/mutation-words";
import Link from "next/link";
import { notFound } from "next/navigation";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { requireUser } from "@/lib/auth/session";
import { RoleBadge } from "@/components/scopes/role-badge";
import { RecallBox } from "@/components/beliefs/recall-box";
import { StatusBadge, TensionBar } from "@/components/beliefs/belief-badges";
import { StatusChart } from "@/components/beliefs/status-chart";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "Scope" };

function byTensionOf<B extends { tension: number; credence: number }>(beliefs: readonly B[]): B[] {
  return [...beliefs].sort((a, b) => b.tension - a.tension || b.credence - a.credence);
}

const navLink = "text-sm text-sky-700 hover:underline dark:text-sky-400";

export default async function ScopePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const scope = await (await getBeliefServices()).getScope(sessionPrincipal(user.id), slug);
  if (!scope) notFound();
  const services = await getBeliefServices();
  const caller = sessionPrincipal(user.id);
  const [overview, beliefs, recent] = await Promise.all([
    services.overview(caller, slug),
    services.listBeliefs(caller, slug, { limit: 500 }),
    services.listMutations(caller, slug, { limit: 6 }),
  ]);
  const writer = scope.role === "editor" || scope.role === "reviewer" || scope.role === "owner";
  const reviewer = scope.role === "reviewer" || scope.role === "owner";
  const mostContested = byTensionOf(beliefs).filter((b) => b.tension > 0).slice(0, 5);
  const byTension = byTensionOf(beliefs);
  const figures = [
    { label: "Live beliefs", value: overview.live },
    { label: "Disputed", value: overview.byStatus.disputed },
    { label: "Supported or canonical", value: overview.byStatus.supported + overview.byStatus.canonical },
    { label: "Pending review", value: overview.pendingReview },
    { label: "Frozen topics", value: overview.frozenTopics },
    { label: "Mean tension", value: overview.meanTension.toFixed(2) },
  ];
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="scope-title">
          {scope.name}
        </h1>
        <RoleBadge role={scope.role} />
        <Link href={`/scopes/${scope.slug}/graph`} className="ml-auto text-sm text-sky-700 hover:underline dark:text-sky-400" data-testid="scope-graph-link">
          Graph
        </Link>
        {writer ? <Link href={`/scopes/${scope.slug}/ingest`} className={navLink} data-testid="scope-ingest-link">Ingest</Link> : null}
        {writer ? <Link href={`/scopes/${scope.slug}/readings`} className={navLink} data-testid="scope-readings-link">Needs a reader</Link> : null}
        {reviewer ? (
          <Link href={`/scopes/${scope.slug}/review`} className={navLink} data-testid="scope-review-link">
            Review{overview.pendingReview > 0 ? ` (${overview.pendingReview})` : ""}
          </Link>
        ) : null}
        <Link href={`/scopes/${scope.slug}/parameters`} className={navLink} data-testid="scope-parameters-link">Parameters</Link>
        {scope.role ? (
          <Link href={`/scopes/${scope.slug}/settings`} className={navLink}>
            Settings
          </Link>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Scope health">
        {figures.map((f) => (
          <div key={f.label} className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
            <dt className="text-xs text-zinc-500">{f.label}</dt>
            <dd className="mt-1 text-xl font-semibold tabular-nums">{f.value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-4 lg:grid-cols-3">
        <section className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" aria-label="Beliefs by status">
          <h2 className="mb-3 text-sm font-semibold">Beliefs by status</h2>
          <StatusChart byStatus={overview.byStatus} />
        </section>
        <section className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" aria-label="Most contested">
          <h2 className="mb-3 text-sm font-semibold">Most contested</h2>
          {mostContested.length === 0 ? (
            <p className="text-sm text-zinc-500">No belief carries any tension.</p>
          ) : (
            <ul className="space-y-2 text-sm">
              {mostContested.map((b) => (
                <li key={b.id} className="flex items-start justify-between gap-2">
                  <Link href={`/scopes/${scope.slug}/beliefs/${encodeURIComponent(b.id)}`} className="line-clamp-2 hover:underline">{b.text}</Link>
                  <TensionBar tension={b.tension} />
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" aria-label="Recent mutations">
          <h2 className="mb-3 text-sm font-semibold">Recent mutations</h2>
          {recent.length === 0 ? (
            <p className="text-sm text-zinc-500" data-testid="recent-mutations-empty">No mutation proposed yet.</p>
          ) : (
            <ul className="space-y-2 text-sm" data-testid="recent-mutations">
              {recent.map((m) => (
                <li key={m.id}>
                  <span className="line-clamp-2">{m.belief}</span>
                  <span className="text-xs text-zinc-500">
                    <Time at={m.time} /> · {plainWords(DECISION_TEXT, m.decision)} · <span className={m.status === "pending_review" || m.status === "blocked" ? "font-semibold text-amber-700 dark:text-amber-400" : ""}>{plainWords(MUTATION_STATUS_TEXT, m.status)}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <RecallBox scope={scope.slug} />
      {byTension.length === 0 ? (
        <div className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" data-testid="beliefs-empty">
          {writer ? (
            <>
              No beliefs in this scope yet. Paste text on the <Link className="underline" href={`/scopes/${scope.slug}/ingest`}>Ingest</Link> page, or let agents write through the API (<Link className="underline" href="/api/docs">reference</Link>){scope.role === "owner" ? <> with a token from the <Link className="underline" href={`/scopes/${scope.slug}/settings`}>settings</Link></> : null}.
            </>
          ) : (
            "Nothing has been written to this scope yet. Its members' beliefs will appear here."
          )}
        </div>
      ) : (
        <section aria-label="Beliefs, most contested first" className="overflow-x-auto">
          <h2 className="mb-2 text-lg font-semibold">Beliefs, most contested first</h2>
          <table className="w-full text-sm">
            <thead className="text-left text-zinc-500">
              <tr>
                <th className="py-1 font-medium">Belief</th>
                <th className="hidden py-1 font-medium sm:table-cell">Status</th>
                <th className="hidden py-1 text-right font-medium sm:table-cell">Credence</th>
                <th className="py-1 pl-2 font-medium sm:pl-4 sm:pr-4">Tension</th>
                <th className="hidden py-1 font-medium sm:table-cell">Topic</th>
              </tr>
            </thead>
            <tbody>
              {byTension.map((b) => (
                <tr key={b.id} className="border-t border-zinc-100 align-top dark:border-zinc-800" data-testid="belief-row">
                  <td className="py-2 pr-3 wrap-break-word">
                    <Link href={`/scopes/${scope.slug}/beliefs/${encodeURIComponent(b.id)}`} className="hover:underline">
                      {b.text}
                    </Link>
                    {/* Below sm, status and credence fold under the belief so its text keeps the width and Tension stays in view. */}
                    <span className="mt-1 flex items-center gap-2 text-xs sm:hidden">
                      <StatusBadge status={b.status} />
                      <span className="tabular-nums text-zinc-600 dark:text-zinc-400">credence {b.credence.toFixed(2)}</span>
                    </span>
                  </td>
                  <td className="hidden py-2 sm:table-cell"><StatusBadge status={b.status} /></td>
                  <td className="hidden py-2 text-right tabular-nums sm:table-cell">{b.credence.toFixed(2)}</td>
                  <td className="py-2 pl-2 whitespace-nowrap sm:pl-4 sm:pr-4"><TensionBar tension={b.tension} /></td>
                  <td className="hidden py-2 font-mono text-xs break-all text-zinc-500 sm:table-cell">{b.topic}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
