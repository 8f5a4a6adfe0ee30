import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { CreateScopeForm } from "@/components/scopes/create-scope-form";
import { RoleBadge } from "@/components/scopes/role-badge";

export const metadata: Metadata = { title: "Scopes" };

export default async function ScopesPage() {
  const user = await requireUser();
  const scopes = await (await getBeliefServices()).listMyScopes(sessionPrincipal(user.id));
  return (
    <div className="space-y-10">
      <section>
        <h1 className="text-2xl font-semibold tracking-tight">Your scopes</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          A scope is a belief space: its claims, their evidence and the people who may read or change them.
        </p>
        {scopes.length === 0 ? (
          <div className="mt-6 rounded-lg border border-dashed border-zinc-300 p-8 text-center text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" data-testid="scopes-empty">
            You are not a member of any scope yet. Create one below, or ask an owner to add you.
          </div>
        ) : (
          <ul className="mt-6 divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" aria-label="Scopes">
            {scopes.map((scope) => (
              <li key={scope.id} className="flex items-center gap-3 px-4 py-3">
                <Link href={`/scopes/${scope.slug}`} className="font-medium hover:underline">
                  {scope.name}
                </Link>
                <span className="font-mono text-xs text-zinc-500">{scope.slug}</span>
                {scope.isPublic ? <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">public</span> : null}
                <span className="ml-auto">
                  <RoleBadge role={scope.role} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="rounded-lg border border-zinc-200 p-5 dark:border-zinc-800">
        <h2 className="mb-3 text-lg font-semibold">Create a scope</h2>
        <CreateScopeForm />
      </section>
    </div>
  );
}
