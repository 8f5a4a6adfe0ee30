import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/session";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { GraphExplorer } from "@/components/graph/graph-explorer";

export const metadata: Metadata = { title: "Graph" };

export default async function ScopeGraphPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const scope = await (await getBeliefServices()).getScope(sessionPrincipal(user.id), slug);
  if (!scope) notFound();
  return (
    <Suspense fallback={<div className="h-[70vh] animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-900" aria-label="Loading the graph" />}>
      <GraphExplorer scope={scope.slug} scopeId={scope.id} scopeName={scope.name} createdAt={scope.createdAt.toISOString()} now={new Date().toISOString()} />
    </Suspense>
  );
}
