import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/session";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { IngestWorkbench } from "@/components/ingest/ingest-workbench";

export const metadata: Metadata = { title: "Ingest" };

const WRITERS = new Set(["editor", "reviewer", "owner"]);

export default async function IngestPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const scope = await (await getBeliefServices()).getScope(sessionPrincipal(user.id), slug);
  if (!scope) notFound();
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/scopes/${slug}`} className="text-sm text-sky-700 hover:underline dark:text-sky-400">← {scope.name}</Link>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Ingest</h1>
        <p className="mt-1 max-w-3xl text-sm text-zinc-600 dark:text-zinc-400">
          Paste text or a model&apos;s output. A dry run shows how strong the evidence is, the claims found in it, what it would change
          and which beliefs it disagrees with — nothing is written until you commit.
        </p>
      </div>
      {scope.role !== null && WRITERS.has(scope.role) ? (
        <IngestWorkbench scope={slug} />
      ) : (
        <p className="rounded-lg border border-dashed border-zinc-300 p-6 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" data-testid="ingest-forbidden">
          Ingesting writes to this scope, so it needs the editor role (or higher). Ask an owner of this scope for it.
        </p>
      )}
    </div>
  );
}
