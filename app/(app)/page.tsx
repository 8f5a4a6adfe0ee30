import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { CreateScopeForm } from "@/components/scopes/create-scope-form";
import { RoleBadge } from "@/components/scopes/role-badge";
import { pendingReviewCounts, reviewedSlugs } from "./pending-review-counts";

export const metadata: Metadata = { title: "Scopes" };

export default async function ScopesPage() {
  const user = await requireUser();
  const services = await getBeliefServices();
  const scopes = await services.listMyScopes(sessionPrincipal(user.id));
  // Public scopes the user is not a member of: readable, so findable here (not only by a shared link).
  const publicScopes = (await services.listScopes(sessionPrincipal(user.id))).filter((s) => s.isPublic && s.role === null);
  const pending = await pendingReviewCounts(user.id, reviewedSlugs(scopes));
  return (
    <div className="space-y-10">
      <section>
        <h1 className="text-2xl font-semibold tracking-tight">Your scopes</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          A scope is a belief space: its claims, their evidence and the people who may read or change them.
        </p>
        {scopes.length === 0 ? (
          <div className="mt-6 rounded-lg border border-dashed border-zinc-300 p-8 text-center text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" data-testid="scopes-empty">
            You are not a member of any scope yet. Create one below, ask an owner to add you{publicScopes.length > 0 ? ", or read a public scope" : ""}.
          </div>
        ) : (
          <ul className="mt-6 divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" aria-label="Scopes">
            {scopes.map((scope) => (
              <li key={scope.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
                <Link href={`/scopes/${scope.slug}`} className="font-medium hover:underline">
                  {scope.name}
                </Link>
                <span className="min-w-0 break-all font-mono text-xs text-zinc-500">{scope.slug}</span>
                {scope.isPublic ? <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">public</span> : null}
                {pending[scope.slug] ? (
                  <Link href={`/scopes/${scope.slug}/review`} className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 hover:underline dark:bg-amber-900 dark:text-amber-100" data-testid="scope-pending">
                    {pending[scope.slug]} pending review
                  </Link>
                ) : null}
                <span className="ml-auto">
                  <RoleBadge role={scope.role} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {publicScopes.length > 0 ? (
        <section aria-labelledby="public-scopes-title">
          <h2 id="public-scopes-title" className="text-lg font-semibold">Public scopes</h2>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Anyone signed in may read these; only their members change them.</p>
          <ul className="mt-3 divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" data-testid="public-scopes">
            {publicScopes.map((scope) => (
              <li key={scope.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
                <Link href={`/scopes/${scope.slug}`} className="font-medium hover:underline">
                  {scope.name}
                </Link>
                <span className="min-w-0 break-all font-mono text-xs text-zinc-500">{scope.slug}</span>
                <span className="ml-auto text-xs text-zinc-600 dark:text-zinc-400">read only</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="rounded-lg border border-zinc-200 p-5 dark:border-zinc-800">
        <h2 className="mb-3 text-lg font-semibold">Create a scope</h2>
        <CreateScopeForm />
      </section>
    </div>
  );
}
