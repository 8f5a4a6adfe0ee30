import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db/database";
import { getScopeForViewer } from "@/lib/identity/scopes";
import { RoleBadge } from "@/components/scopes/role-badge";

export const metadata: Metadata = { title: "Scope" };

export default async function ScopePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const scope = await getScopeForViewer(await getDatabase(), user.id, slug);
  if (!scope) notFound();
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="scope-title">
          {scope.name}
        </h1>
        <RoleBadge role={scope.role} />
        <Link href={`/scopes/${scope.slug}/settings`} className="ml-auto text-sm text-sky-700 hover:underline dark:text-sky-400">
          Settings
        </Link>
      </div>
      <div className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
        No beliefs in this scope yet. Agents add them through the API with a token from the scope settings.
      </div>
    </div>
  );
}
